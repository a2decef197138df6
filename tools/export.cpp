// `martiandice export`: a policy table as one JSON object, for inspection.
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "answers.h"
#include "atomic_file.h"
#include "commands.h"
#include "exit_codes.h"
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

// Where the export goes, a piece at a time: never whole in memory (a
// 5-player table's export is about 20 GB).
using Sink = std::function<absl::Status(std::string_view)>;

// One context's object.
std::string ContextJson(const GameTable& table, const GameTable::ContextRecord& record) {
  return JsonObject()
      .Int("seat", record.context.seat)
      .Raw("scores", JsonIntArray(record.context.scores))
      .Bool("final_round",
            FinalRoundBegun(table.rules(), record.context.scores, record.context.seat))
      .Raw("win_probabilities", JsonDoubleArray(record.win_probabilities))
      .Build();
}

// The whole export: the header fields, then every context's record in file
// order, one a line (a large export reads and diffs line by line), through
// `sink` in pieces of about kPiece bytes; returns the bytes written. The
// table is named by its file name: an export holds no path of the machine
// that made it. The table is verified first, so that a corrupt one writes
// nothing.
absl::StatusOr<std::uint64_t> WriteExport(const GameTable& table, const std::string& path,
                                          const Sink& sink) {
  constexpr std::size_t kPiece = 1 << 20;
  if (absl::Status status = table.Verify(); !status.ok()) return status;
  constexpr char kHole[] = "\x01";  // where the contexts go: no JSON text holds it
  const std::string frame = JsonObject()
                                .Int("format_version", table.format_version())
                                .Str("table", std::filesystem::path(path).filename().string())
                                .Raw("rules", app::RulesJson(table.rules()))
                                .Int("players", table.players())
                                .Int("max_turn_score", MaxTurnScore(table.rules()))
                                .Raw("error_bound", JsonDouble(table.error_bound()))
                                .Int("tie_tolerance_e", table.tie_tolerance_exponent())
                                .Int("context_count", table.context_count())
                                .Raw("contexts", kHole)
                                .Build() +
                            "\n";
  const std::size_t hole = frame.find(kHole);
  std::string piece = frame.substr(0, hole);
  std::uint64_t written = 0;
  auto flush = [&]() -> absl::Status {
    written += piece.size();
    absl::Status status = sink(piece);
    piece.clear();
    return status;
  };
  piece += table.context_count() == 0 ? "[" : "[\n";
  for (std::int64_t index = 0; index < table.context_count(); ++index) {
    absl::StatusOr<GameTable::ContextRecord> record = table.Context(index);
    if (!record.ok()) return record.status();
    if (index > 0) piece += ",\n";
    piece += ContextJson(table, *record);
    if (piece.size() >= kPiece) {
      if (absl::Status status = flush(); !status.ok()) return status;
    }
  }
  piece += table.context_count() == 0 ? "]" : "\n]";
  piece += frame.substr(hole + std::string_view(kHole).size());
  if (absl::Status status = flush(); !status.ok()) return status;
  return written;
}

}  // namespace

const std::string_view kExportHelp = R"(
Writes a policy table (docs/FORMAT.md) as one JSON object, for inspection: to
stdout, or atomically to --out (a directory gets martiandice-pP-dD-bB-tT.json).
The table is found as for `eval --objective win`: --tables FILE_OR_DIR, else
$MARTIANDICE_DATA alone when set, else the installed tree's, the source
tree's data/ and the configured install folder;
its rules and players must match --dice/--bonus/--target/--players.
Fields: format_version, table (the file's name), rules {dice, bonus,
target}, players, max_turn_score, error_bound, tie_tolerance_e (values within
10^-e are tied), context_count; contexts: one object per context in file
order, {seat (to move), scores, final_round, win_probabilities (seat 0
first)}. Numbers have 17 significant digits (they round-trip). With --out,
stdout gets a one-line summary.
)";

absl::StatusOr<int> RunExport(const CommandOptions& options, const CommandContext& context,
                              std::ostream& out) {
  const Rules& rules = options.request.query.rules;
  absl::StatusOr<int> players = ReadTablePlayers(options.request.query);
  if (!players.ok()) return players.status();
  std::optional<std::string> out_path;
  if (!options.out.empty()) {
    absl::StatusOr<std::string> path = OutputPath(options.out, ExportFileName(rules, *players),
                                                  Folders::kMustExist, Writes::kOther);
    if (!path.ok()) return path.status();
    out_path = *std::move(path);
  }
  absl::StatusOr<std::shared_ptr<const LoadedTable>> table =
      app::LoadTable(context.advisor, rules, *players, options.request.query.tables);
  if (!table.ok()) return table.status();
  const GameTable& game_table = (*table)->table;
  const std::string& input = (*table)->path;
  if (!out_path) {
    absl::StatusOr<std::uint64_t> written =
        WriteExport(game_table, input, [&out](std::string_view piece) {
          out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
          if (out) return absl::OkStatus();
          // Stops at once, with the words of the CLI's own check (cli.cpp's Flushed).
          const int error = errno;
          return absl::UnavailableError(
              absl::StrCat("cannot write the results to standard output",
                           error != 0 ? absl::StrCat(": ", std::strerror(error)) : ""));
        });
    if (!written.ok()) return written.status();
    return kCliExitOk;
  }
  absl::StatusOr<std::unique_ptr<solver::AtomicFileWriter>> file =
      solver::AtomicFileWriter::Create(*out_path);
  if (!file.ok()) return OutputError(*out_path, file.status());
  absl::Status write_error;  // the file's, told apart from the table's
  absl::StatusOr<std::uint64_t> written =
      WriteExport(game_table, input, [&](std::string_view piece) {
        write_error = (*file)->Append(piece);
        return write_error;
      });
  if (!write_error.ok()) return OutputError(*out_path, write_error);
  if (!written.ok()) return written.status();
  if (absl::Status status = (*file)->Commit(); !status.ok()) {
    return OutputError(*out_path, status);
  }
  out << absl::StrFormat("Exported %s (%d contexts) to %s (%d bytes).\n", input,
                         game_table.context_count(), *out_path, *written);
  return kCliExitOk;
}

}  // namespace martiandice::cli
