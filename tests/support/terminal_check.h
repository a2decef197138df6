// What may reach a terminal, checked from the definitions (apart from
// tools/terminal.cpp): newline, tab, printable ASCII and well-formed UTF-8
// other than the C1 controls (U+0080..U+009F). For the tests and the CLI
// fuzz target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace terminal_check {

// The offset of the first byte of `text` a terminal could act on, or of the
// first that starts no well-formed UTF-8 character; npos if none.
inline std::size_t FirstUnsafe(std::string_view text) {
  const auto* b = reinterpret_cast<const unsigned char*>(text.data());
  for (std::size_t i = 0; i < text.size();) {
    const unsigned c = b[i];
    if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
      ++i;
      continue;
    }
    const std::size_t n = c >= 0xc2 && c <= 0xdf   ? 2
                          : c >= 0xe0 && c <= 0xef ? 3
                          : c >= 0xf0 && c <= 0xf4 ? 4
                                                   : 0;
    if (n == 0 || i + n > text.size()) return i;
    std::uint32_t code = c & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
    for (std::size_t k = 1; k < n; ++k) {
      if ((b[i + k] & 0xc0) != 0x80) return i;
      code = code << 6 | (b[i + k] & 0x3f);
    }
    constexpr std::uint32_t kLeast[] = {0, 0, 0x80, 0x800, 0x10000};  // shorter is overlong
    if (code < kLeast[n] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i;
    if (code < 0xa0) return i;  // C1
    i += n;
  }
  return std::string_view::npos;
}

}  // namespace terminal_check
