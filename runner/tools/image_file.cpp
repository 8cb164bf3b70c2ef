#include "tools/image_file.h"

namespace agent_run {

std::optional<ImageKind> image_kind(std::string_view head) {
  auto starts = [&](std::string_view magic) { return head.substr(0, magic.size()) == magic; };
  if (starts(std::string_view("\x89PNG\r\n\x1a\n", 8))) return ImageKind{"PNG", "image/png"};
  if (starts("\xFF\xD8\xFF")) return ImageKind{"JPEG", "image/jpeg"};
  if (starts("GIF87a") || starts("GIF89a")) return ImageKind{"GIF", "image/gif"};
  if (starts("RIFF") && head.size() >= 12 && head.substr(8, 4) == "WEBP") return ImageKind{"WebP", "image/webp"};
  return std::nullopt;
}

}  // namespace agent_run
