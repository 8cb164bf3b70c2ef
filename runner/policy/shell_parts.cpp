#include "policy/shell_parts.h"

#include "policy/parts_lexicon.h"
#include "policy/parts_parser.h"

#include <algorithm>
#include <optional>

namespace agent_run {

namespace {

using parts::Body;
using parts::k_max_depth;
using parts::names_a_shell;
using parts::PartsParser;
using parts::Shared;

/// True when the body's reader, or a later command of its pipeline, names a shell.
bool read_by_a_shell(const Shared& shared, std::size_t index) {
  const std::vector<SimpleCommand>& commands = shared.out.commands;
  for (std::size_t k = 0; k < commands.size(); ++k) {
    if (k != index && shared.pipeline_of[k] != shared.pipeline_of[index]) continue;
    if (std::any_of(commands[k].argv.begin(), commands[k].argv.end(), names_a_shell)) return true;
  }
  return false;
}

void read_bodies(Shared& shared) {
  for (std::size_t b = 0; b < shared.bodies.size() && !shared.stopped; ++b) {
    const Body body = shared.bodies[b];  // parsing may add bodies
    std::optional<std::size_t> owner = shared.index_of[body.owner];
    if (body.expands) PartsParser(body.text, shared).parse_substitutions();
    if (owner && read_by_a_shell(shared, *owner)) {
      if (++shared.depth > k_max_depth) {
        shared.out.complete = false;
        return;
      }
      PartsParser(body.text, shared).parse_script();
      --shared.depth;
    }
  }
}

}  // namespace

ShellParts shell_parts(std::string_view text) {
  ShellParts parts;
  Shared shared{parts, {}, {}, {}, 0, 0, false, ""};
  PartsParser(text, shared).parse_script();
  read_bodies(shared);
  return parts;
}

}  // namespace agent_run
