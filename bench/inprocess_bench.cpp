// inprocess-bench: the figures ci/benchmark.sh takes inside one process, with Google Benchmark:
//   BM_agent_loop/N          a whole N-turn scripted session through the real loop, tools, policy and
//                            transcript (the `turns` counter lets the harness divide by N);
//   BM_request_*             a provider's request body for a 150k-token conversation, built and dumped;
//   BM_stream_*              a 1 MB streamed response (server-sent events) decoded into a turn;
//   BM_patch                 the patch of a repository given with --repository=PATH (in place).
// Not part of ctest's default set beyond the benchmark's smoke test.

#include "agent/agent_loop.h"
#include "agent/transcript_recorder.h"
#include "base/clock.h"
#include "model/anthropic_api.h"
#include "model/openai_api.h"
#include "model/scripted_model.h"
#include "net/sse_parser.h"
#include "policy/policy.h"
#include "tools/tool_registry.h"
#include "workspace/isolations.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace agent_run;

namespace {

namespace fs = std::filesystem;

/// A scratch folder with one small source file, removed at exit.
struct LoopWorkspace {
  fs::path root;
  LoopWorkspace() {
    char name[] = "/tmp/inprocess-bench-XXXXXX";
    root = ::mkdtemp(name);
    std::ofstream(root / "a.py") << "def f():\n    return 1\n";
  }
  ~LoopWorkspace() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

void BM_agent_loop(benchmark::State& state) {
  static LoopWorkspace workspace;
  const int turns = static_cast<int>(state.range(0));
  std::vector<ScriptedTurn> script(turns,
                                   ScriptedTurn{"", {ScriptedCall{"read_file", Json::object().set("path", "a.py")}}});
  script.push_back(ScriptedTurn{"Done.", {}});
  const ToolRegistry tools = make_tool_registry(std::nullopt);
  const Policy policy = builtin_policy();
  SystemClock clock;
  Limits limits;
  limits.turns = turns + 1;
  limits.time = std::chrono::hours(1);
  for (auto _ : state) {
    ScriptedModel model(script);
    TranscriptRecorder transcript(workspace.root / "transcript.jsonl");
    ToolScope scope;
    scope.workspace = workspace.root;
    SessionState session;
    AgentRecord record;
    AgentLoop loop(model, tools, policy, clock, {&transcript});
    loop.run("read a.py again and again", limits, scope, session, record);
    if (record.turns != turns + 1) state.SkipWithError("the session stopped early");
  }
  state.counters["turns"] = turns;
}
BENCHMARK(BM_agent_loop)->Arg(20)->Arg(100)->Arg(1000)->Arg(5000)->Unit(benchmark::kMillisecond);

/// About 150k tokens (600 KB) of conversation: 150 turns of a read_file call and its 4 KB result.
Conversation long_conversation() {
  Conversation conversation{system_prompt(), {Message{Role::user, "Fix the failing test.", {}, {}}}};
  std::string result;
  for (int line = 1; result.size() < 4000; ++line)
    result += "    " + std::to_string(line) + "\tvalue = compute(x, \"y\")\n";
  for (int turn = 0; turn < 150; ++turn) {
    const std::string id = "toolu_" + std::to_string(turn);
    Message call{Role::assistant, "Reading the next file.", {}, {}};
    call.tool_calls.push_back(
        ToolCall{id, "read_file", Json::object().set("path", "src/file_" + std::to_string(turn) + ".py")});
    conversation.messages.push_back(call);
    Message answer{Role::user, {}, {}, {}};
    answer.tool_results.push_back(ToolResult{id, result, false, {}});
    conversation.messages.push_back(answer);
  }
  return conversation;
}

template <typename Build>
void request_benchmark(benchmark::State& state, Build build) {
  const Conversation conversation = long_conversation();
  const std::vector<ToolSchema> schemas = make_tool_registry(std::nullopt).schemas();
  const RequestSettings settings{"bench-model", 8192, std::nullopt};
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string body = build(conversation, schemas, settings).dump();
    bytes = body.size();
    benchmark::DoNotOptimize(body.data());
  }
  state.counters["request_bytes"] = static_cast<double>(bytes);
}

void BM_request_anthropic(benchmark::State& state) { request_benchmark(state, anthropic_request_body); }
void BM_request_openai(benchmark::State& state) { request_benchmark(state, openai_request_body); }
BENCHMARK(BM_request_anthropic)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_request_openai)->Unit(benchmark::kMillisecond);

/// A JSON string literal of `text` (the deltas below hold only plain ASCII, so escaping is simple).
std::string quoted(const std::string& text) { return "\"" + text + "\""; }

/// About 1 MB of Anthropic events: a long text block, then a tool call whose input streams in pieces.
std::string anthropic_stream() {
  std::string out =
      "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"bench\",\"id\":\"msg_1\","
      "\"usage\":{\"input_tokens\":150000,\"output_tokens\":1}}}\n\n"
      "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
      "{\"type\":\"text\",\"text\":\"\"}}\n\n";
  while (out.size() < 700000) {
    out +=
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
        "\"text_delta\",\"text\":" +
        quoted("Some words the model says about the code, ") + "}}\n\n";
  }
  out +=
      "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
      "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":"
      "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"write_file\",\"input\":{}}}\n\n"
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":"
      "\"input_json_delta\",\"partial_json\":\"{\\\"path\\\": \\\"a.py\\\", \\\"content\\\": \\\"\"}}\n\n";
  while (out.size() < 1000000) {
    out +=
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":"
        "\"input_json_delta\",\"partial_json\":" +
        quoted("x = compute(1, 2)  # and so on ") + "}}\n\n";
  }
  out +=
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":"
      "\"input_json_delta\",\"partial_json\":\"\\\"}\"}}\n\n"
      "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n"
      "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},"
      "\"usage\":{\"output_tokens\":250000}}\n\n"
      "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
  return out;
}

/// About 1 MB of OpenAI chunks: text deltas, then a tool call's arguments in pieces.
std::string openai_stream() {
  const std::string head =
      "data: "
      "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"bench\",\"choices\":[{\"index\":0,\"delta\":";
  std::string out = head + "{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n";
  while (out.size() < 700000) {
    out += head + "{\"content\":" + quoted("Some words the model says about the code, ") +
           "},\"finish_reason\":null}]}\n\n";
  }
  out += head +
         "{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":"
         "\"write_file\",\"arguments\":\"{\\\"path\\\": \\\"a.py\\\", \\\"content\\\": "
         "\\\"\"}}]},\"finish_reason\":null}]}\n\n";
  while (out.size() < 1000000) {
    out += head +
           "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":" + quoted("x = compute(1, 2)  # and so on ") +
           "}}]},\"finish_reason\":null}]}\n\n";
  }
  out += head + "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"}\"}}]},\"finish_reason\":null}]}\n\n";
  out += head +
         "{},\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":150000,\"completion_tokens\":250000}}\n\n"
         "data: [DONE]\n\n";
  return out;
}

/// Splits the body into lines and events, and feeds the decoder, as the streaming client does.
template <typename Decoder>
void stream_benchmark(benchmark::State& state, const std::string& body) {
  for (auto _ : state) {
    Decoder decoder;
    SseParser parser;
    std::size_t start = 0;
    for (std::size_t end; (end = body.find('\n', start)) != std::string::npos; start = end + 1) {
      if (auto event = parser.feed_line(std::string_view(body).substr(start, end - start))) decoder.feed(*event);
    }
    DecodedTurn turn = decoder.finish();
    if (!std::holds_alternative<ModelTurn>(turn) || std::get<ModelTurn>(turn).message.tool_calls.size() != 1) {
      state.SkipWithError("the stream did not decode to a turn with one call");
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * body.size()));
}

void BM_stream_anthropic(benchmark::State& state) {
  stream_benchmark<AnthropicStreamDecoder>(state, anthropic_stream());
}
void BM_stream_openai(benchmark::State& state) { stream_benchmark<OpenAiStreamDecoder>(state, openai_stream()); }
BENCHMARK(BM_stream_anthropic)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_stream_openai)->Unit(benchmark::kMillisecond);

void BM_patch(benchmark::State& state, fs::path repository) {
  auto workspace = make_in_place_workspace(repository);
  if (!workspace) {
    state.SkipWithError(workspace.error().message.c_str());
    return;
  }
  std::size_t files = 0;
  for (auto _ : state) {
    auto patch = (*workspace)->diff();
    if (!patch) {
      state.SkipWithError(patch.error().message.c_str());
      return;
    }
    files = patch->files_changed;
  }
  state.counters["files_changed"] = static_cast<double>(files);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--repository=", 13) == 0) {
      benchmark::RegisterBenchmark("BM_patch", BM_patch, fs::path(argv[i] + 13))->Unit(benchmark::kMillisecond);
    } else {
      args.push_back(argv[i]);
    }
  }
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
