#include "tools/builtin_tools.h"
#include "tools/tool_input.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace agent_run {

namespace {

constexpr std::size_t k_max_items = 100;
constexpr std::array<std::string_view, 3> k_statuses = {"pending", "in_progress", "completed"};

/// One item of the input, or why it is not one.
Expected<TodoItem> read_item(const Json& item, std::size_t index) {
  std::string where = "todos[" + std::to_string(index) + "]";
  if (!item.is_object()) return make_error(where + " must be an object with content and status");
  auto content = required_string(item, "content");
  if (!content) return make_error(where + ": " + content.error().message);
  if (content->empty()) return make_error(where + ".content must not be empty");
  std::string status = item.get_string("status", "pending");
  if (std::find(k_statuses.begin(), k_statuses.end(), status) == k_statuses.end()) {
    return make_error(where + ".status must be pending, in_progress or completed, not '" + status + "'");
  }
  return TodoItem{*content, status};
}

/// The list as the model reads it back: a checkbox per item and a count per status.
std::string render(const std::vector<TodoItem>& todos) {
  if (todos.empty()) return "The plan is empty.\n";
  std::array<int, 3> counts{};
  std::string lines;
  for (const TodoItem& item : todos) {
    auto status = std::find(k_statuses.begin(), k_statuses.end(), item.status) - k_statuses.begin();
    ++counts[static_cast<std::size_t>(status)];
    static constexpr std::array<const char*, 3> k_boxes = {"[ ] ", "[>] ", "[x] "};
    lines += k_boxes[static_cast<std::size_t>(status)] + item.content + "\n";
  }
  return "Plan (" + std::to_string(todos.size()) + " items: " + std::to_string(counts[2]) + " completed, " +
         std::to_string(counts[1]) + " in progress, " + std::to_string(counts[0]) + " pending):\n" + lines;
}

/// The agent's working plan: the whole list each time; kept per attempt and shown in the report.
class TodoWriteTool final : public Tool {
 public:
  ToolSchema schema() const override {
    Json item =
        object_schema(Json::object()
                          .set("content", property("string", "What to do, in a few words"))
                          .set("status", Json::object()
                                             .set("type", "string")
                                             .set("enum", Json(Json::Array{"pending", "in_progress", "completed"}))),
                      {"content", "status"});
    return ToolSchema{
        "todo_write",
        "Write your working plan for a multi-step task: send the whole list every time (it replaces the last "
        "one), each item pending, in_progress or completed. Keep one item in progress at a time.",
        object_schema(Json::object().set("todos", Json::object().set("type", "array").set("items", item)), {"todos"})};
  }

  ToolOutput run(const Json& input, const ToolScope&, SessionState& session, std::chrono::milliseconds) override {
    const Json* todos = input.find("todos");
    if (!todos || !todos->is_array()) return failure("todos must be an array of {content, status}");
    if (todos->as_array().size() > k_max_items) {
      return failure("at most " + std::to_string(k_max_items) + " items; merge some");
    }
    std::vector<TodoItem> items;
    for (std::size_t i = 0; i < todos->as_array().size(); ++i) {
      auto item = read_item(todos->as_array()[i], i);
      if (!item) return failure(item.error().message);
      items.push_back(std::move(*item));
    }
    session.todos = std::move(items);
    return ToolOutput{render(session.todos), false, std::nullopt};
  }

 private:
  static ToolOutput failure(const std::string& message) {
    return ToolOutput{tool_error_text("todo_write", message), true, {}};
  }
};

}  // namespace

std::unique_ptr<Tool> make_todo_write_tool() { return std::make_unique<TodoWriteTool>(); }

}  // namespace agent_run
