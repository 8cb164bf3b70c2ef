// libFuzzer target for the policy loader: whatever the bytes, load_policy must not crash (its rules'
// examples are checked at load, so decide() runs on what the file holds), and a policy it refuses
// gets problems that each name the file (`FILE:LINE:COL: ...`).
#include "fuzz_support.h"
#include "policy/policy_loader.h"

using namespace agent_run;
using agent_run::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto policy = load_policy(fuzz::as_text(data, size), "/fuzz/policy.yaml");
  if (!policy) {
    require(!policy.error().message.empty());
    require(fuzz::every_line_starts_with(policy.error().message, "/fuzz/policy.yaml:"));
  }
  return 0;
}
