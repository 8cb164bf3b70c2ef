#pragma once

#include "base/json.h"
#include "report/edit_diagnostics.h"

#include <optional>
#include <string>

namespace agent_run {

class FieldReader;

/// One problem as JSON, the one shape the report and the project gate's baseline cache both write.
Json problem_to_json(const Problem& problem);

/// Reads one problem in that shape into `in`'s document at `path`: absent or null members keep their
/// defaults, a member of another type is `in`'s problem (`attempts[0].edits[1].diagnostics.problems[2].line:
/// expected a whole number`).
Problem read_problem(FieldReader& in, const Json& json, const std::string& path);

/// The same for a reader that only asks whether it reads: nullopt when it does not.
std::optional<Problem> problem_from_json(const Json& json);

}  // namespace agent_run
