// The subcommands of the command line, one file each (tools/eval.cpp,
// best.cpp, ..., coach.cpp, serve.cpp): their entry points and help texts.
// cli.cpp's table of subcommands names each with its options, fills
// CommandOptions and dispatches here; a subcommand reads the options it has
// and never includes cli.h. Errors are InvalidArgument for bad input (the
// message names the option), Cancelled when interrupted, anything else for an
// internal failure.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/advisor.h"
#include "martiandice/rules.h"
#include "request.h"

namespace martiandice::solver {
struct CertificationReport;
}  // namespace martiandice::solver

namespace martiandice::cli {

// Raw option values (only one subcommand runs, each reads its own).
struct CommandOptions {
  // The request model's fields (app/request.h): --objective, --exact,
  // --dice/--bonus/--target, --aside, --scores, --seat, --players, --tables
  // (the query of eval, best and review; the rules, players and tables of the
  // other subcommands) and best's --roll.
  app::Request request;
  bool json = false;
  std::string out;  // solve, export, plot: the file or directory to write
  bool quiet = false;
  bool no_certify = false;
  std::string checkpoint;        // solve, 3+ players: where finished work is saved
  int threads = 0;               // 0: all cores
  std::string device = "cpu";    // solve: cpu | gpu | auto
  std::string checkpoint_every;  // solve: seconds between checkpoints (text: parsed strictly)
  std::string rank_wait;         // solve under mpirun: seconds a rank waits for the others
  // simulate (numbers as text: parsed strictly, CLI11 saturates overflows)
  std::string games;
  std::string policies;
  std::string seed;
  bool no_alternate = false;
  bool rate = false;                     // simulate --rate
  std::string kind;                      // plot: heatmap | stop | distribution | all ("" = all)
  std::string input;                     // review: a file, or "-"
  std::vector<std::string> tables_dirs;  // serve: folders whose tables requests may name
  std::string log;                       // play, coach: where the game log goes
  // play's text: a forced take prompted; every decision reviewed; the log printed.
  bool ask_forced = false;
  bool full_review = false;
  bool print_log = false;
};

// What a subcommand uses besides its options.
struct CommandContext {
  Advisor& advisor;   // solved turns and tables, shared by the whole run
  std::ostream& err;  // progress lines (solve, certify)
  bool stderr_is_terminal = false;
  std::istream* in = nullptr;  // `review -`'s, `play`'s and `coach`'s input; null: empty
  int columns = 80;            // `play`'s and `coach`'s text width (CliEnvironment::columns)
};

// Each returns its whole output (text, or one JSON object and a newline).
absl::StatusOr<std::string> RunEval(const CommandOptions& options, const CommandContext& context);
absl::StatusOr<std::string> RunBest(const CommandOptions& options, const CommandContext& context);
absl::StatusOr<std::string> RunStats(const CommandOptions& options, const CommandContext& context);
absl::StatusOr<std::string> RunPlot(const CommandOptions& options, const CommandContext& context);
absl::StatusOr<std::string> RunReview(const CommandOptions& options, const CommandContext& context);

// `play` writes the game to `out` as it goes, reading the human moves from
// context.in, and returns its exit status: kCliExitOk when the game ended,
// kCliExitUnfinished when the input ended (or `quit` came) first. Errors
// found before the game starts (bad options, a damaged table) are returned
// with nothing written; a failure later is returned after the lines written.
absl::StatusOr<int> RunPlay(const CommandOptions& options, const CommandContext& context,
                            std::ostream& out);
// `coach` answers each line of context.in on `out` as it comes, and returns
// kCliExitOk at the end of input or `quit`. Errors as RunPlay's.
absl::StatusOr<int> RunCoach(const CommandOptions& options, const CommandContext& context,
                             std::ostream& out);

// `simulate`: the result on `out`; Cancelled (after the result of the games
// played) when interrupted.
absl::StatusOr<int> RunSimulate(const CommandOptions& options, const CommandContext& context,
                                std::ostream& out);
// `export`: the JSON on `out`, or written atomically to --out (a summary
// line on `out`), in pieces: never whole in memory.
absl::StatusOr<int> RunExport(const CommandOptions& options, const CommandContext& context,
                              std::ostream& out);
// `serve` (serve.h) with --tables-dir, answering the requests of context.in
// on `out` until its end; returns Serve's exit status. Errors: a
// --tables-dir that is not a directory.
absl::StatusOr<int> RunServe(const CommandOptions& options, const CommandContext& context,
                             std::ostream& out);

// `certify` and `solve` also say whether the table is certified (exit status
// 3 if not; a solve with --no-certify, or a rank but mpirun's first, is not
// judged: certified).
struct CertifyOutcome {
  std::string text;  // the report
  bool certified = false;
};
absl::StatusOr<CertifyOutcome> RunCertify(const CommandOptions& options,
                                          const CommandContext& context);
absl::StatusOr<CertifyOutcome> RunSolve(const CommandOptions& options,
                                        const CommandContext& context);

// An entry point, in one of the shapes above: its whole output (the CLI
// writes it and checks that it reached standard output), certify's report
// and verdict, or its exit status once it has written to `out` as it went.
using TextCommand = absl::StatusOr<std::string> (*)(const CommandOptions&, const CommandContext&);
using CertifyCommand = absl::StatusOr<CertifyOutcome> (*)(const CommandOptions&,
                                                          const CommandContext&);
using StreamCommand = absl::StatusOr<int> (*)(const CommandOptions&, const CommandContext&,
                                              std::ostream&);
using CommandEntry = std::variant<TextCommand, CertifyCommand, StreamCommand>;

// `stats --json`'s object for `rules` (also `serve`'s answer). Errors: rules
// out of range. The turn is enumerated (at most about a second, for 20 dice)
// once per number of dice in the process: the size of a turn does not depend
// on the bonus or the target.
absl::StatusOr<std::string> StatsJson(const Rules& rules);
// The turns enumerated so far by `stats` and StatsJson in this process (at
// most one per number of dice).
std::int64_t TurnEnumerations();

// A certification report as the "certification" JSON object of `solve --json`
// and `certify --json`, and as text lines.
std::string CertificationJson(const solver::CertificationReport& report);
std::string CertificationText(const solver::CertificationReport& report);

// The --help footers, each defined with its subcommand (`serve`'s lists its
// commands from serve.cpp's table).
std::string ServeHelp();
extern const std::string_view kEvalHelp;
extern const std::string_view kBestHelp;
extern const std::string_view kStatsHelp;
extern const std::string_view kSolveHelp;
extern const std::string_view kCertifyHelp;
extern const std::string_view kSimulateHelp;
extern const std::string_view kExportHelp;
extern const std::string_view kPlotHelp;
extern const std::string_view kReviewHelp;
extern const std::string_view kPlayHelp;
extern const std::string_view kCoachHelp;

}  // namespace martiandice::cli
