#define VALIJSON_USE_EXCEPTIONS 1

#include "base/json_schema.h"

#include <Poco/Dynamic/Var.h>
#include <Poco/Exception.h>
#include <Poco/JSON/Parser.h>
#include <valijson/adapters/poco_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <stdexcept>

namespace agent_run {

struct JsonSchema::Compiled {
  valijson::Schema schema;
};

namespace {

/// Our Json as Poco's, which valijson has an adapter for (the text round trip keeps every value).
Poco::Dynamic::Var to_poco(const Json& value) {
  Poco::JSON::Parser parser;
  return parser.parse(value.dump());
}

/// The draft `$schema` names, or why it cannot be checked.
Expected<valijson::SchemaParser::Version> draft_of(const Json& schema) {
  const std::string uri = schema.is_object() ? schema.get_string("$schema") : std::string();
  if (uri.empty() || uri.find("draft-07") != std::string::npos || uri.find("draft-06") != std::string::npos) {
    return valijson::SchemaParser::kDraft7;
  }
  if (uri.find("draft-04") != std::string::npos) return valijson::SchemaParser::kDraft4;
  if (uri.find("draft-03") != std::string::npos) return valijson::SchemaParser::kDraft3;
  return make_error("'$schema' names " + uri +
                    ", which this validator (valijson 1.0) cannot check; use draft-07 "
                    "(http://json-schema.org/draft-07/schema#), or leave '$schema' out");
}

std::string pointer_of(const std::vector<std::string>& context) {
  std::string path;
  for (std::size_t i = 1; i < context.size(); ++i) {  // context[0] is "<root>"
    std::string part = context[i];
    if (part.size() >= 2 && part.front() == '[' && part.back() == ']') part = part.substr(1, part.size() - 2);
    if (part.size() >= 2 && part.front() == '"' && part.back() == '"') part = part.substr(1, part.size() - 2);
    path += "/" + part;
  }
  return path.empty() ? "/" : path;
}

}  // namespace

JsonSchema::JsonSchema(std::shared_ptr<const Compiled> compiled) : m_compiled(std::move(compiled)) {}

Expected<JsonSchema> JsonSchema::compile(const Json& schema) {
  if (!schema.is_object() && !schema.is_bool()) return make_error("a JSON Schema must be an object (or true/false)");
  auto draft = draft_of(schema);
  if (!draft) return draft.error();
  auto compiled = std::make_shared<Compiled>();
  try {
    Poco::Dynamic::Var document = to_poco(schema);
    valijson::adapters::PocoJsonAdapter adapter(document);
    valijson::SchemaParser parser(*draft);
    parser.populateSchema(adapter, compiled->schema);
  } catch (const Poco::Exception& e) {
    return make_error("not a schema the validator can read: " + e.displayText());
  } catch (const std::exception& e) {
    return make_error(std::string("not a schema the validator can read: ") + e.what());
  }
  return JsonSchema(std::move(compiled));
}

std::vector<std::string> JsonSchema::problems(const Json& value) const {
  std::vector<std::string> found;
  try {
    Poco::Dynamic::Var document = to_poco(value);
    valijson::adapters::PocoJsonAdapter adapter(document);
    valijson::Validator validator;
    valijson::ValidationResults results;
    if (validator.validate(m_compiled->schema, adapter, &results)) return found;
    valijson::ValidationResults::Error error;
    while (results.popError(error)) found.push_back("at " + pointer_of(error.context) + ": " + error.description);
  } catch (const std::exception& e) {
    found.push_back(std::string("could not be checked: ") + e.what());
  }
  if (found.empty()) found.push_back("does not match the schema");
  return found;
}

}  // namespace agent_run
