#pragma once
// The status code of a response Poco read.

namespace Poco::Net {
class HTTPResponse;
}

namespace agent_run {

/// The status code of `response` as the server sent it. Poco keeps it in its HTTPStatus enum,
/// whose enumerators end at 511, so reading a 529 (Anthropic's "overloaded") back through
/// getStatus() is undefined behaviour (UBSan: "load of value 529"); this reads the status line
/// Poco writes instead. 0 when there is none.
int poco_status(const Poco::Net::HTTPResponse& response);

}  // namespace agent_run
