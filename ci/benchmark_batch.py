#!/usr/bin/env python3
"""Batch-run benchmark for agent-run (run by ci/benchmark-batch.sh; not part of ctest).

Makes a git repository of generated Python files, then measures:
  1. worktree creation: agent-run's (durations.workspace_ms of a one-attempt run) against
     `git worktree add -b`, sampled alternately so that load on the machine hits both alike. git
     is timed twice: in a folder marked like agent-run's scratch folder (chattr +T, which spreads
     its subfolders over the filesystem's block groups; the like-for-like comparison) and in a
     plain folder (what git gets by default);
  2. a batch of scripted attempts at -j N: the per-attempt overhead beyond making and removing
     workspaces, from the wall time and the report's durations; and agent-run's peak memory.
Prints the figures with their targets; exits 1 when a target is missed.
"""

import argparse
import array
import fcntl
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TARGET_OVERHEAD_MS = 100
TARGET_WORKTREE_RATIO = 1.2
TARGET_PEAK_MB = 150
FS_IOC_GETFLAGS = 0x80086601
FS_IOC_SETFLAGS = 0x40086602
FS_TOPDIR_FL = 0x00020000


def spread_subfolders(folder):
    """chattr +T, as agent-run does to its scratch folder (a hint ext2/3/4 take, others refuse)."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        flags = array.array("i", [0])
        fcntl.ioctl(fd, FS_IOC_GETFLAGS, flags, True)
        flags[0] |= FS_TOPDIR_FL
        fcntl.ioctl(fd, FS_IOC_SETFLAGS, flags, True)
    except OSError:
        pass
    finally:
        os.close(fd)


def make_repository(repo, files):
    folders = max(1, files // 40)
    for index in range(files):
        path = os.path.join(repo, "src", "pkg_%03d" % (index % folders), "mod_%04d.py" % index)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as out:
            out.write("".join("def function_%d(x):\n    return x * %d + %d\n\n" % (i, i, index) for i in range(30)))
    os.makedirs(os.path.join(repo, "bench"), exist_ok=True)
    with open(os.path.join(repo, "bench", "policy.yaml"), "w") as out:
        out.write("version: 1\nunmatched: deny\nrules:\n  - id: edits\n    allow: [edit_file]\n")
    with open(os.path.join(repo, "bench", "empty.yaml"), "w") as out:
        out.write("prompt: nothing\nchecks:\n  - run: test -d src\nscript:\n  - say: Done.\n")  # no warning per run
    subprocess.run("git init -q -b main . && git add -A && git -c user.name=bench -c user.email=bench@example.invalid "
                   "commit -qm bench", shell=True, cwd=repo, check=True)


def write_tasks(repo, tasks, files):
    """Each task reads one file, edits it and ends: three model turns through the real loop."""
    paths = []
    folders = max(1, files // 40)
    for index in range(tasks):
        target = "src/pkg_%03d/mod_%04d.py" % (index % folders, index)
        path = os.path.join(repo, "bench", "task-%03d.yaml" % index)
        with open(path, "w") as out:
            out.write("prompt: edit %s\npolicy: policy.yaml\nscript:\n"
                      "  - call: {tool: read_file, input: {path: %s}}\n"
                      "  - call: {tool: edit_file, input: {path: %s, old: \"x * 1 +\", new: \"x * 100 +\"}}\n"
                      "  - say: Done.\n" % (target, target, target))
        paths.append(path)
    return paths


def run_agent_run(binary, arguments, cwd, env):
    """Runs agent-run; returns (exit code, wall seconds, peak resident memory in KiB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    completed = subprocess.run([binary] + arguments, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    wall = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if completed.returncode != 0:
        sys.stdout.write(completed.stdout.decode(errors="replace"))
    return completed.returncode, wall, max(peak, before)


def time_git_worktree_add(repo, folder, index):
    started = time.perf_counter()
    subprocess.run(["git", "worktree", "add", "-q", "-b", "bench/%d" % index, folder, "HEAD"], cwd=repo, check=True)
    elapsed = (time.perf_counter() - started) * 1000
    subprocess.run(["git", "worktree", "remove", "--force", folder], cwd=repo, check=True)
    subprocess.run(["git", "branch", "-q", "-D", "bench/%d" % index], cwd=repo, check=True)
    return elapsed


def compare_worktree_creation(binary, repo, scratch, env, samples):
    """Alternates git in a marked folder, agent-run, and git in a plain folder."""
    ours, gits, plain_gits = [], [], []
    out = os.path.join(scratch, "one")
    marked, plain = os.path.join(scratch, "git-marked"), os.path.join(scratch, "git-plain")
    os.makedirs(marked)
    os.makedirs(plain)
    spread_subfolders(marked)
    for index in range(samples):
        gits.append(time_git_worktree_add(repo, os.path.join(marked, "w%d" % index, "repo"), index))
        code, _, _ = run_agent_run(binary, ["bench/empty.yaml", "--out", out, "--quiet", "--no-diagnostics"], repo, env)
        if code != 0:
            sys.exit("agent-run failed on the empty task")
        with open(os.path.join(out, "report.json")) as report:
            ours.append(json.load(report)["attempts"][0]["durations"]["workspace_ms"])
        plain_gits.append(time_git_worktree_add(repo, os.path.join(plain, "w%d" % index, "repo"), index))
    return ours, gits, plain_gits


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", help="the agent-run executable")
    parser.add_argument("--files", type=int, default=2000, help="files in the generated repository")
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=10, help="attempts per task")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=10, help="worktree creations timed on each side")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    options = parser.parse_args()

    temp = tempfile.mkdtemp(prefix="agent-run-bench-")
    repo = os.path.join(temp, "repo")
    scratch = os.path.join(temp, "scratch")
    os.makedirs(scratch)
    env = dict(os.environ, TMPDIR=scratch)
    try:
        make_repository(repo, options.files)
        tasks = write_tasks(repo, options.tasks, options.files)
        subprocess.run("git add -A && git -c user.name=bench -c user.email=bench@example.invalid commit -qm tasks",
                       shell=True, cwd=repo, check=True)
        ours, gits, plain_gits = compare_worktree_creation(os.path.abspath(options.binary), repo, scratch, env,
                                                           options.samples)

        out = os.path.join(temp, "out")
        arguments = [os.path.relpath(t, repo) for t in tasks] + [
            "--repeat", str(options.repeat), "-j", str(options.jobs), "--out", out, "--quiet",
            "--no-diagnostics"]  # the runner's own overhead; ci/bench-diagnostics.sh times the diagnostics
        code, wall, peak_kib = run_agent_run(os.path.abspath(options.binary), arguments, repo, env)
        with open(os.path.join(out, "report.json")) as report:
            attempts = json.load(report)["attempts"]
        report_figures(options, code, wall, peak_kib, attempts, ours, gits, plain_gits)
    finally:
        if options.keep:
            print("kept", temp)
        else:
            shutil.rmtree(temp, ignore_errors=True)


def report_figures(options, code, wall, peak_kib, attempts, ours, gits, plain_gits):
    count = len(attempts)
    passed = sum(1 for a in attempts if a["outcome"] == "passed")
    create = [a["durations"]["workspace_ms"] for a in attempts]
    remove = [a["durations"]["cleanup_ms"] for a in attempts]
    inside = [a["durations"]["total_ms"] - a["durations"]["workspace_ms"] - a["durations"]["cleanup_ms"] for a in attempts]
    busy_ms = wall * 1000 * options.jobs
    beyond_both = (busy_ms - sum(create) - sum(remove)) / count
    beyond_creation = (busy_ms - sum(create)) / count
    ratio = statistics.median(ours) / statistics.median(gits)
    peak_mb = peak_kib / 1024
    load = os.getloadavg()

    print("repository: %d files; machine: %d cores, load average %.1f %.1f %.1f" %
          ((options.files, os.cpu_count()) + load))
    print("batch: %d attempts (%d passed, exit %d) at -j %d in %.1f s wall" %
          (count, passed, code, options.jobs, wall, ))
    print("  workspace creation per attempt: median %d ms; removal: median %d ms" %
          (statistics.median(create), statistics.median(remove)))
    print("  per-attempt overhead beyond workspace creation and removal: %.0f ms  (target < %d ms)" %
          (beyond_both, TARGET_OVERHEAD_MS))
    print("    (wall time x jobs, less every attempt's workspace creation and removal, per attempt; "
          "beyond creation alone: %.0f ms; inside attempts alone: median %d ms)" %
          (beyond_creation, statistics.median(inside)))
    print("worktree creation, %d samples each, alternated: agent-run median %d ms (min %d); "
          "git worktree add median %d ms (min %d) in a folder marked alike, %d ms (min %d) in a plain folder" %
          (len(ours), statistics.median(ours), min(ours), statistics.median(gits), min(gits),
           statistics.median(plain_gits), min(plain_gits)))
    print("  ratio to git worktree add in a folder marked alike: %.2fx  (target <= %.1fx); to git in a plain "
          "folder: %.2fx" % (ratio, TARGET_WORKTREE_RATIO, statistics.median(ours) / statistics.median(plain_gits)))
    print("peak memory of agent-run: %.1f MB  (target < %d MB)" % (peak_mb, TARGET_PEAK_MB))
    missed = [name for name, ok in (("overhead", beyond_both < TARGET_OVERHEAD_MS),
                                    ("worktree ratio", ratio <= TARGET_WORKTREE_RATIO),
                                    ("peak memory", peak_mb < TARGET_PEAK_MB),
                                    ("all attempts passed", passed == count and code == 0)) if not ok]
    print("targets: " + ("all met" if not missed else "MISSED: " + ", ".join(missed)))
    if missed:
        sys.exit(1)


if __name__ == "__main__":
    main()
