#!/usr/bin/env python3
"""The truth benchmark (issue 26): do the per-edit diagnostics say what the project's own checker says?

Run by `ci/bench-truth.sh [--stress]`; not part of ctest. For each project of bench/truth/projects.py:
copies it into a fresh git repository in a temporary folder, runs its scripted session through one
`agent-run tool --workspace DIR --json --task TASK` (one call a line over pipes, each answered before
the next is sent), and after every edit_file/write_file result runs the ground truth
(bench/truth/ground_truth.py) on the tree as it is at that moment. It compares, per edit:

- false problems: errors the edit's diagnostics reported at a file and line where the ground truth
  has nothing (an error reported where the ground truth has only a warning is counted apart, as a
  wrong severity);
- missed problems: ground-truth errors not reported as errors at their file and line, among those
  in the edited file, and those in its callers (the files that import or include it) that this edit
  made (new since the ground truth just before it, which is looked at again when a bash command ran
  since the last edit: a caller's error that was there before the edit is not asked again);
- timeouts (status timeout or unavailable) and the per-edit latency (the check's own duration_ms);

and, on the final tree, whether `no_new_diagnostics: true` would pass (the per-edit results taken
together as the runner takes them today: introduced minus resolved, runner/report/left_behind.cpp)
and whether the ground truth agrees (the final tree has no error that the baseline did not have).
It prints figures and asserts none: it exits non-zero only when agent-run or a checker fails to run.
"""

import argparse
import collections
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ground_truth  # noqa: E402
import projects  # noqa: E402
from session import DryRunSession, ToolSession, write_task  # noqa: E402


def git(workspace, *args):
    subprocess.run(["git", *args], cwd=workspace, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def make_repository(workspace):
    git(workspace, "init", "-q", "-b", "main")
    git(workspace, "add", "-A")
    git(workspace, "-c", "user.name=truth", "-c", "user.email=truth@localhost", "commit", "-q", "-m", "baseline")


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(fraction * len(ordered) + 0.5)) - 1))
    return ordered[index]


def left_behind(edits):
    """runner/report/left_behind.cpp's problems_left_behind, on the --json lines' diagnostics."""
    net = collections.defaultdict(lambda: {"open": [], "fixed": 0})
    for diagnostics in edits:
        if not diagnostics:
            continue
        for problem in diagnostics.get("introduced", []):
            entry = net[(problem["path"], problem["severity"], problem["code"], problem["message"])]
            if entry["fixed"] > 0:
                entry["fixed"] -= 1
            else:
                entry["open"].append(problem)
        for problem in diagnostics.get("resolved", []):
            entry = net[(problem["path"], problem["severity"], problem["code"], problem["message"])]
            if not entry["open"]:
                entry["fixed"] += 1
                continue
            same = [p for p in entry["open"] if p["line"] == problem["line"] and p["column"] == problem["column"]]
            entry["open"].remove(same[0] if same else entry["open"][0])
    return [p for entry in net.values() for p in entry["open"]]


def final_tree_gate(session, workspace, edits, timed_out_files, first_edits):
    """What `no_new_diagnostics: true` now does at the end of an attempt (batch/final_tree_check):
    each file where the edits left a problem, or whose check timed out, is checked again as it is
    on the final tree by the same per-edit checker (here: written back unchanged through the tool),
    and a problem counts as left behind only when that check still reports it. Returns the problems
    left and whether every re-check answered. As the runner does, a problem in a file the session
    never edited is never the edits' doing, nor is one its file's first edit found there already."""
    def key(problem):
        return (problem["message"], problem["severity"])
    before = {path: {key(p) for p in d.get("problems", [])} - {key(p) for p in d.get("introduced", [])}
              for path, d in first_edits.items()}
    candidates = [p for p in left_behind(edits) if p["path"] in first_edits and key(p) not in before[p["path"]]]
    files = sorted({p["path"] for p in candidates} | set(timed_out_files))
    still = {}
    judged = True
    for path in files:
        full = os.path.join(workspace, path)
        if not os.path.isfile(full):
            still[path] = []
            continue
        with open(full, encoding="utf-8", errors="surrogateescape") as handle:
            content = handle.read()
        session.call("read_file", {"path": path})
        line, _ = session.call("write_file", {"path": path, "content": content})
        diagnostics = (line.get("edit") or {}).get("diagnostics") or {}
        if diagnostics.get("status") in ("timeout", "unavailable", None):
            judged = False
        still[path] = diagnostics.get("problems", [])
    left = [p for p in candidates
            if any(q["message"] == p["message"] and q["severity"] == p["severity"] for q in still.get(p["path"], []))]
    return left, judged


def new_errors(baseline, final):
    """The final tree's errors that the baseline did not have, compared by message (files move, lines shift)."""
    before = collections.Counter(f.message for f in baseline if f.severity == "error")
    left = []
    for finding in final:
        if finding.severity != "error":
            continue
        if before[finding.message] > 0:
            before[finding.message] -= 1
        else:
            left.append(finding)
    return left


def checked_files(language, workspace, files):
    """The files to give the ground truth so that it covers `files` (for C, a header's .c files)."""
    if language != "c":
        return set(files)
    wanted = set()
    for f in files:
        if not f.endswith(".c"):
            wanted.update(g for g in ground_truth.callers("c", workspace, f) if g.endswith(".c"))
        else:
            wanted.add(f)
    return wanted


def run_project(name, language, module_path, prepare, steps, options, env, log):
    folder = tempfile.mkdtemp(prefix="truth-")
    workspace = os.path.join(folder, "workspace")
    os.makedirs(workspace)
    try:
        return run_in(folder, workspace, name, language, module_path, prepare, steps, options, env, log)
    finally:
        if not options.keep:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            print("  kept " + folder, file=sys.stderr)


def run_in(folder, workspace, name, language, module_path, prepare, steps, options, env, log):
    prepare(workspace, options.tools)
    make_repository(workspace)
    checker = ground_truth.CHECKERS[language]
    baseline = checker(workspace, env)
    task = write_task(folder, workspace)
    if options.dry_run:
        session = DryRunSession(workspace, env)
    else:
        session = ToolSession(options.binary, workspace, task, env, os.path.join(folder, "agent-run.stderr"))
    result = {"name": name, "calls": 0, "edits": 0, "false": 0, "wrong_severity": 0, "missed": 0, "as_warning": 0, "asked": 0,
              "timeouts": 0, "durations": [], "server_durations": [], "checkers": collections.Counter(),
              "failed_calls": 0, "details": [], "gate_left": [], "gate_judged": False}
    known = {}  # file -> its errors as the ground truth last saw them: what the agent has been told about
    remember(known, language, None, baseline)
    dirty = False  # a bash command ran since the ground truth last looked
    all_diagnostics = []
    timed_out_files = set()
    first_edits = {}  # each edited file -> its first edit's diagnostics
    server_answered = False
    started = time.monotonic()
    try:
        for step in steps:
            kind = step[0]
            if kind == "grep":
                calls = [("grep", {"pattern": step[1], "output": "files_with_matches"})]
            elif kind == "read":
                calls = [("read_file", {"path": step[1]})]
            elif kind == "bash":
                calls = [("bash", {"command": step[1]})]
            elif kind == "edit":
                tool_input = {"path": step[1], "old": step[2], "new": step[3]}
                if len(step) > 4 and step[4]:
                    tool_input["replace_all"] = True
                calls = [("read_file", {"path": step[1]}), ("edit_file", tool_input)]
            elif kind == "write":
                calls = [("write_file", {"path": step[1], "content": step[2]})]
            else:
                raise ValueError("unknown step " + kind)
            for tool, tool_input in calls:
                if tool in ("edit_file", "write_file") and dirty:
                    # What bash changed is not this edit's doing: look at the tree just before the edit.
                    before_scope = ground_truth.callers(language, workspace, tool_input["path"], module_path)
                    wanted = checked_files(language, workspace, before_scope)
                    remember(known, language, wanted, checker(workspace, env, wanted))
                    dirty = False
                if options.model_time and not options.dry_run:
                    time.sleep(options.model_time)  # the model's turn before this call
                line, wall = session.call(tool, tool_input)
                if tool == "bash":
                    dirty = True
                result["calls"] += 1
                log.write(json.dumps(line) + "\n")
                if line["result"]["is_error"]:
                    result["failed_calls"] += 1
                    print("  call %d (%s %s) failed: %s" % (result["calls"], tool, tool_input.get("path", ""),
                                                             line["result"]["content"][:300]), file=sys.stderr)
                if tool not in ("edit_file", "write_file") or line["result"]["is_error"]:
                    continue
                edit = line.get("edit") or {}
                diagnostics = edit.get("diagnostics")
                all_diagnostics.append(diagnostics)
                first_edits.setdefault(tool_input["path"], diagnostics or {})
                result["edits"] += 1
                path = tool_input["path"]
                reported = (diagnostics or {}).get("problems", [])
                status = (diagnostics or {}).get("status", "none")
                kind_of = (diagnostics or {}).get("checker_kind", "")
                result["checkers"][(diagnostics or {}).get("checker", "") or "none"] += 1
                if status in ("timeout", "unavailable"):
                    result["timeouts"] += 1
                duration = (diagnostics or {}).get("duration_ms", line.get("duration_ms", 0))
                result["durations"].append(duration)
                if kind_of == "server":
                    server_answered = True
                if server_answered:
                    result["server_durations"].append(duration)
                scope = ground_truth.callers(language, workspace, path, module_path)
                wanted = checked_files(language, workspace, scope | {p["path"] for p in reported})
                truth = checker(workspace, env, wanted)
                if language == "go" and unexplained(reported, truth):
                    truth = truth + ground_truth.go_vet_findings(workspace, env)
                compare(result, path, scope, reported, truth, known, status, diagnostics)
                remember(known, language, wanted, truth)
                if status == "timeout":
                    timed_out_files.add(path)
        result["gate_left"], result["gate_judged"] = final_tree_gate(session, workspace, all_diagnostics,
                                                                     timed_out_files, first_edits)
    finally:
        exit_code = session.close()
    result["seconds"] = time.monotonic() - started
    result["exit_code"] = exit_code
    final = checker(workspace, env)
    result["final_new_errors"] = new_errors(baseline, final)
    result["baseline_errors"] = sum(1 for f in baseline if f.severity == "error")
    return result


def unexplained(reported, truth):
    """Whether an edit reported an error at a line where the ground truth has nothing."""
    lines = {(f.path, f.line) for f in truth}
    return any(p["severity"] == "error" and (p["path"], p["line"]) not in lines for p in reported)


def remember(known, language, wanted, truth):
    """Records what the ground truth saw: every file (a whole-project checker, or no list) or those it was given."""
    if wanted is None or language in ("go", "typescript"):
        known.clear()
    else:
        for f in wanted:
            known[f] = set()
    for finding in truth:
        known.setdefault(finding.path, set())
        if finding.severity == "error":
            known[finding.path].add((finding.line, finding.message))


def compare(result, path, scope, reported, truth, known, status, diagnostics):
    truth_at = collections.defaultdict(set)
    for finding in truth:
        truth_at[(finding.path, finding.line)].add(finding.severity)
    before = {(f, line, message) for f, errors in known.items() for line, message in errors}
    reported_errors = {(p["path"], p["line"]) for p in reported if p["severity"] == "error"}
    false, wrong, missed = [], [], []
    for problem in reported:
        if problem["severity"] != "error":
            continue
        at = truth_at.get((problem["path"], problem["line"]))
        if not at:
            false.append(problem)
        elif "error" not in at:
            wrong.append(problem)
    asked = [f for f in truth if f.severity == "error" and f.path in scope and
             (f.path == path or (f.path, f.line, f.message) not in before)]
    reported_warnings = {(p["path"], p["line"]) for p in reported if p["severity"] != "error"}
    for finding in asked:
        if (finding.path, finding.line) not in reported_errors:
            missed.append(finding)
            if (finding.path, finding.line) in reported_warnings:
                result["as_warning"] += 1
    result["false"] += len(false)
    result["wrong_severity"] += len(wrong)
    result["missed"] += len(missed)
    result["asked"] += len(asked)
    result["details"].append({
        "path": path, "status": status, "checker": (diagnostics or {}).get("checker", ""),
        "note": (diagnostics or {}).get("note", ""),
        "duration_ms": (diagnostics or {}).get("duration_ms"),
        "false": ["%s:%d: %s" % (p["path"], p["line"], p["message"][:100]) for p in false],
        "wrong_severity": ["%s:%d: %s" % (p["path"], p["line"], p["message"][:100]) for p in wrong],
        "missed": ["%s:%d: %s%s" % (f.path, f.line, f.message[:100],
                                     " (reported as a warning)" if (f.path, f.line) in reported_warnings else "")
                   for f in missed],
        "truth_errors_in_scope": len(asked)})


def ms(value):
    return "-" if value is None else "%d" % value


def print_table(results, out):
    header = ("| project | calls | edits | checkers (edits) | false problems "
              "| wrong severity (errors as warnings / warnings as errors) | missed / asked "
              "| timeouts | p50 / p95 ms (all) | p50 / p95 ms (after the server's first answer) "
              "| gate `no_new_diagnostics: true` | ground truth (final tree) | agree |")
    out.write(header + "\n")
    out.write("|" + "---|" * (header.count("|") - 1) + "\n")
    totals = collections.Counter()
    all_durations, all_server = [], []
    agreed = 0
    for r in results:
        gate_pass = not r["gate_left"] and r["gate_judged"]
        truth_clean = not r["final_new_errors"]
        agree = r["gate_judged"] and gate_pass == truth_clean
        agreed += agree
        checkers = ", ".join("%s (%d)" % (c, n) for c, n in sorted(r["checkers"].items()))
        out.write("| %s | %d | %d | %s | %d | %d / %d | %d / %d | %d | %s / %s | %s / %s | %s | %s | %s |\n" % (
            r["name"], r["calls"], r["edits"], checkers, r["false"], r["as_warning"], r["wrong_severity"], r["missed"],
            r["asked"],
            r["timeouts"], ms(percentile(r["durations"], 0.5)), ms(percentile(r["durations"], 0.95)),
            ms(percentile(r["server_durations"], 0.5)), ms(percentile(r["server_durations"], 0.95)),
            "not judged" if not r["gate_judged"] else "pass" if gate_pass else "fail (%d left)" % len(r["gate_left"]),
            "clean" if truth_clean else "%d new errors" % len(r["final_new_errors"]), "yes" if agree else "NO"))
        for key in ("calls", "edits", "false", "as_warning", "wrong_severity", "missed", "asked", "timeouts"):
            totals[key] += r[key]
        all_durations += r["durations"]
        all_server += r["server_durations"]
    out.write("| **total** | %d | %d | | %d | %d / %d | %d / %d | %d | %s / %s | %s / %s | | | %d of %d |\n" % (
        totals["calls"], totals["edits"], totals["false"], totals["as_warning"], totals["wrong_severity"],
        totals["missed"], totals["asked"],
        totals["timeouts"], ms(percentile(all_durations, 0.5)), ms(percentile(all_durations, 0.95)),
        ms(percentile(all_server, 0.5)), ms(percentile(all_server, 0.95)), agreed, len(results)))
    if totals["asked"]:
        out.write("\nreported %.0f%% of the ground truth's errors in the edited files and their callers\n" %
                  (100.0 * (totals["asked"] - totals["missed"]) / totals["asked"]))


def print_details(results, out):
    for r in results:
        out.write("\n%s: %d calls in %.0f s, agent-run exit %d, %d failed calls, %d baseline errors\n" % (
            r["name"], r["calls"], r["seconds"], r["exit_code"], r["failed_calls"], r["baseline_errors"]))
        for number, d in enumerate(r["details"], 1):
            out.write("  edit %d %s: %s %s %sms%s\n" % (number, d["path"], d["checker"] or "-", d["status"],
                                                        d["duration_ms"], (" (" + d["note"] + ")") if d["note"] else ""))
            for label in ("false", "wrong_severity", "missed"):
                for text in d[label]:
                    out.write("      %s: %s\n" % (label.replace("_", " "), text))
        for problem in r["gate_left"]:
            out.write("  gate left behind: %s:%d: %s\n" % (problem["path"], problem["line"], problem["message"][:100]))
        for finding in r["final_new_errors"]:
            out.write("  final tree error: %s:%d: %s\n" % (finding.path, finding.line, finding.message[:100]))


def load_average():
    with open("/proc/loadavg") as source:
        return source.read().split()[0]


def version_of(options):
    if options.dry_run:
        return "(none: --dry-run)"
    done = subprocess.run([options.binary, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    version = done.stdout.strip().splitlines()[0] if done.stdout.strip() else "?"
    commit = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(options.binary)), "rev-parse", "--short",
                             "HEAD"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.strip()
    return version + (" (" + options.binary + ", its checkout at " + commit + ")" if commit else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", help="agent-run")
    parser.add_argument("--dry-run", action="store_true",
                        help="apply the sessions' calls without agent-run (to check that they apply and end clean)")
    parser.add_argument("--tools", required=True, help="the project's .tools folder")
    parser.add_argument("--only", help="run only the projects whose name contains this")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folders")
    parser.add_argument("--log", help="write every --json line here")
    parser.add_argument("--label", default="no load added")
    parser.add_argument("--model-time", type=float, default=0.0, metavar="SECONDS",
                        help="wait this long before each call, as a model's turn would (default 0: the calls come "
                             "back to back, the worst case for servers still starting)")
    options = parser.parse_args()

    options.tools = os.path.abspath(options.tools)
    tools_bin = os.path.join(options.tools, "node_modules", ".bin")
    env = dict(os.environ)
    env["PATH"] = tools_bin + os.pathsep + env.get("PATH", "")
    env["TRUTH_TOOLS_BIN"] = tools_bin
    env["GOPROXY"] = "off"
    env["GOTOOLCHAIN"] = "local"
    env["GOCACHE"] = tempfile.mkdtemp(prefix="truth-gocache-")  # the ground truth's, warm after the first
    env.pop("GOPATH", None)
    log = open(options.log, "w") if options.log else open(os.devnull, "w")
    load_before = load_average()
    started = time.monotonic()
    results = []
    for name, language, module_path, prepare, steps in projects.PROJECTS:
        if options.only and options.only not in name:
            continue
        print("truth: %s (%s) ..." % (name, options.label), file=sys.stderr, flush=True)
        results.append(run_project(name, language, module_path, prepare, steps, options, env, log))
    shutil.rmtree(env["GOCACHE"], ignore_errors=True)
    pace = ", %g s of model time before each call" % options.model_time if options.model_time else ""
    print("\n## truth benchmark, %s%s\n" % (options.label, pace))
    print("load average %s before, %s after; %.0f s; agent-run %s\n" % (
        load_before, load_average(), time.monotonic() - started, version_of(options)))
    print_table(results, sys.stdout)
    print_details(results, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
