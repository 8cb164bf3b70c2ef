#include "report/problem_json.h"

#include "report/field_reader.h"

namespace agent_run {

Json problem_to_json(const Problem& problem) {
  Json json = Json::object();
  json.set("path", problem.path)
      .set("line", problem.line)
      .set("column", problem.column)
      .set("severity", problem.severity)
      .set("message", problem.message)
      .set("code", problem.code)
      .set("other_file", problem.other_file);
  return json;
}

Problem read_problem(FieldReader& in, const Json& json, const std::string& path) {
  Problem problem;
  in.read(json, "path", path, problem.path);
  in.read(json, "line", path, problem.line);
  in.read(json, "column", path, problem.column);
  in.read(json, "severity", path, problem.severity);
  in.read(json, "message", path, problem.message);
  in.read(json, "code", path, problem.code);
  in.read(json, "other_file", path, problem.other_file);
  return problem;
}

std::optional<Problem> problem_from_json(const Json& json) {
  FieldReader in("problem", false);
  Problem problem = read_problem(in, json, "");
  if (!in.ok()) return std::nullopt;
  return problem;
}

}  // namespace agent_run
