// libFuzzer target for base/json: whatever the bytes, parse_json must not crash; what it accepts
// must dump to JSON that parses back to the same value, compact and pretty alike (a whole double is
// written as an integer by design, so numbers compare by value), and writing it again gives the same
// text; dumping a string holding the raw bytes must give JSON that parses back (invalid UTF-8 repaired).
#include "base/json.h"
#include "fuzz_support.h"

using namespace agent_run;
using agent_run::fuzz::require;

namespace {

bool same_value(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) {
    return a.is_integer() && b.is_integer() ? a.as_int() == b.as_int() : a.as_double() == b.as_double();
  }
  if (a.is_array() && b.is_array()) {
    if (a.as_array().size() != b.as_array().size()) return false;
    for (std::size_t i = 0; i < a.as_array().size(); ++i) {
      if (!same_value(a.as_array()[i], b.as_array()[i])) return false;
    }
    return true;
  }
  if (a.is_object() && b.is_object()) {
    if (a.as_object().size() != b.as_object().size()) return false;
    for (std::size_t i = 0; i < a.as_object().size(); ++i) {
      if (a.as_object()[i].first != b.as_object()[i].first) return false;
      if (!same_value(a.as_object()[i].second, b.as_object()[i].second)) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  if (auto parsed = parse_json(text)) {
    const std::string text_once = parsed->dump();
    auto compact = parse_json(text_once);
    require(compact.has_value() && same_value(*compact, *parsed) && compact->dump() == text_once);
    auto pretty = parse_json(parsed->dump_pretty());
    require(pretty.has_value() && same_value(*pretty, *parsed));
  } else {
    require(!parsed.error().message.empty());
  }
  auto as_string = parse_json(Json(text).dump());
  require(as_string.has_value() && as_string->is_string());
  return 0;
}
