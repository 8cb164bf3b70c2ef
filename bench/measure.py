"""How ci/benchmark.sh measures: hyperfine for wall time, wait4 for peak memory, and the table it prints."""

import json
import os
import subprocess
import tempfile


def hyperfine(commands, runs, cwd=None, prepare=None):
    """Median and minimum wall seconds of each command, by hyperfine (-N: no shell), output through a pipe.

    Commands run in turn (all runs of the first, then the next), after one warm-up each."""
    with tempfile.NamedTemporaryFile(suffix=".json") as export:
        args = ["hyperfine", "-N", "--style", "none", "--output", "pipe", "--warmup", "1", "--runs", str(runs),
                "--export-json", export.name]
        if prepare:
            args += ["--prepare", prepare]
        done = subprocess.run(args + commands, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if done.returncode != 0:
            raise RuntimeError("hyperfine failed: %s\n%s" % (" | ".join(commands), done.stderr.decode(errors="replace")))
        results = json.load(open(export.name))["results"]
    return [(r["median"], r["min"]) for r in results]


def peak_memory_mib(argv, cwd=None, stdin=None, env=None):
    """Peak resident memory (MiB) of one run of argv, and its exit code, by GNU time (/usr/bin/time).

    GNU time is a small process: a child forked from this Python would carry Python's own resident
    memory into its peak, since the kernel counts the memory a process had before exec."""
    with tempfile.NamedTemporaryFile(suffix=".txt") as report:
        done = subprocess.run(["/usr/bin/time", "-o", report.name, "-f", "%M"] + argv, cwd=cwd, env=env, input=stdin,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kib = int(open(report.name).read().split()[-1])
    return kib / 1024, done.returncode


def output_of(argv, cwd=None, stdin=None, env=None):
    completed = subprocess.run(argv, cwd=cwd, input=stdin, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return completed.returncode, completed.stdout


def load():
    return "%.2f %.2f %.2f" % os.getloadavg()


class Table:
    """The rows of the benchmark's table: each figure, its peer from the same run, their ratio and the target."""

    def __init__(self):
        self.rows = []
        self.missed = []

    def add(self, section, figure, ours, unit, peer_name="", peer=None, target=None, ratio_target=None, note=""):
        """`target` is met when ours <= it (absolute); `ratio_target` when ours / peer <= it."""
        ratio = ours / peer if peer else None
        checks, targets = [], []
        if target is not None:
            checks.append(ours <= target)
            targets.append("<= %s %s" % (number(target), unit))
        if ratio_target is not None and ratio is not None:
            checks.append(ratio <= ratio_target)
            targets.append("<= %.1fx" % ratio_target)
        target_text = ", ".join(targets)
        verdict = "" if not checks else "met" if all(checks) else "MISSED"
        if verdict == "MISSED":
            self.missed.append("%s: %s%s" % (section, figure, " against " + peer_name if peer_name else ""))
        self.rows.append([section, figure, "%s %s" % (number(ours), unit),
                          peer_name, "%s %s" % (number(peer), unit) if peer is not None else "",
                          "%.2fx" % ratio if ratio is not None else "", target_text, verdict, note])

    def fail(self, section, figure, what):
        self.missed.append("%s: %s" % (section, figure))
        self.rows.append([section, figure, "", "", "", "", "", "MISSED", what])

    def markdown(self):
        header = ["section", "figure", "agent-run", "peer", "peer's", "ratio", "target", "", "note"]
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for row in self.rows:
            lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
        return "\n".join(lines)


def number(value):
    if value is None:
        return ""
    if value >= 100:
        return "%.0f" % value
    if value >= 10:
        return "%.1f" % value
    if value >= 1:
        return "%.2f" % value
    return "%.3f" % value
