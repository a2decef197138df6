// `martiandice solve --players N` for N >= 3 (solve_nplayer.h).
#include "solve_nplayer.h"

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_replace.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "json_writer.h"
#include "nplayer_table.h"

namespace martiandice::cli {
namespace {

std::string StartJson(const std::vector<double>& start) {
  std::string json = "[";
  for (const double v : start) {
    if (json.size() > 1) json += ',';
    AppendJsonDouble(json, v);
  }
  return json + "]";
}

}  // namespace

absl::StatusOr<std::string> RunNPlayerSolve(const NPlayerSolveRequest& request) {
  solver::NPlayerSolveOptions options;
  options.rules = request.rules;
  options.players = request.players;
  options.threads = request.threads;
  options.progress = request.progress;
  options.checkpoint = request.checkpoint;
  options.keep_checkpoint = true;  // until the table is written
  options.stop = request.stop;
  solver::NPlayerReport report;
  absl::StatusOr<std::string> bytes = solver::SolveValuesTable(options, &report);
  if (!bytes.ok()) {
    if (absl::IsCancelled(bytes.status())) {  // the CLI's way to resume: the same command
      return absl::CancelledError(absl::StrReplaceAll(
          bytes.status().message(),
          {{"run the same solve with that checkpoint", "run the same command again"}}));
    }
    return bytes.status();
  }
  if (request.finish) request.finish();
  if (absl::Status status = request.write(request.path, *bytes); !status.ok()) return status;
  if (!request.checkpoint.empty()) {
    std::error_code ignored;  // a leftover checkpoint only costs disk space
    std::filesystem::remove(request.checkpoint, ignored);
  }
  const Rules& r = request.rules;
  if (request.json) {
    return JsonObject()
               .Raw("rules", JsonObject(48)
                                 .Int("dice", r.dice)
                                 .Int("bonus", r.bonus)
                                 .Int("target", r.target)
                                 .Build())
               .Int("players", request.players)
               .Str("out", request.path)
               .Int("bytes", static_cast<std::int64_t>(bytes->size()))
               .Int("format_version", 2)
               .Int("contexts", report.contexts)
               .Int("turn_solves", report.turn_solves)
               .Int("cycles", report.cycles)
               .Int("max_rounds", report.max_rounds)
               .Double("max_residual", report.max_residual)
               .Double("error_bound", report.error_bound)
               .Int("tied_decisions", report.tied_decisions)
               .Int("kingmaking", report.kingmaking)
               .Int("threads", request.threads)
               .Double("seconds", report.seconds)
               .Raw("start", StartJson(report.start))
               .Build() +
           "\n";
  }
  std::vector<std::string> start;
  for (double v : report.start) start.push_back(absl::StrFormat("%.6f", v));
  return absl::StrFormat(
      "Solved the %d-player game: %d dice, bonus %d, target %d.\n"
      "  turn-start contexts             %d\n"
      "  turn solves                     %d\n"
      "  zero-score cycles               %d (at most %d rounds)\n"
      "  largest residual                %.3g\n"
      "  error bound of every value      %.3g\n"
      "  tied decisions (kingmaking)     %d (%d)\n"
      "  solve time                      %.2f s (%d threads)\n"
      "  each seat wins from the start   %s\n"
      "Wrote %s (%d bytes, format version 2: values only).\n",
      request.players, r.dice, r.bonus, r.target, report.contexts, report.turn_solves,
      report.cycles, report.max_rounds, report.max_residual, report.error_bound,
      report.tied_decisions, report.kingmaking, report.seconds, request.threads,
      absl::StrJoin(start, ", "), request.path, bytes->size());
}

}  // namespace martiandice::cli
