// `martiandice solve --players N` for N >= 3, and `martiandice certify`
// (solve_nplayer.h).
#include "solve_nplayer.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "certify.h"
#include "cli_query.h"
#include "json.h"
#include "martiandice/game.h"

namespace martiandice::cli {

std::string CertificationJson(const solver::CertificationReport& c) {
  JsonObject json;
  json.Int("decisions", c.decisions)
      .Raw("smallest_margin", JsonDouble(c.smallest_margin))
      .Raw("tie_tolerance", JsonDouble(c.tie_tolerance))
      .Int("ties", c.ties)
      .Int("symmetric_ties", c.symmetric_ties)
      .Int("exact_ties", c.exact_ties)
      .Int("inexact_ties", c.inexact_ties)
      .Raw("largest_inexact_gap", JsonDouble(c.largest_inexact_gap))
      .Int("exact_solves", c.exact_solves)
      .Raw("margin_threshold", JsonDouble(c.margin_threshold))
      .Int("structural_ties", c.structural_ties)
      .Int("partial_exact_solves", c.partial_exact_solves)
      .Int("kingmaking_ties", c.kingmaking_ties)
      .Int("kingmaking_contexts", c.kingmaking_contexts)
      .Raw("largest_value_gap", JsonDouble(c.largest_value_gap))
      .Int("mixed_contexts", c.mixed_contexts)
      .Int("mixing_decisions", c.mixing_decisions)
      .Int("inexact_undecided", c.inexact_undecided)
      .Int("inexact_pick_best", c.inexact_pick_best)
      .Int("inexact_pick_worse", c.inexact_pick_worse)
      .Raw("largest_pick_loss", JsonDouble(c.largest_pick_loss));
  if (!c.inexact_examples.empty()) {
    std::vector<std::string> examples;
    for (const solver::CertificationReport::InexactTie& e : c.inexact_examples) {
      examples.push_back(JsonObject()
                             .Raw("scores", absl::StrCat("[", absl::StrJoin(e.scores, ","), "]"))
                             .Int("seat", e.seat)
                             .Str("a", e.a)
                             .Str("b", e.b)
                             .Double("gap", e.gap)
                             .Raw("utility", JsonDoubleArray(e.utility))
                             .Build());
    }
    json.Raw("inexact_examples", JsonArray(examples));
  }
  return json.Raw("certified", c.certified ? "true" : "false")
      .Raw("seconds", JsonDouble(c.seconds))
      .Build();
}

std::string CertificationText(const solver::CertificationReport& c) {
  std::string text = absl::StrFormat(
      "Certification: %s.\n"
      "  decisions checked               %d\n"
      "  smallest margin (non-ties)      %.3g (must exceed %.3g)\n"
      "  ties (within %.0e)             %d: %d symmetric, %d exact, %d not exact\n"
      "  exact rational re-solves        %d\n",
      c.certified ? "every decision is certified" : "NOT certified", c.decisions, c.smallest_margin,
      c.margin_threshold, c.tie_tolerance, c.ties, c.symmetric_ties, c.exact_ties, c.inexact_ties,
      c.exact_solves + c.partial_exact_solves);
  {
    absl::StrAppendFormat(&text,
                          "  exact ties proven structurally  %d\n"
                          "  kingmaking ties (contexts)      %d (%d)\n"
                          "  mixed contexts (mixing choices) %d (%d)\n",
                          c.structural_ties, c.kingmaking_ties, c.kingmaking_contexts,
                          c.mixed_contexts, c.mixing_decisions);
    if (c.inexact_ties > 0) {
      absl::StrAppendFormat(&text,
                            "  not exact, by the convention's pick: %d undecided, %d proven best, "
                            "%d proven worse (by %.3g at most)\n",
                            c.inexact_undecided, c.inexact_pick_best, c.inexact_pick_worse,
                            c.largest_pick_loss);
    }
    // The first few; --json lists them all, with the utilities.
    for (size_t i = 0; i < std::min<size_t>(c.inexact_examples.size(), 3); ++i) {
      const solver::CertificationReport::InexactTie& e = c.inexact_examples[i];
      absl::StrAppendFormat(&text,
                            "  inexact tie at totals %s, seat %d: %s vs %s, exact gap %.3g\n",
                            absl::StrJoin(e.scores, ","), e.seat, e.a, e.b, e.gap);
    }
  }
  absl::StrAppendFormat(&text, "  certification time              %.1f s\n", c.seconds);
  return text;
}

absl::StatusOr<std::string> RunNPlayerSolve(const NPlayerSolveRequest& request) {
  solver::GameSolveOptions options;
  options.rules = request.rules;
  options.players = request.players;
  options.threads = request.threads;
  options.progress = request.progress;
  options.checkpoint = request.checkpoint;
  options.keep_checkpoint = true;  // until the table is written
  options.stop = request.stop;
  options.resume_hint = "run the same command again to resume";  // the CLI's way
  solver::GameSolveReport report;
  absl::StatusOr<std::string> bytes = solver::SolveGameTable(options, &report);
  if (!bytes.ok()) return bytes.status();
  if (request.finish) request.finish();
  if (absl::Status status = request.write(request.path, *bytes); !status.ok()) return status;
  if (!request.checkpoint.empty()) {
    std::error_code ignored;  // a leftover checkpoint only costs disk space
    std::filesystem::remove(request.checkpoint, ignored);
  }
  std::optional<solver::CertificationReport> certification;
  if (request.certify) {
    absl::StatusOr<GameTable> table = GameTable::FromBytes(*bytes);  // as a reader sees it
    if (!table.ok()) return table.status();
    solver::CertifyOptions options;
    options.threads = request.threads;
    options.stop = request.stop;
    absl::StatusOr<solver::CertificationReport> report_or = solver::CertifyTable(*table, options);
    if (absl::IsCancelled(report_or.status())) {
      return absl::CancelledError(absl::StrCat(
          "interrupted while certifying: ", request.path,
          " is written and complete but not certified (solve it again to certify it)"));
    }
    if (!report_or.ok()) return report_or.status();
    certification = *report_or;
  }
  const Rules& r = request.rules;
  const bool ties_counted = request.players > 2;  // not by the 2-player pair kernel
  if (request.json) {
    return JsonObject()
               .Raw("rules", RulesJson(r))
               .Int("players", request.players)
               .Str("out", request.path)
               .Int("bytes", static_cast<std::int64_t>(bytes->size()))
               .Int("format_version", kTableFormatVersion)
               .Int("contexts", report.contexts)
               .Int("turn_solves", report.turn_solves)
               .Int("cycles", report.cycles)
               .Int("max_rounds", report.max_rounds)
               .Double("max_residual", report.max_residual)
               .Double("error_bound", report.error_bound)
               .Raw("tied_decisions", ties_counted ? absl::StrCat(report.tied_decisions) : "null")
               .Raw("kingmaking", ties_counted ? absl::StrCat(report.kingmaking) : "null")
               .Int("mixed_cycles", report.mixed_cycles)
               .Double("mixing_error", report.mixing_error)
               .Int("threads", request.threads)
               .Double("seconds", report.seconds)
               .Raw("start", JsonDoubleArray(report.start))
               .Raw("certification", certification ? CertificationJson(*certification) : "null")
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
      "  tied decisions (kingmaking)     %s\n"
      "  mixed cycles (their error)      %d (%.3g)\n"
      "  solve time                      %.2f s (%d threads)\n"
      "  each seat wins from the start   %s\n"
      "Wrote %s (%d bytes, format version %d).\n%s",
      request.players, r.dice, r.bonus, r.target, report.contexts, report.turn_solves,
      report.cycles, report.max_rounds, report.max_residual, report.error_bound,
      ties_counted ? absl::StrFormat("%d (%d)", report.tied_decisions, report.kingmaking)
                   : std::string("not counted (2 players: a tie changes no value)"),
      report.mixed_cycles, report.mixing_error, report.seconds, request.threads,
      absl::StrJoin(start, ", "), request.path, bytes->size(), kTableFormatVersion,
      certification ? CertificationText(*certification) : "");
}

absl::StatusOr<CertifyOutcome> RunCertify(const CertifyRequest& request) {
  const GameTable* table = request.table;
  solver::CertifyOptions options;
  options.threads = request.threads;
  options.stop = request.stop;
  absl::StatusOr<solver::CertificationReport> report = solver::CertifyTable(*table, options);
  if (absl::IsCancelled(report.status())) {
    return absl::CancelledError(absl::StrCat("certification of ", request.path, " interrupted"));
  }
  if (!report.ok()) return report.status();
  const Rules& r = table->rules();
  CertifyOutcome outcome;
  outcome.certified = report->certified;
  if (request.json) {
    outcome.text = JsonObject()
                       .Str("table", request.path)
                       .Raw("rules", RulesJson(r))
                       .Int("players", table->players())
                       .Int("format_version", table->format_version())
                       .Raw("error_bound", JsonDouble(table->error_bound()))
                       .Raw("certification", CertificationJson(*report))
                       .Build() +
                   "\n";
  } else {
    outcome.text = absl::StrFormat(
        "%s: %d players, %d dice, bonus %d, target %d; format version %d, error bound %.3g.\n%s",
        request.path, table->players(), r.dice, r.bonus, r.target, table->format_version(),
        table->error_bound(), CertificationText(*report));
  }
  return outcome;
}

}  // namespace martiandice::cli
