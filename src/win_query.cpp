// Win queries from a policy table, exactly as docs/FORMAT.md "Answering a
// query" prescribes: the utility of ending the turn with x points, roll values
// from the turn solved over the stored vectors (or by rule), the ranked takes,
// ties within 10^-tie_tolerance_e and the tie convention's pick.
#include "martiandice/win_query.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <span>

#include "absl/strings/str_format.h"
#include "martiandice/state_space.h"
#include "table_format.h"
#include "table_turns.h"
#include "take_options.h"

namespace martiandice {
namespace {

using internal::TableAccess;
using internal::TableData;

// Win probabilities compare by value; within the table's tolerance they tie.
struct WinCompare {
  double tolerance;
  bool Better(const Value& a, const Value& b) const { return a.approx > b.approx; }
  bool Tied(const Value& a, const Value& b) const {
    return std::abs(a.approx - b.approx) <= tolerance;
  }
};

// A canonical position: tanks, rays, earthlings sorted descending.
struct Canon {
  int tanks, rays, e0, e1, e2, left, score;
};

Canon Canonicalize(const Rules& rules, const Dice& aside) {
  int e[3] = {aside.count(Face::kHuman), aside.count(Face::kCow), aside.count(Face::kChicken)};
  std::sort(e, e + 3, [](int a, int b) { return a > b; });
  Canon c{aside.count(Face::kTank), aside.count(Face::kRay), e[0], e[1], e[2], 0, 0};
  c.left = rules.dice - aside.total();
  c.score = TurnScore(rules, aside);
  return c;
}

// Stop and roll values of the mover at one context.
class WinValues {
 public:
  WinValues(const TableData& d, const GameContext& context)
      : d_(d), seat_(context.seat), context_(d.contexts.Index(context.seat, context.scores)) {
    std::copy(context.scores.begin(), context.scores.end(), scores_.begin());
  }

  // Verifies the blocks of every record the turn reads (this context's and
  // the next contexts'): DataLoss for a corrupt one (table_format.h).
  absl::Status Verify() const {
    if (d_.all_verified.load(std::memory_order_acquire)) return absl::OkStatus();
    if (absl::Status s = d_.VerifyContext(context_); !s.ok()) return s;
    for (int x = 0; x <= d_.max_turn_score; ++x) {
      if (const std::optional<std::int64_t> next = Next(x)) {
        if (absl::Status s = d_.VerifyContext(*next); !s.ok()) return s;
      }
    }
    return absl::OkStatus();
  }

  // u(x): the mover's chance to win after ending the turn with x points.
  double Utility(int x) const {
    if (const std::optional<std::int64_t> next = Next(x)) return d_.Win(*next, seat_);
    std::array<int, kMaxPlayers> s = scores_;
    s[seat_] += x;
    return WinShare(std::span<const int>(s.data(), d_.players), seat_);
  }
  // The mover's chance to win at the start of this turn.
  double StartValue() const { return d_.Win(context_, seat_); }
  // Roll value of a canonical position: unset with no dice left.
  std::optional<double> Roll(const Canon& c) const {
    if (c.tanks + c.rays + c.e0 + c.e1 + c.e2 == 0) return StartValue();
    if (c.left == 0) return std::nullopt;
    if (c.tanks > c.rays + c.left) return Utility(0);
    return SolvedRolls()[d_.turns->model().Id(c.tanks, c.rays, c.e0, c.e1, c.e2)];
  }

  // The interface internal::AdviseTakes uses.
  void Position(const Dice& after, Value& stop, std::optional<Value>& roll) const {
    const Canon c = Canonicalize(d_.rules, after);
    stop.approx = Utility(c.score);
    if (std::optional<double> r = Roll(c)) roll = Value{*r, std::nullopt};
  }
  Value Stop(int score) const { return Value{Utility(score), std::nullopt}; }

  std::vector<double> WinProbabilities() const {
    std::vector<double> w(d_.players);
    d_.Win(context_, w.data());
    return w;
  }

 private:
  // The context after ending the turn with x points; none when the game ends.
  std::optional<std::int64_t> Next(int x) const {
    std::array<int, kMaxPlayers> s = scores_;
    s[seat_] += x;
    if (GameEndsAfterTurn(d_.rules, std::span<const int>(s.data(), d_.players), seat_)) {
      return std::nullopt;
    }
    return d_.contexts.Index((seat_ + 1) % d_.players, s.data());
  }

  // The turn's roll values, solved (or cached) on first use from the
  // utilities the stored vectors give (docs/FORMAT.md).
  const std::vector<double>& SolvedRolls() const {
    if (!turn_.rolls) {
      turn_ = d_.turns->Rolls(context_, [this](std::vector<double>* utility) {
        for (int x = 0; x <= d_.max_turn_score; ++x) (*utility)[x] = Utility(x);
      });
    }
    return *turn_.rolls;
  }

  const TableData& d_;
  int seat_;
  std::int64_t context_;
  std::array<int, kMaxPlayers> scores_{};
  mutable internal::TurnCache::Turn turn_;
};

// The convention's pick among the optimal takes (docs/PLAYERS.md): rays, then
// the earthling type showing the most dice, then Human, Cow, Chicken.
void PickByConvention(RollAdvice& advice) {
  std::optional<int> pick;
  for (int i = 0; i < static_cast<int>(advice.options.size()); ++i) {
    const TakeOption& o = advice.options[i];
    if (!o.optimal) continue;
    if (!pick) {
      pick = i;
      continue;
    }
    const TakeOption& p = advice.options[*pick];
    if (p.take != Face::kRay && (o.take == Face::kRay || o.count > p.count)) pick = i;
  }
  if (pick) advice.best = pick;
}

absl::Status CheckContext(const GameTable& table, const GameContext& context) {
  return ValidateContext(table.rules(), table.players(), context);
}

}  // namespace

absl::StatusOr<std::vector<double>> GameTable::WinProbabilities(const GameContext& context) const {
  if (absl::Status s = CheckContext(*this, context); !s.ok()) return s;
  if (absl::Status s = data_->VerifyContext(data_->contexts.Index(context.seat, context.scores));
      !s.ok()) {
    return s;
  }
  return WinValues(*data_, context).WinProbabilities();
}

absl::Status CheckTableMatches(const GameTable& table, const Rules& rules, int players) {
  if (table.players() != players) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the table is for %d players, but the game has %d", table.players(), players));
  }
  const Rules& r = table.rules();
  if (r != rules) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the table is for other rules (dice %d, bonus %d, target %d) than the game's (dice %d, "
        "bonus %d, target %d)",
        r.dice, r.bonus, r.target, rules.dice, rules.bonus, rules.target));
  }
  return absl::OkStatus();
}

absl::StatusOr<WinEval> EvaluateWin(const GameTable& table, const GameContext& context,
                                    const Dice& aside) {
  if (absl::Status s = CheckContext(table, context); !s.ok()) return s;
  if (absl::Status s = ValidateAside(table.rules(), aside); !s.ok()) return s;
  const TableData& d = TableAccess::Data(table);
  const WinValues values(d, context);
  if (absl::Status s = values.Verify(); !s.ok()) return s;
  const Canon c = Canonicalize(d.rules, aside);
  WinEval result;
  PositionEval& eval = result.position;
  eval.aside = aside;
  eval.dice_left = c.left;
  if (std::optional<double> r = values.Roll(c)) eval.roll = Value{*r, std::nullopt};
  if (aside.empty()) {
    eval.value = *eval.roll;
    eval.action = Then::kRoll;
  } else {
    eval.stop = values.Stop(c.score);
    eval.action = internal::Decide(WinCompare{d.tie_tolerance}, *eval.stop, eval.roll, eval.value);
  }
  result.win_probabilities = values.WinProbabilities();
  return result;
}

absl::StatusOr<WinAdvice> AdviseWin(const GameTable& table, const GameContext& context,
                                    const Dice& aside, const Dice& roll) {
  if (absl::Status s = CheckContext(table, context); !s.ok()) return s;
  if (absl::Status s = ValidateRoll(table.rules(), aside, roll); !s.ok()) return s;
  const TableData& d = TableAccess::Data(table);
  const WinValues values(d, context);
  if (absl::Status s = values.Verify(); !s.ok()) return s;
  WinAdvice result;
  result.advice = internal::AdviseTakes(d.rules, aside, roll, WinCompare{d.tie_tolerance}, values);
  PickByConvention(result.advice);
  result.win_probabilities = values.WinProbabilities();
  return result;
}

}  // namespace martiandice
