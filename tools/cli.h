// The martiandice command line as a library call, so that it can be tested and
// fuzzed without a process: subcommands `eval`, `best` and `stats`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace martiandice {

// Exit codes of RunCli (and of the `martiandice` executable).
inline constexpr int kCliExitOk = 0;        // success, or --help
inline constexpr int kCliExitInternal = 1;  // unexpected failure inside the solver
inline constexpr int kCliExitUsage = 2;     // bad input: options, notation, rules, positions

// Runs the command line `args` (argv without the program name). Results go to
// `out`; on error exactly one line "martiandice: error: <message>" goes to
// `err` and nothing at all to `out`. Returns one of the exit codes above.
// Never throws.
int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace martiandice
