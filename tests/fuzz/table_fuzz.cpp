// libFuzzer target: the policy table reader, GameTable::FromBytes (every
// section: header, CONTEXTS, STATES, ROLLS; docs/FORMAT.md, versions 1 and
// 2), then the query and inspection calls on a table that opens.
//
// The first input byte picks a mode, the rest is the file:
//   mode % 3 == 0  the bytes as they are (the checksums reject almost every
//                  mutation, so this mostly exercises the header checks);
//   mode % 3 == 1  both CRC-32s recomputed first, so mutations reach the
//                  section parsing;
//   mode % 3 == 2  the rules hash recomputed from the header's dice, bonus,
//                  target and players, then both CRC-32s, so mutated rules
//                  reach the layout checks.
// The seeds (tests/fuzz/table/) are small solved tables with a mode byte in
// front; see tests/fuzz/README.md.
// Aborts (a finding) if a table that opened answers outside its contract.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "martiandice/dice.h"
#include "martiandice/game.h"
#include "martiandice/rules.h"
#include "table_builder.h"

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

void RecomputeHash(std::string& bytes) {
  namespace off = table_builder::offset;
  if (bytes.size() < 128) return;
  const bool values_only = table_builder::GetU32(bytes, off::kVersion) == 2;
  const std::string numbers = absl::StrFormat(
      "dice=%d bonus=%d target=%d players=%d", table_builder::GetU32(bytes, off::kDice),
      table_builder::GetU32(bytes, off::kBonus), table_builder::GetU32(bytes, off::kTarget),
      table_builder::GetU32(bytes, off::kPlayers));
  const std::string rules =
      values_only ? absl::StrCat("martiandice-policy v2 ", numbers,
                                 " values-only ties=stop,rays,most-dice,human-cow-chicken")
                  : absl::StrCat("martiandice-policy v1 ", numbers, " states=canonical-v1");
  table_builder::PutU64(bytes, off::kRulesHash, table_builder::Fnv1a64(rules));
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
  // Version 2 (values only): no blocks, no stored positions; turns solved on demand.
  const bool values_only = table.format_version() == 2;
  Require(table.format_version() == 1 || values_only);
  Require(contexts > 0 && (values_only ? table.block_count() == 0 : table.block_count() > 0));
  Require(!values_only || table.StoredStates().empty());
  Require(!table.Context(-1).ok() && !table.Context(contexts).ok());
  Require(!table.RollBlock(-1).ok() && !table.RollBlock(table.block_count()).ok());
  const std::size_t states = table.StoredStates().size();
  for (std::int64_t b : {std::int64_t{0}, table.block_count() - 1}) {
    if (values_only) break;
    auto block = table.RollBlock(b);
    Require(block.ok() && block->size() == states);
    for (double v : *block) Require(IsProbability(v, slack));
  }
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
    Require(values_only ? record->block == -1
                        : record->block >= 0 && record->block < table.block_count());
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
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int mode = data[0] % 3;
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (mode == 2) RecomputeHash(bytes);
  if (mode >= 1 && bytes.size() >= 128) table_builder::RefreshChecksums(bytes);
  absl::StatusOr<GameTable> table = GameTable::FromBytes(std::move(bytes));
  if (!table.ok()) {
    Require(!table.status().message().empty());
    return 0;
  }
  Query(*table);
  return 0;
}
