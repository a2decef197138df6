// The martiandice command line: the table of subcommands (kSubcommands: name,
// summary, help, options, entry point), from which the help, the dispatch and
// the list of subcommands in errors derive; the options of every subcommand
// (CLI11), the exit codes and the one error line. The subcommands themselves
// are in tools/commands.h, one file each. A query input the advisor refuses is
// named as its option ("--aside: ...").
#include "cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "commands.h"
#include "json.h"
#include "martiandice/advisor.h"
#include "request.h"
#include "simulate.h"
#include "support.h"
#include "table_cache.h"
#include "terminal.h"

#ifndef MARTIANDICE_VERSION
#error "MARTIANDICE_VERSION must be the project's version (tools/CMakeLists.txt)"
#endif

namespace martiandice {
namespace {

using cli::CommandOptions;

// Debian's absl::string_view is not std::string_view, so absl::StrCat takes
// no std::string_view: keep those out of StrCat calls.
constexpr char kProgram[] = "martiandice";

// ---------------------------------------------------------------------------
// Command-line definition (CLI11).

constexpr std::string_view kAppFooter = R"(
Dice notation (--aside, --roll): face letters T Tank, R Death Ray, H Human,
C Cow, K Chicken, or words (tank, ray, human, cow, chicken, plurals too), each
optionally preceded by a count: "2T 3R 4H", "TTRRRHHHH", "2t3r4h",
"2 tanks 3 rays 4 humans". "-" or "" means no dice. Quote it in the shell:
--aside '2T 4H'.

Objectives (--objective): "ev" maximises the expected turn score; "reach:K"
maximises the probability of scoring at least K this turn; "capped:M"
maximises the expected value of min(score, M); "final:M/K" maximises the
chance to score at least M and so pass the final round's leader, a tie (M - 1)
with the K seats at the leader's total counting 1/(K+1); "win" maximises the
mover's probability of winning the game, given every seat's total (--scores)
and the seat to move (--seat), from a policy table made by `martiandice
solve`. --scores without --objective plays to win; the default is otherwise
"ev".

Values are measured in the objective: points for ev and capped:M, a
probability for reach:K, final:M/K and win. With --exact (turn objectives
only) every value is also given as an exact fraction p/q. Run `martiandice eval --help`
or `martiandice best --help` for the meaning of each output field.

Policy tables: `martiandice solve --players 2 --out DIR` writes the table for
the rules given; --tables FILE_OR_DIR points at it, else $MARTIANDICE_DATA
(alone, when set), else the installed tree's share/martiandice (found from
the library's place), the source tree's data/ and the configured install
folder are searched. A table none of them holds that takes at most 8 MiB
(2 players, 3 to target 43, 4 to target 9) is solved at once (seconds) into
$MARTIANDICE_CACHE (default ~/.cache/martiandice/tables; "off": never) and
found there the next time (unless --tables names where the table is).
`martiandice export` prints a table as JSON, for inspection.

Exit status: 0 success; 2 bad input (one line on stderr); 1 a failure of the
system or an internal error (one line on stderr): a full disk, results that
cannot be written to standard output, threads that cannot be started; 3 a
table `certify` finds not certified; 4 a `play` game left unfinished; 130 a
long solve interrupted (Ctrl-C) with its work saved.
)";

// Integer options are decimal: CLI11 2.1 would read "010" as octal 8 and
// "0x10" as 16. This transform refuses anything but an optional '-' and decimal
// digits, and drops leading zeros so that "010" is read as ten. With
// `spaces_around`, spaces and tabs around the number are dropped first, as
// --scores drops them around each total (--seat goes with --scores).
CLI::Validator Decimal(bool spaces_around = false) {
  return CLI::Validator(
      [spaces_around](std::string& value) -> std::string {
        if (spaces_around) {
          const std::size_t first = value.find_first_not_of(" \t");
          value = first == std::string::npos
                      ? std::string()
                      : value.substr(first, value.find_last_not_of(" \t") - first + 1);
        }
        const std::size_t digits = !value.empty() && value.front() == '-' ? 1 : 0;
        if (value.size() == digits ||
            value.find_first_not_of("0123456789", digits) != std::string::npos) {
          return absl::StrCat("expected a decimal whole number, got '", value, "'");
        }
        const std::size_t first = value.find_first_not_of('0', digits);
        value.erase(digits, (first == std::string::npos ? value.size() - 1 : first) - digits);
        // Every such option is an int: say so rather than CLI11's "Could not convert".
        int fits = 0;
        if (!absl::SimpleAtoi(value, &fits)) {
          return absl::StrCat("'", value, "' is out of range (beyond any value the option takes)");
        }
        return std::string();
      },
      "");
}

// The command line's decoder of the request model (app/request.h): the
// field `name` as the option --name, by its kind: text and scores as
// strings, integers decimal (Decimal; a rule's default shown; --seat goes
// with --scores, so spaces around it are dropped too), a flag as a flag.
// `help`: the field's own line unless given. --tables refuses an empty path.
CLI::Option* AddField(CLI::App& command, app::Request& request, std::string_view name,
                      std::string_view help = {}) {
  const app::RequestField& field = *app::FindRequestField(name);
  const std::string option = absl::StrCat("--", std::string(field.name));
  const std::string text(help.empty() ? field.help : help);
  struct Adder {
    CLI::App& command;
    const std::string& option;
    const std::string& text;
    bool spaces_around;
    CLI::Option* operator()(std::string* value) const {
      return command.add_option(option, *value, text);
    }
    CLI::Option* operator()(std::optional<std::string>* value) const {
      return command.add_option(option, *value, text);
    }
    CLI::Option* operator()(int* value) const {
      return command.add_option(option, *value, text)->capture_default_str()->transform(Decimal());
    }
    CLI::Option* operator()(std::optional<int>* value) const {
      return command.add_option(option, *value, text)->transform(Decimal(spaces_around));
    }
    CLI::Option* operator()(bool* value) const { return command.add_flag(option, *value, text); }
  };
  CLI::Option* added = std::visit(
      Adder{command, option, text, (field.form & app::kSpacesAround) != 0}, field.slot(request));
  if ((field.form & app::kNonEmpty) != 0) {
    added->check(CLI::Validator(
        [](const std::string& value) {
          return std::string(value.empty() ? app::kEmptyPathError : "");
        },
        ""));
  }
  return added;
}

void AddRulesOnly(CLI::App& command, CommandOptions& options) {
  for (const std::string_view rule : {"dice", "bonus", "target"}) {
    AddField(command, options.request, rule);
  }
}

void AddRuleOptions(CLI::App& command, CommandOptions& options) {
  AddRulesOnly(command, options);
  command.add_flag("--json", options.json, "Print one JSON object instead of text");
}

void AddTablesOption(CLI::App& command, CommandOptions& options) {
  AddField(command, options.request, "tables");
}

void AddPlayersOption(CLI::App& command, CommandOptions& options, const std::string& help) {
  AddField(command, options.request, "players", help);
}

CLI::Option* AddThreadsOption(CLI::App& command, CommandOptions& options) {
  return command
      .add_option(
          "--threads", options.threads,
          absl::StrCat("Worker threads, at most ", cli::kMaxThreads, " (default 0: all cores)"))
      ->transform(Decimal());
}

// Every field of `request_command` (an app::RequestCommand) in the request
// model's order, required where the command needs it; then --json.
void AddRequestOptions(CLI::App& command, CommandOptions& options, unsigned request_command) {
  for (const app::RequestField& field : app::RequestFields()) {
    if (field.kind == app::FieldKind::kEnvelope || (field.commands & request_command) == 0) {
      continue;
    }
    CLI::Option* option = AddField(command, options.request, field.name);
    if ((field.required & request_command) != 0) option->required();
  }
  command.add_flag("--json", options.json, "Print one JSON object instead of text");
}

void AddQueryOptions(CLI::App& command, CommandOptions& options) {
  AddRequestOptions(command, options, app::kEvalRequest);
}

void AddSolveOptions(CLI::App& command, CommandOptions& options) {
  AddPlayersOption(command, options, "Number of players (default 2)");
  command.add_option("--out", options.out, "Table file to write, or a directory")->required();
  command.add_flag("--quiet", options.quiet, "No progress on stderr");
  command.add_flag("--no-certify", options.no_certify,
                   "Skip certifying the table's decisions (it takes longer than the solve)");
  AddThreadsOption(command, options);
  command.add_option("--checkpoint", options.checkpoint,
                     "Where Ctrl-C saves the work (default OUT.checkpoint)");
  command.add_option("--checkpoint-every", options.checkpoint_every,
                     "Seconds between checkpoints of the finished levels (default 60)");
  command.add_option("--rank-wait", options.rank_wait,
                     "Under mpirun: seconds a rank waits for the others at a level's end before "
                     "the job stops (default 300, plus twice the rank's own work on the level)");
  command
      .add_option("--device", options.device,
                  "Where the turn solves run: cpu, gpu (a CUDA GPU, with the CPU's threads "
                  "beside it) or auto (the GPU if there is one); the table is the same")
      ->capture_default_str();
  AddRuleOptions(command, options);
}

void AddCertifyOptions(CLI::App& command, CommandOptions& options) {
  AddPlayersOption(command, options, "Number of players (default 2)");
  AddThreadsOption(command, options);
  command.add_flag("--quiet", options.quiet, "No progress on stderr");
  AddTablesOption(command, options);
  AddRuleOptions(command, options);
}

void AddSimulateOptions(CLI::App& command, CommandOptions& options) {
  command.add_option("--games", options.games, "Games to play (1..1000000000)")->required();
  command.add_option("--policies", options.policies, "One policy per seat, e.g. 'win,ev'")
      ->required();
  AddPlayersOption(command, options, "Number of players (default: number of policies)");
  options.seed = std::to_string(kDefaultSimulationSeed);
  command.add_option("--seed", options.seed, "Random seed (0..2^64-1)")->capture_default_str();
  AddThreadsOption(command, options)->capture_default_str();
  command.add_flag("--no-alternate", options.no_alternate,
                   "Keep policy k in seat k in every game (one seating only)");
  command.add_flag("--rate", options.rate,
                   "Rate each policy's decisions against the win table (docs/RATING.md)");
  command.add_flag("--quiet", options.quiet, "No progress on stderr");
  AddTablesOption(command, options);
  AddRuleOptions(command, options);
}

// An output path whose option has a default when left out: given empty, it
// names no file (and not the default).
CLI::Validator NamesAFile() {
  return CLI::Validator(
      [](const std::string& value) {
        return value.empty() ? std::string(cli::kEmptyOut) : std::string();
      },
      "");
}

void AddExportOptions(CLI::App& command, CommandOptions& options) {
  AddPlayersOption(command, options, "Number of players (default 2)");
  command
      .add_option("--out", options.out,
                  "JSON file to write atomically, or a directory (default: stdout)")
      ->check(NamesAFile());
  AddTablesOption(command, options);
  AddRulesOnly(command, options);
}

void AddPlotOptions(CLI::App& command, CommandOptions& options) {
  command.add_option("KIND", options.kind, "heatmap | stop | distribution | all (default: all)");
  command.add_option("--out", options.out, "SVG file to write, or a directory")->required();
  AddField(command, options.request, "scores",
           "distribution: both seats' totals, seat 0 first (default 0,0)");
  AddField(command, options.request, "seat", "heatmap, distribution: the seat to move (default 0)");
  AddTablesOption(command, options);
}

void AddReviewOptions(CLI::App& command, CommandOptions& options) {
  command.add_option("input", options.input, "The played turns (see below), or - for stdin")
      ->required();
  AddField(command, options.request, "objective");
  AddField(command, options.request, "exact", "Exact fractions (losses as p/q)");
  AddField(command, options.request, "scores", "win: the game totals before the first turn");
  AddField(command, options.request, "seat", "win: the seat to move in the first turn");
  AddPlayersOption(command, options, "win: number of players (with --scores)");
  AddTablesOption(command, options);
  AddRuleOptions(command, options);
}

void AddPlayOptions(CLI::App& command, CommandOptions& options) {
  AddPlayersOption(command, options, "Number of seats, 2 to 6 (default 2)");
  for (const std::string_view field : {"humans", "bots", "seed", "hints"}) {
    AddField(command, options.request, field);
  }
  command
      .add_option("--log", options.log,
                  "Write the game log there (a folder: martiandice-game-SEED.log in it; default: "
                  "not kept in text, on stdout with --json)")
      ->check(NamesAFile());
  command.add_flag("--print-log", options.print_log, "Print the game log at the end");
  command.add_flag("--full-review", options.full_review,
                   "Review every decision at the end (default: the three costliest)");
  command.add_flag("--ask-forced", options.ask_forced,
                   "Prompt for a take with one legal choice too (default: made for you)");
  AddTablesOption(command, options);
  AddRulesOnly(command, options);
  command.add_flag("--json", options.json, "One JSON object per event, one a line");
}

void AddCoachOptions(CLI::App& command, CommandOptions& options) {
  QueryInput& query = options.request.query;
  AddField(command, options.request, "scores",
           "Every seat's total at the start, seat 0 first (default all 0)");
  command.add_option("--seat", query.seat, "The seat to move first (default 0)")
      ->transform(Decimal());
  AddPlayersOption(command, options, "Number of seats, 2 to 6 (default: number of scores, or 2)");
  command
      .add_option("--log", options.log,
                  "Write the game log there (a folder: martiandice-coached.log in it; default: "
                  "on stdout)")
      ->check(NamesAFile());
  AddTablesOption(command, options);
  AddRulesOnly(command, options);
  command.add_flag("--json", options.json, "One JSON object per line");
}

void AddBestOptions(CLI::App& command, CommandOptions& options) {
  AddRequestOptions(command, options, app::kBestRequest);
}

void AddServeOptions(CLI::App& command, CommandOptions& options) {
  command.add_option("--tables-dir", options.tables_dirs,
                     "A folder whose tables requests may name (repeatable)");
}

// ---------------------------------------------------------------------------
// The subcommands: one row each, in the order --help lists them.

// A subcommand's --help footer, defined with the subcommand.
template <const std::string_view& kText>
std::string Footer() {
  return std::string(kText);
}

struct Subcommand {
  const char* name;
  const char* summary;                              // its line in `martiandice --help`
  std::string (*footer)();                          // the end of its --help
  void (*add_options)(CLI::App&, CommandOptions&);  // its options, on CLI11
  cli::CommandEntry run;
};

const Subcommand kSubcommands[] = {
    {"eval", "Stop or roll on? Value of a position", Footer<cli::kEvalHelp>, AddQueryOptions,
     cli::RunEval},
    {"best", "Which dice to take from a roll, then stop or roll?", Footer<cli::kBestHelp>,
     AddBestOptions, cli::RunBest},
    {"stats", "Size of the turn's state space", Footer<cli::kStatsHelp>, AddRuleOptions,
     cli::RunStats},
    {"solve", "Solve the game and write its policy table", Footer<cli::kSolveHelp>, AddSolveOptions,
     cli::RunSolve},
    {"certify", "Check every decision a policy table implies", Footer<cli::kCertifyHelp>,
     AddCertifyOptions, cli::RunCertify},
    {"simulate", "Play games between policies; win rates", Footer<cli::kSimulateHelp>,
     AddSimulateOptions, cli::RunSimulate},
    {"export", "A policy table as JSON, for inspection", Footer<cli::kExportHelp>, AddExportOptions,
     cli::RunExport},
    {"plot", "SVG pictures of the strategy (2-player game)", Footer<cli::kPlotHelp>, AddPlotOptions,
     cli::RunPlot},
    {"serve", "Answer JSON-lines requests on stdin (frontends)", cli::ServeHelp, AddServeOptions,
     cli::RunServe},
    {"review", "What the choices of played turns lost", Footer<cli::kReviewHelp>, AddReviewOptions,
     cli::RunReview},
    {"play", "Play a game against the bots, with hints and a review", Footer<cli::kPlayHelp>,
     AddPlayOptions, cli::RunPlay},
    {"coach", "Follow a game played with real dice and advise every decision",
     Footer<cli::kCoachHelp>, AddCoachOptions, cli::RunCoach},
};

// "eval, best, ..., coach", for error messages.
std::string SubcommandList() {
  std::vector<std::string> names;
  for (const Subcommand& command : kSubcommands) names.emplace_back(command.name);
  return absl::StrJoin(names, ", ");
}

const Subcommand* FindSubcommand(std::string_view name) {
  for (const Subcommand& command : kSubcommands) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

// The app, its options and subcommands defined from kSubcommands.
struct CommandLine {
  CLI::App app{
      "Optimal play for Martian Dice: what a turn position is worth, which dice "
      "to take and whether to roll on, for a turn objective or to win the game.",
      std::string(kProgram)};

  explicit CommandLine(CommandOptions& options) {
    app.footer(std::string(kAppFooter));
    app.require_subcommand(0, 1);
    app.set_version_flag("--version", absl::StrCat(kProgram, " ", MARTIANDICE_VERSION),
                         "Print the version and exit");
    for (const Subcommand& row : kSubcommands) {
      CLI::App* command = app.add_subcommand(row.name, row.summary);
      command->footer(row.footer());
      row.add_options(*command, options);
    }
  }

  // The subcommand the user picked (null if none).
  const Subcommand* Picked() const {
    const std::vector<CLI::App*> picked = app.get_subcommands();
    return picked.empty() ? nullptr : FindSubcommand(picked.front()->get_name());
  }
};

// ---------------------------------------------------------------------------
// Running and error reporting.

// A message as one printable line: line breaks become spaces, tabs are shown
// ("\x09": one may be what the input got wrong), the rest as the
// terminal-safe writer shows it (control characters and bytes that are not
// UTF-8, which may come from arguments and input files, escaped: "\x1b").
std::string OneLine(std::string_view message) {
  std::string folded;
  for (const char c : message) {
    if (c == '\t') {
      folded += "\\x09";
    } else {
      folded += c == '\n' || c == '\r' ? ' ' : c;
    }
  }
  std::string line;
  AppendTerminalSafe(&line, folded, false);
  const auto first = line.find_first_not_of(' ');
  if (first == std::string::npos) return "unknown error";
  return line.substr(first, line.find_last_not_of(' ') - first + 1);
}

// The one place error lines are printed.
int Fail(std::ostream& err, int code, const std::string& message) {
  err << kProgram << ": error: " << OneLine(message) << "\n";
  err.flush();
  return code;
}

// `code`, once what was written to `out` (since errno was cleared) has
// reached it: a failed write or flush (a full disk, a closed standard output)
// is an error line and exit 1.
int Flushed(std::ostream& out, std::ostream& err, int code) {
  out.flush();
  if (out) return code;
  const int error = errno;
  return Fail(err, kCliExitInternal,
              absl::StrCat("cannot write the results to standard output",
                           error != 0 ? absl::StrCat(": ", std::strerror(error)) : ""));
}

// The one place results are written to standard output.
int WriteResult(std::ostream& out, std::ostream& err, std::string_view text, int code) {
  errno = 0;
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  return Flushed(out, err, code);
}

// A failed command's exit status: 130 when interrupted, 2 for bad input (a
// request outside what is supported, e.g. 7 players, or a file that is not
// there), 1 for anything else (the system's refusal, e.g. a full disk or
// threads that cannot start, or an internal error).
int ExitCodeFor(const absl::Status& status) {
  if (absl::IsCancelled(status)) return kCliExitInterrupted;
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kUnimplemented:
    case absl::StatusCode::kNotFound:
      return kCliExitUsage;
    default:
      return kCliExitInternal;
  }
}

// The error line for `status`: an advisor's error about a query input
// ("aside: ...") names the option ("--aside: ...").
int FailWith(std::ostream& err, const absl::Status& status) {
  std::string message(status.message());
  if (InputName(status)) message.insert(0, "--");
  return Fail(err, ExitCodeFor(status), message);
}

std::string NoSubcommand() {
  return absl::StrCat("no subcommand given; use one of: ", SubcommandList(), " (see --help)");
}

// An error for a first argument that is neither an option nor a subcommand.
std::optional<std::string> CheckSubcommand(const std::vector<std::string>& args) {
  if (args.empty()) return NoSubcommand();
  const std::string& first = args.front();
  if ((first.empty() || first.front() != '-') && FindSubcommand(first) == nullptr) {
    return absl::StrCat("unknown subcommand '", first, "'; use one of: ", SubcommandList());
  }
  return std::nullopt;
}

// The number of single-character edits between `a` and `b` (Levenshtein).
std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The option of `command` closest to `given` ("--hint": "--hints"), if one is
// within 2 edits of it and no other is as close.
std::optional<std::string> NearestOption(const CLI::App& command, std::string_view given) {
  std::optional<std::string> nearest;
  std::size_t best = 3;
  bool unique = false;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) {
      const std::size_t distance = EditDistance(given, "--" + name);
      if (distance < best) {
        best = distance;
        nearest = "--" + name;
        unique = true;
      } else if (distance == best) {
        unique = false;
      }
    }
  }
  return unique ? nearest : std::nullopt;
}

// What to say of an argument the subcommand does not take: the option meant,
// or for dice given without their option, the options that take dice.
std::string StrayHint(const CLI::App& command, const std::string& stray) {
  if (absl::StartsWith(stray, "-")) {
    const std::string name = stray.substr(0, stray.find('='));
    if (std::optional<std::string> nearest = NearestOption(command, name)) {
      return absl::StrCat(" (did you mean ", *nearest, "?)");
    }
    return "";
  }
  if (!ParseDice(stray).ok()) return "";
  std::vector<std::string> options;
  if (command.get_option_no_throw("--roll") != nullptr) {
    options.push_back(absl::StrCat("--roll '", stray, "' for a roll"));
  }
  if (command.get_option_no_throw("--aside") != nullptr) {
    options.push_back(absl::StrCat("--aside '", stray, "' for the dice set aside"));
  }
  if (options.empty()) return "";
  return absl::StrCat(" (dice go after an option: ", absl::StrJoin(options, ", "), ")");
}

// The arguments after the subcommand that no option of `command` takes: not
// options, nor the values after options that take one.
std::vector<std::string> StrayArguments(const CLI::App& command,
                                        const std::vector<std::string>& args) {
  const auto positional = [](const CLI::Option* option) { return !option->nonpositional(); };
  const bool positionals = !command.get_options(positional).empty();  // CLI11 places those
  std::vector<std::string> strays;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg.front() != '-') {  // "-" too: standard input
      if (!positionals) strays.push_back(arg);
      continue;
    }
    if (arg.find('=') != std::string::npos) continue;
    const CLI::Option* option = command.get_option_no_throw(arg);
    if (option == nullptr) {
      strays.push_back(arg);
    } else if (option->get_items_expected_min() > 0) {  // a flag takes none
      ++i;  // its value
    }
  }
  return strays;
}

// CLI11's message, with a hint when options come before the subcommand, and
// for an argument the subcommand does not take, said first (rather than an
// option it lacks) with the option meant. CLI11 2.1 lists unexpected
// arguments in reverse order: they are listed again here in command-line order.
std::string ParseErrorMessage(const CLI::ParseError& e, const CLI::App& app,
                              const std::vector<std::string>& args) {
  std::string message = e.what();
  const bool extras = dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr;
  const bool option_first = !args.front().empty() && args.front().front() == '-';
  const CLI::App* command = nullptr;
  if (!option_first) {
    try {
      command = app.get_subcommand(args.front());
    } catch (const CLI::OptionNotFound&) {
    }
  }
  if (command != nullptr) {
    const std::vector<std::string> strays = StrayArguments(*command, args);
    if (!strays.empty()) {
      return absl::StrCat(strays.size() > 1 ? "The following arguments were not expected: "
                                            : "The following argument was not expected: ",
                          absl::StrJoin(strays, " "), StrayHint(*command, strays.front()));
    }
  }
  if (extras) {
    const std::vector<std::string> unexpected = app.remaining(true);
    if (!unexpected.empty()) {
      message = absl::StrCat(unexpected.size() > 1 ? "The following arguments were not expected: "
                                                   : "The following argument was not expected: ",
                             absl::StrJoin(unexpected, " "));
    }
  }
  if (extras && option_first) {
    absl::StrAppend(&message, " (options go after the subcommand: ", SubcommandList(), ")");
  }
  // CLI11's "--aside: 1 required TEXT missing": an option given no value.
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr &&
      absl::StrContains(message, " required ") && absl::EndsWith(message, " missing")) {
    return absl::StrCat(message.substr(0, message.find(": ")), ": expected a value after it");
  }
  // CLI11's "--players: At Most 1 required but received 2": an option given twice.
  constexpr std::string_view kTwice = ": At Most 1 required but received ";
  if (const std::size_t at = message.find(kTwice);
      dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr && at != std::string::npos) {
    return absl::StrCat(message.substr(0, at), ": given ", message.substr(at + kTwice.size()),
                        " times; give it once");
  }
  // review's file: "input is required".
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr && message == "input is required") {
    return "give the file of played turns to read (or - for standard input)";
  }
  return message;
}

// Runs a subcommand's entry point, whichever its shape (commands.h): its
// output on `out`, or one error line.
struct Dispatch {
  const CommandOptions& options;
  const cli::CommandContext& context;
  std::ostream& out;

  int operator()(cli::TextCommand run) const {
    absl::StatusOr<std::string> text = run(options, context);
    if (!text.ok()) return FailWith(context.err, text.status());
    return WriteResult(out, context.err, *text, kCliExitOk);
  }
  int operator()(cli::CertifyCommand run) const {
    absl::StatusOr<cli::CertifyOutcome> outcome = run(options, context);
    if (!outcome.ok()) return FailWith(context.err, outcome.status());
    return WriteResult(out, context.err, outcome->text,
                       outcome->certified ? kCliExitOk : kCliExitNotCertified);
  }
  int operator()(cli::StreamCommand run) const {
    errno = 0;  // what a failed write leaves, for Flushed's message
    absl::StatusOr<int> code = run(options, context, out);
    if (!code.ok()) {
      out.flush();
      return FailWith(context.err, code.status());
    }
    // Another status has said why on standard output, unless that failed too.
    return Flushed(out, context.err, *code);
  }
};

int Run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        const CliEnvironment& environment) {
  if (std::optional<std::string> problem = CheckSubcommand(args)) {
    return Fail(err, kCliExitUsage, *problem);
  }
  CommandOptions options;
  CommandLine cli(options);
  try {
    cli.app.parse(std::vector<std::string>(args.rbegin(), args.rend()));
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      errno = 0;  // --help, --version: on `out`, exit 0
      return Flushed(out, err, cli.app.exit(e, out, err));
    }
    return Fail(err, kCliExitUsage, ParseErrorMessage(e, cli.app, args));
  }
  const Subcommand* command = cli.Picked();
  if (command == nullptr) return Fail(err, kCliExitUsage, NoSubcommand());
  Advisor::Options advisor_options;
  if (environment.table_cache) {
    advisor_options.make_table =
        cli::MakeTableMaker(*environment.table_cache, err, environment.stderr_is_terminal);
  }
  Advisor advisor(std::move(advisor_options));
  const cli::CommandContext context{advisor, err, environment.stderr_is_terminal, environment.in,
                                    environment.columns};
  return std::visit(Dispatch{options, context, out}, command->run);
}

}  // namespace

std::vector<std::string_view> SubcommandNames() {
  std::vector<std::string_view> names;
  for (const Subcommand& command : kSubcommands) names.emplace_back(command.name);
  return names;
}

int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
           const CliEnvironment& environment) {
  // Every byte written goes through the terminal-safe writer (terminal.h).
  TerminalSafeBuffer out_buffer(out.rdbuf()), err_buffer(err.rdbuf());
  std::ostream safe_out(&out_buffer), safe_err(&err_buffer);
  safe_out.setstate(out.rdstate());  // a stream already failed stays failed
  safe_err.setstate(err.rdstate());
  // The caller's streams get the failures met through the safe ones.
  struct Report {
    std::ostream &from, &to;
    ~Report() { to.setstate(from.rdstate() & ~std::ios::eofbit); }
  } report_out{safe_out, out}, report_err{safe_err, err};
  try {
    return Run(args, safe_out, safe_err, environment);
  } catch (const std::bad_alloc&) {  // where no part of the work turned it into a status
    return Fail(safe_err, kCliExitInternal,
                "out of memory: the system refused an allocation; free memory and try again");
  } catch (const std::exception& e) {
    return Fail(safe_err, kCliExitInternal, absl::StrCat("internal error: ", e.what()));
  } catch (...) {
    return Fail(safe_err, kCliExitInternal, "internal error");
  }
}

}  // namespace martiandice
