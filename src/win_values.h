// Internal: a policy table's win values at one context (the mover's stop and
// roll values, docs/FORMAT.md "Answering a query"), their comparison within
// the table's tie tolerance and the tie convention's pick: what AdviseWin
// and EvaluateWin answer from, and the win policy's turn law
// (distribution.cpp) follows, its checks made once for a whole turn.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/rules.h"
#include "martiandice/state_space.h"
#include "martiandice/turn_query.h"
#include "table_format.h"
#include "table_turns.h"
#include "take_options.h"

namespace martiandice::internal {

// Win probabilities compare by value; within the table's tolerance they tie.
struct WinCompare {
  double tolerance;
  template <typename V>  // Value or ApproxValue
  bool Better(const V& a, const V& b) const {
    return a.approx > b.approx;
  }
  template <typename V>
  bool Tied(const V& a, const V& b) const {
    return std::abs(a.approx - b.approx) <= tolerance;
  }
};

// A canonical position: tanks, rays, earthlings sorted descending.
struct Canon {
  int tanks, rays, e0, e1, e2, left, score;
};

inline Canon Canonicalize(const Rules& rules, const Dice& aside) {
  int e[3] = {aside.count(Face::kHuman), aside.count(Face::kCow), aside.count(Face::kChicken)};
  std::sort(e, e + 3, [](int a, int b) { return a > b; });
  Canon c{aside.count(Face::kTank), aside.count(Face::kRay), e[0], e[1], e[2], 0, 0};
  c.left = rules.dice - aside.total();
  c.score = TurnScore(rules, aside);
  return c;
}

// Stop and roll values of the mover at one context; one thread at a time
// (what it reads is kept).
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

  // u(x): the mover's chance to win after ending the turn with x points
  // (0 <= x <= max_turn_score), kept once read: a turn's walk reads each often.
  double Utility(int x) const {
    if (utilities_.empty()) utilities_.assign(d_.max_turn_score + 1, kUnread);
    double& u = utilities_[x];
    if (!std::isnan(u)) return u;
    if (const std::optional<std::int64_t> next = Next(x)) return u = d_.Win(*next, seat_);
    std::array<int, kMaxPlayers> s = scores_;
    s[seat_] += x;
    return u = WinShare(std::span<const int>(s.data(), d_.players), seat_);
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

  // The interface internal::AdviseTakes uses (V: Value or ApproxValue).
  template <typename V>
  void Position(const Dice& after, V& stop, std::optional<V>& roll) const {
    const Canon c = Canonicalize(d_.rules, after);
    stop.approx = Utility(c.score);
    if (std::optional<double> r = Roll(c)) roll = ApproxOnly<V>(*r);
  }
  template <typename V>
  void Stop(int score, V& value) const {
    value = ApproxOnly<V>(Utility(score));
  }

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
  static constexpr double kUnread = std::numeric_limits<double>::quiet_NaN();
  mutable std::vector<double> utilities_;  // by score; kUnread until read
};

// The convention's pick among the optimal takes (docs/PLAYERS.md): rays, then
// the earthling type showing the most dice, then Human, Cow, Chicken.
template <typename Advice>  // RollAdvice or ApproxAdvice
void PickByConvention(Advice& advice) {
  std::optional<int> pick;
  for (int i = 0; i < static_cast<int>(advice.options.size()); ++i) {
    const auto& o = advice.options[i];
    if (!o.optimal) continue;
    if (!pick) {
      pick = i;
      continue;
    }
    const auto& p = advice.options[*pick];
    if (p.take != Face::kRay && (o.take == Face::kRay || o.count > p.count)) pick = i;
  }
  if (pick) advice.best = pick;
}

// Stop or roll at `aside` (valid) from a turn's win values (WinValues, or the
// final round's when solved without a table): what EvaluateWin answers.
template <typename Values>
PositionEval EvaluateWinAt(const Rules& rules, const Values& values, WinCompare compare,
                           const Dice& aside) {
  const Canon c = Canonicalize(rules, aside);
  PositionEval eval;
  eval.aside = aside;
  eval.dice_left = c.left;
  if (std::optional<double> r = values.Roll(c)) eval.roll = Value{*r, std::nullopt};
  if (aside.empty()) {
    eval.value = *eval.roll;
    eval.action = Then::kRoll;
  } else {
    values.Stop(c.score, eval.stop.emplace());
    eval.action = Decide(compare, *eval.stop, eval.roll, eval.value);
  }
  return eval;
}

// The win policy's advice from `roll` at `aside` (both valid) at `values`'
// context: the ranked takes and the convention's pick, as AdviseWin gives
// (as an ApproxAdvice: the same picks).
template <typename Advice = RollAdvice>
Advice AdviseWinTakes(const TableData& d, const WinValues& values, const Dice& aside,
                      const Dice& roll) {
  Advice advice = AdviseTakes<Advice>(d.rules, aside, roll, WinCompare{d.tie_tolerance}, values);
  PickByConvention(advice);
  return advice;
}

}  // namespace martiandice::internal
