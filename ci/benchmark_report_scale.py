#!/usr/bin/env python3
"""What the reports cost at scale (run by ci/benchmark-batch.sh --scale N; not part of ctest).

One tiny scripted task (one model turn, the check `true`) in a one-file repository, run N times
(--repeat N) at -j J under /usr/bin/time -v. Prints the wall time against the attempts' own time
(the sum of their durations.total_ms over J), the time between the last attempt finishing (its
started_at, to the second, plus its total_ms) and the run ending, agent-run's peak memory, and the
sizes of report.json, junit.xml, summary.md and report.html. Exits 1 when the run takes more than
5% beyond its attempts' time or leaves more than a second after the last attempt.

  ci/benchmark-batch.sh --scale 2000 --jobs 2             # the build's agent-run
  ci/benchmark_report_scale.py BINARY --scale 2000 --jobs 2  # any binary (main's, to compare)
"""

import argparse
import calendar
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TARGET_BEYOND = 0.05  # the run's wall time beyond its attempts' time, as a fraction of it
TARGET_TAIL_S = 1.0   # from the last attempt's end to the run's


def epoch_s(utc):
    return calendar.timegm(time.strptime(utc, "%Y-%m-%dT%H:%M:%SZ"))


def make_repository(repo):
    os.makedirs(os.path.join(repo, "bench"))
    with open(os.path.join(repo, "README"), "w") as out:
        out.write("a repository with one file\n")
    with open(os.path.join(repo, "bench", "tiny.yaml"), "w") as out:
        out.write("prompt: nothing\nmodel: script\nchecks:\n  - run: \"true\"\nscript:\n  - say: Done.\n")
    subprocess.run("git init -q -b main . && git add -A && git -c user.name=bench -c user.email=bench@example.invalid "
                   "commit -qm bench", shell=True, cwd=repo, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", help="the agent-run executable")
    parser.add_argument("--scale", type=int, default=2000, help="attempts (--repeat)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    options = parser.parse_args()

    temp = tempfile.mkdtemp(prefix="agent-run-scale-")
    repo, out, scratch = (os.path.join(temp, name) for name in ("repo", "out", "scratch"))
    os.makedirs(scratch)
    env = dict(os.environ, TMPDIR=scratch)
    try:
        make_repository(repo)
        command = ["/usr/bin/time", "-v", os.path.abspath(options.binary), "bench/tiny.yaml", "--repeat",
                   str(options.scale), "-j", str(options.jobs), "--out", out, "--quiet", "--no-diagnostics"]
        started = time.time()
        completed = subprocess.run(command, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        ended = time.time()
        text = completed.stdout.decode(errors="replace")
        peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
        cpu = sum(float(m) for m in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", text))
        with open(os.path.join(out, "report.json")) as report:
            attempts = json.load(report)["attempts"]
        report_figures(options, completed.returncode, started, ended, int(peak.group(1)) if peak else 0, cpu,
                       attempts, out)
    finally:
        if options.keep:
            print("kept", temp)
        else:
            shutil.rmtree(temp, ignore_errors=True)


def report_figures(options, code, started, ended, peak_kib, cpu, attempts, out):
    wall = ended - started
    attempts_s = sum(a["durations"]["total_ms"] for a in attempts) / 1000 / options.jobs
    last_end = max(epoch_s(a["started_at"]) + a["durations"]["total_ms"] / 1000 for a in attempts)
    tail = ended - last_end  # the started_at is to the second: up to a second too long
    beyond = wall / attempts_s - 1
    sizes = ", ".join("%s %.1f MB" % (name, os.path.getsize(os.path.join(out, name)) / 1e6)
                      for name in ("report.json", "junit.xml", "summary.md", "report.html")
                      if os.path.exists(os.path.join(out, name)))
    load = os.getloadavg()
    print("machine: %d cores, load average %.1f %.1f %.1f" % ((os.cpu_count(),) + load))
    print("%d attempts at -j %d (exit %d): wall %.1f s; attempts' own time (sum of total_ms / jobs) %.1f s; "
          "beyond it %.1f%%  (target <= %d%%)" % (len(attempts), options.jobs, code, wall, attempts_s,
                                                    100 * beyond, 100 * TARGET_BEYOND))
    print("  after the last attempt ended: %.1f s  (target <= %.0f s; to the second)" % (tail, TARGET_TAIL_S))
    print("  peak memory of agent-run: %.1f MB; CPU (user + system, its children included): %.1f s; reports: %s" %
          (peak_kib / 1024, cpu, sizes))
    missed = [name for name, ok in (("time beyond the attempts", beyond <= TARGET_BEYOND),
                                    ("time after the last attempt", tail <= TARGET_TAIL_S),
                                    ("every attempt reported", len(attempts) == options.scale)) if not ok]
    print("targets: " + ("all met" if not missed else "MISSED: " + ", ".join(missed)))
    if missed:
        sys.exit(1)


if __name__ == "__main__":
    main()
