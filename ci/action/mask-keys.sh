#!/usr/bin/env bash
# The action's first step: registers each API key input with GitHub's log masker (`::add-mask::`)
# before any other step prints, so that a key that did not come from `secrets.` is shown as ***
# wherever it would appear later. Prints nothing else, and never the keys themselves.
set -euo pipefail
# One key: each of its lines masked (the runner masks line by line), `%` escaped as the runner
# unescapes a command's data. Only builtins and expansions: the key is in no argv and no file.
mask() {
  local rest=$1 line
  while [ -n "$rest" ]; do
    line=${rest%%$'\n'*}
    if [[ $rest == *$'\n'* ]]; then rest=${rest#*$'\n'}; else rest=; fi
    line=${line%$'\r'}
    [ -n "$line" ] || continue
    printf '::add-mask::%s\n' "${line//%/%25}"
  done
}
for name in AGENT_RUN_ANTHROPIC_API_KEY AGENT_RUN_OPENAI_API_KEY; do
  [ -n "${!name:-}" ] && mask "${!name}"
done
exit 0
