// The terminal-safe writer (terminal.h): escaping and the stream buffer.
#include "terminal.h"

#include <algorithm>

#include "json.h"  // Utf8Length, IsC1Control

namespace martiandice {
namespace {

// True when text[0..size) (a lead byte and what follows) could still become a
// well-formed character once more bytes come.
bool MayComplete(const unsigned char* text, std::size_t size) {
  const unsigned char lead = text[0];
  const std::size_t need = lead >= 0xc2 && lead <= 0xdf   ? 2
                           : lead >= 0xe0 && lead <= 0xef ? 3
                           : lead >= 0xf0 && lead <= 0xf4 ? 4
                                                          : 0;
  if (need == 0 || size >= need) return false;
  for (std::size_t i = 1; i < size; ++i) {
    if ((text[i] & 0xc0) != 0x80) return false;
  }
  return true;
}

}  // namespace

std::size_t AppendTerminalSafe(std::string* out, std::string_view text, bool more) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  std::size_t plain = 0;  // start of the run copied as it is
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned char byte = bytes[i];
    if (byte >= 0x20 && byte < 0x7f) {
      ++i;
      continue;
    }
    if (byte == '\n' || byte == '\t') {
      ++i;
      continue;
    }
    std::size_t length = byte < 0x80 ? 0 : Utf8Length(bytes + i, text.size() - i);
    if (length != 0 && !IsC1Control(bytes + i, length)) {  // a printable character
      i += length;
      continue;
    }
    if (more && length == 0 && MayComplete(bytes + i, text.size() - i)) break;
    out->append(text.data() + plain, i - plain);
    for (const std::size_t end = i + std::max<std::size_t>(length, 1); i < end; ++i) {
      *out += "\\x";
      *out += kHex[bytes[i] >> 4];
      *out += kHex[bytes[i] & 15];
    }
    plain = i;
  }
  out->append(text.data() + plain, i - plain);
  return i;
}

TerminalSafeBuffer::~TerminalSafeBuffer() {
  if (pending_.empty()) return;
  safe_.clear();
  AppendTerminalSafe(&safe_, pending_, false);
  sink_->sputn(safe_.data(), static_cast<std::streamsize>(safe_.size()));
  sink_->pubsync();
}

bool TerminalSafeBuffer::WriteRaw(std::string_view bytes) {
  return sink_->sputn(bytes.data(), static_cast<std::streamsize>(bytes.size())) ==
         static_cast<std::streamsize>(bytes.size());
}

std::streamsize TerminalSafeBuffer::xsputn(const char* text, std::streamsize count) {
  std::string_view input(text, static_cast<std::size_t>(count));
  std::string joined;
  if (!pending_.empty()) {  // the rest of a character begun by the last write
    joined = pending_ + std::string(input);
    input = joined;
  }
  safe_.clear();
  const std::size_t used = AppendTerminalSafe(&safe_, input, true);
  pending_.assign(input.substr(used));
  const auto size = static_cast<std::streamsize>(safe_.size());
  return sink_->sputn(safe_.data(), size) == size ? count : 0;
}

TerminalSafeBuffer::int_type TerminalSafeBuffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char byte = traits_type::to_char_type(c);
  return xsputn(&byte, 1) == 1 ? c : traits_type::eof();
}

int TerminalSafeBuffer::sync() { return sink_->pubsync(); }

void WriteRaw(std::ostream& out, std::string_view bytes) {
  if (auto* safe = dynamic_cast<TerminalSafeBuffer*>(out.rdbuf())) {
    out.flush();
    if (!safe->WriteRaw(bytes)) out.setstate(std::ios::badbit);
    return;
  }
  out << bytes;
}

}  // namespace martiandice
