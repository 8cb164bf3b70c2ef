#pragma once

#include "policy/policy.h"

#include <string>
#include <vector>

namespace agent_run {

/// True when `rule` has no `options`, or when a word of `argv` after the rule's argv_prefix is one
/// of them (`options_scan: leading`: only the words before the first that is not an option). How an
/// entry matches a word depends on how it is written:
///   - `--long`: `--long`, `--long=V`, and (getopt syntax) any abbreviation `--l`, `--lo=V` (tools
///     accept unique prefixes; denying every prefix over-denies only spellings nobody writes);
///   - `-x`: `-x`, `-xV`, `-x=V`, `--x` and (getopt syntax) any cluster `-abx` holding the letter;
///   - `-name` (one dash, several letters: Go, find, ctest): `-name`, `--name`, `-name=V`, `--name=V`;
///   - `--name=V` or `-x=V`: that option with that value, attached or as the next word (`--target install`);
///   - `NAME=`: a word that starts with it (make's `SHELL=/bin/evil`);
///   - `!WORD`: an exception: WORD (and `WORD=V`) is never taken as an abbreviation or cluster
///     (`!--co`: pytest's own --co is not an abbreviation of --confcutdir).
bool options_match(const Rule& rule, const std::vector<std::string>& argv);

/// What is wrong with one `options` entry as written, or an empty string.
std::string option_entry_problem(const std::string& entry);

}  // namespace agent_run
