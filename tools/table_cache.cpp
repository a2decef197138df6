// The command line's tables made on demand (table_cache.h): the cache folder
// from the environment, and the advisor's make_table that finds or solves a
// small game's table there.
#include "table_cache.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <tuple>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "game_solver.h"
#include "interrupt.h"
#include "martiandice/table.h"

namespace martiandice::cli {
namespace {

// An environment variable, unset when empty.
std::optional<std::string> Env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

// The file at `path` when it holds the whole table of the game, else why not.
absl::Status ReadsBack(const std::string& path, const Rules& rules, int players) {
  absl::StatusOr<GameTable> table = GameTable::Open(path);
  if (!table.ok()) return table.status();
  if (absl::Status status = CheckTableMatches(*table, rules, players); !status.ok()) return status;
  return table->Verify();
}

// Solves the game and writes its table to `path` (its folders made), read
// back before it replaces anything there; a bar on `bar` when set.
absl::Status SolveInto(const std::string& path, const Rules& rules, int players, Progress* bar) {
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
  if (error)
    return absl::InternalError(absl::StrCat("cannot create the folder: ", error.message()));
  solver::GameSolveOptions solve;
  solve.rules = rules;
  solve.players = players;
  solve.threads = std::max(1u, std::thread::hardware_concurrency());
  if (bar != nullptr) {
    solve.progress = [bar](const solver::GameSolveProgress& p) {
      bar->Update(p.fraction, p.seconds, p.seconds_left);
    };
  }
  solver::GameSolveReport report;
  absl::StatusOr<solver::GameValues> values = solver::SolveTableValues(solve, &report);
  if (!values.ok()) return values.status();
  if (bar != nullptr) bar->Update(1.0, bar->Seconds(), 0);  // the note after ends its line
  return solver::WriteGameTable(*std::move(values), path, [&](const std::string& temporary) {
    return ReadsBack(temporary, rules, players);
  });
}

// A solve's temporary (solver/atomic_file.cpp: "FILE.tmp.XXXXXX") not written
// for this long was left by a run stopped before its rename (Ctrl-C): a made
// table's solve and write take under a minute.
constexpr auto kStaleTemporary = std::chrono::minutes(10);

// Removes the stale temporaries of `path` from its folder; errors ignored (a
// file that stays costs its bytes only).
void RemoveStaleTemporaries(const std::string& path) {
  const std::filesystem::path file(path);
  const std::string prefix = file.filename().string() + ".tmp.";
  std::error_code error;
  const auto now = std::filesystem::file_time_type::clock::now();
  for (const auto& entry : std::filesystem::directory_iterator(file.parent_path(), error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || !entry.is_regular_file(error)) continue;
    const auto written = entry.last_write_time(error);
    if (!error && now - written > kStaleTemporary) std::filesystem::remove(entry.path(), error);
  }
}

class Maker {
 public:
  Maker(std::string folder, std::ostream& err, bool terminal)
      : folder_(std::move(folder)), err_(err), terminal_(terminal) {}

  absl::StatusOr<std::string> Make(const Rules& rules, int players, const absl::Status& searched) {
    if (TableBytes(rules, players) > kMaxMadeTableBytes) return searched;
    std::lock_guard<std::mutex> lock(mutex_);  // one solve at a time; a game's once
    const auto game = std::make_tuple(rules.dice, rules.bonus, rules.target, players);
    if (auto failed = failed_.find(game); failed != failed_.end()) return failed->second;
    const std::string path =
        (std::filesystem::path(folder_) / TableFileName(rules, players)).string();
    std::error_code ignored;
    if (std::filesystem::exists(path, ignored) && ReadsBack(path, rules, players).ok()) return path;
    RemoveStaleTemporaries(path);
    Progress progress(err_, terminal_, false, SolveProgressLabel(players));
    progress.Note(
        absl::StrFormat("no table for %d players (%s) yet: solving it", players, RulesText(rules)));
    // A bar on a terminal; elsewhere the two notes only (a script's stderr).
    if (absl::Status made = SolveInto(path, rules, players, terminal_ ? &progress : nullptr);
        !made.ok()) {
      const absl::Status failed = absl::NotFoundError(absl::StrCat(
          searched.message(), "; solving it into ", folder_, " failed: ", made.message()));
      failed_.emplace(game, failed);
      return failed;
    }
    progress.Note(absl::StrFormat("solved in %s, kept for the next run: %s",
                                  FormatDuration(progress.Seconds()), path));
    return path;
  }

 private:
  const std::string folder_;
  std::ostream& err_;
  const bool terminal_;
  std::mutex mutex_;
  std::map<std::tuple<int, int, int, int>, absl::Status> failed_;
};

}  // namespace

std::optional<std::string> TableCacheFolder() {
  if (std::optional<std::string> cache = Env("MARTIANDICE_CACHE")) {
    if (*cache == "off") return std::nullopt;
    return cache;
  }
  if (std::optional<std::string> xdg = Env("XDG_CACHE_HOME")) {
    return (std::filesystem::path(*xdg) / "martiandice" / "tables").string();
  }
  if (std::optional<std::string> home = Env("HOME")) {
    return (std::filesystem::path(*home) / ".cache" / "martiandice" / "tables").string();
  }
  return std::nullopt;
}

TableMaker MakeTableMaker(std::string folder, std::ostream& err, bool terminal) {
  auto maker = std::make_shared<Maker>(std::move(folder), err, terminal);
  return [maker](const Rules& rules, int players, const absl::Status& searched) {
    return maker->Make(rules, players, searched);
  };
}

}  // namespace martiandice::cli
