"""The HTML report benchmark (ci/bench-html-report.sh): a big report folder made from the examples'
real report, merged by agent-run, then report.html timed in headless Chromium."""

import argparse
import copy
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

MODELS = ["anthropic/claude-sonnet-4-5", "openai/gpt-4o"]
CHROMIUM = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--host-resolver-rules=MAP * ~NOTFOUND", "--hide-scrollbars", "--window-size=1200,1800"]


def model_folder(model):
    return "".join(c if c.isalnum() or c in "._-" else "-" for c in model)


def make_attempt(template, i, root, template_root):
    attempt = copy.deepcopy(template)
    task = f"bench-task-{i // 10:04d}"
    model = MODELS[i % 2]
    n = (i % 10) // 2 + 1
    attempt["task_id"] = task
    attempt["task_file"] = f"bench/{task}.yaml"
    attempt["task_sha256"] = hashlib.sha256(task.encode()).hexdigest()
    attempt["model"] = model
    if "n" in attempt:
        attempt["n"] = n
    else:
        attempt["repeat_index"] = n - 1
    attempt["tool_calls"] = attempt["tool_calls"] * 3
    if i % 4 == 1:
        attempt["outcome"], attempt["outcome_type"] = "failed", "check.failed"
        attempt["message"] = "check `python3 -m unittest -q` exited 1"
        attempt["checks"][0].update(passed=False, exit_code=1,
                                    output_tail="FAIL: test_total (tests.test_stock.StockTest)\n" + "x" * 3000 + "\n")
    folder = f"attempts/{task}/{model_folder(model)}/{n}"
    patch = os.path.join(template_root, template["patch_path"])
    attempt["transcript_path"], attempt["patch_path"] = f"{folder}/transcript.jsonl", f"{folder}/patch.diff"
    os.makedirs(os.path.join(root, folder), exist_ok=True)
    if os.path.exists(patch):
        shutil.copyfile(patch, os.path.join(root, attempt["patch_path"]))
    return attempt


def median_seconds(command, runs):
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as profile:
            started = time.monotonic()
            subprocess.run(command + [f"--user-data-dir={profile}"], check=True, capture_output=True)
            times.append(time.monotonic() - started)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("agent_run")
    parser.add_argument("--attempts", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the generated folders and say where")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="agent-run-html-bench-")
    try:
        examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tasks", "examples")
        template_root = os.path.join(work, "template")
        subprocess.run([args.agent_run, *sorted(os.path.join(examples, f) for f in os.listdir(examples) if f.endswith(".yaml")),
                        "--out", template_root, "--quiet"], check=True, capture_output=True)
        report = json.load(open(os.path.join(template_root, "report.json")))
        generated = os.path.join(work, "generated")
        attempts = [make_attempt(report["attempts"][i % len(report["attempts"])], i, generated, template_root)
                    for i in range(args.attempts)]
        report["attempts"] = attempts
        json.dump(report, open(os.path.join(generated, "report.json"), "w"))
        merged = os.path.join(work, "merged")
        subprocess.run([args.agent_run, "merge", generated, "--out", merged], check=False, capture_output=True)
        page = os.path.join(merged, "report.html")
        if not os.path.exists(page):
            sys.exit("agent-run merge wrote no report.html")
        blank = os.path.join(work, "blank.html")
        open(blank, "w").write("<!DOCTYPE html><html><body></body></html>\n")
        shot = os.path.join(work, "shot.png")
        empty = median_seconds(CHROMIUM + [f"--screenshot={shot}", f"file://{blank}"], args.runs)
        full = median_seconds(CHROMIUM + [f"--screenshot={shot}", f"file://{page}"], args.runs)
        print(f"attempts: {args.attempts}")
        print(f"report.html: {os.path.getsize(page) / 1e6:.1f} MB; summary.md: {os.path.getsize(os.path.join(merged, 'summary.md')) / 1e3:.0f} kB")
        print(f"headless Chromium screenshot, median of {args.runs}: {full:.2f} s for report.html, {empty:.2f} s for an empty page; "
              f"the report's own load and paint: {full - empty:.2f} s")
    finally:
        if args.keep:
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
