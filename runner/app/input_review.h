#pragma once

#include "app/load_inputs.h"

#include <string>
#include <vector>

namespace agent_run {

/// What a run, and validate, find wrong with loaded task files beyond what each file says of itself.
struct InputReview {
  std::vector<std::string> problems;  // nothing runs when there is one
  std::vector<std::string> warnings;  // FILE[:LINE:COL]: warning: ..., for the console
};

/// Reviews every task of `inputs`: a task file's workspace repo and ref exist and a scripted task
/// file has a `script:`, a `model: replay` task's `replay:` folder holds its recordings; every task has checks (`required`: or it is an error), each model it runs
/// with (`model_override`, else its own) has a price in `settings.prices`; plus the warnings its
/// loading found.
InputReview review_inputs(const LoadedInputs& inputs, const std::vector<std::string>& model_override,
                          const InputReviewSettings& settings);

}  // namespace agent_run
