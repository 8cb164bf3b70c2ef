#include "policy/option_matching.h"

#include <algorithm>

namespace agent_run {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

/// The option name of a word, without its dashes and `=value`.
std::string_view name_of(std::string_view word, std::size_t dashes) {
  std::string_view name = word.substr(dashes);
  return name.substr(0, name.find('='));
}

bool is_excepted(const Rule& rule, std::string_view word) {
  const std::string_view name = word.substr(0, word.find('='));
  return std::any_of(rule.options.begin(), rule.options.end(), [&](const std::string& entry) {
    return entry.size() > 1 && entry[0] == '!' && std::string_view(entry).substr(1) == name;
  });
}

/// `--long` against one word.
bool long_matches(std::string_view entry, std::string_view word, OptionSyntax syntax) {
  if (!starts_with(word, "--")) return false;
  const std::string_view wanted = entry.substr(2);
  const std::string_view given = name_of(word, 2);
  if (given.empty()) return false;
  return syntax == OptionSyntax::go ? given == wanted : starts_with(wanted, given);
}

/// `-x` against one word.
bool short_matches(char letter, std::string_view word, OptionSyntax syntax) {
  if (word.size() < 2 || word[0] != '-') return false;
  const std::string_view name(&letter, 1);
  if (word[1] == '-') return name_of(word, 2) == name;
  if (syntax == OptionSyntax::go) return name_of(word, 1) == name;  // -x, -x=VALUE
  if (word[1] == letter) return true;                               // -x, -xVALUE, -x=VALUE
  return name_of(word, 1).find(letter) != std::string_view::npos;   // a cluster: -abx
}

/// `-name` (one dash, several letters) against one word.
bool single_dash_long_matches(std::string_view entry, std::string_view word) {
  const std::string_view wanted = entry.substr(1);
  if (starts_with(word, "--")) return name_of(word, 2) == wanted;
  return starts_with(word, "-") && name_of(word, 1) == wanted;
}

/// `--name=V` against a word and the word after it.
bool valued_matches(std::string_view entry, std::string_view word, const std::string* next) {
  const std::size_t equals = entry.find('=');
  const std::string_view name = entry.substr(0, equals);
  const std::string_view value = entry.substr(equals + 1);
  if (word == entry) return true;
  return word == name && next != nullptr && *next == value;
}

bool entry_matches(const std::string& entry, std::string_view word, const std::string* next, OptionSyntax syntax) {
  if (entry.empty() || entry[0] == '!') return false;
  if (entry[0] != '-') return starts_with(word, entry);  // NAME=
  if (entry.find('=') != std::string::npos) return valued_matches(entry, word, next);
  if (starts_with(entry, "--")) return long_matches(entry, word, syntax);
  if (entry.size() == 2) return short_matches(entry[1], word, syntax);
  return single_dash_long_matches(entry, word);
}

bool looks_like_option(std::string_view word) { return word.size() > 1 && word[0] == '-'; }

}  // namespace

bool options_match(const Rule& rule, const std::vector<std::string>& argv) {
  if (rule.options.empty()) return true;
  for (std::size_t i = rule.argv_prefix.size(); i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (rule.options_scan == OptionsScan::leading && !looks_like_option(word)) return false;
    const std::string* next = i + 1 < argv.size() ? &argv[i + 1] : nullptr;
    const bool excepted = is_excepted(rule, word);
    for (const std::string& entry : rule.options) {
      if (excepted && entry.find('=') == std::string::npos && entry[0] == '-' &&
          word.substr(0, word.find('=')) != entry) {
        continue;  // an exception keeps abbreviations and clusters from matching, not the option itself
      }
      if (entry_matches(entry, word, next, rule.option_syntax)) return true;
    }
  }
  return false;
}

std::string option_entry_problem(const std::string& entry) {
  if (entry.empty()) return "an option must not be empty";
  if (entry[0] == '!') {
    if (entry.size() < 3 || entry[1] != '-') return "an exception is written !-OPTION, as in '!--co'";
    return "";
  }
  if (entry[0] == '-') {
    if (entry == "-" || entry == "--") return "'" + entry + "' is not an option";
    return "";
  }
  if (entry.back() == '=' && entry.find('=') == entry.size() - 1) return "";
  return "'" + entry + "' is neither an option (-x, --long, -name, --name=VALUE) nor an assignment (NAME=)";
}

}  // namespace agent_run
