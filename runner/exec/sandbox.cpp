#include "exec/sandbox.h"

namespace agent_run {

const char* to_string(SandboxNetwork network) { return network == SandboxNetwork::on ? "on" : "off"; }

const char* to_string(SandboxWrite write) {
  switch (write) {
    case SandboxWrite::workspace: return "workspace";
    case SandboxWrite::none: return "none";
    case SandboxWrite::anywhere: return "anywhere";
  }
  return "workspace";
}

}  // namespace agent_run
