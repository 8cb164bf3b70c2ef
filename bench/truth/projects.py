"""The benchmark's projects: where each one's sources come from (installed by ci/install-truth-bench.sh),
how it is laid into a workspace, and its scripted session.

A session is a list of steps: ("grep", pattern), ("read", path), ("edit", path, old, new[, replace_all])
(the driver reads the file first, as an agent must), ("write", path, content) and ("bash", command).
Every session renames a function across files (definition first, then its callers, test files
included), makes a deliberate mistake and fixes it, and changes files by bash (`sed -i`, a file moved
with `mv`, a generated file) between edits. (`git mv` cannot run there: the sandbox keeps `.git/`
read-only, so a move is a plain `mv`, as an agent in the sandbox has to do it.) Each ends on a correct tree: the project's checker finds no error
that its baseline did not have.
"""

import os
import shutil

GOCODE = "/usr/share/gocode/src"


def copy_tree(source, destination, keep=None):
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".cargo-checksum.json")
    if keep is None:
        shutil.copytree(source, destination, ignore=ignore, dirs_exist_ok=True)
        return
    for name in keep:
        path = os.path.join(source, name)
        if os.path.isdir(path):
            shutil.copytree(path, os.path.join(destination, name), ignore=ignore)
        else:
            shutil.copy2(path, os.path.join(destination, name))


# --- Go: gorilla/mux 1.8.0 (golang-github-gorilla-mux-dev), no dependencies -------------------------

def prepare_mux(workspace, tools):
    copy_tree(GOCODE + "/github.com/gorilla/mux", workspace)


MUX_SESSION = [
    ("grep", "newRouteRegexp"),
    ("read", "regexp.go"),
    ("edit", "regexp.go", "// newRouteRegexp parses a route template", "// parseRouteTemplate parses a route template"),
    ("edit", "regexp.go", "func newRouteRegexp(tpl string", "func parseRouteTemplate(tpl string"),
    ("read", "route.go"),
    ("edit", "route.go", "rr, err := newRouteRegexp(tpl", "rr, err := parseRouteTemplat(tpl"),  # the mistake
    ("edit", "route.go", "rr, err := parseRouteTemplat(tpl", "rr, err := parseRouteTemplate(tpl"),  # its fix
    ("bash", "sed -i 's/newRouteRegexp(/parseRouteTemplate(/' old_test.go"),
    ("grep", "newRouteRegexp"),
    ("edit", "mux_test.go", 'r, _ = newRouteRegexp("hi"', 'r, _ = parseRouteTemplate("hi"'),
    ("bash", "mv test_helpers.go testing_helpers.go && git status --short | head -5"),
    ("bash", "printf 'package mux\\n\\n// Version is the version of this copy of gorilla/mux.\\nconst Version = \"1.8.0\"\\n'"
             " > version.go"),
    ("write", "version_test.go", 'package mux\n\nimport "testing"\n\nfunc TestVersion(t *testing.T) {\n'
                                 '\tif Version != 1.8 {\n\t\tt.Fatal(Version)\n\t}\n}\n'),  # a mistake: a string vs 1.8
    ("edit", "version_test.go", "if Version != 1.8 {", 'if Version != "1.8.0" {'),
    ("edit", "testing_helpers.go", "package mux", "package mux // helpers for the tests"),
    ("bash", "go vet ./... 2>&1 | tail -3; echo vet done"),
]


# --- Go: spf13/cobra 1.6.1 (golang-github-spf13-cobra-dev), its dependencies vendored ----------------

COBRA_VENDOR = [  # (module, version, packages, explicit in go.mod)
    ("github.com/cpuguy83/go-md2man/v2", "v2.0.2", ["github.com/cpuguy83/go-md2man/v2/md2man"], True),
    ("github.com/inconshreveable/mousetrap", "v1.0.1", [], True),
    ("github.com/russross/blackfriday/v2", "v2.1.0", ["github.com/russross/blackfriday/v2"], False),
    ("github.com/spf13/pflag", "v1.0.5", ["github.com/spf13/pflag"], True),
    ("gopkg.in/yaml.v3", "v3.0.1", ["gopkg.in/yaml.v3"], True),
]


def prepare_cobra(workspace, tools):
    """cobra with vendor/ made from Debian's copies of its dependencies, so that it builds offline."""
    copy_tree(GOCODE + "/github.com/spf13/cobra", workspace)
    lines = []
    for module, version, packages, explicit in COBRA_VENDOR:
        lines.append("# " + module + " " + version)
        if explicit:
            lines.append("## explicit")
        for package in packages:
            lines.append(package)
            source = os.path.join(GOCODE, package)
            target = os.path.join(workspace, "vendor", package)
            os.makedirs(target, exist_ok=True)
            for name in os.listdir(source):
                if name.endswith(".go") and not name.endswith("_test.go"):
                    shutil.copy2(os.path.join(source, name), target)
    with open(os.path.join(workspace, "vendor", "modules.txt"), "w") as out:
        out.write("\n".join(lines) + "\n")


COBRA_SESSION = [
    ("grep", "legacyArgs\\("),
    ("read", "args.go"),
    ("edit", "args.go", "func legacyArgs(cmd *Command, args []string) error {",
     "func checkLegacyArgs(cmd *Command, args []string) error {"),
    ("edit", "command.go", "return commandFound, a, legacyArgs(commandFound",
     "return commandFound, a, checkLegacyArgs(commandFound"),
    ("edit", "command.go", "func stripFlags(args []string, c *Command) []string {",
     "func removeFlags(args []string, c *Command) []string {"),
    ("edit", "command.go", "stripFlags(", "removeFlags(", True),
    ("bash", "sed -i 's/stripFlags(test.input, c)/removeFlags(test.input, c)/' command_test.go && grep -c removeFlags command_test.go"),
    ("read", "doc/util.go"),
    ("edit", "doc/util.go", "func hasSeeAlso(cmd *cobra.Command) bool {",
     "func hasSeeAlsoCommands(cmd *cobra.Command) bool {"),
    ("bash", "sed -i 's/hasSeeAlso(cmd)/hasSeeAlsoCommand(cmd)/' doc/md_docs.go doc/rest_docs.go doc/man_docs.go doc/yaml_docs.go"),
    ("edit", "doc/md_docs.go", "hasSeeAlsoCommand(cmd)", "hasSeeAlsoCommands(cmd)"),  # the sed's typo, fixed file by file
    ("bash", "sed -i 's/hasSeeAlsoCommand(cmd)/hasSeeAlsoCommands(cmd)/' doc/rest_docs.go doc/man_docs.go doc/yaml_docs.go"),
    ("edit", "doc/util.go", "func hasSeeAlsoCommands(", "// hasSeeAlsoCommands reports whether cmd has commands to list.\nfunc hasSeeAlsoCommands("),
    ("bash", "mv flag_groups.go flags_groups.go && printf 'package cobra\\n\\n// generated by the benchmark\\n"
             "const generatedVersion = \"1.6.1\"\\n' > zz_generated.go"),
    ("write", "zz_generated_test.go", 'package cobra\n\nimport "testing"\n\nfunc TestGeneratedVersion(t *testing.T) {\n'
                                      '\tvar n int = generatedVersion\n\tt.Log(n)\n}\n'),  # a mistake: a string in an int
    ("edit", "zz_generated_test.go", "var n int = generatedVersion", "var n string = generatedVersion"),
    ("edit", "flags_groups.go", "package cobra", "package cobra // flag groups"),
    ("bash", "go vet ./... 2>&1 | tail -3; echo vet done"),
]


# --- Python: pyflakes 2.5.0 (python3-pyflakes), with its own tests ------------------------------------

def prepare_pyflakes(workspace, tools):
    copy_tree("/usr/lib/python3/dist-packages/pyflakes", os.path.join(workspace, "pyflakes"))


PYFLAKES_SESSION = [
    ("grep", "iterSourceCode"),
    ("read", "pyflakes/api.py"),
    ("edit", "pyflakes/api.py", "def iterSourceCode(paths):", "def iter_source_code(paths):"),
    ("edit", "pyflakes/api.py", "iterSourceCode", "iter_source_code", True),
    ("bash", "sed -i 's/iterSourceCode/iter_source_code/g' pyflakes/scripts/pyflakes.py && git diff --stat"),
    ("read", "pyflakes/test/test_api.py"),
    ("edit", "pyflakes/test/test_api.py", "iterSourceCode", "iter_sourcecode", True),  # the mistake
    ("edit", "pyflakes/test/test_api.py", "iter_sourcecode", "iter_source_code", True),  # its fix
    ("bash", "printf 'VERSION_INFO = (2, 5, 0)\\n' > pyflakes/version_info.py"),
    ("edit", "pyflakes/api.py", "from pyflakes import reporter as modReporter",
     "from pyflakes import reporter as modReporter\nfrom pyflakes.version_info import VERSION_INFO"),
    ("bash", "mv pyflakes/test/test_code_segment.py pyflakes/test/test_segments.py"),
    ("write", "pyflakes/test/test_truth.py",
     "from pyflakes.api import iter_source_code\nfrom pyflakes.version_info import VERSION_INFO\n\n\n"
     "def test_nothing_in_an_empty_list():\n    assert list(iter_source_code([], True)) == []\n"
     "    assert VERSION_INFO[0] == 2\n"),  # a mistake: iter_source_code takes one argument
    ("edit", "pyflakes/test/test_truth.py", "iter_source_code([], True)", "iter_source_code([])"),
    ("edit", "pyflakes/test/test_segments.py", "from pyflakes import messages as m",
     "from pyflakes import messages as m  # moved by mv"),
    ("bash", "python3 -m unittest -q pyflakes.test.test_api 2>&1 | tail -1"),
]


# --- TypeScript: redux 5.0.1 (npm), its src/ with a tsconfig.json ------------------------------------

REDUX_TSCONFIG = """{
  "compilerOptions": {
    "target": "ES2019",
    "module": "ESNext",
    "moduleResolution": "Node",
    "lib": ["ES2019", "DOM"],
    "types": ["node"],
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true,
    "esModuleInterop": true
  },
  "include": ["src", "test"]
}
"""


def prepare_redux(workspace, tools):
    """redux's TypeScript sources as npm ships them, with @types/node, and a tsconfig.json like upstream's
    (the package does not ship one: it is the one file here that is ours)."""
    truth = os.path.join(tools, "truth")
    copy_tree(os.path.join(truth, "redux"), workspace, keep=["src", "package.json", "LICENSE.md"])
    copy_tree(os.path.join(truth, "types-node"), os.path.join(workspace, "node_modules", "@types", "node"))
    copy_tree(os.path.join(truth, "undici-types"), os.path.join(workspace, "node_modules", "undici-types"))
    for marker in ("node_modules/@types/node/.unpacked", "node_modules/undici-types/.unpacked"):
        os.remove(os.path.join(workspace, marker))
    with open(os.path.join(workspace, "tsconfig.json"), "w") as out:
        out.write(REDUX_TSCONFIG)
    with open(os.path.join(workspace, ".gitignore"), "w") as out:
        out.write("node_modules/\n")


REDUX_SESSION = [
    ("grep", "kindOf"),
    ("read", "src/utils/kindOf.ts"),
    ("edit", "src/utils/kindOf.ts", "export function kindOf(val: any) {", "export function describeType(val: any) {"),
    ("read", "src/createStore.ts"),
    ("edit", "src/createStore.ts", "kindOf", "describeType", True),  # the mistake: the import path changes too
    ("edit", "src/createStore.ts", "from './utils/describeType'", "from './utils/kindOf'"),  # its fix
    ("bash", "sed -i -e 's/{ kindOf }/{ describeType }/' -e 's/[$]{kindOf/${describeType/g' "
             "src/bindActionCreators.ts src/combineReducers.ts && git diff --stat"),
    ("edit", "src/bindActionCreators.ts", "import { describeType } from './utils/kindOf'",
     "import { describeType } from './utils/kindOf' // renamed from kindOf"),
    ("bash", "mv src/utils/warning.ts src/utils/warn.ts"),
    ("edit", "src/combineReducers.ts", "from './utils/warning'", "from './utils/warn'"),
    ("bash", "grep -rl \"utils/warning'\" src | xargs -r sed -i \"s#utils/warning'#utils/warn'#\"; "
             "printf \"export const VERSION = '5.0.1'\\n\" > src/version.ts"),
    ("edit", "src/index.ts", "import isPlainObject from './utils/isPlainObject'",
     "import isPlainObject from './utils/isPlainObject'\nexport { VERSION } from './version'"),
    ("write", "test/describeType.test.ts",
     "import { describeType } from '../src/utils/kindOf'\nimport { VERSION } from '../src/version'\n\n"
     "const kind: number = describeType(1)\nif (VERSION !== '5.0.1') throw new Error(String(kind))\n"),  # a mistake
    ("edit", "test/describeType.test.ts", "const kind: number = describeType(1)", "const kind: string = describeType(1)"),
    ("edit", "src/utils/kindOf.ts", "export function describeType(val: any) {",
     "/** What `val` is, for error messages. */\nexport function describeType(val: any) {"),
    ("bash", "ls src src/utils test"),
]


# --- C: ring 0.16.20's C sources (BoringSSL's, from librust-ring-dev), with compile_flags.txt ---------

RING = "/usr/share/cargo/registry/ring-0.16.20"

# build.rs's flags for C on Linux (c_flags and cpp_flags), less those that only tune code generation.
RING_FLAGS = ["-Iinclude", "-std=c1x", "-pedantic", "-pedantic-errors", "-Wall", "-Wextra", "-Wbad-function-cast",
              "-Wnested-externs", "-Wstrict-prototypes"]


def prepare_ring(workspace, tools):
    copy_tree(RING, workspace, keep=["crypto", "include", "LICENSE"])
    with open(os.path.join(workspace, "compile_flags.txt"), "w") as out:
        out.write("\n".join(RING_FLAGS) + "\n")


RING_SESSION = [
    ("grep", "LIMBS_are_zero"),
    ("read", "crypto/limbs/limbs.c"),
    ("edit", "crypto/limbs/limbs.c", "Limb LIMBS_are_zero(const Limb a[], size_t num_limbs) {",
     "Limb LIMBS_all_zero(const Limb a[], size_t num_limbs) {"),
    ("edit", "crypto/limbs/limbs.h", "Limb LIMBS_are_zero(const Limb a[], size_t num_limbs);",
     "Limb LIMBS_all_zero(const Limb a[], size_t num_limbs);"),
    ("edit", "crypto/limbs/limbs.c", "LIMBS_are_zero(&a[1]", "LIMBS_all_zero(&a[1]", True),
    ("bash", "sed -i 's/LIMBS_are_zero(/LIMBS_all_zero(/' crypto/fipsmodule/ec/ecp_nistz256.c"),
    ("read", "crypto/fipsmodule/ec/gfp_p384.c"),
    ("edit", "crypto/fipsmodule/ec/gfp_p384.c", "Limb is_zero = LIMBS_are_zero(a, P384_LIMBS);",
     "Limb is_zero = LIMBS_all_zero(a, P384_LIMBS)"),  # the mistake: no semicolon
    ("edit", "crypto/fipsmodule/ec/gfp_p384.c", "Limb is_zero = LIMBS_all_zero(a, P384_LIMBS)",
     "Limb is_zero = LIMBS_all_zero(a, P384_LIMBS);"),  # its fix
    ("edit", "crypto/fipsmodule/ec/gfp_p384.c", "return LIMBS_are_zero(a, P384_LIMBS);",
     "return LIMBS_all_zero(a, P384_LIMBS);"),
    ("bash", "printf '#define LIMBS_MAX_LIMBS 8\\n' > crypto/limbs/limbs_max.h && mv crypto/mem.c crypto/memory.c"),
    ("edit", "crypto/limbs/limbs.h", '#include "../internal.h"', '#include "../internal.h"\n#include "limbs_max.h"'),
    ("write", "crypto/limbs/limbs_test.c",
     '#include "limbs.h"\n\nint limbs_test_all_zero(void);\n\nint limbs_test_all_zero(void) {\n'
     '  Limb zeros[LIMBS_MAX_LIMBS] = {0};\n  return LIMBS_all_zero(zeros) != 0;\n}\n'),  # a mistake: one argument short
    ("edit", "crypto/limbs/limbs_test.c", "LIMBS_all_zero(zeros)", "LIMBS_all_zero(zeros, LIMBS_MAX_LIMBS)"),
    ("edit", "crypto/memory.c", "#include", "// moved from mem.c\n#include"),
    ("grep", "LIMBS_are_zero"),
]


PROJECTS = [
    # name, language, module path (Go), prepare, session
    ("gorilla/mux 1.8.0", "go", "github.com/gorilla/mux", prepare_mux, MUX_SESSION),
    ("spf13/cobra 1.6.1", "go", "github.com/spf13/cobra", prepare_cobra, COBRA_SESSION),
    ("pyflakes 2.5.0", "python", "", prepare_pyflakes, PYFLAKES_SESSION),
    ("redux 5.0.1", "typescript", "", prepare_redux, REDUX_SESSION),
    ("ring 0.16.20 (C)", "c", "", prepare_ring, RING_SESSION),
]
