// What a terminal is sent: every byte the CLI writes (results, prompts, error
// and progress lines) passes through a TerminalSafeBuffer (RunCli installs
// one on stdout and one on stderr), so that no byte from the input (an
// argument, a file, a typed line) can act on the terminal or break UTF-8.
#pragma once

#include <cstddef>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace martiandice {

// Appends `text` to *out, each byte a terminal could act on shown escaped as
// "\x1b": C0 controls but newline and tab, DEL, the C1 controls
// (U+0080..U+009F) and bytes that start no well-formed UTF-8 character.
// Returns how many bytes of `text` it used: all, unless `more` (the text goes
// on in a later call) and `text` ends inside a character that may yet be
// completed; those last bytes (at most 3) are left for the caller.
std::size_t AppendTerminalSafe(std::string* out, std::string_view text, bool more);

// A stream buffer that writes to `sink` what AppendTerminalSafe makes of its
// input. It keeps nothing but a character not yet complete: everything else
// reaches the sink at once (a prompt before input is read, stdin being tied
// to the sink's stream). A sink that fails makes the writes fail (badbit).
class TerminalSafeBuffer final : public std::streambuf {
 public:
  explicit TerminalSafeBuffer(std::streambuf* sink) : sink_(sink) {}
  ~TerminalSafeBuffer() override;  // a character left unfinished: its bytes escaped
  TerminalSafeBuffer(const TerminalSafeBuffer&) = delete;
  TerminalSafeBuffer& operator=(const TerminalSafeBuffer&) = delete;

  // Writes `bytes` to the sink as they are: the program's own control bytes
  // (a progress bar's "\r"). Returns false if the sink took fewer.
  bool WriteRaw(std::string_view bytes);

 protected:
  std::streamsize xsputn(const char* text, std::streamsize count) override;
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  std::streambuf* const sink_;
  std::string pending_;  // the first bytes of a character not yet complete
  std::string safe_;     // scratch: what goes to the sink
};

// Writes `bytes` as they are if `out` writes through a TerminalSafeBuffer,
// else through `out`; sets badbit on `out` if they cannot be written.
void WriteRaw(std::ostream& out, std::string_view bytes);

}  // namespace martiandice
