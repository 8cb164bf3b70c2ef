#pragma once

#include "base/expected.h"
#include "base/json.h"

#include <memory>
#include <string>
#include <vector>

namespace agent_run {

/// A compiled JSON Schema, checked by valijson (Debian's libvalijson-dev): drafts 4, 6 and 7
/// (draft-07 rules when `$schema` is absent), and draft 3 when `$schema` names it. Draft 2019-09
/// and 2020-12 schemas, and `$ref`s to other documents, are refused when compiling rather than
/// half-checked. Cheap to copy: copies share the compiled schema.
class JsonSchema {
 public:
  /// Compiles `schema`; the error says why it is not a schema this validator can check.
  static Expected<JsonSchema> compile(const Json& schema);

  /// What is wrong with `value`, one line each (`at /items/0: ...`); empty when it matches.
  std::vector<std::string> problems(const Json& value) const;

 private:
  struct Compiled;
  explicit JsonSchema(std::shared_ptr<const Compiled> compiled);

  std::shared_ptr<const Compiled> m_compiled;
};

}  // namespace agent_run
