"""The trees and repositories ci/benchmark.sh measures on, generated the same way every run (seeded)."""

import os
import random
import shutil
import subprocess
import zipfile

WORDS = ["value", "result", "handler", "config", "parse", "buffer", "index", "count", "items", "name",
         "error", "status", "request", "client", "offset", "length", "state", "flags", "node", "data"]
MARKERS = ["TODO: tidy this up", "FIXME handle the error", "XXX slow path", "NOTE keep in sync"]


def source_text(rng, lines):
    """Lines in the style of Python source, with a marker comment now and then."""
    out = []
    for number in range(lines):
        a, b = rng.choice(WORDS), rng.choice(WORDS)
        if rng.random() < 0.03:
            out.append("    # %s (%s)\n" % (rng.choice(MARKERS), a))
        elif number % 12 == 0:
            out.append("def %s_%s_init(%s, %s):\n" % (a, b, a, b))
        else:
            out.append("    %s = %s_%d(%s) + %d\n" % (a, b, number, a, rng.randrange(1000)))
    return "".join(out)


def random_binary(rng, size):
    """Random bytes: NUL bytes among them from the start, as in object code or compressed data."""
    return rng.randbytes(size)


def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(path, mode) as out:
        out.write(content)


def make_binary_tree(root, scale):
    """Sources beside large binary files: a 45 MB static library, wheels and shared objects."""
    rng = random.Random(16)
    write(os.path.join(root, "build", "libbig.a"), b"!<arch>\n" + random_binary(rng, int(45e6 * scale)))
    for index in range(3):
        wheel = os.path.join(root, "dist", "pkg_%d-1.0-py3-none-any.whl" % index)
        os.makedirs(os.path.dirname(wheel), exist_ok=True)
        with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
            for member in range(int(40 * scale) + 1):
                archive.writestr("pkg_%d/mod_%d.py" % (index, member), source_text(rng, 400))
    for index in range(4):
        write(os.path.join(root, "lib", "_native_%d.so" % index),
              b"\x7fELF\x02\x01\x01\x00" + random_binary(rng, int(6e6 * scale)))
    for index in range(int(2000 * scale) + 1):
        write(os.path.join(root, "src", "pkg_%02d" % (index % 40), "mod_%04d.py" % index),
              source_text(rng, rng.randrange(40, 400)))


def make_many_files_repository(root, files):
    """A committed git repository of `files` small source files in folders of 50, with a .gitignore."""
    rng = random.Random(50)
    for index in range(files):
        write(os.path.join(root, "src", "pkg_%04d" % (index // 50), "mod_%05d.py" % index),
              source_text(rng, rng.randrange(10, 60)))
    write(os.path.join(root, ".gitignore"), "*.log\nbuild/\n")
    write(os.path.join(root, "build", "ignored.py"), source_text(rng, 50))
    commit_all(root)


def commit_all(root):
    """Makes `root` a git repository with one commit of everything in it."""
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
    subprocess.run(["git", "init", "-q", "-b", "main", "."], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(git + ["commit", "-qm", "generated"], cwd=root, check=True)


def make_tasks(folder, count):
    """`count` scripted task files of a read, an edit of the same file and a last word, each checking its edit
    (without checks, agent-run warns once per task file, and validate's figure would time 1,000 warnings)."""
    paths = []
    for index in range(count):
        target = "src/pkg_%04d/mod_%05d.py" % (index // 50, index)
        path = os.path.join(folder, "task-%04d.yaml" % index)
        write(path, "prompt: edit %s\npolicy: policy.yaml\nchecks:\n  - run: grep -q 'def  ' %s\nscript:\n"
                    "  - call: {tool: read_file, input: {path: %s}}\n"
                    "  - call: {tool: edit_file, input: {path: %s, old: \"def \", new: \"def  \", replace_all: true}}\n"
                    "  - say: Done.\n" % (target, target, target, target))
        paths.append(path)
    write(os.path.join(folder, "policy.yaml"),
          "version: 1\nunmatched: deny\nrules:\n  - id: edits\n    allow: [edit_file]\n")
    return paths


def make_loop_task(folder, turns):
    """A task of `turns` read_file calls on a small file, worked in place (no workspace to make)."""
    repo = os.path.join(folder, "repo")
    if not os.path.isdir(repo):
        write(os.path.join(repo, "a.py"), "def f():\n    return 1\n")
        commit_all(repo)
    path = os.path.join(folder, "loop-%d.yaml" % turns)
    calls = "  - call: {tool: read_file, input: {path: a.py}}\n" * turns
    write(path, "prompt: loop\nworkspace: {repo: repo, isolation: in-place}\n"
                "limits: {turns: %d, time: 1h, tokens: 100000000000}\nscript:\n%s  - say: Done.\n" % (turns + 1, calls))
    return path


def make_big_file(path, size):
    """A text file of about `size` bytes of log lines (written in large blocks); returns (bytes, lines)."""
    block_lines = 20000
    data = "".join("%08d log line with some words in it, value=%d\n" % (i, i * 7) for i in range(block_lines)).encode()
    blocks = max(1, size // len(data))
    with open(path, "wb") as out:
        for _ in range(blocks):
            out.write(data)
    return blocks * len(data), blocks * block_lines


def remove(path):
    shutil.rmtree(path, ignore_errors=True)
