#pragma once

#include "base/expected.h"

#include <string>

namespace agent_run {

/// The model a task names with `model: replay`: its attempts play back a recorded run (`replay: DIR`).
inline constexpr const char* k_replay_model = "replay";

/// True for `replay`.
bool is_replayed_model(const std::string& model);

/// An error when `model` names no model this build can run: `script`, `replay`, or `anthropic/NAME`
/// or `openai/NAME`; the error has a "did you mean" for a misspelt provider and for a bare name the
/// built-in price table knows (`gpt-4o` -> `openai/gpt-4o`).
Expected<void> check_model_name(const std::string& model);

}  // namespace agent_run
