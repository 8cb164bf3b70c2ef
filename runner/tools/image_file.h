#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace agent_run {

/// An image format read_file shows the model as a picture.
struct ImageKind {
  const char* name;        // PNG, JPEG, GIF, WebP
  const char* media_type;  // image/png, ...
};

/// The image format of a file, told by its first bytes (never by its name); nullopt for anything else.
std::optional<ImageKind> image_kind(std::string_view head);

/// The largest image read_file returns: its base64 stays under the 5 MB the model APIs accept.
constexpr std::size_t k_max_image_bytes = 3750 * 1024;

}  // namespace agent_run
