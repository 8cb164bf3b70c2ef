#!/usr/bin/env python3
"""Every example in README.md and docs/*.md is checked: each fenced yaml block by `agent-run validate`
(a task, a policy, or agent-run.yaml by --config; a task fragment with a stand-in prompt; GitHub
workflow steps are counted and left to GitHub), and each `agent-run ...` command line shown against
the option table (`agent-run --help`, generated from it): an unknown subcommand or option fails.

usage: docs_examples_test.py SOURCE_ROOT AGENT_RUN_BINARY"""
import pathlib, re, shutil, subprocess, sys, tempfile

source, binary = pathlib.Path(sys.argv[1]).resolve(), str(pathlib.Path(sys.argv[2]).resolve())
pages = [source / "README.md"] + sorted((source / "docs").glob("*.md"))
failures, counts = [], {"task": 0, "task fragment": 0, "policy": 0, "configuration": 0, "workflow": 0, "command": 0}

def blocks(page):
    """(line, language, text) of each fenced block."""
    lines, found, i = page.read_text().split("\n"), [], 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if m:
            start, body = i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i]); i += 1
            found.append((start, m.group(1), "\n".join(body) + "\n"))
        i += 1
    return found

def top_keys(text):
    return {m.group(1) for m in re.finditer(r"^([A-Za-z_]+):", text, re.M)}

def kind_of(text):
    keys = top_keys(text)
    if re.match(r"^\s*(- uses:|strategy:|steps:|jobs:|on:)", text) or "steps" in keys: return "workflow"
    if "rules" in keys: return "policy"
    if keys & {"endpoints", "prices", "grep", "model_retries", "model_idle_timeout", "models"}: return "configuration"
    return "task" if "prompt" in keys else "task fragment"

work = pathlib.Path(tempfile.mkdtemp(prefix="docs-examples-"))
shutil.copytree(source / "tasks" / "examples", work / "tasks" / "examples")  # the examples name ../../policies/
shutil.copytree(source / "policies", work / "policies")
subprocess.run(["git", "init", "-q", str(work)], check=True)
examples = work / "tasks" / "examples"

def validate(page, line, kind, text):
    target = examples / "example.yaml"
    if kind == "task fragment":
        text = "prompt: a stand-in prompt for a fragment\n" + ("model: script\n" if "script" in top_keys(text) else "model: anthropic/claude-sonnet-4-5\n") + text
    target.write_text(text)
    argv = [binary, "validate"] + (["--config", str(target)] if kind == "configuration" else [str(target)])
    ran = subprocess.run(argv, cwd=examples, capture_output=True, text=True)
    if ran.returncode != 0:
        failures.append(f"{page.relative_to(source)}:{line}: {kind} block: {(ran.stdout + ran.stderr).strip()}")

usage = subprocess.run([binary, "--help"], capture_output=True, text=True).stdout
known_options = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])\b", usage))
subcommands = set(re.findall(r"agent-run \[?([a-z]+)", usage))  # the usage lines name each subcommand

def check_command(page, line, command):
    words = command.split()
    counts["command"] += 1
    if len(words) > 1 and re.fullmatch(r"[a-z]+", words[1]) and not words[1].endswith(".yaml") \
            and words[1] not in subcommands and "/" not in words[1]:
        failures.append(f"{page.relative_to(source)}:{line}: unknown subcommand '{words[1]}' in: {command}")
    for word in words[1:]:
        if word == "--": break
        m = re.match(r"^(--?[A-Za-z][\w-]*)", word.lstrip("[("))
        if m and m.group(1) not in known_options:
            failures.append(f"{page.relative_to(source)}:{line}: unknown option '{m.group(1)}' in: {command}")

for page in pages:
    for line, language, text in blocks(page):
        if language == "yaml":
            kind = kind_of(text)
            counts[kind] += 1
            if kind != "workflow": validate(page, line, kind, text)
        elif language in ("", "sh", "bash", "console"):
            for offset, shown in enumerate(text.split("\n")):
                shown = re.sub(r"\s+#.*$", "", shown)
                m = re.search(r"(?:^|[\s$(]|build/)agent-run(\s[^|;&`]*)?$", shown)
                if m and not shown.lstrip().startswith(("PASS", "FAIL", "usage:")):
                    check_command(page, line + offset, "agent-run" + (m.group(1) or ""))
    # inline code: `agent-run ...`
    for number, row in enumerate(page.read_text().split("\n"), 1):
        for inline in re.findall(r"`(agent-run [^`]*)`", row):
            check_command(page, number, inline.replace("\\|", "|"))

shutil.rmtree(work)
print(", ".join(f"{n} {k}" for k, n in counts.items()), "checked")
for failure in failures: print("FAIL", failure)
sys.exit(1 if failures else 0)
