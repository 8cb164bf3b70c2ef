#pragma once

#include "base/expected.h"
#include "base/json.h"

#include <functional>
#include <optional>
#include <string>

namespace agent_run {

/// What a server asks a person for, from `elicitation/create`: a form to fill in, or a URL to open.
struct ElicitationRequest {
  std::string message;
  Json requested_schema;  // form mode: {type: object, properties: {NAME: {type, default, enum, ...}}, required: [...]}
  std::string mode = "form";  // form | url
  std::string url;            // url mode
};

/// How an elicitation was answered.
enum class ElicitationAction { accept, decline, cancel };

/// The answer to one elicitation, and who gave it.
struct ElicitationAnswer {
  ElicitationAction action = ElicitationAction::decline;
  Json content;             // accept: the form's values (an object)
  std::string answered_by;  // for the report: which rule or fallback decided
  std::string reason;       // decline or cancel: why, for the report
};

/// Answers elicitations for the client (from the task's `answers:`, for instance). Called on a
/// transport thread while a tool call waits.
using ElicitationHandler = std::function<ElicitationAnswer(const ElicitationRequest&)>;

/// One elicitation as the report shows it.
struct ElicitationRecord {
  std::string message;
  ElicitationAction action = ElicitationAction::decline;
  std::string answered_by;
  std::string reason;
};

/// The form's values when every required field has a default: each field's `default`; nullopt
/// when a required field has none (or the schema is not a form).
std::optional<Json> form_defaults(const Json& requested_schema);

/// The form filled in with one answer: it goes to the field that needs one (the only required
/// field without a default, else the only field), converted to that field's type (an enum's value
/// or title matched without regard to case; comma-separated for a list); the other fields take
/// their defaults. Fails, saying why, when no single field can take it or it does not fit.
Expected<Json> fill_form(const Json& requested_schema, const std::string& answer);

const char* to_string(ElicitationAction action);

}  // namespace agent_run
