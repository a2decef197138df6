// The two-player kernel: the zero-score cycle by Newton steps along the
// policies' slopes, both movers in one two-lane turn solve.
#include "pair_kernel.h"

#include <cmath>

namespace martiandice::solver {
namespace {

// Below this residual the next round is likely the last (the previous
// policies were optimal at the new guess).
constexpr double kNearResidual = 1e-4;

}  // namespace

PairKernel::Shared::Shared(const SolveState& state) : zero_indicator(state.max_turn + 1, 0.0) {
  zero_indicator[0] = 1.0;
}

PairKernel::PairKernel(SolveState& state, Shared& shared, TurnScratch& scratch)
    : state_(state), shared_(shared), scratch_(scratch) {}

// A per-context figure of each mover at totals s, extrapolated from the
// solved cycles around it: a plane through (s0+1, s1), (s0, s1+1) and
// (s0+1, s1+1), or a line along the one axis left at the edge, else
// `fallback` (the first cycle solved has no solved neighbour). `of(context,
// seat)` reads it.
template <class Of>
void PairKernel::Extrapolate(const int* s, Of of, double fallback, double* out) const {
  for (int seat = 0; seat < 2; ++seat) {
    auto at = [&](int d0, int d1, double* v) {
      const int up[2] = {s[0] + d0, s[1] + d1};
      if (FirstSeatToMove(state_.rules, up) > 0) return false;  // not a cycle's totals
      *v = of(seat, up);
      return true;
    };
    double a = 0, b = 0, c = 0;  // set by `at` before any use (GCC cannot see it)
    double g = fallback;
    if (at(1, 0, &a) && at(0, 1, &b) && at(1, 1, &c)) {
      g = a + b - c;
    } else if (at(1, 0, &a) && at(2, 0, &c)) {
      g = 2 * a - c;
    } else if (at(0, 1, &b) && at(0, 2, &c)) {
      g = 2 * b - c;
    } else if (at(1, 0, &a) || at(0, 1, &a)) {
      g = a;
    }
    out[seat] = std::clamp(g, 0.0, 1.0);
  }
}

// The two movers' turns at the same totals, each one's zero-score turn
// handing the move to the other: a cycle, solved by policy iteration
// (Newton's method on the piecewise-linear fixed-point equations). At a
// guess W of both movers' chances, a solve of each turn with the other's
// chance W' in its zero-score utility gives T(W) and each policy's slope b
// (its chance of a zero-score turn); with the policies fixed each mover's
// chance is linear in the other's, V = a + b (1 - V'), and the next guess
// is the fixed point of those lines. It ends when r = |T(W) - W| is at
// rounding level: the policies of the previous guess were optimal at this
// one. The solve at W gives the stored values; |W - T(W)| = r, and each
// value is off by at most its dependencies' error plus (b r + rounding)
// over 1 - b (the zero-score loop's gain, b < 1).
CycleTask PairKernel::SolveCycle(const int* s) {
  std::copy(s, s + 2, s_);
  return Rounds();
}

// The pair request of this cycle (posted by its first round, its utilities
// then kept: request.utility is mover 0's, carried[0] mover 1's): posted
// again with each mover's zero-score utility at the current guess set by
// the caller; with `with_slope` the slopes too.
std::size_t PairKernel::PostPair(bool with_slope) {
  scratch_.posts.requests[0].lanes = with_slope ? 2 : 1;
  scratch_.posts.count = 1;
  return 1;
}

CycleTask PairKernel::Rounds() {
  const int* s = s_;
  TurnPosts& posts = scratch_.posts;
  posts.Clear();
  TurnRequest& request = posts.Add();
  request.kind = TurnRequest::Kind::kPair;
  request.carried.resize(2);
  request.carried[1] = shared_.zero_indicator;
  std::vector<double>* u[2] = {&request.utility, &request.carried[0]};
  for (int seat = 0; seat < 2; ++seat) {
    u[seat]->resize(state_.max_turn + 1);
    for (int x = 1; x <= state_.max_turn; ++x) {
      (*u[seat])[x] = state_.AfterTurn(seat, s, x, scratch_)[seat];
    }
  }
  // First guesses, usually close to the fixed point: the movers' chances
  // and zero-score slopes extrapolated from the solved neighbours.
  double guess[2], b[2];
  Extrapolate(
      s, [&](int seat, const int* up) { return state_.Win(seat, up)[seat]; }, 0.5, guess);
  Extrapolate(
      s, [&](int seat, const int* up) { return state_.Slope(seat, up); }, 0.2, b);
  double value[2] = {0, 0};  // each mover's solved chance at the guess
  double a[2] = {0, 0}, residual = 0, previous = HUGE_VAL;
  bool solved_slopes = false;  // b[] are slopes of solved policies (not guesses)
  auto accepted = [&] {
    // At rounding level, or rounding keeps r from shrinking further.
    return residual <= kCycleAcceptResidual ||
           (residual <= kCycleStallResidual && residual > previous / 2);
  };
  int round = 1;
  for (;; ++round) {
    // The first round and the one that is likely the last (the previous
    // residual already small) are plain solves: the first steps with the
    // extrapolated slopes (Newton lands ~1e-5 off either way: the slope
    // at the guess is not the fixed point's), the last needs none. Other
    // rounds solve with slopes, and so does a last round found otherwise.
    bool with_slope = round > 1 && previous > kNearResidual;
    for (;;) {
      residual = 0;
      for (int seat = 0; seat < 2; ++seat) (*u[seat])[0] = 1.0 - guess[1 - seat];
      co_await AwaitTurns{PostPair(with_slope)};
      const TurnResult& result = posts.results[0];
      scratch_.stats.counters.turn_solves += 2;
      if (with_slope) std::copy(result.pair_slope, result.pair_slope + 2, b);
      std::copy(result.pair_value, result.pair_value + 2, value);
      for (int seat = 0; seat < 2; ++seat) {
        residual = std::max(residual, std::abs(value[seat] - guess[seat]));
      }
      solved_slopes |= with_slope;
      // Another round, or the end with b[] the slopes of solved policies.
      if (with_slope || (round == 1 ? !accepted() : accepted() && solved_slopes)) break;
      with_slope = true;
    }
    if (accepted() || round == kMaxCycleRounds) break;
    previous = residual;
    // V0 = a0 + b0 (1 - V1), V1 = a1 + b1 (1 - V0).
    for (int seat = 0; seat < 2; ++seat) a[seat] = value[seat] - b[seat] * (*u[seat])[0];
    guess[0] = (a[0] + b[0] * (1.0 - a[1] - b[1])) / (1.0 - b[0] * b[1]);
    guess[1] = a[1] + b[1] * (1.0 - guess[0]);
  }
  // The loop's gain b: the slopes of the last policies solved with slopes.
  // When the final round was a plain solve, those are the policies whose
  // fixed point W is: r small says they are optimal at W (up to r), the
  // same local-gain assumption as taking the final policies' own slopes.
  const double slope = std::max(b[0], b[1]);
  const bool converged = round < kMaxCycleRounds || residual <= kCycleStallResidual;
  const double error =
      converged ? std::max(state_.DependencyError(0, s, 1), state_.DependencyError(1, s, 1)) +
                      (slope * residual + state_.rounding) / (1.0 - slope)
                : HUGE_VAL;
  for (int seat = 0; seat < 2; ++seat) {
    const long long c = state_.index.Index(seat, s);
    const double w = Probability(value[seat]);
    state_.win[c * 2 + seat] = w;
    state_.win[c * 2 + 1 - seat] = 1.0 - w;
    state_.error_of[c] = error;
    state_.pair_slope[c] = b[seat];
  }
  RecordCycle(round, residual, error, scratch_.stats.counters);
}

}  // namespace martiandice::solver
