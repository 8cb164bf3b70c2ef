# The libFuzzer targets, one per parser of outside input: test/fuzz/<name>_fuzzer.cpp, its seeds in
# test/fuzz/corpus/<name>/ (minimised regression inputs among them) and an optional <name>.dict. The
# one list the fuzz sub-build, the ctest smoke runs and ci/fuzz.sh (through the built targets) read.
set(AGENT_RUN_FUZZ_TARGETS
  shell_parser      # policy/shell_parser, command views, path patterns
  shell_parts       # policy/shell_parts (what deny rules see of a sandboxed command)
  task_yaml         # task/task_loader over base/yaml_document
  policy_yaml       # policy/policy_loader, its examples checked at load
  sse               # net/sse_parser
  anthropic_stream  # model/anthropic_stream (and its error body reader)
  openai_stream     # model/openai_stream (and its error body reader)
  json              # base/json
  json_rpc          # diagnostics/json_rpc (LSP framing)
  xml_text          # report/xml_text (the JUnit escapers)
  web_url           # net/web_url and net/web_target
  address           # net/address_check and net/address_resolver's numeric hosts
  configuration_yaml  # task/configuration_loader (agent-run.yaml)
  mcp_message       # mcp/message_lines, mcp/json_rpc_message, the tools/list and tools/call result readers
  markdown_html_text  # report/markdown_text and report/html_text (the summary's and HTML report's escapers)
)
