#pragma once

#include "model/provider_api.h"
#include "net/sse_parser.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace agent_run::test {

/// Feeds a whole recorded body, line by line, through the SSE parser into `decoder`, as the client
/// does, and returns what it decoded: the turn, or the failure of the first failed step.
inline DecodedTurn decode_stream(StreamDecoder& decoder, const std::string& body) {
  SseParser parser;
  std::size_t start = 0;
  while (start < body.size()) {
    std::size_t end = body.find('\n', start);
    if (end == std::string::npos) end = body.size();
    if (auto event = parser.feed_line(std::string_view(body).substr(start, end - start))) {
      DecodeStep step = decoder.feed(*event);
      if (step.kind == DecodeStep::Kind::failed) return step.failure;
      if (step.kind == DecodeStep::Kind::done) break;
    }
    start = end + 1;
  }
  return decoder.finish();
}

/// The turn out of a decoded stream; fails the test with the failure's message otherwise.
inline ModelTurn turn_of(const DecodedTurn& decoded) {
  if (const auto* failure = std::get_if<ApiFailure>(&decoded)) {
    BOOST_FAIL("expected a turn, got " + failure->error_type + ": " + failure->message);
  }
  return std::get<ModelTurn>(decoded);
}

/// The failure out of a decoded stream; fails the test when it decoded a turn.
inline ApiFailure failure_of(const DecodedTurn& decoded) {
  if (std::holds_alternative<ModelTurn>(decoded)) BOOST_FAIL("expected a failure, got a turn");
  return std::get<ApiFailure>(decoded);
}

}  // namespace agent_run::test
