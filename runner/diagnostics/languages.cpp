#include "diagnostics/languages.h"

#include "base/files.h"
#include "exec/child_process.h"

#include <cstdlib>

#include <array>

namespace agent_run {

namespace {

bool has_any(const std::filesystem::path& folder, std::initializer_list<const char*> names) {
  std::error_code ec;
  for (const char* name : names) {
    if (std::filesystem::exists(folder / name, ec)) return true;
  }
  return false;
}

std::vector<const char*> root_markers(Language language) {
  switch (language) {
    case Language::go: return {"go.work", "go.mod"};
    case Language::python:
      return {"pyrightconfig.json", "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "Pipfile"};
    case Language::typescript:
    case Language::javascript: return {"tsconfig.json", "jsconfig.json", "package.json"};
    case Language::c:
    case Language::cpp: return {"compile_commands.json", "compile_flags.txt", ".clangd"};
    case Language::rust: return {"Cargo.toml"};
    default: return {};
  }
}

/// The tsserver.js typescript-language-server needs (TypeScript 5 or 6): the project's own, else
/// the one installed beside the server; nullopt when there is none.
std::optional<std::filesystem::path> find_tsserver(const std::filesystem::path& root,
                                                   const std::filesystem::path& server) {
  std::error_code ec;
  std::filesystem::path candidate = root / "node_modules/typescript/lib/tsserver.js";
  if (std::filesystem::exists(candidate, ec)) return candidate;
  std::filesystem::path real = std::filesystem::canonical(server, ec);
  for (std::filesystem::path folder = real.parent_path(); !ec && folder.has_relative_path();
       folder = folder.parent_path()) {
    if (folder.filename() == "node_modules" && std::filesystem::exists(folder / "typescript/lib/tsserver.js", ec)) {
      return folder / "typescript/lib/tsserver.js";
    }
  }
  return std::nullopt;
}

/// The major version of the TypeScript package a `tsc` program belongs to, from its package.json.
int typescript_major_version(const std::filesystem::path& tsc) {
  std::error_code ec;
  std::filesystem::path real = std::filesystem::canonical(tsc, ec);
  for (std::filesystem::path folder = real.parent_path(); !ec && folder.has_relative_path();
       folder = folder.parent_path()) {
    if (!std::filesystem::exists(folder / "package.json", ec)) continue;
    auto text = read_file_beneath(folder, "package.json", k_project_file_cap);
    auto json = text ? parse_json(*text) : Expected<Json>(make_error("unreadable"));
    if (!json || json->get_string("name") != "typescript") return 0;
    return std::atoi(json->get_string("version").c_str());
  }
  return 0;
}

/// TypeScript 7's own server (`tsc --lsp`, pull only) when the project's or PATH's tsc is a 7.x,
/// then typescript-language-server when a tsserver.js from TypeScript 5 or 6 is there for it.
void add_typescript_servers(const std::filesystem::path& root, const std::vector<std::string>& environment,
                            std::vector<ServerSpec>& servers) {
  std::error_code ec;
  std::optional<std::filesystem::path> tsc = root / "node_modules/.bin/tsc";
  if (!std::filesystem::exists(*tsc, ec)) tsc = find_program("tsc", environment);
  if (tsc && typescript_major_version(*tsc) >= 7) {
    ServerSpec native{"tsc --lsp", {tsc->string(), "--lsp", "--stdio"}, nullptr, std::chrono::milliseconds(50), {}};
    native.opens_importers = true;
    servers.push_back(std::move(native));
  }
  if (auto server = find_program("typescript-language-server", environment)) {
    if (auto tsserver = find_tsserver(root, *server)) {
      Json options = Json::object()
                         .set("tsserver", Json::object().set("path", tsserver->string()))
                         .set("disableAutomaticTypingAcquisition", true);
      ServerSpec spec{"typescript-language-server",
                      {"typescript-language-server", "--stdio"},
                      options,
                      std::chrono::milliseconds(150),
                      std::chrono::milliseconds(1000),
                      {server->string(), "--version"}};
      spec.opens_importers = true;  // it publishes every document opened, an empty list included
      servers.push_back(std::move(spec));
    }
  }
}

}  // namespace

Language language_of(const std::filesystem::path& file, std::string_view content) {
  static const std::array<std::pair<const char*, Language>, 22> k_extensions = {{
      {".go", Language::go},          {".py", Language::python},      {".pyi", Language::python},
      {".ts", Language::typescript},  {".tsx", Language::typescript}, {".mts", Language::typescript},
      {".cts", Language::typescript}, {".js", Language::javascript},  {".jsx", Language::javascript},
      {".mjs", Language::javascript}, {".cjs", Language::javascript}, {".c", Language::c},
      {".h", Language::cpp},          {".cc", Language::cpp},         {".cpp", Language::cpp},
      {".cxx", Language::cpp},        {".hh", Language::cpp},         {".hpp", Language::cpp},
      {".hxx", Language::cpp},        {".sh", Language::shell},       {".bash", Language::shell},
      {".rs", Language::rust},
  }};
  std::string extension = file.extension().string();
  for (const auto& [known, language] : k_extensions) {
    if (extension == known) return language;
  }
  if (extension.empty() && content.substr(0, 2) == "#!") {
    std::string_view first_line = content.substr(0, content.find('\n'));
    for (std::string_view shell : {"/sh", "/bash", "env sh", "env bash"}) {
      if (first_line.find(shell) != std::string_view::npos) return Language::shell;
    }
  }
  return Language::none;
}

std::string language_id(Language language, const std::filesystem::path& file) {
  std::string extension = file.extension().string();
  switch (language) {
    case Language::go: return "go";
    case Language::python: return "python";
    case Language::typescript: return extension == ".tsx" ? "typescriptreact" : "typescript";
    case Language::javascript: return extension == ".jsx" ? "javascriptreact" : "javascript";
    case Language::c: return "c";
    case Language::cpp: return "cpp";
    case Language::shell: return "shellscript";
    case Language::rust: return "rust";
    default: return "plaintext";
  }
}

std::filesystem::path project_root(Language language, const std::filesystem::path& file,
                                   const std::filesystem::path& workspace) {
  std::vector<const char*> markers = root_markers(language);
  std::filesystem::path top = workspace.lexically_normal();
  for (std::filesystem::path folder = file.parent_path().lexically_normal();; folder = folder.parent_path()) {
    auto relative = folder.lexically_relative(top);
    if (relative.empty() || *relative.begin() == "..") break;  // outside the workspace
    for (const char* marker : markers) {
      if (has_any(folder, {marker})) return folder;
    }
    if (folder == top || !folder.has_relative_path()) break;
  }
  return top;
}

std::vector<ServerSpec> language_servers(Language language, const std::filesystem::path& root,
                                         const std::vector<std::string>& environment) {
  std::vector<ServerSpec> servers;
  auto add = [&](ServerSpec spec) {
    if (find_program(spec.argv.front(), environment)) servers.push_back(std::move(spec));
  };
  switch (language) {
    case Language::go: add(ServerSpec{"gopls", {"gopls"}, nullptr, std::chrono::milliseconds(50), {}}); break;
    case Language::python:
      if (auto server = find_program("pyright-langserver", environment)) {  // its sibling `pyright` tells the version
        ServerSpec spec{"pyright-langserver",
                        {"pyright-langserver", "--stdio"},
                        nullptr,
                        std::chrono::milliseconds(50),
                        {},
                        {(server->parent_path() / "pyright").string(), "--version"}};
        spec.opens_importers = true;  // pull: every open document answers
        add(std::move(spec));
      }
      break;
    case Language::typescript:
    case Language::javascript: add_typescript_servers(root, environment, servers); break;
    case Language::c:
    case Language::cpp:
      // Not opens_importers: clangd 14 reads an included header from disk, not from its open document,
      // so a file including an edited header, opened after the edit was written, has no list from
      // before it; and it may publish nothing for a document it takes as unchanged.
      add(ServerSpec{"clangd",
                     {"clangd", "--background-index=false", "--log=error"},
                     nullptr,
                     std::chrono::milliseconds(100),
                     {},
                     {"clangd", "--version"},
                     std::chrono::milliseconds(200)});
      break;
    case Language::rust:
      add(ServerSpec{"rust-analyzer", {"rust-analyzer"}, nullptr, std::chrono::milliseconds(300), {}});
      break;
    default: break;
  }
  return servers;
}

}  // namespace agent_run
