// `martiandice serve`: a long-lived process for frontends that answers
// JSON-lines requests (one JSON object per line: `eval`, `best` or `stats`
// with the CLI's inputs, or a game session's `open`, `enter` and `close`) with
// JSON-lines responses (the subcommand's `--json` object, a game's state and
// advice, or an error object), until end of input. Protocol: docs/SERVE.md.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace martiandice {

// Longest request line accepted, in bytes ("\n" or "\r\n" excluded); a longer line
// gets an error response and is skipped without being stored.
inline constexpr std::size_t kServeMaxLineBytes = 16384;

// What `serve` is started with: the tables requests may name, and the
// bounds on its game sessions (`open`, `enter`, `close`) and their clock
// (tests set one).
struct ServeOptions {
  // Folders a request's `tables` may name (or name a file inside), besides
  // the data search path (TableSearchPath, martiandice/table.h): --tables-dir.
  std::vector<std::string> tables_dirs;
  std::size_t max_games = 64;  // open games at once
  // A game not used for this long is closed (checked at every open, enter and close).
  std::chrono::seconds max_idle{3600};
  std::size_t max_undo = 64;  // entries each game keeps for `undo`
  // A game whose log (review's lines) is longer takes no more entries.
  std::size_t max_log_bytes = 1 << 18;
  std::function<std::chrono::steady_clock::time_point()> now = std::chrono::steady_clock::now;
};

// Answers every request line of `in` on `out`, one response line per request
// line (blank lines are skipped), in order. Bad requests get an error object
// and the service goes on. Output is flushed whenever the service is about to
// wait for input, so a frontend that writes one request and waits gets its
// answer, while a batch already in the pipe is answered without a flush per
// line. Returns kCliExitOk at end of input, or once `out` fails (stopping
// there: the caller checks `out`, as RunCli does for every command);
// kCliExitInternal with one line "martiandice: error: ..." on `err` for an
// internal error. A request's `tables` outside the data search path and
// options.tables_dirs is refused by its name alone, without looking at the
// file system. Once `stop` (possibly null) is set, nothing more is read:
// the lines already read are answered, then it returns as at end of input.
// Never throws.
int Serve(std::istream& in, std::ostream& out, std::ostream& err, const ServeOptions& options = {},
          const std::atomic<bool>* stop = nullptr);

// The protocol's commands ("eval", ..., "close"), in the order `serve --help`
// lists them.
std::vector<std::string_view> ServeCommandNames();

}  // namespace martiandice
