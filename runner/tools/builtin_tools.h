#pragma once

#include "tools/tool.h"

#include <memory>

namespace agent_run {

// The built-in tools, one file each.
std::unique_ptr<Tool> make_read_file_tool();
std::unique_ptr<Tool> make_write_file_tool();
std::unique_ptr<Tool> make_edit_file_tool();
std::unique_ptr<Tool> make_bash_tool();
std::unique_ptr<Tool> make_process_output_tool();
std::unique_ptr<Tool> make_process_kill_tool();
std::unique_ptr<Tool> make_todo_write_tool();
std::unique_ptr<Tool> make_context_status_tool();
std::unique_ptr<Tool> make_ask_user_tool();
std::unique_ptr<Tool> make_web_fetch_tool();
std::unique_ptr<Tool> make_web_search_tool();
std::unique_ptr<Tool> make_glob_tool();
std::unique_ptr<Tool> make_grep_tool();

}  // namespace agent_run
