#include "model/scripted_turn.h"

#include <algorithm>

namespace agent_run {

std::vector<ScriptedTurn> script_for(const std::vector<ScriptedTurn>& script, const std::string& variant, int n) {
  std::vector<ScriptedTurn> played;
  for (const ScriptedTurn& turn : script) {
    bool in_repeat = turn.repeats.empty() || std::count(turn.repeats.begin(), turn.repeats.end(), n) > 0;
    bool in_variant =
        turn.variants.empty() || std::count(turn.variants.begin(), turn.variants.end(), variant) > 0;
    if (in_repeat && in_variant) played.push_back(turn);
  }
  return played;
}

}  // namespace agent_run
