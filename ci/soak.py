#!/usr/bin/env python3
"""The soak (run by ci/soak.sh; not part of ctest): hundreds of attempts of agent-run at -j 2
against a loopback model server that plays the Anthropic Messages API and injects faults into a
set share of the calls, with tools that time out, flood their output and leave escaping children, and
MCP servers that crash mid-call (leaving a child in their process group) or at start (a required one).

The server answers each call from the conversation it is sent (the task's kind and how many turns
it already had), so every retry of a call gets the same answer unless a fault is drawn. The faults:
429 with retry-after, 529 overloaded, 500, a stream cut mid-way, a stall past the idle timeout, a
malformed chunk, and 200s whose body is not the stream (an HTML page, a JSON body): all retried by
agent-run. No call gets more than three faults in a row, so no attempt runs out of retries.

Then it checks, and prints: every planned attempt reported exactly once with the outcome its kind
and its faults make right; every fault the server injected recorded as a failed try; no process of
the run, worktree, agent-run/ branch or scratch folder left; agent-run's open descriptors and
memory over the run. Exits 1 when a check fails.
"""

import argparse
import collections
import http.server
import json
import os
import random
import re
import shutil
import signal
import socketserver
import subprocess
import sys
import tempfile
import threading
import time

KINDS = ["edit", "fail", "timeout", "flood", "escape", "mcp_call", "mcp_start"]
# Malformed 200s among them: a proxy's HTML page (content_type), the whole reply as one JSON object
# (json_body), and a JSON body under an event-stream Content-Type (not_stream). A model call has no
# side effect: agent-run retries each of these like a 5xx.
RETRIED_FAULTS = ["429", "529", "500", "cut", "stall", "malformed", "content_type", "json_body", "not_stream"]
FAULTS = RETRIED_FAULTS
MAX_FAULTS_IN_A_ROW = 3
IDLE_TIMEOUT_S = 2

POLICY = """version: 1
unmatched: deny
rules:
  - id: edits
    allow: [edit_file, write_file]
  - id: commands
    allow: bash
    argv_prefix: [[sh, seq, sleep, "true"]]
  - id: mcp
    allow: mcp__crashy
"""

# An MCP server (stdio) that crashes: `start` exits before it reads anything; `call` answers
# initialize and tools/list, then on tools/call leaves a child in its process group and exits.
CRASHY_MCP_SERVER = r"""import json, os, subprocess, sys
if sys.argv[1] == "start":
    sys.stderr.write("crashy: exits at start\n")
    os._exit(9)
def send(id, result):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": id, "result": result}) + "\n")
    sys.stdout.flush()
for line in sys.stdin:
    message = json.loads(line)
    method, id = message.get("method"), message.get("id")
    if method == "initialize":
        send(id, {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "crashy", "version": "1"}})
    elif method == "tools/list":
        send(id, {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]})
    elif method == "tools/call":
        subprocess.Popen(["sleep", "1000"])
        sys.stderr.write("crashy: exits mid-call\n")
        sys.stderr.flush()
        os._exit(7)
    elif id is not None:
        send(id, {})
"""

# The mcp_servers: entry of each MCP kind.
MCP_SERVERS = {
    "mcp_call": "mcp_servers:\n  crashy: {command: python3, args: [crashy_mcp.py, call]}\n",
    "mcp_start": "mcp_servers:\n  crashy: {command: python3, args: [crashy_mcp.py, start], required: true}\n",
}

# Leaves a daemon behind (setsid), once it has left the command's group.
ESCAPE_SCRIPT = """setsid sleep 1000 >/dev/null 2>&1 &
p=$!
until [ "$(cat /proc/$p/comm 2>/dev/null)" = sleep ]; do sleep 0.01; done
echo escaped
"""


def tool(name, arguments):
    return {"name": name, "input": arguments}


def turns_of(kind, word):
    """The model's turns for a task kind: each a text and at most one tool call; the last ends the turn."""
    done = [("Done.", None)]
    if kind == "edit":
        return [("Reading.", tool("read_file", {"path": "greet.sh"})),
                ("Editing.", tool("edit_file", {"path": "greet.sh", "old": "bye", "new": word}))] + done
    if kind == "timeout":
        return [("Waiting.", tool("bash", {"command": "sleep 30"}))] + done
    if kind == "flood":
        return [("Counting.", tool("bash", {"command": "seq 1 300000"}))] + done
    if kind == "escape":
        return [("Serving.", tool("bash", {"command": "sleep 1000", "background": True})),
                ("Escaping.", tool("bash", {"command": "sh escape.sh"}))] + done
    if kind == "mcp_call":
        return [("Asking the server.", tool("mcp__crashy__echo", {"message": word}))] + done
    return done  # fail: nothing done, so the check fails; mcp_start: the model is never asked


def expected_outcome(kind):
    if kind == "fail":
        return ("failed", "check.failed")
    if kind == "mcp_start":
        return ("error", "mcp.unavailable")
    return ("passed", "passed")


def sse_event(name, data):
    return ("event: %s\ndata: %s\n\n" % (name, json.dumps(data))).encode()


def stream_of(text, call, serial):
    """A Messages API stream for one turn, event by event."""
    usage = {"input_tokens": 1200, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 1}
    events = [sse_event("message_start", {"type": "message_start", "message": {
        "model": "claude-sonnet-4-5-20250929", "id": "msg_soak_%d" % serial, "type": "message", "role": "assistant",
        "content": [], "stop_reason": None, "stop_sequence": None, "usage": usage}}),
        sse_event("content_block_start", {"type": "content_block_start", "index": 0,
                                          "content_block": {"type": "text", "text": ""}}),
        sse_event("ping", {"type": "ping"}),
        sse_event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                          "delta": {"type": "text_delta", "text": text}}),
        sse_event("content_block_stop", {"type": "content_block_stop", "index": 0})]
    if call:
        arguments = json.dumps(call["input"])
        half = len(arguments) // 2
        events += [sse_event("content_block_start", {"type": "content_block_start", "index": 1, "content_block": {
            "type": "tool_use", "id": "toolu_soak_%d" % serial, "name": call["name"], "input": {}}})]
        for piece in (arguments[:half], arguments[half:]):
            events.append(sse_event("content_block_delta", {"type": "content_block_delta", "index": 1,
                                                            "delta": {"type": "input_json_delta", "partial_json": piece}}))
        events.append(sse_event("content_block_stop", {"type": "content_block_stop", "index": 1}))
    stop = "tool_use" if call else "end_turn"
    events += [sse_event("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                           "usage": dict(usage, output_tokens=40)}),
               sse_event("message_stop", {"type": "message_stop"})]
    return events


class ModelServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    """The loopback model: answers from the conversation, injects faults, counts what it did."""
    daemon_threads = True

    def __init__(self, fault_rate, seed):
        super().__init__(("127.0.0.1", 0), Handler)
        self.fault_rate = fault_rate
        self.random = random.Random(seed)
        self.lock = threading.Lock()
        self.in_a_row = collections.Counter()       # (task, turn) -> faults served in a row
        self.faults = collections.Counter()         # fault kind -> served
        self.faults_of = collections.defaultdict(list)  # task -> fault kinds served
        self.calls = 0
        self.serial = 0

    def decide(self, task, turn):
        with self.lock:
            self.calls += 1
            self.serial += 1
            key = (task, turn)
            fault = None
            if self.in_a_row[key] < MAX_FAULTS_IN_A_ROW and self.random.random() < self.fault_rate:
                fault = self.random.choice(FAULTS)
                self.in_a_row[key] += 1
                self.faults[fault] += 1
                self.faults_of[task].append(fault)
            else:
                self.in_a_row[key] = 0
            return fault, self.serial


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, error_type, message, headers=()):
        body = json.dumps({"type": "error", "error": {"type": error_type, "message": message},
                           "request_id": "req_soak"}).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def start_stream(self, content_type="text/event-stream; charset=utf-8"):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("request-id", "req_soak")
        self.send_header("Connection", "close")
        self.end_headers()

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        messages = request["messages"]
        first = messages[0]["content"]
        prompt = first if isinstance(first, str) else "".join(b.get("text", "") for b in first)
        match = re.search(r"soak (\S+) kind (\S+) word (\S+)", prompt)
        task, kind, word = match.group(1), match.group(2), match.group(3)
        turn = sum(1 for message in messages if message["role"] == "assistant")
        turns = turns_of(kind, word)
        text, call = turns[min(turn, len(turns) - 1)]
        fault, serial = self.server.decide(task, turn)
        events = stream_of(text, call, serial)
        try:
            self.answer(fault, events)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    def answer(self, fault, events):
        if fault == "429":
            return self.send_json(429, "rate_limit_error", "soak: rate limited", [("retry-after", "1")])
        if fault == "529":
            return self.send_json(529, "overloaded_error", "Overloaded")
        if fault == "500":
            return self.send_json(500, "api_error", "Internal server error")
        if fault == "content_type":
            self.start_stream("text/html; charset=utf-8")
            self.chunk(b"<html><body>a proxy's error page</body></html>")
            return self.chunk(b"")
        if fault in ("json_body", "not_stream"):
            self.start_stream("application/json" if fault == "json_body" else "text/event-stream; charset=utf-8")
            self.chunk(json.dumps({"type": "message", "role": "assistant", "content": [{"type": "text", "text": "hi"}],
                                   "stop_reason": "end_turn"}).encode())
            return self.chunk(b"")
        self.start_stream()
        if fault in ("cut", "stall"):
            for event in events[:len(events) // 2]:
                self.chunk(event)
            if fault == "stall":
                time.sleep(IDLE_TIMEOUT_S + 1.5)
            return  # the connection closes without the last chunk: a stream cut mid-way
        for index, event in enumerate(events):
            if fault == "malformed" and index == 3:
                self.chunk(b"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delt\n\n")
                return self.chunk(b"")
            self.chunk(event)
        self.chunk(b"")


def write_repository(repo, attempts, seed):
    """A git repository with the policy, the escape script and one task file per attempt."""
    os.makedirs(os.path.join(repo, "tasks"))
    with open(os.path.join(repo, "greet.sh"), "w") as out:
        out.write("echo bye\n")
    with open(os.path.join(repo, "escape.sh"), "w") as out:
        out.write(ESCAPE_SCRIPT)
    with open(os.path.join(repo, "policy.yaml"), "w") as out:
        out.write(POLICY)
    with open(os.path.join(repo, "crashy_mcp.py"), "w") as out:
        out.write(CRASHY_MCP_SERVER)
    chooser = random.Random(seed)
    kinds = {}
    for index in range(attempts):
        task = "soak-%04d" % index
        kind = chooser.choice(KINDS)
        kinds[task] = kind
        word = "w%04d" % index
        check = "grep -q %s greet.sh" % (word if kind != "fail" else "never-written")
        # Every other escape and crashing MCP server runs outside the sandbox, where the process table
        # must find what it leaves; inside, the sandbox's PID namespace ends with it and the kernel kills it.
        unsandboxed = kind in ("escape", "mcp_call") and index % 2 == 0
        extra = MCP_SERVERS.get(kind, "") + ("sandbox: off\n" if unsandboxed else "")
        with open(os.path.join(repo, "tasks", task + ".yaml"), "w") as out:
            out.write("prompt: \"soak %s kind %s word %s\"\npolicy: ../policy.yaml\n"
                      "limits: {turns: 8, time: 10m, tool_timeout: 1s}\n%schecks:\n  - run: \"%s\"\n"
                      % (task, kind, word, extra, check if kind in ("edit", "fail") else "true"))
    subprocess.run("git init -q -b main . && git add -A && git -c user.name=soak -c user.email=soak@example.invalid "
                   "commit -qm soak", shell=True, cwd=repo, check=True)
    return kinds


def read_status(pid):
    """VmRSS and VmHWM (kB), open descriptors and threads of `pid`, or None once it is gone."""
    try:
        fields = {}
        with open("/proc/%d/status" % pid) as status:
            for line in status:
                name, _, value = line.partition(":")
                fields[name] = value.split()[0] if value.split() else "0"
        return {"rss_kb": int(fields["VmRSS"]), "hwm_kb": int(fields["VmHWM"]),
                "fds": len(os.listdir("/proc/%d/fd" % pid)), "threads": int(fields["Threads"])}
    except (OSError, KeyError, ValueError):
        return None


def leftover_processes(marker):
    """The processes whose environment or folder names this soak's temporary folder."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open("/proc/%s/environ" % entry, "rb") as environ:
                named = marker.encode() in environ.read()
            named = named or os.readlink("/proc/%s/cwd" % entry).startswith(marker)
            if named:
                with open("/proc/%s/cmdline" % entry, "rb") as cmdline:
                    found.append("%s %s" % (entry, cmdline.read().replace(b"\0", b" ").decode(errors="replace")))
        except OSError:
            pass
    return found


def run_soak(args, temp):
    repo, out, tmp = (os.path.join(temp, name) for name in ("repo", "out", "tmp"))
    os.makedirs(tmp)
    kinds = write_repository(repo, args.attempts, args.seed)
    server = ModelServer(args.fault_rate, args.seed)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = dict(os.environ, TMPDIR=tmp, ANTHROPIC_API_KEY="sk-ant-soak-not-a-key",
               ANTHROPIC_BASE_URL="http://127.0.0.1:%d" % server.server_address[1])
    command = [args.binary, "tasks", "--model", "anthropic/claude-sonnet-4-5", "-j", str(args.jobs), "--out", out,
               "--no-diagnostics", "--model-idle-timeout", "%ds" % IDLE_TIMEOUT_S, "--model-retries", "6"]
    task_files = sorted(os.path.join("tasks", name) for name in os.listdir(os.path.join(repo, "tasks")))
    command = [command[0]] + task_files + command[2:]
    started = time.time()
    process = subprocess.Popen(command, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    finished = [0]
    log = []

    def read_output():
        for line in process.stdout:
            log.append(line)
            if re.match(r"(PASS|FAIL|ERROR|SKIP) ", line):
                finished[0] += 1
    reader = threading.Thread(target=read_output)
    reader.start()
    samples = []
    while process.poll() is None:
        sample = read_status(process.pid)
        if sample:
            sample["finished"] = finished[0]
            samples.append(sample)
        time.sleep(0.5)
    reader.join()
    elapsed = time.time() - started
    server.shutdown()
    return check_soak(args, repo, out, tmp, kinds, server, process.returncode, samples, log, elapsed)


def attempts_of(report):
    counts = collections.Counter(attempt["task_id"] for attempt in report["attempts"])
    return {attempt["task_id"]: attempt for attempt in report["attempts"]}, counts


def mcp_problems(task, kind, attempt):
    """What is wrong in the report of an attempt whose MCP server crashed."""
    servers = attempt.get("mcp_servers", [])
    if len(servers) != 1:
        return ["%s: %d MCP servers reported, expected 1" % (task, len(servers))]
    server = servers[0]
    if kind == "mcp_start":
        if server["status"] != "failed" or "crashy" not in attempt.get("message", ""):
            return ["%s: the server that exits at start is %s, the attempt says %r" % (
                task, server["status"], attempt.get("message", ""))]
        return []
    calls = [call for call in attempt["tool_calls"] if call["name"] == "mcp__crashy__echo"]
    if len(calls) != 1 or not calls[0]["is_error"] or "exited with code 7" not in calls[0].get("error", ""):
        return ["%s: the call the server crashed in is recorded as %s" % (task, calls)]
    if server.get("ending") != "exited with code 7" or "exits mid-call" not in server.get("stderr_tail", ""):
        return ["%s: the crashed server's ending is %r, its stderr %r" % (
            task, server.get("ending"), server.get("stderr_tail"))]
    return []


def check_soak(args, repo, out, tmp, kinds, server, exit_code, samples, log, elapsed):
    problems = []
    with open(os.path.join(out, "report.json")) as report_file:
        report = json.load(report_file)
    attempts, counts = attempts_of(report)
    once = sum(1 for task in kinds if counts[task] == 1)
    lost = sum(1 for task in kinds if counts[task] == 0)
    twice = sum(1 for task in kinds if counts[task] > 1)
    wrong = []
    failed_tries = collections.Counter()
    for task, kind in kinds.items():
        attempt = attempts.get(task)
        if not attempt:
            continue
        expected = expected_outcome(kind)
        if (attempt["outcome"], attempt["outcome_type"]) != expected:
            wrong.append("%s (%s, faults %s): %s %s, expected %s %s: %s" % (
                task, kind, server.faults_of[task], attempt["outcome"], attempt["outcome_type"], expected[0],
                expected[1], attempt.get("message", "")))
        tries = sum(len(call.get("failed_tries", [])) for call in attempt["model_calls"])
        failed_tries["all"] += tries
        if tries != len(server.faults_of[task]):
            wrong.append("%s: %d failed tries in the report, %d faults served" % (task, tries, len(server.faults_of[task])))
        if kind == "escape":
            escapes = 0 if attempt["sandboxed"] else 1  # a sandboxed escape dies with its command's namespace
            if len(attempt["escaped_processes"]) != escapes or len(attempt["background_processes"]) != 1:
                wrong.append("%s: %d escaped and %d background processes reported, expected %d and 1 (sandboxed: %s)" % (
                    task, len(attempt["escaped_processes"]), len(attempt["background_processes"]), escapes,
                    attempt["sandboxed"]))
        if kind.startswith("mcp_"):
            wrong += mcp_problems(task, kind, attempt)
    if once != len(kinds) or lost or twice:
        problems.append("attempts: %d reported once, %d lost, %d more than once" % (once, lost, twice))
    problems += wrong[:20]
    leftovers = leftover_processes(tmp)
    worktrees = subprocess.run("git worktree list | wc -l", shell=True, cwd=repo, capture_output=True, text=True).stdout
    branches = subprocess.run("git branch --list 'agent-run/*' | wc -l", shell=True, cwd=repo, capture_output=True,
                              text=True).stdout
    scratch = os.path.join(tmp, "agent-run")
    scratch_left = os.listdir(scratch) if os.path.isdir(scratch) else []
    if leftovers:
        problems.append("processes left: %s" % leftovers[:10])
    if worktrees.strip() != "1" or branches.strip() != "0" or scratch_left:
        problems.append("left: %s worktrees, %s agent-run/ branches, scratch %s" % (
            worktrees.strip(), branches.strip(), scratch_left))
    expected_exit = 1 if any(kind == "fail" for kind in kinds.values()) else 0
    if exit_code != expected_exit:
        problems.append("agent-run exited %d, expected %d" % (exit_code, expected_exit))
    print_figures(args, report, kinds, server, samples, elapsed, once, lost, twice, failed_tries, leftovers,
                  worktrees, branches, scratch_left, exit_code)
    for problem in problems:
        print("PROBLEM: " + problem)
    if problems:
        print("".join(log[-30:]))
    return 1 if problems else 0


def print_figures(args, report, kinds, server, samples, elapsed, once, lost, twice, failed_tries, leftovers, worktrees,
                  branches, scratch_left, exit_code):
    outcomes = collections.Counter("%s %s" % (a["outcome"], a["outcome_type"]) for a in report["attempts"])
    faults = sum(server.faults.values())
    print("soak: %d attempts at -j %d in %.0f s; agent-run exited %d" % (len(kinds), args.jobs, elapsed, exit_code))
    print("  kinds: %s" % dict(collections.Counter(kinds.values())))
    print("  outcomes: %s" % dict(outcomes))
    print("  model calls: %d, faults injected: %d (%.1f%%): %s" % (
        server.calls, faults, 100.0 * faults / max(server.calls, 1), dict(server.faults)))
    print("  failed tries in the report: %d (faults served: %d)" % (failed_tries["all"], faults))
    print("  reported exactly once: %d of %d; lost: %d; reported twice: %d" % (once, len(kinds), lost, twice))
    print("  left behind: %d processes, %s worktrees (the repository's own), %s agent-run/ branches, %d scratch folders"
          % (len(leftovers), worktrees.strip(), branches.strip(), len(scratch_left)))
    if samples:
        first = next((s for s in samples if s["finished"] >= 1), samples[0])
        tenth = next((s for s in samples if s["finished"] >= len(kinds) // 10), first)
        last = samples[-1]
        print("  agent-run open descriptors: %d after the first attempt, %d at 10%%, %d at the end (max %d)" % (
            first["fds"], tenth["fds"], last["fds"], max(s["fds"] for s in samples)))
        print("  agent-run memory: RSS %.1f MB after the first attempt, %.1f MB at 10%%, %.1f MB at the end; "
              "peak %.1f MB" % (first["rss_kb"] / 1024, tenth["rss_kb"] / 1024, last["rss_kb"] / 1024,
                                max(s["hwm_kb"] for s in samples) / 1024))
        print("  agent-run threads: %d at the end (max %d)" % (last["threads"], max(s["threads"] for s in samples)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, type=os.path.abspath, help="the agent-run binary")
    parser.add_argument("--attempts", type=int, default=500, help="attempts (one task file each); default 500")
    parser.add_argument("--jobs", type=int, default=2, help="agent-run -j; default 2")
    parser.add_argument("--fault-rate", type=float, default=0.2, help="share of model calls given a fault; default 0.2")
    parser.add_argument("--seed", type=int, default=18, help="random seed of the task kinds and the faults")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    args = parser.parse_args()
    temp = tempfile.mkdtemp(prefix="agent-run-soak-")
    try:
        return run_soak(args, temp)
    finally:
        if args.keep:
            print("kept " + temp)
        else:
            shutil.rmtree(temp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
