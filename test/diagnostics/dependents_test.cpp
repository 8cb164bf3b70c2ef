#include "diagnostics/dependents.h"
#include "support/fixtures.h"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

using namespace agent_run;
using namespace agent_run::test;

namespace {

/// An index of `folder`, brought up to date with a fresh survey of it.
struct IndexedFolder {
  TempFolder folder;
  std::filesystem::path root = std::filesystem::canonical(folder.path());
  ImportIndex index{root};

  void write(const std::string& relative, const std::string& content) { folder.write(relative, content); }
  /// The importers of `relative`, each workspace-relative, after an update.
  std::vector<std::string> importers_of(const std::string& relative) {
    index.update(survey_folder(root));
    std::vector<std::string> names;
    for (const std::filesystem::path& path : index.importers_of(root / relative, 100))
      names.push_back(path.lexically_relative(root).string());
    return names;
  }
};

using Names = std::vector<std::string>;

}  // namespace

BOOST_AUTO_TEST_SUITE(dependents)

BOOST_AUTO_TEST_CASE(python_imports_name_modules_from_the_root_from_src_and_from_the_importing_folder) {
  IndexedFolder project;
  project.write("a.py", "def old():\n    return 1\n");
  project.write("b.py", "from a import old\n\nprint(old())\n");
  project.write("c.py", "import a as alias, os\n");
  project.write("d.py", "\"\"\"Docs that say\nfrom a import old\n\"\"\"\n# import a\nx = 'import a'\n");
  project.write("e.py", "from alpha import old\nimport ab\n");
  project.write("f.py", "from a import (\n    old,\n    other,\n)\n");
  project.write("g.py", "import os; import a\n");
  project.write("h.py", "def f():\n    from a import old\n    return old\n");
  project.write("pkg/__init__.py", "");
  project.write("pkg/mod.py", "def thing():\n    pass\n");
  project.write("pkg/sub/__init__.py", "");
  project.write("pkg/sub/deep.py", "from ..mod import thing\nfrom . import sibling\n");
  project.write("pkg/sub/sibling.py", "");
  project.write("pkg/user.py", "from .mod import thing\n");
  project.write("pkg/lazy.py", "from . import mod\n");
  project.write("dotted.py", "import pkg.mod\n");
  project.write("fromkg.py", "from pkg import mod\n");
  project.write("src/lib/__init__.py", "");
  project.write("src/lib/core.py", "VALUE = 1\n");
  project.write("tests/test_core.py", "from lib.core import VALUE\nimport helpers\n");
  project.write("tests/helpers.py", "");
  project.write("stubbed.pyi", "def f() -> int: ...\n");
  project.write("uses_stub.py", "from stubbed import f\n");

  BOOST_TEST(project.importers_of("a.py") == (Names{"b.py", "c.py", "f.py", "g.py", "h.py"}),
             boost::test_tools::per_element());
  BOOST_TEST(project.importers_of("pkg/mod.py") == (Names{"dotted.py", "fromkg.py", "pkg/lazy.py", "pkg/sub/deep.py",
                                                          "pkg/user.py"}),
             boost::test_tools::per_element());
  // `import pkg.mod`, `from pkg import mod` and the relative imports inside it also run the package's __init__.
  BOOST_TEST(project.importers_of("pkg/__init__.py") ==
                 (Names{"dotted.py", "fromkg.py", "pkg/lazy.py", "pkg/sub/deep.py", "pkg/user.py"}),
             boost::test_tools::per_element());
  BOOST_TEST(project.importers_of("pkg/sub/sibling.py") == Names{"pkg/sub/deep.py"}, boost::test_tools::per_element());
  BOOST_TEST(project.importers_of("src/lib/core.py") == Names{"tests/test_core.py"}, boost::test_tools::per_element());
  BOOST_TEST(project.importers_of("tests/helpers.py") == Names{"tests/test_core.py"}, boost::test_tools::per_element());
  BOOST_TEST(project.importers_of("stubbed.pyi") == Names{"uses_stub.py"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(script_imports_resolve_relative_paths_as_typescript_and_node_do_and_ignore_packages) {
  IndexedFolder project;
  project.write("src/a.ts", "export function old(): number { return 1; }\n");
  project.write("src/b.ts", "import { old } from './a';\nimport React from 'react';\n");
  project.write("src/c.ts", "export * from \"./a\";\n");
  project.write("src/d.ts", "const lazy = import('./a');\n");
  project.write("src/e.ts", "import { old } from './a.js';\n");  // ES modules in TypeScript write .js
  project.write("src/f.js", "const a = require('./a');\n");
  project.write("src/g.ts", "// import { old } from './a';\nconst s = './a';\nconst t = `./a`;\n");
  project.write("src/h.tsx", "import './a'\n");
  project.write("src/lib/index.ts", "export const x = 1;\n");
  project.write("src/lib/helper.jsx", "export const y = 2;\n");
  project.write("src/uses_lib.ts", "import { x } from './lib';\nimport { y } from \"./lib/helper\";\n");
  project.write("test/a.test.ts", "import { old } from '../src/a';\n");
  project.write("src/alpha.ts", "import { old } from './alpha-a';\n");

  BOOST_TEST(project.importers_of("src/a.ts") ==
                 (Names{"src/b.ts", "src/c.ts", "src/d.ts", "src/e.ts", "src/f.js", "src/h.tsx", "test/a.test.ts"}),
             boost::test_tools::per_element());
  BOOST_TEST(project.importers_of("src/lib/index.ts") == Names{"src/uses_lib.ts"}, boost::test_tools::per_element());
  BOOST_TEST(project.importers_of("src/lib/helper.jsx") == Names{"src/uses_lib.ts"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(quoted_includes_resolve_from_the_including_folder_then_the_root) {
  IndexedFolder project;
  project.write("include/shape.h", "int area(int w, int h);\n");
  project.write("src/shape.c", "#include \"../include/shape.h\"\nint area(int w, int h) { return w * h; }\n");
  project.write("src/main.c", "#include <stdio.h>\n  #  include \"include/shape.h\"\n");
  project.write("src/local.h", "#define LOCAL 1\n");
  project.write("src/use_local.cpp", "#include \"local.h\"\n");
  project.write("other.c", "#include <shape.h>\n");

  BOOST_TEST(project.importers_of("include/shape.h") == (Names{"src/main.c", "src/shape.c"}),
             boost::test_tools::per_element());
  BOOST_TEST(project.importers_of("src/local.h") == Names{"src/use_local.cpp"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(an_update_reads_changed_files_again_and_resolves_imports_of_files_created_later) {
  IndexedFolder project;
  project.write("a.py", "def old():\n    return 1\n");
  project.write("b.py", "from a import old\n");
  project.write("c.py", "from later import thing\n");
  BOOST_TEST(project.importers_of("a.py") == Names{"b.py"}, boost::test_tools::per_element());

  project.write("b.py", "import os\n\n\n");  // another size: a new stamp
  project.write("later.py", "thing = 1\n");  // c.py, unchanged, now names a file
  BOOST_TEST(project.importers_of("a.py").empty());
  BOOST_TEST(project.importers_of("later.py") == Names{"c.py"}, boost::test_tools::per_element());

  std::filesystem::remove(project.root / "c.py");
  BOOST_TEST(project.importers_of("later.py").empty());
}

BOOST_AUTO_TEST_CASE(files_past_the_size_cap_are_not_read_and_links_out_of_the_root_are_never_followed) {
  IndexedFolder project;
  TempFolder outside;
  project.write("a.py", "x = 1\n");
  project.write("big.py", "from a import x\n" + std::string(k_largest_indexed_file, '#'));
  outside.write("elsewhere.py", "from a import x\n");
  std::filesystem::create_symlink(outside.path() / "elsewhere.py", project.root / "linked.py");
  BOOST_TEST(project.importers_of("a.py").empty());
}

BOOST_AUTO_TEST_SUITE_END()
