// The martiandice command line as a library call (RunCli: arguments in,
// output, error line and exit code out), so that it can be tested and fuzzed
// without a process, and what it sees besides its streams (CliEnvironment).
// The subcommands are rows of cli.cpp's table (SubcommandNames), each defined
// in its own file (commands.h).
#pragma once

#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "exit_codes.h"

namespace martiandice {

// What RunCli cannot see through its streams.
struct CliEnvironment {
  // The real stderr is a terminal: `solve` and `certify` then draw a progress
  // bar in place instead of printing a line every 10% (and every minute).
  bool stderr_is_terminal = false;
  // The width `play` and `coach` wrap their text to: 80, or a narrower
  // terminal's (at least 40) when the real stdout is one.
  int columns = 80;
  // Where `serve` reads its requests, `review -` its input, `play` the
  // human moves and `coach` its entries (std::cin in the executable); null reads as an empty input.
  std::istream* in = nullptr;
  // Where the commands keep the tables they solve for small games no table
  // covers (table_cache.h; the executable's: TableCacheFolder()); unset: none
  // is made, the fallback plays those games.
  std::optional<std::string> table_cache;
};

// Runs the command line `args` (argv without the program name). Results go to
// `out`; on error exactly one line "martiandice: error: <message>" goes to
// `err` and nothing at all to `out` (`play` and `coach` excepted: a failure during a game
// comes after the game's lines so far; and `simulate` interrupted: the result
// of the games played comes first; and unless the error is `out` failing:
// results that cannot be written or flushed are an error, exit 1). Every byte
// written to `out` and `err` passes the terminal-safe writer (terminal.h):
// control characters and bytes that are not UTF-8, wherever they come from,
// are shown escaped ("\x1b"). `solve` and `certify`
// also report their progress on `err` (unless --quiet) before their result or
// error. Returns
// one of the exit codes of exit_codes.h. Never throws.
int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
           const CliEnvironment& environment = CliEnvironment());

// The subcommands' names, in the order `martiandice --help` lists them.
std::vector<std::string_view> SubcommandNames();

}  // namespace martiandice
