#pragma once

#include <string_view>

namespace agent_run {

/// Whether a variable looks like it holds a secret: its name holds KEY, TOKEN, SECRET, PASS (PASSWORD,
/// SSHPASS), JWT, WEBHOOK, CREDENTIAL, AUTH, COOKIE, SESSION, PRIVATE or DSN, or has PAT, PWD or PW
/// as a word between underscores (GH_PAT, MYSQL_PWD; not PWD itself), in any case; or its value is
/// a URL with a password in it (`https://user:password@host`).
bool looks_secret(std::string_view name, std::string_view value = {});

/// Whether `name` can be an environment variable's name: letters, digits and `_`, not starting
/// with a digit.
bool is_environment_name(std::string_view name);

}  // namespace agent_run
