// Turn positions and roll distributions: validation of set-asides and rolls,
// multinomial roll weights, and a breadth-first enumeration of the turn.
#include "martiandice/state_space.h"

#include <algorithm>
#include <unordered_set>

#include "absl/strings/str_format.h"

namespace martiandice {
namespace {

std::uint64_t PackKey(const Dice& d) {
  std::uint64_t key = 0;
  for (Face f : kAllFaces) key = key * 32 + static_cast<std::uint64_t>(d.count(f));
  return key;
}

std::uint64_t Binomial(int n, int k) {
  std::uint64_t c = 1;
  for (int i = 1; i <= k; ++i) c = c * static_cast<std::uint64_t>(n - k + i) / i;
  return c;
}

// Appends every way of showing `left` dice on faces[face..]; `weight` counts the
// ordered die results of the faces chosen so far.
void Compose(int face, int left, Dice& current, std::uint64_t weight,
             std::vector<RollOutcome>& out) {
  Face f = static_cast<Face>(face);
  if (face == kFaceCount - 1) {
    current.set(f, left);
    out.push_back({current, weight});
    return;
  }
  std::uint64_t sides_power = 1;
  for (int n = 0; n <= left; ++n) {
    current.set(f, n);
    // Which of the `left` dice show f, and which of f's sides each shows.
    Compose(face + 1, left - n, current, weight * Binomial(left, n) * sides_power, out);
    sides_power *= static_cast<std::uint64_t>(SidesShowing(f));
  }
}

// The positions a turn moves to from `aside` after `roll`: one per legal take,
// or the turn-over set-aside (tanks added) when no take is legal.
void Successors(const Dice& aside, const Dice& roll, std::vector<Dice>& takes, Dice& turn_over,
                bool& is_turn_over) {
  takes.clear();
  Dice after = aside;
  after.add(Face::kTank, roll.count(Face::kTank));
  for (Face f : {Face::kRay, Face::kHuman, Face::kCow, Face::kChicken}) {
    if (roll.count(f) == 0) continue;
    if (IsEarthling(f) && aside.count(f) > 0) continue;
    Dice next = after;
    next.add(f, roll.count(f));
    takes.push_back(next);
  }
  is_turn_over = takes.empty();
  turn_over = after;
}

}  // namespace

std::uint64_t PowerOfSix(int n) {
  std::uint64_t p = 1;
  for (int i = 0; i < n; ++i) p *= 6;
  return p;
}

std::vector<RollOutcome> RollDistribution(int dice) {
  std::vector<RollOutcome> out;
  if (dice < 0 || dice > kMaxDice) return out;
  Dice current;
  Compose(0, dice, current, 1, out);
  return out;
}

absl::Status ValidateAside(const Rules& rules, const Dice& aside) {
  if (absl::Status s = ValidateRules(rules); !s.ok()) return s;
  if (aside.total() > rules.dice) {
    return absl::InvalidArgumentError(
        absl::StrFormat("set-aside %s has %d dice but the rules have %d", FormatDice(aside),
                        aside.total(), rules.dice));
  }
  if (aside.count(Face::kTank) > 0 && aside.total() == aside.count(Face::kTank)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "set-aside %s is impossible: tanks are only set aside with a chosen face, and choosing "
        "is compulsory (a roll with nothing to choose ends the turn)",
        FormatDice(aside)));
  }
  return absl::OkStatus();
}

absl::Status ValidateRoll(const Rules& rules, const Dice& aside, const Dice& roll) {
  if (absl::Status s = ValidateAside(rules, aside); !s.ok()) return s;
  int left = rules.dice - aside.total();
  if (left == 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "no dice are left to roll: all %d are set aside (%s)", rules.dice, FormatDice(aside)));
  }
  if (roll.total() != left) {
    const std::string where = aside.empty() ? std::string("nothing is set aside")
                                            : absl::StrFormat("%s %s set aside", FormatDice(aside),
                                                              aside.total() == 1 ? "is" : "are");
    return absl::InvalidArgumentError(absl::StrFormat(
        "roll %s shows %d %s but %d %s left to roll: %s", FormatDice(roll), roll.total(),
        roll.total() == 1 ? "die" : "dice", left, left == 1 ? "is" : "are", where));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Dice>> ReachablePositions(const Rules& rules) {
  if (absl::Status s = ValidateRules(rules); !s.ok()) return s;
  std::vector<Dice> order{Dice()};
  // std's set, not absl's: absl's (20220623) is left broken by an allocation
  // that fails while it grows (its destructor then frees a bad pointer).
  std::unordered_set<std::uint64_t> seen{PackKey(Dice())};
  std::vector<std::vector<RollOutcome>> rolls(rules.dice + 1);
  for (int m = 0; m <= rules.dice; ++m) rolls[m] = RollDistribution(m);
  std::vector<Dice> takes;
  Dice turn_over;
  bool is_turn_over = false;
  for (size_t i = 0; i < order.size(); ++i) {
    Dice aside = order[i];
    int left = rules.dice - aside.total();
    if (left == 0) continue;
    for (const RollOutcome& roll : rolls[left]) {
      Successors(aside, roll.faces, takes, turn_over, is_turn_over);
      for (const Dice& next : takes) {
        if (seen.insert(PackKey(next)).second) order.push_back(next);
      }
    }
  }
  return order;
}

absl::StatusOr<StateSpaceStats> ComputeStateSpaceStats(const Rules& rules) {
  absl::StatusOr<std::vector<Dice>> positions = ReachablePositions(rules);
  if (!positions.ok()) return positions.status();
  StateSpaceStats stats;
  std::unordered_set<std::uint64_t> canonical, terminal;
  std::vector<std::vector<RollOutcome>> rolls(rules.dice + 1);
  for (int m = 1; m <= rules.dice; ++m) rolls[m] = RollDistribution(m);
  std::vector<Dice> takes;
  Dice turn_over;
  bool is_turn_over = false;
  for (const Dice& aside : *positions) {
    ++stats.positions;
    int e[3] = {aside.count(Face::kHuman), aside.count(Face::kCow), aside.count(Face::kChicken)};
    std::sort(e, e + 3);
    canonical.insert(
        PackKey(Dice(aside.count(Face::kTank), aside.count(Face::kRay), e[2], e[1], e[0])));
    if (!aside.empty()) terminal.insert(PackKey(aside));  // stopping, or no dice left
    int left = rules.dice - aside.total();
    if (left == 0) continue;
    stats.roll_pairs += static_cast<std::int64_t>(rolls[left].size());
    for (const RollOutcome& roll : rolls[left]) {
      Successors(aside, roll.faces, takes, turn_over, is_turn_over);
      if (is_turn_over) terminal.insert(PackKey(turn_over));
    }
  }
  stats.canonical_positions = static_cast<std::int64_t>(canonical.size());
  stats.terminal_positions = static_cast<std::int64_t>(terminal.size());
  return stats;
}

}  // namespace martiandice
