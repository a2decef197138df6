// `martiandice stats`: the size of a turn's state space under the rules,
// enumerated once per number of dice in a process.
#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "answers.h"
#include "commands.h"
#include "json.h"
#include "martiandice/state_space.h"
#include "support.h"

namespace martiandice::cli {
namespace {

struct RollCount {
  int dice = 0;
  std::int64_t outcomes = 0;
  std::uint64_t ordered = 0;  // 6^dice
};

// The size of a turn: it depends on the number of dice alone (which
// set-asides a turn reaches, and from which rolls), not on the bonus or the
// target, which only score them.
struct TurnSize {
  StateSpaceStats stats;
  std::vector<RollCount> rolls;  // by dice rolled, 1..dice
};

std::mutex turn_sizes_mutex;
std::int64_t turn_enumerations = 0;  // guarded by turn_sizes_mutex

// The turn's size for `rules` (in range), computed once per number of dice in
// the process: at most kMaxDice enumerations, whatever the requests.
absl::StatusOr<TurnSize> TurnSizeOf(const Rules& rules) {
  static std::array<std::optional<TurnSize>, kMaxDice + 1> sizes;
  std::lock_guard<std::mutex> lock(turn_sizes_mutex);
  std::optional<TurnSize>& size = sizes.at(static_cast<std::size_t>(rules.dice));
  if (!size) {
    absl::StatusOr<StateSpaceStats> stats = ComputeStateSpaceStats(rules);
    if (!stats.ok()) return stats.status();
    ++turn_enumerations;
    TurnSize computed{*stats, {}};
    for (int n = 1; n <= rules.dice; ++n) {
      computed.rolls.push_back(
          {n, static_cast<std::int64_t>(RollDistribution(n).size()), PowerOfSix(n)});
    }
    size = std::move(computed);
  }
  return *size;
}

std::string StatsJson(const Rules& rules, const TurnSize& size) {
  const StateSpaceStats& stats = size.stats;
  std::vector<std::string> rolls;
  for (const RollCount& count : size.rolls) {
    rolls.push_back(JsonObject()
                        .Int("dice", count.dice)
                        .Int("outcomes", count.outcomes)
                        .Raw("ordered_results", absl::StrCat(count.ordered))
                        .Build());
  }
  return JsonObject()
             .Raw("rules", app::RulesJson(rules))
             .Int("max_turn_score", MaxTurnScore(rules))
             .Int("positions", stats.positions)
             .Int("canonical_positions", stats.canonical_positions)
             .Int("terminal_positions", stats.terminal_positions)
             .Int("roll_pairs", stats.roll_pairs)
             .Raw("roll_outcomes", JsonArray(rolls))
             .Build() +
         "\n";
}

std::string StatsText(const Rules& rules, const TurnSize& size) {
  const StateSpaceStats& stats = size.stats;
  std::string text = absl::StrCat("Rules: ", RulesText(rules), ".\n");
  absl::StrAppend(&text,
                  absl::StrFormat("  highest turn score            %d\n"
                                  "  decision positions            %d (start included)\n"
                                  "  ... up to earthling relabels  %d\n"
                                  "  final set-asides (scored)     %d\n"
                                  "  (position, roll) pairs        %d\n",
                                  MaxTurnScore(rules), stats.positions, stats.canonical_positions,
                                  stats.terminal_positions, stats.roll_pairs));
  absl::StrAppend(
      &text,
      "Distinct roll outcomes by dice rolled:\n  dice  outcomes  ordered results (6^dice)\n");
  for (const RollCount& count : size.rolls) {
    absl::StrAppend(&text,
                    absl::StrFormat("  %4d  %8d  %d\n", count.dice, count.outcomes, count.ordered));
  }
  return text;
}

}  // namespace

const std::string_view kStatsHelp = R"(
Size of the turn under the rules: decision positions reachable from the start
(set-asides, the start and those with no die left included; also counted up
to relabelling the three earthling types), set-asides a turn can end with,
(position, roll outcome) pairs, the highest possible turn score, and for each
number of dice rolled the number of distinct roll outcomes and of ordered die
results (6^dice). The size of a turn does not depend on --target.
JSON fields (--json): rules, max_turn_score, positions, canonical_positions
(up to relabels), terminal_positions (final set-asides), roll_pairs,
roll_outcomes [{dice, outcomes, ordered_results}].
)";

absl::StatusOr<std::string> StatsJson(const Rules& rules) {
  if (absl::Status status = app::CheckRules(rules); !status.ok()) return status;
  absl::StatusOr<TurnSize> size = TurnSizeOf(rules);
  if (!size.ok()) return size.status();
  return StatsJson(rules, *size);
}

std::int64_t TurnEnumerations() {
  std::lock_guard<std::mutex> lock(turn_sizes_mutex);
  return turn_enumerations;
}

absl::StatusOr<std::string> RunStats(const CommandOptions& options,
                                     const CommandContext& /*context*/) {
  const Rules& rules = options.request.query.rules;
  if (absl::Status status = app::CheckRules(rules); !status.ok()) return status;
  absl::StatusOr<TurnSize> size = TurnSizeOf(rules);
  if (!size.ok()) return size.status();
  return options.json ? StatsJson(rules, *size) : StatsText(rules, *size);
}

}  // namespace martiandice::cli
