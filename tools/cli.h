// The martiandice command line as a library call, so that it can be tested and
// fuzzed without a process: subcommands `eval`, `best`, `stats`, `solve`,
// `simulate`, `export`, `plot`, `serve` and `review`.
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace martiandice {

// Exit codes of RunCli (and of the `martiandice` executable).
inline constexpr int kCliExitOk = 0;        // success, or --help
inline constexpr int kCliExitInternal = 1;  // unexpected failure inside the solver
inline constexpr int kCliExitUsage = 2;     // bad input: options, notation, rules, positions
// Interrupted (Ctrl-C, SIGTERM) with the work saved: 128 + SIGINT, as shells expect.
inline constexpr int kCliExitInterrupted = 130;
// `certify`: the table was read and checked, and some decision is not certified.
inline constexpr int kCliExitNotCertified = 3;

// What RunCli cannot see through its streams.
struct CliEnvironment {
  // The real stderr is a terminal: `solve` then draws a progress bar in place
  // instead of printing a line every 10%.
  bool stderr_is_terminal = false;
  // Where `serve` reads its requests and `review -` its input (std::cin in the
  // executable); null reads as an empty input.
  std::istream* in = nullptr;
};

// Runs the command line `args` (argv without the program name). Results go to
// `out`; on error exactly one line "martiandice: error: <message>" goes to
// `err` and nothing at all to `out`. `solve` also reports its progress on
// `err` (unless --quiet) before its result or error. Returns one of the exit
// codes above. Never throws.
int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
           const CliEnvironment& environment = CliEnvironment());

}  // namespace martiandice
