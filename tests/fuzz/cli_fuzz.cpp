// libFuzzer target: the command line as a library call, RunCli(args, out, err)
// (tools/cli.h). The input is the argument list, arguments separated by NUL
// bytes (so an argument may hold newlines). Checks the contract and aborts (a
// finding) on a violation: the exit code is 0, 1 or 2 (or 3 from `certify`, a
// table found not certified: its report on stdout; or 4 from `play`, a game
// its input left unfinished: the game so far on stdout); on a non-zero code
// `out` is empty (`play` and `coach` excepted: a failure during a game comes
// after its lines) and `err` holds exactly one "martiandice: error: " line,
// its last line (only `solve` and `certify` may print progress lines before
// it); an "internal error" (an exception caught by RunCli) is a finding too;
// so is a byte on stdout or stderr that could act on a terminal
// (tests/support/terminal_check.h).
// The standard input is empty: `play`'s human seats and `coach` get no entry.
//
// Safety: at start-up the harness makes a private directory under $TMPDIR
// (tools/fuzz.sh points it into the build tree), writes a tiny policy table
// into it (3 dice, bonus 3, target 5, 2 players) with copies of the shipped
// tables, and points $MARTIANDICE_DATA at it. Every --out, --checkpoint and --log value is confined
// to the private work directory: a plain name N becomes WORK/N, anything else (a '/' in it, "..",
// empty) WORK/out; whatever a run wrote there is deleted after it. --tables is only read from, so
// it is left alone.
//
// Excluded (the input is skipped, not run) because it is legitimately slow:
//   * `solve` unless --dice <= 6 and --target <= 12 are given explicitly (the
//     default rules' solve and certification are far too long for one fuzz
//     input under the sanitizers and coverage), or with --players above 2;
//   * `certify` likewise (it solves the turn of every context of the table);
//   * `simulate` with --games above 50, or --threads above 4;
//   * `stats` with --dice above 10 (it enumerates every position and roll,
//     whose count grows steeply with the dice);
//   * `--exact` with --dice above 16 (exact rationals grow with the dice);
//   * `play` with --dice above 13 or --target above 50 (its bots play a whole
//     game, solving turns for each objective they meet).
// Everything else runs, including the default rules (13 dice) and win queries
// on the shipped tables.
// The scan is conservative: an option given several times counts with its
// largest value; a value CLI11 would refuse anyway (not a decimal number) does
// not cause a skip.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "cli.h"
#include "martiandice/table.h"
#include "terminal_check.h"

namespace {

namespace fs = std::filesystem;

void Require(bool condition) {
  if (!condition) std::abort();
}

fs::path work_dir;

// One-time set-up: the private directory, the small table, the environment.
void SetUp() {
  std::string pattern = (fs::temp_directory_path() / "martiandice-cli-fuzz-XXXXXX").string();
  Require(mkdtemp(pattern.data()) != nullptr);
  const fs::path root = pattern;
  work_dir = root / "work";
  fs::create_directory(work_dir);
  fs::create_directory(root / "tables");
  std::ostringstream out, err;
  const int code = martiandice::RunCli(
      {"solve", "--dice", "3", "--target", "5", "--quiet", "--out", (root / "tables").string()},
      out, err);
  Require(code == 0);
  // $MARTIANDICE_DATA is the only place searched: the shipped tables go there too.
  for (int players : {2, 3}) {
    absl::StatusOr<std::string> shipped =
        martiandice::LocateTable(martiandice::Rules{}, players, std::nullopt);
    Require(shipped.ok());
    fs::copy_file(*shipped, root / "tables" / fs::path(*shipped).filename());
  }
  setenv("MARTIANDICE_DATA", (root / "tables").c_str(), 1);
  static const fs::path to_remove = root;
  std::atexit([] {
    std::error_code ignored;
    fs::remove_all(to_remove, ignored);
  });
}

std::vector<std::string> Split(std::string_view input) {
  std::vector<std::string> args;
  if (input.empty()) return args;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = input.find('\0', start);
    args.emplace_back(input.substr(start, end - start));
    if (end == std::string_view::npos) return args;
    start = end + 1;
  }
}

// The values given to option `name` ("--name VALUE" or "--name=VALUE").
std::vector<std::string> Values(const std::vector<std::string>& args, std::string_view name) {
  std::vector<std::string> values;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == name && i + 1 < args.size()) {
      values.push_back(args[i + 1]);
    } else if (arg.size() > name.size() && arg.compare(0, name.size(), name) == 0 &&
               arg[name.size()] == '=') {
      values.push_back(arg.substr(name.size() + 1));
    }
  }
  return values;
}

// Largest value given to `name` that reads as a number; nullopt if none does.
std::optional<std::int64_t> Largest(const std::vector<std::string>& args, std::string_view name) {
  std::optional<std::int64_t> largest;
  for (const std::string& value : Values(args, name)) {
    std::int64_t n = 0;
    // absl::SimpleAtoi is at least as lenient as the CLI's parsing (decimal;
    // it also takes '+' and surrounding spaces), so nothing accepted escapes.
    if (absl::SimpleAtoi(value, &n) && (!largest || n > *largest)) largest = n;
  }
  return largest;
}

bool Has(const std::vector<std::string>& args, std::string_view word) {
  for (const std::string& arg : args) {
    if (arg == word) return true;
  }
  return false;
}

bool Above(const std::vector<std::string>& args, std::string_view name, std::int64_t limit) {
  const std::optional<std::int64_t> value = Largest(args, name);
  return value && *value > limit;
}

// True if the run is bounded (see the list at the top of the file).
bool Bounded(const std::vector<std::string>& args) {
  if (Has(args, "solve") || Has(args, "certify")) {
    const std::optional<std::int64_t> dice = Largest(args, "--dice");
    const std::optional<std::int64_t> target = Largest(args, "--target");
    if (!dice || *dice > 6 || !target || *target > 12 || Above(args, "--players", 2)) {
      return false;
    }
  }
  if (Has(args, "simulate") && (Above(args, "--games", 50) || Above(args, "--threads", 4))) {
    return false;
  }
  if (Has(args, "stats") && Above(args, "--dice", 10)) return false;
  if (Has(args, "--exact") && Above(args, "--dice", 16)) return false;
  if (Has(args, "play") && (Above(args, "--dice", 13) || Above(args, "--target", 50))) {
    return false;
  }
  return true;
}

// `path` made a path inside the work directory.
std::string Confined(const std::string& path) {
  const bool plain = !path.empty() && path.find('/') == std::string::npos && path != "..";
  return (work_dir / (plain ? path : "out")).string();
}

// Rewrites every --out, --checkpoint and --log value (files the CLI writes)
// into the work directory.
void ConfineOut(std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    for (const std::string option : {"--out", "--checkpoint", "--log"}) {
      if (args[i] == option && i + 1 < args.size()) {
        args[i + 1] = Confined(args[i + 1]);
        ++i;
        break;
      }
      if (args[i].rfind(option + "=", 0) == 0) {
        args[i] = option + "=" + Confined(args[i].substr(option.size() + 1));
        break;
      }
    }
  }
}

void CheckContract(const std::vector<std::string>& args, int code, const std::string& out,
                   const std::string& err) {
  constexpr std::string_view kPrefix = "martiandice: error: ";
  // Whatever the arguments hold, no byte that could act on a terminal is written.
  Require(terminal_check::FirstUnsafe(out) == std::string_view::npos);
  Require(terminal_check::FirstUnsafe(err) == std::string_view::npos);
  if (code == martiandice::kCliExitNotCertified && Has(args, "certify")) {
    // A verdict, not an error: the report on stdout.
    Require(err.find(kPrefix) == std::string::npos);
    Require(out.find("NOT certified") != std::string::npos);
    return;
  }
  if (code == martiandice::kCliExitUnfinished && Has(args, "play")) {
    // The input ended before the game: a verdict, the game so far on stdout.
    Require(err.find(kPrefix) == std::string::npos);
    return;
  }
  Require(code == 0 || code == 1 || code == 2);
  if (code == 0) {
    Require(err.find(kPrefix) == std::string::npos);
    return;
  }
  if (!Has(args, "play") && !Has(args, "coach")) Require(out.empty());
  Require(!err.empty() && err.back() == '\n');
  // The error line is the last line, and the only one with the prefix.
  const std::size_t last = err.rfind('\n', err.size() - 2);
  const std::size_t line_start = last == std::string::npos ? 0 : last + 1;
  Require(err.compare(line_start, kPrefix.size(), kPrefix) == 0);
  Require(err.find(kPrefix) == line_start);
  if (!Has(args, "solve") && !Has(args, "certify")) Require(line_start == 0);
  // An exception escaping the subcommand is a bug, whatever the input.
  constexpr std::string_view kInternal = "internal error";
  Require(err.compare(line_start + kPrefix.size(), kInternal.size(), kInternal) != 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool set_up = (SetUp(), true);
  (void)set_up;
  std::vector<std::string> args =
      Split(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!Bounded(args)) return 0;
  ConfineOut(args);
  std::ostringstream out, err;
  const int code = martiandice::RunCli(args, out, err);
  CheckContract(args, code, out.str(), err.str());
  std::error_code ignored;
  for (const fs::directory_entry& entry : fs::directory_iterator(work_dir, ignored)) {
    fs::remove_all(entry.path(), ignored);
  }
  return 0;
}
