// libFuzzer target: the policy table reader, GameTable::FromBytes (header,
// version, layout, checksums, every CONTEXTS record; docs/FORMAT.md), then
// the query and inspection calls on a table that opens (each query solves the
// mover's turn from the stored values).
//
// The first input byte picks what is recomputed (table_input.h), the rest is
// the file.
// The seeds (tests/fuzz/table/) are small solved tables with a mode byte in
// front; see tests/fuzz/README.md.
// Aborts (a finding) if a table that opened answers outside its contract.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "martiandice/dice.h"
#include "martiandice/rules.h"
#include "martiandice/win_query.h"
#include "table_input.h"

namespace {

using martiandice::Dice;
using martiandice::GameContext;
using martiandice::GameTable;

void Require(bool condition) {
  if (!condition) std::abort();
}

bool IsProbability(double p, double slack) {
  return std::isfinite(p) && p >= -slack && p <= 1 + slack;
}

// A few rolls for the dice left at the start of a turn: all rays, and a mix.
std::vector<Dice> Rolls(int dice) {
  std::vector<Dice> rolls = {Dice(0, dice, 0, 0, 0)};
  if (dice >= 5) rolls.push_back(Dice(1, 1, 1, 1, dice - 4));
  if (dice >= 2) rolls.push_back(Dice(1, 0, dice - 1, 0, 0));
  return rolls;
}

void Query(const GameTable& table) {
  const int players = table.players();
  Require(players >= martiandice::kMinPlayers && players <= martiandice::kMaxPlayers);
  Require(martiandice::ValidateRules(table.rules()).ok());
  const double slack = table.error_bound() + 1e-12;
  const std::int64_t contexts = table.context_count();
  Require(table.format_version() == martiandice::kTableFormatVersion);
  Require(table.tie_tolerance_exponent() == 12);
  Require(table.error_bound() >= 0 && table.error_bound() < 1);
  Require(contexts > 0);
  Require(!table.Context(-1).ok() && !table.Context(contexts).ok());
  // The first contexts, and the last ones (other movers and final rounds).
  std::vector<std::int64_t> indices;
  for (std::int64_t i = 0; i < contexts && i < 16; ++i) indices.push_back(i);
  for (std::int64_t i = std::max<std::int64_t>(16, contexts - 16); i < contexts; ++i) {
    indices.push_back(i);
  }
  for (std::int64_t index : indices) {
    auto record = table.Context(index);
    Require(record.ok());
    Require(static_cast<int>(record->win_probabilities.size()) == players);
    for (double p : record->win_probabilities) Require(p >= 0 && p <= 1);
    const GameContext& context = record->context;
    // Every stored context is one a game can be in: queries at it succeed.
    auto win = table.WinProbabilities(context);
    Require(win.ok() && *win == record->win_probabilities);
    auto eval = martiandice::EvaluateWin(table, context, Dice());
    Require(eval.ok() && eval->win_probabilities.size() == static_cast<std::size_t>(players));
    for (double p : eval->win_probabilities) Require(IsProbability(p, slack));
    for (const Dice& roll : Rolls(table.rules().dice)) {
      auto advice = martiandice::AdviseWin(table, context, Dice(), roll);
      Require(advice.ok());
      for (double p : advice->win_probabilities) Require(IsProbability(p, slack));
      Require(IsProbability(advice->advice.value.approx, slack));
      // The convention's pick is one of the optimal takes.
      Require(advice->advice.turn_over ||
              (advice->advice.best && advice->advice.options[*advice->advice.best].optimal));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  absl::StatusOr<GameTable> table = GameTable::FromBytes(fuzz_input::TableBytes(data, size));
  if (!table.ok()) {
    Require(!table.status().message().empty());
    return 0;
  }
  Query(*table);
  return 0;
}
