#include "report/usage.h"

namespace agent_run {

Usage& Usage::operator+=(const Usage& other) {
  input_tokens += other.input_tokens;
  output_tokens += other.output_tokens;
  cache_read_input_tokens += other.cache_read_input_tokens;
  cache_creation_input_tokens += other.cache_creation_input_tokens;
  reasoning_tokens += other.reasoning_tokens;
  estimated = estimated || other.estimated;
  if (cost_usd && other.cost_usd) {
    *cost_usd += *other.cost_usd;
  } else {
    cost_usd.reset();
  }
  return *this;
}

}  // namespace agent_run
