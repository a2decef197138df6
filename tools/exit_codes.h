// Exit codes of the martiandice command line (RunCli, tools/cli.h, and the
// `martiandice` executable), in a header of their own so that a subcommand
// can name them without depending on the command line that dispatches to it.
#pragma once

namespace martiandice {

inline constexpr int kCliExitOk = 0;  // success, or --help / --version
// The system refused what the run needs (a full disk, standard output that
// cannot be written, threads that cannot start), or an internal error.
inline constexpr int kCliExitInternal = 1;
inline constexpr int kCliExitUsage = 2;  // bad input: options, notation, rules, positions
// Interrupted (Ctrl-C, SIGTERM) with the work saved: 128 + SIGINT, as shells expect.
inline constexpr int kCliExitInterrupted = 130;
// `certify`: the table was read and checked, and some decision is not certified.
inline constexpr int kCliExitNotCertified = 3;
// `play`: the input ended (or `quit` was entered) before the game did.
inline constexpr int kCliExitUnfinished = 4;

}  // namespace martiandice
