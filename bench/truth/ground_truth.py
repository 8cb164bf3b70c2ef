"""The ground truth: the project's own compiler or type checker, run on the workspace as it is now.

Each checker returns a list of Finding(path, line, severity, message) with workspace-relative paths.
Go: `go test -c -o /dev/null -vet=off -gcflags=-e PACKAGE`, once per package of `go list ./...`,
compiles each package with its tests and reports every compile error (errors; `go test ./...` at
once leaves a package's test files uncompiled when the package alone fails); `go vet ./...` (its findings are warnings) runs only when an
edit reported an error where the compiler found none. Python: `pyright --outputjson` on the files asked for (errors and warnings as
pyright says). TypeScript: `tsc --noEmit --pretty false -p .`. C: `gcc -fsyntax-only` with the flags
of compile_flags.txt, once per .c file asked for (headers are checked through the .c files).
"""

import collections
import json
import os
import re
import subprocess

Finding = collections.namedtuple("Finding", "path line severity message")

GO_LINE = re.compile(r"^(?:vet: )?(?:\./)?([^\s:][^:]*\.go):(\d+)(?::\d+)?: (.*)$")
TSC_LINE = re.compile(r"^(.+\.tsx?)\((\d+),\d+\): (error|warning) (TS\d+: .*)$")
GCC_LINE = re.compile(r"^(.+?):(\d+):\d+: (error|warning): (.*)$")


def run(command, cwd, env, timeout=300):
    result = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, timeout=timeout)
    return result.stdout


def relative(workspace, path):
    path = os.path.normpath(os.path.join(workspace, path))
    return os.path.relpath(path, workspace)


def go_findings(workspace, env, files=None):
    """Every compile error of every package with its tests, one package at a time: `go test ./...`
    does not compile a package's test files when the package alone fails (so a test file's
    `undefined: name` appears only once the package compiles), go build sees no test file, and go
    vet stops at a package's first type error."""
    listed = run(["go", "list", "-e", "./..."], workspace, env)
    packages = [line.strip() for line in listed.splitlines() if line.strip() and " " not in line.strip()]
    findings = set()
    for package in packages:
        compiled = run(["go", "test", "-c", "-o", os.devnull, "-vet=off", "-gcflags=-e", package], workspace, env)
        for line in compiled.splitlines():
            match = GO_LINE.match(line.strip())
            if match:
                findings.add(Finding(relative(workspace, match.group(1)), int(match.group(2)), "error",
                                     match.group(3)))
    return sorted(findings)


def go_vet_findings(workspace, env):
    """`go vet ./...`'s findings, as warnings: asked for only when an edit reported an error at a line where
    the compiler found none (a vet finding there is then a wrong severity, not a false problem)."""
    vetted = run(["go", "vet", "./..."], workspace, env)
    findings = []
    for line in vetted.splitlines():
        match = GO_LINE.match(line.strip())
        if match:
            findings.append(Finding(relative(workspace, match.group(1)), int(match.group(2)), "warning",
                                    match.group(3)))
    return findings


def pyright_findings(workspace, env, files=None):
    pyright = os.path.join(env["TRUTH_TOOLS_BIN"], "pyright")
    if files is not None:
        files = sorted(f for f in files if os.path.isfile(os.path.join(workspace, f)))
        if not files:
            return []
    output = run([pyright, "--outputjson"] + (files or ["."]), workspace, env)
    if "{" not in output:
        raise RuntimeError("pyright printed no report: " + output[-2000:])
    report = json.loads(output[output.index("{"):])
    findings = []
    for item in report.get("generalDiagnostics", []):
        if item["severity"] not in ("error", "warning"):
            continue
        findings.append(Finding(relative(workspace, item["file"]), item["range"]["start"]["line"] + 1,
                                item["severity"], item["message"].split("\n")[0]))
    return findings


def tsc_findings(workspace, env, files=None):
    tsc = os.path.join(env["TRUTH_TOOLS_BIN"], "tsc")
    output = run([tsc, "--noEmit", "--pretty", "false", "-p", "."], workspace, env)
    findings = []
    for line in output.splitlines():
        match = TSC_LINE.match(line.strip())
        if match:
            findings.append(Finding(relative(workspace, match.group(1)), int(match.group(2)), match.group(3),
                                    match.group(4)))
    return findings


def gcc_findings(workspace, env, files=None):
    with open(os.path.join(workspace, "compile_flags.txt")) as flags_file:
        flags = [line.strip() for line in flags_file if line.strip()]
    sources = sorted(f for f in (files or all_files(workspace, (".c",))) if f.endswith(".c"))
    findings = set()
    for source in sources:
        if not os.path.exists(os.path.join(workspace, source)):
            continue
        output = run(["gcc", "-fsyntax-only", "-fmax-errors=0"] + flags + [source], workspace, env)
        for line in output.splitlines():
            match = GCC_LINE.match(line.strip())
            if match:
                findings.add(Finding(relative(workspace, match.group(1)), int(match.group(2)), match.group(3),
                                     match.group(4)))
    return sorted(findings)


def all_files(workspace, suffixes):
    found = []
    for folder, subfolders, names in os.walk(workspace):
        subfolders[:] = [s for s in subfolders if s not in (".git", "node_modules", "vendor")]
        for name in names:
            if name.endswith(suffixes):
                found.append(os.path.relpath(os.path.join(folder, name), workspace))
    return sorted(found)


CHECKERS = {"go": go_findings, "python": pyright_findings, "typescript": tsc_findings, "c": gcc_findings}
SUFFIXES = {"go": (".go",), "python": (".py",), "typescript": (".ts",), "c": (".c", ".h", ".inl")}


def callers(language, workspace, edited, module_path=""):
    """The files whose errors an edit of `edited` can change: the file itself and the files that use it."""
    files = all_files(workspace, SUFFIXES[language])
    found = {edited}
    if language == "go":
        folder = os.path.dirname(edited)
        package = module_path + ("/" + folder if folder else "")
        for f in files:
            if os.path.dirname(f) == folder:
                found.add(f)
            elif '"' + package + '"' in read(workspace, f):
                found.add(f)
    elif language == "python":
        module = os.path.splitext(os.path.basename(edited))[0]
        pattern = re.compile(r"^\s*(from\s+[\w.]*\b" + module + r"\b[\w.]*\s+import|import\s+[\w.]*\b" + module +
                             r"\b|from\s+[\w.]+\s+import\s+.*\b" + module + r"\b)", re.M)
        found.update(f for f in files if pattern.search(read(workspace, f)))
    elif language == "typescript":
        module = os.path.splitext(os.path.basename(edited))[0]
        pattern = re.compile(r"from\s+['\"][^'\"]*/" + re.escape(module) + r"['\"]")
        found.update(f for f in files if pattern.search(read(workspace, f)))
    elif language == "c":
        if not edited.endswith(".c"):
            headers = {os.path.basename(edited)}
            changed = True
            while changed:
                changed = False
                for f in files:
                    if f in found:
                        continue
                    includes = set(re.findall(r'#\s*include\s+["<]([^">]+)[">]', read(workspace, f)))
                    if any(os.path.basename(i) in headers for i in includes):
                        found.add(f)
                        if not f.endswith(".c"):
                            headers.add(os.path.basename(f))
                            changed = True
    return found


def read(workspace, path):
    try:
        with open(os.path.join(workspace, path), errors="replace") as source:
            return source.read()
    except OSError:
        return ""
