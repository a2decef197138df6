// `martiandice export`: a policy table as one JSON object, for inspection.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "answers.h"
#include "commands.h"
#include "json.h"
#include "martiandice/state_space.h"
#include "martiandice/table.h"
#include "support.h"

namespace martiandice::cli {
namespace {

// "martiandice-p2-d13-b3-t25.json": the export's name inside an --out directory.
std::string ExportFileName(const Rules& rules, int players) {
  std::string name = TableFileName(rules, players);
  const std::size_t dot = name.rfind('.');
  return absl::StrCat(name.substr(0, dot), ".json");
}

// Items one per line, so that a large export reads and diffs line by line.
std::string JsonLines(const std::vector<std::string>& items) {
  if (items.empty()) return "[]";
  return absl::StrCat("[\n", absl::StrJoin(items, ",\n"), "\n]");
}

absl::StatusOr<std::string> ContextsJson(const GameTable& table) {
  std::vector<std::string> contexts;
  contexts.reserve(static_cast<std::size_t>(table.context_count()));
  for (std::int64_t index = 0; index < table.context_count(); ++index) {
    absl::StatusOr<GameTable::ContextRecord> record = table.Context(index);
    if (!record.ok()) return record.status();
    contexts.push_back(JsonObject()
                           .Int("seat", record->context.seat)
                           .Raw("scores", JsonIntArray(record->context.scores))
                           .Bool("final_round", FinalRoundBegun(table.rules(), record->context.scores, record->context.seat))
                           .Raw("win_probabilities", JsonDoubleArray(record->win_probabilities))
                           .Build());
  }
  return JsonLines(contexts);
}

// The whole export: the header fields, then every context's record in file
// order. The table is named by its file name: an export holds no path of
// the machine that made it.
absl::StatusOr<std::string> ExportJson(const GameTable& table, const std::string& path) {
  absl::StatusOr<std::string> contexts = ContextsJson(table);
  if (!contexts.ok()) return contexts.status();
  return JsonObject()
             .Int("format_version", table.format_version())
             .Str("table", std::filesystem::path(path).filename().string())
             .Raw("rules", app::RulesJson(table.rules()))
             .Int("players", table.players())
             .Int("max_turn_score", MaxTurnScore(table.rules()))
             .Raw("error_bound", JsonDouble(table.error_bound()))
             .Int("tie_tolerance_e", table.tie_tolerance_exponent())
             .Int("context_count", table.context_count())
             .Raw("contexts", *contexts)
             .Build() +
         "\n";
}

}  // namespace

const std::string_view kExportHelp = R"(
Writes a policy table (docs/FORMAT.md) as one JSON object, for inspection: to
stdout, or atomically to --out (a directory gets martiandice-pP-dD-bB-tT.json).
The table is found as for `eval --objective win`: --tables FILE_OR_DIR, else
$MARTIANDICE_DATA alone when set, else the build tree's data/ and the
installed data directory;
its rules and players must match --dice/--bonus/--target/--players.
Fields: format_version, table (the file's name), rules {dice, bonus,
target}, players, max_turn_score, error_bound, tie_tolerance_e (values within
10^-e are tied), context_count; contexts: one object per context in file
order, {seat (to move), scores, final_round, win_probabilities (seat 0
first)}. Numbers have 17 significant digits (they round-trip). With --out,
stdout gets a one-line summary.
)";

absl::StatusOr<std::string> RunExport(const CommandOptions& options,
                                      const CommandContext& context) {
  const Rules& rules = options.request.query.rules;
  absl::StatusOr<int> players = ReadTablePlayers(options.request.query);
  if (!players.ok()) return players.status();
  std::optional<std::string> out;
  if (!options.out.empty()) {
    absl::StatusOr<std::string> path =
        OutputPath(options.out, ExportFileName(rules, *players), Folders::kMustExist);
    if (!path.ok()) return path.status();
    out = *std::move(path);
  }
  absl::StatusOr<std::shared_ptr<const LoadedTable>> table =
      app::LoadTable(context.advisor, rules, *players, options.request.query.tables);
  if (!table.ok()) return table.status();
  absl::StatusOr<std::string> json = ExportJson((*table)->table, (*table)->path);
  if (!json.ok()) return json.status();
  if (!out) return json;
  if (absl::Status status = WriteOutput(*out, *json, {(*table)->path}); !status.ok()) {
    return status;
  }
  return absl::StrFormat("Exported %s (%d contexts) to %s (%d bytes).\n", (*table)->path,
                         (*table)->table.context_count(), *out, json->size());
}

}  // namespace martiandice::cli
