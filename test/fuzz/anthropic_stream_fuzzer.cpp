// libFuzzer target for the Anthropic Messages stream decoder (see model_stream_fuzzer.h), and the
// error body reader on the same bytes.
#include "model/anthropic_api.h"
#include "model_stream_fuzzer.h"

using namespace agent_run;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::unique_ptr<ProviderApi> api =
      make_anthropic_api(ApiEndpoint{"http://127.0.0.1:9", ""}, RequestSettings{"claude-sonnet-4-5", {}, {}});
  fuzz::decode_stream(*api, fuzz::as_text(data, size));
  return 0;
}
