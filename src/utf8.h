// Internal: the one reading of UTF-8 that text quoting the caller's bytes
// shares (the C API's md_last_error, dice notation's unknown letters, and the
// front-end layer's JSON strings and terminal text, through app/json.h).
#pragma once

#include <cstddef>
#include <string_view>

namespace martiandice::internal {

// Length of the well-formed UTF-8 character at text[i] (RFC 3629: no overlong
// form, no surrogate, nothing past U+10FFFF); 0 if none starts there.
inline std::size_t Utf8CharLength(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80;  // the range of the second byte
  unsigned char high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;
    if (lead == 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;
  } else {
    return 0;
  }
  if (text.size() - i < length) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  }
  return length;
}

// Whether the well-formed `length`-byte character at text[i] is a C1 control
// (U+0080..U+009F): escaped like C0 controls, never passed on raw.
inline bool IsC1Control(std::string_view text, std::size_t i, std::size_t length) {
  return length == 2 && static_cast<unsigned char>(text[i]) == 0xc2 &&
         static_cast<unsigned char>(text[i + 1]) < 0xa0;
}

}  // namespace martiandice::internal
