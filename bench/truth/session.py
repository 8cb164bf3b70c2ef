"""One interactive `agent-run tool --json` session over pipes: one call a line in, one result a line out."""

import json
import os
import subprocess
import time


class ToolSession:
    """A running `agent-run tool --workspace DIR --json --task TASK`; call() sends one call and waits for its line."""

    def __init__(self, binary, workspace, task, env, stderr_path):
        self.stderr = open(stderr_path, "w")
        self.process = subprocess.Popen(
            [binary, "tool", "--workspace", workspace, "--json", "--task", task],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, env=env, text=True, bufsize=1)

    def call(self, tool, tool_input):
        """Sends one call; returns (its --json result as a dict, wall seconds around it)."""
        started = time.monotonic()
        self.process.stdin.write(json.dumps({"tool": tool, "input": tool_input}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        wall = time.monotonic() - started
        if not line:
            raise RuntimeError("agent-run tool ended before answering " + tool + " (see " + self.stderr.name + ")")
        return json.loads(line), wall

    def close(self):
        """Ends the input and waits for agent-run to shut its servers down; returns its exit code."""
        self.process.stdin.close()
        try:
            code = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            code = self.process.wait(timeout=30)
        self.stderr.close()
        return code


def write_task(folder, workspace):
    """A task file and a policy beside it (outside the workspace): edits and any bash, inside the sandbox."""
    policy = os.path.join(folder, "truth-policy.yaml")
    with open(policy, "w") as out:
        out.write("# The truth benchmark's sessions: edits and any shell command, in the sandbox only.\n"
                  "version: 1\nextends: permissive\n")
    task = os.path.join(folder, "truth-task.yaml")
    with open(task, "w") as out:
        out.write("description: truth benchmark session (scripted calls)\n"
                  "prompt: scripted by bench/truth\n"
                  "workspace:\n  repo: " + workspace + "\n"
                  "policy: truth-policy.yaml\n"
                  "limits: {tool_timeout: 120s}\n")
    return task


class DryRunSession:
    """The same calls applied without agent-run (--dry-run): checks that a session's edits apply and
    that its final tree is correct; edits carry no diagnostics."""

    def __init__(self, workspace, env):
        self.workspace = workspace
        self.env = env

    def call(self, tool, tool_input):
        started = time.monotonic()
        content, is_error, edit = "", False, None
        path = os.path.join(self.workspace, tool_input.get("path", ""))
        if tool == "edit_file":
            with open(path) as source:
                text = source.read()
            count = text.count(tool_input["old"])
            if count == 0 or (count > 1 and not tool_input.get("replace_all")):
                content, is_error = "%d matches of %r" % (count, tool_input["old"]), True
            else:
                with open(path, "w") as out:
                    out.write(text.replace(tool_input["old"], tool_input["new"]))
                edit = {"path": tool_input["path"], "diagnostics": None}
        elif tool == "write_file":
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as out:
                out.write(tool_input["content"])
            edit = {"path": tool_input["path"], "diagnostics": None}
        elif tool == "read_file":
            is_error = not os.path.isfile(path)
        elif tool == "bash":
            done = subprocess.run(["bash", "-c", tool_input["command"]], cwd=self.workspace, env=self.env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            content, is_error = done.stdout, done.returncode != 0
        line = {"tool": tool, "input": tool_input, "result": {"content": content, "is_error": is_error},
                "edit": edit, "duration_ms": int((time.monotonic() - started) * 1000)}
        return line, time.monotonic() - started

    def close(self):
        return 0
