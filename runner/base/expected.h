#pragma once

#include <string>
#include <utility>
#include <variant>

namespace agent_run {

/// What went wrong, in words for the person who must fix it (file:line:col and the value included).
struct Error {
  std::string message;
};

/// A value or the Error that prevented it: the return type of everything that can fail in normal
/// operation. Modelled on C++23 std::expected so the alias can be swapped later.
template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : m_state(std::move(value)) {}
  Expected(Error error) : m_state(std::move(error)) {}

  bool has_value() const { return m_state.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { return std::get<0>(m_state); }
  const T& value() const& { return std::get<0>(m_state); }
  T&& value() && { return std::get<0>(std::move(m_state)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { return std::get<1>(m_state); }

 private:
  std::variant<T, Error> m_state;
};

/// Success or the Error that prevented it.
template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;
  Expected(Error error) : m_error(std::move(error)), m_failed(true) {}

  bool has_value() const { return !m_failed; }
  explicit operator bool() const { return has_value(); }
  const Error& error() const { return m_error; }

 private:
  Error m_error;
  bool m_failed = false;
};

inline Error make_error(std::string message) { return Error{std::move(message)}; }

}  // namespace agent_run

// Propagates the error of an expression that returns Expected<...>.
#define AR_TRY(expr)                                     \
  do {                                                   \
    auto&& ar_try_result_ = (expr);                      \
    if (!ar_try_result_) {                               \
      return ::agent_run::Error(ar_try_result_.error()); \
    }                                                    \
  } while (false)

#define AR_CONCAT_INNER_(a, b) a##b
#define AR_CONCAT_(a, b) AR_CONCAT_INNER_(a, b)
#define AR_TRY_ASSIGN_IMPL_(target, expr, result)         \
  auto result = (expr);                                   \
  if (!result) return ::agent_run::Error(result.error()); \
  target = std::move(*result)

// Assigns the value of an expression that returns Expected<T> to `target`, or propagates its error.
#define AR_TRY_ASSIGN(target, expr) AR_TRY_ASSIGN_IMPL_(target, expr, AR_CONCAT_(ar_try_assign_, __LINE__))
