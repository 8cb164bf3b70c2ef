// libFuzzer target for the OpenAI Chat Completions stream decoder (see model_stream_fuzzer.h), and
// the error body reader on the same bytes.
#include "model/openai_api.h"
#include "model_stream_fuzzer.h"

using namespace agent_run;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::unique_ptr<ProviderApi> api =
      make_openai_api(ApiEndpoint{"http://127.0.0.1:9/v1", ""}, RequestSettings{"gpt-4o", {}, {}});
  fuzz::decode_stream(*api, fuzz::as_text(data, size));
  return 0;
}
