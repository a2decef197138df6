// libFuzzer target: the certifier (solver/certify.h) on small tables that the
// reader accepts, altered values included: CertifyTable must answer, its
// report must be consistent with its own verdict, and what it certifies must
// hold for the reader: at every context checked, the mover's value of the
// turn solved by the win query (EvaluateWin, not the certifier's code) is
// within the value threshold of the stored value. One thread and two give
// the same verdict and figures.
//
// The input is as the table target's (table_input.h): a mode byte, then a
// policy table file; mode % 3 == 1 recomputes both CRC-32s first, so that
// mutated values reach the certifier, and mode % 3 == 2 the rules hash too.
// Tables of more than 6 dice or 20000 contexts are skipped (the reader takes
// them; certifying them is too slow for one input under the sanitizers). The
// seeds (tests/fuzz/certify/) are the table target's: small solved tables.
// Aborts (a finding) on a violation.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "certify.h"
#include "martiandice/dice.h"
#include "martiandice/win_query.h"
#include "table_input.h"

namespace {

using martiandice::GameTable;
using martiandice::solver::CertificationReport;

void Require(bool condition) {
  if (!condition) std::abort();
}

CertificationReport Certify(const GameTable& table, int threads) {
  martiandice::solver::CertifyOptions options;
  options.threads = threads;
  auto report = martiandice::solver::CertifyTable(table, options);
  Require(report.ok());  // the reader's values are probabilities: always certifiable
  return *std::move(report);
}

void CheckReport(const GameTable& table, const CertificationReport& r) {
  Require(r.contexts == table.context_count());
  Require(r.ties == r.symmetric_ties + r.exact_ties + r.inexact_ties);
  Require(r.structural_ties <= r.exact_ties && r.kingmaking_ties <= r.ties);
  Require(r.tie_tolerance == 1e-12 && r.error_bound == table.error_bound());
  constexpr double kRounding = martiandice::solver::kReaderTurnRounding;
  Require(r.value_threshold == 2 * (r.error_bound + kRounding));
  // The derived bound: NaN (a mixed context) or at least each context's own gap.
  const bool derived = !std::isnan(r.derived_bound);
  Require(!derived || r.derived_bound >= r.largest_value_gap);
  Require(derived || r.mixed_contexts > 0);
  const double bound = derived ? std::max(r.error_bound, r.derived_bound) : r.error_bound;
  Require(r.margin_threshold == 2 * (bound + kRounding));
  Require(r.largest_value_gap >= 0 && !std::isnan(r.largest_value_gap));
  const bool verdict = r.smallest_margin > r.margin_threshold && r.inexact_ties == 0 &&
                       r.largest_value_gap <= r.value_threshold &&
                       (table.players() > 3 || r.mixed_contexts == 0);
  Require(r.certified == verdict);
}

// A certified table's stored values solve their own turns, as the reader sees them.
void CheckCertifiedValues(const GameTable& table, const CertificationReport& r) {
  const std::int64_t contexts = table.context_count();
  const std::int64_t step = contexts > 64 ? contexts / 64 : 1;
  for (std::int64_t index = 0; index < contexts; index += step) {
    auto record = table.Context(index);
    Require(record.ok());
    auto eval = martiandice::EvaluateWin(table, record->context, martiandice::Dice());
    Require(eval.ok());
    const double stored = record->win_probabilities[record->context.seat];
    Require(std::abs(eval->position.value.approx - stored) <= r.value_threshold * (1 + 1e-9));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  absl::StatusOr<GameTable> table = GameTable::FromBytes(fuzz_input::TableBytes(data, size));
  if (!table.ok()) return 0;
  if (table->rules().dice > 6 || table->context_count() > 20000) return 0;
  const CertificationReport one = Certify(*table, 1);
  CheckReport(*table, one);
  const CertificationReport two = Certify(*table, 2);
  Require(two.certified == one.certified && two.decisions == one.decisions &&
          two.ties == one.ties && two.smallest_margin == one.smallest_margin &&
          two.largest_value_gap == one.largest_value_gap &&
          (two.derived_bound == one.derived_bound ||
           (std::isnan(two.derived_bound) && std::isnan(one.derived_bound))) &&
          two.mixed_contexts == one.mixed_contexts);
  if (one.certified) CheckCertifiedValues(*table, one);
  return 0;
}
