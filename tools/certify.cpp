// `martiandice certify`: a policy table certified as `solve` certifies the
// table it writes (solver/certify.h), with progress on stderr; and the
// certification report as text and JSON, which `solve` prints too.
#include "certify.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "answers.h"
#include "commands.h"
#include "interrupt.h"
#include "json.h"
#include "martiandice/rules.h"
#include "support.h"

namespace martiandice::cli {

const std::string_view kCertifyHelp = R"(
Certifies a policy table as `solve` certifies the table it writes: every
decision a reader derives from it (stop or roll; which take from every roll)
is checked against the larger of the table's error bound and the bound the
certifier derives from the values ("error bound derived": each value's
distance to its own turn solve, carried from the game's end through every
turn's outcomes; none with a mixed cycle), and ties are re-verified with
exact rational solves. The table is found as for `eval --objective win`
(--tables FILE_OR_DIR, else $MARTIANDICE_DATA alone when set, else the build
tree's data/ and the installed data directory); its rules and players must match
--dice/--bonus/--target/--players. Progress goes to stderr (a bar on a
terminal, else a line every 10% and every minute; --quiet: none). Exit status 0 when
certified, and 3 when not (the report, on stdout, says why); 2 for bad input
(options, rules, a missing or damaged table, as for eval), 1 for another
failure, 130 if interrupted (Ctrl-C). JSON fields: table, rules, players,
format_version, error_bound, certification (as in `solve --json`). It takes
about as long as the solve or longer (docs/PERFORMANCE.md).
)";

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
      .Raw("derived_bound", JsonDouble(c.derived_bound))
      .Raw("margin_threshold", JsonDouble(c.margin_threshold))
      .Raw("value_threshold", JsonDouble(c.value_threshold))
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
                             .Raw("scores", JsonIntArray(e.scores))
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

// The derived bound beside the table's (the threshold uses the larger).
std::string DerivedBoundText(const solver::CertificationReport& c) {
  if (std::isnan(c.derived_bound)) return "none (a mixed cycle is stored)";
  if (std::isinf(c.derived_bound)) return "unbounded (a zero-score cycle repeats with chance 1)";
  return absl::StrFormat("%.3g (the table states %.3g)", c.derived_bound, c.error_bound);
}

std::string CertificationText(const solver::CertificationReport& c) {
  std::string text = absl::StrFormat(
      "Certification: %s.\n"
      "  decisions checked               %d\n"
      "  smallest margin (non-ties)      %.3g (must exceed %.3g)\n"
      "  error bound derived             %s\n"
      "  ties (within %.0e)             %d: %d symmetric, %d exact, %d not exact\n"
      "  exact rational re-solves        %d\n"
      "  values vs their own turn solve  %.3g at most (must not exceed %.3g)\n",
      c.certified ? "every decision and value is certified" : "NOT certified", c.decisions,
      c.smallest_margin, c.margin_threshold, DerivedBoundText(c), c.tie_tolerance, c.ties,
      c.symmetric_ties, c.exact_ties, c.inexact_ties, c.exact_solves + c.partial_exact_solves,
      c.largest_value_gap, c.value_threshold);
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
  for (std::size_t i = 0; i < std::min<std::size_t>(c.inexact_examples.size(), 3); ++i) {
    const solver::CertificationReport::InexactTie& e = c.inexact_examples[i];
    absl::StrAppendFormat(&text, "  inexact tie at totals %s, seat %d: %s vs %s, exact gap %.3g\n",
                          absl::StrJoin(e.scores, ","), e.seat, e.a, e.b, e.gap);
  }
  absl::StrAppendFormat(&text, "  certification time              %.1f s\n", c.seconds);
  return text;
}

absl::StatusOr<CertifyOutcome> RunCertify(const CommandOptions& options,
                                          const CommandContext& context) {
  const Rules& rules = options.request.query.rules;
  absl::StatusOr<int> players = ReadTablePlayers(options.request.query);
  if (!players.ok()) return players.status();
  absl::StatusOr<int> threads = ReadThreads(options.threads);
  if (!threads.ok()) return threads.status();
  absl::StatusOr<std::shared_ptr<const LoadedTable>> loaded =
      app::LoadTable(context.advisor, rules, *players, options.request.query.tables);
  if (!loaded.ok()) return loaded.status();
  const GameTable& table = (*loaded)->table;
  const std::string& path = (*loaded)->path;
  InterruptFlag interrupt;
  Progress progress(context.err, context.stderr_is_terminal, options.quiet, "certifying");
  solver::CertifyOptions certify;
  certify.threads = *threads;
  certify.stop = interrupt.flag();
  certify.progress = [&progress](double fraction) { progress.Update(fraction); };
  absl::StatusOr<solver::CertificationReport> report = solver::CertifyTable(table, certify);
  if (absl::IsCancelled(report.status())) {
    return absl::CancelledError(absl::StrCat("certification of ", path, " interrupted"));
  }
  // A block found damaged as it is read (a mapped table) is the table's error, as at its load.
  if (absl::IsDataLoss(report.status())) return app::TableError(rules, *players, report.status());
  if (!report.ok()) return report.status();
  progress.Finish();
  CertifyOutcome outcome;
  outcome.certified = report->certified;
  if (options.json) {
    outcome.text = JsonObject()
                       .Str("table", path)
                       .Raw("rules", app::RulesJson(rules))
                       .Int("players", table.players())
                       .Int("format_version", table.format_version())
                       .Raw("error_bound", JsonDouble(table.error_bound()))
                       .Raw("certification", CertificationJson(*report))
                       .Build() +
                   "\n";
  } else {
    outcome.text = absl::StrFormat("%s: %d players, %s; format version %d, error bound %.3g.\n%s",
                                   path, table.players(), RulesText(rules), table.format_version(),
                                   table.error_bound(), CertificationText(*report));
  }
  return outcome;
}

}  // namespace martiandice::cli
