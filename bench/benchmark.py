#!/usr/bin/env python3
"""agent-run's own cost against its peers (run by ci/benchmark.sh; not part of ctest's default set).

Generates its trees and repositories (seeded), measures each figure with its peer in the same run
(hyperfine medians for wall time, wait4 for peak memory, Google Benchmark for in-process figures) and
prints one table, with the machine's load average. Exits 1 when a target is missed (not with --smoke).
"""

import argparse
import json
import os
import platform
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ci"))

import measure  # noqa: E402
import trees  # noqa: E402
from benchmark_batch import spread_subfolders, time_git_worktree_add  # noqa: E402

RG_WALK = ["rg", "--no-config", "--hidden", "--no-ignore-dot", "--no-ignore-exclude", "--no-ignore-global",
           "-g", "!.git", "--encoding", "none", "--color", "never"]
UNIT_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
SECTIONS = ["loop", "model", "grep", "files", "workspace", "startup", "sandbox", "batch", "build"]


class Bench:
    """What every section needs: the built programs, the scratch folder, the run count and the table."""

    def __init__(self, options):
        self.options = options
        self.build = os.path.abspath(options.build_dir)
        self.agent_run = os.path.join(self.build, "agent-run")
        self.search_cli = os.path.join(self.build, "bench", "search-cli")
        self.inprocess = os.path.join(self.build, "bench", "inprocess-bench")
        self.temp = tempfile.mkdtemp(prefix="agent-run-benchmark-")
        self.table = measure.Table()
        self.runs = options.runs
        self.scale = 0.02 if options.smoke else 1.0

    def path(self, *parts):
        return os.path.join(self.temp, *parts)

    def time(self, commands, cwd=None, prepare=None, runs=None):
        return measure.hyperfine([shlex.join(c) for c in commands], runs or self.runs, cwd=cwd, prepare=prepare)

    def memory(self, argv, cwd=None, stdin=None, env=None):
        """Median peak memory (MiB) of three runs."""
        peaks = sorted(measure.peak_memory_mib(argv, cwd, stdin, env)[0] for _ in range(3))
        return peaks[1]


# --- the agent loop -------------------------------------------------------------------------------------

def section_loop(bench):
    """The loop's own cost per turn, in process (Google Benchmark) and as a whole agent-run process."""
    turns = [100, 1000, 5000] if not bench.options.smoke else [20, 100]
    figures = inprocess(bench, "BM_agent_loop/(%s)$" % "|".join(map(str, turns)))
    per_turn = {int(name.split("/")[1]): ms for name, ms in figures.items()}
    first = per_turn[turns[0]]
    for count in turns:
        bench.table.add("loop", "in process, %d-turn session, per turn" % count, per_turn[count], "ms",
                        "same, %d turns" % turns[0], first, target=1.0,
                        ratio_target=1.2 if count > turns[0] else None, note="ratio: the growth (linear: ~1x)")
    folder = bench.path("loop")
    whole = {}
    for count in turns[1:]:
        task = trees.make_loop_task(folder, count)
        (median, _), = bench.time([[bench.agent_run, task, "--out", bench.path("loop", "out"), "--quiet",
                                    "--no-diagnostics"]], cwd=folder, runs=3)
        whole[count] = median * 1000 / count
    small, large = turns[1], turns[-1]
    bench.table.add("loop", "agent-run process, %d-turn session, per turn" % large, whole[large], "ms",
                    "same, %d turns" % small, whole[small], target=1.0, ratio_target=1.2 if large > small else None,
                    note="report and transcript included")


def inprocess(bench, pattern, extra=()):
    """Runs the Google Benchmark binary's benchmarks matching `pattern`; returns {name: ms per iteration}."""
    out = bench.path("inprocess.json")
    args = [bench.inprocess, "--benchmark_filter=" + pattern, "--benchmark_out=" + out, "--benchmark_out_format=json",
            "--benchmark_repetitions=%d" % (3 if not bench.options.smoke else 1), "--benchmark_report_aggregates_only=true"]
    subprocess.run(args + list(extra), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = {}
    for entry in json.load(open(out))["benchmarks"]:
        if entry.get("run_type") == "aggregate" and entry.get("aggregate_name") != "median":
            continue
        ms = entry["real_time"] * UNIT_MS[entry["time_unit"]] / entry.get("turns", 1.0)
        results[entry.get("run_name", entry["name"])] = ms
    return results


# --- model requests and streams ----------------------------------------------------------------------------

def section_model(bench):
    figures = inprocess(bench, "BM_(request|stream)_")
    for name, ms in sorted(figures.items()):
        what = {"BM_request_anthropic": "Anthropic request JSON, 150k-token conversation, per turn",
                "BM_request_openai": "OpenAI request JSON, 150k-token conversation, per turn",
                "BM_stream_anthropic": "Anthropic stream parse, 1 MB response, per turn",
                "BM_stream_openai": "OpenAI stream parse, 1 MB response, per turn"}.get(name.split("/")[0], name)
        bench.table.add("model", what, ms, "ms", note="no peer in process")


# --- grep and glob ------------------------------------------------------------------------------------

def section_grep(bench):
    binaries = bench.path("binaries")
    trees.make_binary_tree(binaries, bench.scale)
    many = bench.path("many")
    files = int(50000 * bench.scale)
    trees.make_many_files_repository(many, files)
    real = bench.options.real_tree
    many_name = "%d files" % files
    cases = [("binaries", binaries, "TODO|FIXME|XXX"), ("binaries", binaries, r"\w+_init\("),
             (many_name, many, "TODO|FIXME|XXX"), (many_name, many, "items_42"),
             (os.path.basename(real), real, "TODO|FIXME|XXX"), (os.path.basename(real), real, r"\w+_init\(")]
    for name, tree, pattern in cases:
        grep_rows(bench, name, tree, pattern)
    for name, tree in [(many_name, many), (os.path.basename(real), real)]:
        glob_rows(bench, name, tree, "**/*.py")


def grep_rows(bench, name, tree, pattern):
    builtin = [bench.search_cli, "grep", "builtin", tree, pattern]
    backend = [bench.search_cli, "grep", "ripgrep", tree, pattern]
    rg = RG_WALK + ["-n", "--no-heading", "-e", pattern]
    (t_builtin, _), (t_backend, _), (t_rg, _) = bench.time([builtin, backend, rg], cwd=tree)
    m_builtin, m_backend, m_rg = (bench.memory(c, cwd=tree) for c in (builtin, backend, rg))
    figure = "'%s' on %s" % (pattern, name)
    bench.table.add("grep", "built-in: " + figure, t_builtin * 1000, "ms", "rg", t_rg * 1000, ratio_target=1.5)
    bench.table.add("grep", "built-in peak memory: " + figure, m_builtin, "MiB", "rg", m_rg, ratio_target=2.0)
    bench.table.add("grep", "ripgrep backend: " + figure, t_backend * 1000, "ms", "rg", t_rg * 1000)
    bench.table.add("grep", "ripgrep backend peak memory: " + figure, m_backend, "MiB", "rg", m_rg,
                    note="the larger of it and its rg child")
    _, expected = measure.output_of(rg + ["--sort", "path"], cwd=tree)
    for which, argv in (("built-in", builtin), ("ripgrep backend", backend)):
        _, got = measure.output_of(argv, cwd=tree)
        lines = expected.count(b"\n")
        if got == expected:
            bench.table.rows.append(["grep", "%s output = rg --sort path: %s" % (which, figure), "identical", "", "",
                                     "", "identical", "met", "%d lines" % lines])
        else:
            bench.table.fail("grep", "%s output = rg --sort path: %s" % (which, figure),
                             "DIFFERENT: %d bytes vs rg's %d" % (len(got), len(expected)))


def glob_rows(bench, name, tree, pattern):
    """The glob tool against `rg --files` (no stat at all) and against `rg --files --sortr modified`, which
    stats every file as the tool must for its newest-first order (and then walks on one thread)."""
    ours = [bench.search_cli, "glob", tree, pattern]
    rg = RG_WALK + ["--files", "-g", "*.py"]
    rg_sorted = rg + ["--sortr", "modified"]
    (t_ours, _), (t_rg, _), (t_sorted, _) = bench.time([ours, rg, rg_sorted], cwd=tree)
    m_ours, m_rg, m_sorted = (bench.memory(c, cwd=tree) for c in (ours, rg, rg_sorted))
    figure = "'%s' on %s" % (pattern, name)
    bench.table.add("glob", "glob tool: " + figure, t_ours * 1000, "ms", "rg --files", t_rg * 1000, ratio_target=2.0,
                    note="sorted newest first; rg does not stat")
    bench.table.add("glob", "glob tool: " + figure, t_ours * 1000, "ms", "rg --files --sortr modified", t_sorted * 1000,
                    ratio_target=1.5, note="like for like: both stat every file")
    bench.table.add("glob", "glob tool peak memory: " + figure, m_ours, "MiB", "rg --files", m_rg,
                    note="holds the list to sort it")
    bench.table.add("glob", "glob tool peak memory: " + figure, m_ours, "MiB", "rg --files --sortr modified", m_sorted)
    got = sorted(measure.output_of(ours, cwd=tree)[1].splitlines())
    for peer, argv in (("rg --files", rg), ("rg --files --sortr modified", rg_sorted)):
        expected = sorted(measure.output_of(argv, cwd=tree)[1].splitlines())
        if got != expected:
            bench.table.fail("glob", "same files as %s: %s" % (peer, figure), "%d vs %d files" % (len(got), len(expected)))


# --- read_file and edit_file ---------------------------------------------------------------------------

def section_files(bench):
    folder = bench.path("files")
    os.makedirs(folder)
    size, lines = trees.make_big_file(os.path.join(folder, "big.log"), int(1e9 * bench.scale))
    call = json.dumps({"tool": "read_file", "input": {"path": "big.log", "offset": lines - 999, "limit": 1000}})
    ours = [bench.agent_run, "tool", "--workspace", folder, "--no-diagnostics"]
    sed = ["sed", "-n", "%d,%dp;%dq" % (lines - 999, lines, lines), "big.log"]  # a page of 1,000 lines: < 100 KiB
    stdin_file = os.path.join(folder, "read.jsonl")
    trees.write(stdin_file, call + "\n")
    code, out = measure.output_of(ours, cwd=folder, stdin=(call + "\n").encode())
    if code != 0 or ("%d\t" % lines).encode() not in out:
        bench.table.fail("files", "read_file shows the last page", out[-300:].decode(errors="replace"))
    (t_ours, _), (t_sed, _) = bench.time([["sh", "-c", shlex.join(ours) + " < read.jsonl"], sed], cwd=folder, runs=3)
    m_ours, m_sed = bench.memory(ours, cwd=folder, stdin=(call + "\n").encode()), bench.memory(sed, cwd=folder)
    mb = size / 1e6
    bench.table.add("files", "read_file, last page of a %.0f MB file" % mb, t_ours * 1000, "ms", "sed -n", t_sed * 1000)
    bench.table.add("files", "read_file peak memory, %.0f MB file" % mb, m_ours, "MiB", "sed -n", m_sed,
                    target=64, note="bounded: the file is never held")
    os.remove(os.path.join(folder, "big.log"))
    edit_rows(bench, folder)


def edit_rows(bench, folder):
    text = trees.source_text(random.Random(10), 250000)
    middle = len(text) // 2
    text = text[:middle] + "\nunique_marker_line = 1\n" + text[middle:]
    trees.write(os.path.join(folder, "pristine.py"), text)
    trees.write(os.path.join(folder, "policy.yaml"), "version: 1\nrules:\n  - id: edit\n    allow: [edit_file]\n")
    calls = "\n".join(json.dumps(c) for c in (
        {"tool": "read_file", "input": {"path": "big.py", "limit": 1}},
        {"tool": "edit_file", "input": {"path": "big.py", "old": "unique_marker_line = 1", "new": "unique_marker_line = 2"}}))
    trees.write(os.path.join(folder, "edit.jsonl"), calls + "\n")
    ours = ["sh", "-c", "%s tool --workspace . --policy policy.yaml --no-diagnostics < edit.jsonl" % shlex.quote(bench.agent_run)]
    sed = ["sed", "-i", "s/unique_marker_line = 1/unique_marker_line = 2/", "big.py"]
    (t_ours, _), (t_sed, _) = bench.time([ours, sed], cwd=folder, prepare="cp pristine.py big.py", runs=5)
    shutil.copy(os.path.join(folder, "pristine.py"), os.path.join(folder, "big.py"))
    code, out = measure.output_of(ours, cwd=folder)
    if code != 0 or b"unique_marker_line = 2" not in out:
        bench.table.fail("files", "edit_file on a 10 MB file", "the edit failed: " + out[-300:].decode(errors="replace"))
    mb = len(text) / 1e6
    bench.table.add("files", "read_file + edit_file, %.0f MB file (with its diff)" % mb, t_ours * 1000, "ms", "sed -i",
                    t_sed * 1000)


# --- workspaces and patches ------------------------------------------------------------------------------

def section_workspace(bench):
    repo = bench.path("many")
    if not os.path.isdir(repo):
        trees.make_many_files_repository(repo, int(50000 * bench.scale))
    scratch = bench.path("scratch")
    os.makedirs(scratch, exist_ok=True)
    spread_subfolders(scratch)
    # A check (the worktree holds the repository's files) keeps agent-run from warning on every run that
    # the task has none; only the attempt's workspace_ms is read, so the check's own time is not counted.
    trees.write(os.path.join(repo, "bench", "empty.yaml"),
                "prompt: nothing\nchecks:\n  - run: test -f .gitignore\nscript:\n  - say: Done.\n")
    env = dict(os.environ, TMPDIR=scratch)
    ours, gits = [], []
    marked = os.path.join(scratch, "git")
    os.makedirs(marked, exist_ok=True)
    spread_subfolders(marked)
    for index in range(bench.runs):
        gits.append(time_git_worktree_add(repo, os.path.join(marked, "w%d" % index, "repo"), index))
        out = bench.path("ws-out")
        subprocess.run([bench.agent_run, "bench/empty.yaml", "--out", out, "--quiet", "--no-diagnostics"], cwd=repo,
                       env=env, check=True, stdout=subprocess.DEVNULL)
        ours.append(json.load(open(os.path.join(out, "report.json")))["attempts"][0]["durations"]["workspace_ms"])
    files = int(50000 * bench.scale)
    bench.table.add("workspace", "worktree creation, %d-file repository" % files, median(ours), "ms",
                    "git worktree add", median(gits), ratio_target=1.2, note="alternated, %d each" % bench.runs)
    patch_rows(bench, repo)


def patch_rows(bench, repo):
    """The patch of an attempt that changed 20 files and added 5, against `git diff HEAD` (in process vs git)."""
    for index in range(20):
        path = os.path.join(repo, "src", "pkg_%04d" % index, "mod_%05d.py" % (index * 50))
        with open(path, "a") as out:
            out.write("# changed by the benchmark\n")
    for index in range(5):
        trees.write(os.path.join(repo, "new", "file_%d.py" % index), "print(%d)\n" % index)
    figures = inprocess(bench, "BM_patch", ["--repository=" + repo])
    subprocess.run(["git", "add", "-N", "new"], cwd=repo, check=True)
    (t_git, _), = bench.time([["git", "diff", "HEAD"]], cwd=repo)
    subprocess.run(["git", "reset", "-q"], cwd=repo, check=True)
    bench.table.add("workspace", "patch (20 changed, 5 new files)", figures["BM_patch"], "ms", "git diff HEAD",
                    t_git * 1000, note="git: new files added with -N")


# --- start-up, validate, -j 16, build --------------------------------------------------------------------

def section_startup(bench):
    (t_ours, _), (t_git, _) = bench.time([[bench.agent_run, "--version"], ["git", "--version"]])
    bench.table.add("startup", "agent-run --version", t_ours * 1000, "ms", "git --version", t_git * 1000, target=20)
    folder = bench.path("validate")
    count = 1000 if not bench.options.smoke else 50
    repo = bench.path("many")
    if not os.path.isdir(repo):
        trees.make_many_files_repository(repo, int(50000 * bench.scale))
    tasks = [os.path.relpath(p, folder) for p in trees.make_tasks(folder, count)]
    # validate checks that a repository holds each task file (its default workspace.repo).
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    trees.write(os.path.join(folder, "validate.sh"), "exec %s validate %s >/dev/null\n" %
                (shlex.quote(bench.agent_run), " ".join(tasks)))
    (t_validate, _), = bench.time([["sh", "validate.sh"]], cwd=folder, runs=3)
    bench.table.add("startup", "validate %d task files" % count, t_validate * 1000, "ms", note="no peer")


def section_sandbox(bench):
    """Through the product's entry point, `agent-run tool` with the default sandbox: its start-up (one
    read_file) on repositories of 1,000, 10,000 and 100,000 files against `--sandbox off` in the same run,
    then grep and glob on a real tree against rg and `rg --files -g` (wall and peak memory)."""
    call = json.dumps({"tool": "read_file", "input": {"path": "src/pkg_0000/mod_00000.py"}}) + "\n"
    for files in (1000, 10000, 100000):
        files = max(50, int(files * bench.scale))
        repo = bench.path("sandbox-%d" % files)
        trees.make_many_files_repository(repo, files)
        calls = bench.path("sandbox-read.jsonl")
        trees.write(calls, call)
        on, off = (tool_command(bench, repo, calls, sandbox) for sandbox in ("default", "off"))
        (t_on, _), (t_off, _) = bench.time([on, off])
        figure = "sandbox start-up, agent-run tool read_file: %d files" % files
        bench.table.add("sandbox", figure, t_on * 1000, "ms", "--sandbox off", t_off * 1000)
        bench.table.add("sandbox", "beyond --sandbox off: %d files" % files, (t_on - t_off) * 1000, "ms",
                        target=50 if files >= 100000 else None, note="the sandbox's own cost: survey, bubblewrap")
        trees.remove(repo)
    tree = bench.options.tool_tree
    for tool, pattern, peer in (("grep", r"\w+_init\(", RG_WALK + ["-n", "--no-heading", "-e", r"\w+_init\("]),
                                ("glob", "**/*.h", RG_WALK + ["--files", "-g", "*.h"])):
        calls = bench.path("sandbox-%s.jsonl" % tool)
        trees.write(calls, json.dumps({"tool": tool, "input": {"pattern": pattern}}) + "\n")
        ours = tool_command(bench, tree, calls, "default")
        (t_ours, _), (t_peer, _) = bench.time([ours, peer], cwd=tree)
        m_ours, m_peer = bench.memory(ours, cwd=tree), bench.memory(peer, cwd=tree)
        name = "rg" if tool == "grep" else "rg --files -g"
        figure = "agent-run tool %s '%s' on %s" % (tool, pattern, tree)
        bench.table.add("sandbox", figure, t_ours * 1000, "ms", name, t_peer * 1000,
                        ratio_target=1.5 if tool == "grep" else 2.0, note="default sandbox")
        bench.table.add("sandbox", figure + ", peak memory", m_ours, "MiB", name, m_peer,
                        ratio_target=2.0 if tool == "grep" else None)


def tool_command(bench, workspace, calls, sandbox):
    """`agent-run tool` on `workspace` with the calls of the file `calls` (through sh, for the redirection);
    `sandbox` "default" (no --sandbox: the default sandbox) or "off"."""
    option = "" if sandbox == "default" else "--sandbox " + sandbox
    return ["sh", "-c", 'exec "$0" tool --workspace "$1" %s --no-diagnostics < "$2" > /dev/null' % option,
            bench.agent_run, workspace, calls]


def section_batch(bench):
    """Peak memory of agent-run with 16 attempts at once (worktrees of a 2,000-file repository)."""
    repo = bench.path("batch-repo")
    trees.make_many_files_repository(repo, 2000)
    tasks = [os.path.relpath(p, repo) for p in trees.make_tasks(os.path.join(repo, "bench"), 32)]
    subprocess.run("git add -A && git -c user.name=b -c user.email=b@example.invalid commit -qm tasks", shell=True,
                   cwd=repo, check=True)
    scratch = bench.path("batch-scratch")
    os.makedirs(scratch)
    env = dict(os.environ, TMPDIR=scratch)
    argv = [bench.agent_run] + tasks + ["-j", "16", "--out", bench.path("batch-out"), "--quiet", "--no-diagnostics"]
    started = time.perf_counter()
    peak, code = measure.peak_memory_mib(argv, cwd=repo, env=env)
    wall = time.perf_counter() - started
    bench.table.add("batch", "peak memory, 32 attempts at -j 16", peak, "MiB", target=150,
                    note="exit %d, %.1f s" % (code, wall))
    if code != 0:
        bench.table.fail("batch", "32 attempts at -j 16 pass", "exit code %d" % code)


def section_build(bench):
    """The whole project (tests included) from scratch on 2 cores, without ccache, in its own folder."""
    source = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    folder = bench.path("build-from-scratch")
    env = dict(os.environ, CCACHE_DISABLE="1")
    started = time.perf_counter()
    subprocess.run(["cmake", "-S", source, "-B", folder, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], env=env,
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", folder, "--parallel", "2"], env=env, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    bench.table.add("build", "full build from scratch, 2 jobs, no ccache", seconds, "s", note="configure included")
    shutil.rmtree(folder, ignore_errors=True)


def median(values):
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def describe_machine():
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    memory = next((int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal")), 0) / 2 ** 20
    return "%d cores (%s), %.0f GiB, %s %s" % (os.cpu_count(), cpu, memory, platform.system(), platform.release())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build_dir", help="the build folder (agent-run, bench/search-cli, bench/inprocess-bench)")
    parser.add_argument("--runs", type=int, default=5, help="hyperfine runs per command (after a warm-up)")
    parser.add_argument("--only", default=",".join(SECTIONS), help="sections, comma-separated: " + ",".join(SECTIONS))
    parser.add_argument("--skip", default="", help="sections to leave out, e.g. build")
    parser.add_argument("--real-tree", default="/usr/lib/python3.11", help="an installed tree with binary files")
    parser.add_argument("--tool-tree", default="/usr/include", help="the tree agent-run tool's grep and glob search")
    parser.add_argument("--smoke", action="store_true", help="tiny trees, one run: checks the harness, not targets")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    options = parser.parse_args()
    if options.smoke:
        options.runs = 2
    bench = Bench(options)
    chosen = [s for s in options.only.split(",") if s and s not in options.skip.split(",")]
    load_before = measure.load()
    try:
        for section in chosen:
            globals()["section_" + section](bench)
    finally:
        if options.keep:
            print("kept", bench.temp)
        else:
            shutil.rmtree(bench.temp, ignore_errors=True)
    print("machine: %s; load average before %s, after %s; hyperfine medians of %d runs after a warm-up" %
          (describe_machine(), load_before, measure.load(), options.runs))
    print(bench.table.markdown())
    print("targets: " + ("all met" if not bench.table.missed else "MISSED: " + "; ".join(bench.table.missed)))
    if bench.table.missed and not options.smoke:
        sys.exit(1)


if __name__ == "__main__":
    main()
