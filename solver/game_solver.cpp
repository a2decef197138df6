// The game-level solve: win probabilities at every turn-start context, by
// backward induction over game totals, with the zero-score cycles of each
// score vector solved by policy iteration on the turn solver.
#include "game_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "absl/strings/str_format.h"
#include "context_index.h"
#include "table_data.h"
#include "table_writer.h"
#include "turn_model.h"

namespace martiandice::solver {
namespace {

using internal::TurnModel;
using internal::TurnValues;

// Below this residual the next round is likely the last (the previous
// policies were optimal at the new guess).
constexpr double kNearResidual = 1e-4;
constexpr double kSolveRounding = kTurnSolveRounding;

// A solved chance as stored: the exact value is a probability, so rounding
// that strays past 0 or 1 (a sum of weights that are 1 in total, rounded) is
// cut back, which only brings it closer. Readers refuse values outside [0, 1].
double Probability(double value) { return std::clamp(value, 0.0, 1.0); }

// Calls fn(t, r, e0, e1, e2, left) for every canonical position whose roll
// value a table stores (docs/FORMAT.md, STATES), in slot order.
template <class Fn>
void ForEachStoredState(int n, Fn&& fn) {
  for (int t = 0; t <= n; ++t)
    for (int r = 0; t + r <= n; ++r)
      for (int e0 = 0; t + r + e0 <= n; ++e0)
        for (int e1 = 0; e1 <= e0 && t + r + e0 + e1 <= n; ++e1)
          for (int e2 = 0; e2 <= e1 && t + r + e0 + e1 + e2 <= n; ++e2) {
            int left = n - t - r - e0 - e1 - e2;
            if (left == 0 || r + e0 == 0 || t > r + left) continue;
            fn(t, r, e0, e1, e2, left);
          }
}

class GameSolver {
 public:
  GameSolver(const GameSolveOptions& options, GameSolveReport* report)
      : rules_(options.rules),
        players_(options.players),
        max_turn_(MaxTurnScore(options.rules)),
        index_(options.rules, options.players),
        model_(TurnModel::Get(options.rules)),
        start_(model_->Id(0, 0, 0, 0, 0)),
        progress_(options.progress),
        report_(report) {
    win_.assign(index_.size() * players_, 0.0);
    error_of_.assign(index_.size(), 0.0);
    slope_of_.assign(index_.size(), 0.0);
    block_of_.assign(index_.size(), 0);
    zero_indicator_.assign(max_turn_ + 1, 0.0);
    zero_indicator_[0] = 1.0;
    CollectStoredStates();
    // Room for every block up front (at most one per open-round context, and
    // fewer than target + max turn in the final round): no regrowth copies.
    const long long t = rules_.target;
    rolls_.reserve(
        static_cast<size_t>(std::min<long long>(index_.size(), 2 * t * t + t + max_turn_)) *
        states_.size());
  }

  TableContents Run() {
    SolveFinalRound();
    SolveOpenRounds();
    TableContents out;
    out.rules = rules_;
    out.players = players_;
    out.error_bound = error_bound_;
    out.win = win_;
    out.block_of = block_of_;
    out.states = states_;
    out.rolls = rolls_;
    report_->contexts = static_cast<int>(index_.size());
    // Not rolls_.size() / states_.size(): 1 die has no stored state.
    report_->blocks = static_cast<int>(blocks_.size());
    report_->stored_states = static_cast<int>(states_.size());
    report_->error_bound = error_bound_;
    report_->first_seat_win = win_[index_.Index(0, std::vector<int>(players_, 0)) * players_];
    return out;
  }

 private:
  // Positions whose roll value the table stores (docs/FORMAT.md, STATES).
  void CollectStoredStates() {
    ForEachStoredState(rules_.dice, [&](int t, int r, int e0, int e1, int e2, int left) {
      states_.push_back({static_cast<std::uint8_t>(t), static_cast<std::uint8_t>(r),
                         static_cast<std::uint8_t>(e0), static_cast<std::uint8_t>(e1),
                         static_cast<std::uint8_t>(e2), static_cast<std::uint8_t>(left)});
      slot_ids_.push_back(model_->Id(t, r, e0, e1, e2));
    });
  }

  // Every seat's chance when the game ends with `scores` (tied leaders split).
  void GameOver(const std::vector<int>& scores, double* out) const {
    int best = *std::max_element(scores.begin(), scores.end());
    int leaders = static_cast<int>(std::count(scores.begin(), scores.end(), best));
    for (int j = 0; j < players_; ++j) out[j] = scores[j] == best ? 1.0 / leaders : 0.0;
  }

  // Every seat's chance after `seat` ends its turn with `x` points.
  void AfterTurn(int seat, std::vector<int> scores, int x, double* out) const {
    bool final_round = false;
    for (int j = 0; j < seat; ++j) final_round |= scores[j] >= rules_.target;
    scores[seat] += x;
    final_round |= scores[seat] >= rules_.target;
    if (seat == players_ - 1 && final_round) return GameOver(scores, out);
    const double* next = &win_[index_.Index((seat + 1) % players_, scores) * players_];
    std::copy(next, next + players_, out);
  }

  // The mover's utility of each turn score; entry 0 may still be unknown.
  std::vector<double> MoverUtility(int seat, const std::vector<int>& scores, int from) const {
    std::vector<double> utility(max_turn_ + 1, 0.0);
    std::vector<double> all(players_);
    for (int x = from; x <= max_turn_; ++x) {
      AfterTurn(seat, scores, x, all.data());
      utility[x] = all[seat];
    }
    return utility;
  }

  // Stores the roll values of a solved turn as a block (shared by equal utilities).
  std::uint32_t StoreBlock(const std::vector<double>& utility, const TurnValues& values) {
    auto [it, inserted] = blocks_.emplace(utility, static_cast<std::uint32_t>(blocks_.size()));
    if (inserted) {
      for (int id : slot_ids_) rolls_.push_back(Probability(values.roll[id]));
    }
    return it->second;
  }

  TurnValues Solve(const std::vector<double>& utility) {
    ++report_->turn_solves;
    return internal::SolveDouble(*model_, utility);
  }
  // Both movers' turns in one two-lane pass (the same values as two solves,
  // bit for bit); with_slope also gives their zero-score slopes in slope[].
  void SolvePair(const std::vector<double> (&utility)[2], bool with_slope, double* slope,
                 TurnValues* out) {
    report_->turn_solves += 2;
    const std::vector<double>* pair[2] = {&utility[0], &utility[1]};
    double slopes[2] = {0, 0};
    internal::SolveDoublePair(*model_, pair, with_slope ? &zero_indicator_ : nullptr, slopes, out);
    if (with_slope) {
      slope[0] = slopes[0];
      slope[1] = slopes[1];
    }
  }

  // Final round, last seat to move (2 players: seat 1 after seat 0 reached
  // the target): no cycle, every next state is the end of the game.
  void SolveFinalRound() {
    const int wide = rules_.target + max_turn_;
    for (int s0 = rules_.target; s0 < wide; ++s0) {
      for (int s1 = 0; s1 < rules_.target; ++s1) {
        std::vector<int> scores = {s0, s1};
        std::vector<double> utility = MoverUtility(1, scores, 0);
        long long c = index_.Index(1, scores);
        // The last turn depends on the gap between the totals only: reuse solves.
        auto known = blocks_.find(utility);
        double value = known != blocks_.end() ? final_value_[known->second] : 0.0;
        if (known == blocks_.end()) {
          TurnValues values = Solve(utility);
          value = Probability(values.value[start_]);
          final_value_[StoreBlock(utility, values)] = value;
        }
        block_of_[c] = blocks_.at(utility);
        win_[c * 2 + 1] = value;
        win_[c * 2] = 1.0 - value;
      }
    }
  }

  // Open rounds, by decreasing sum of totals: a scoring turn only raises a
  // total, so every context a turn can lead to is solved first, except the
  // other seat's context at the same totals (a zero-score turn): those two
  // form a cycle, solved by policy iteration.
  void SolveOpenRounds() {
    const int t = rules_.target;
    int done = 0;
    const int total = t * t;
    for (int sum = 2 * (t - 1); sum >= 0; --sum) {
      for (int s0 = std::min(sum, t - 1); s0 >= 0 && sum - s0 < t; --s0) {
        SolveCycle({s0, sum - s0});
        if (progress_ && ++done % 16 == 0) progress_(static_cast<double>(done) / total);
      }
    }
    if (progress_) progress_(1.0);
  }

  // Largest error bound of the contexts a scoring turn leads to.
  double DependencyError(const std::vector<int>& scores) const {
    double worst = 0;
    for (int seat = 0; seat < 2; ++seat) {
      for (int x = 1; x <= max_turn_; ++x) {
        std::vector<int> next = scores;
        next[seat] += x;
        if (seat == 1 && next[1] >= rules_.target) continue;  // game over: exact
        worst = std::max(worst, error_of_[index_.Index(1 - seat, next)]);
      }
    }
    return worst;
  }

  // Context of seat `seat` moving at totals {s0, s1} if that cycle is solved
  // already (a larger sum, or the same sum with a larger s0), else -1.
  long long SolvedContext(int seat, int s0, int s1) const {
    if (s0 >= rules_.target || s1 >= rules_.target) return -1;
    return index_.Index(seat, {s0, s1});
  }

  // Extrapolates a per-context figure of each mover at `scores` from the
  // solved cycles around it: a plane through three neighbours (s0+1, s1),
  // (s0, s1+1), (s0+1, s1+1), or a line along the one axis left at the edge;
  // `fallback[seat]` when there are none. `of(context, seat)` reads it.
  template <class Of>
  void Extrapolate(const std::vector<int>& scores, Of of, const double* fallback,
                   double* out) const {
    const int s0 = scores[0], s1 = scores[1];
    for (int seat = 0; seat < 2; ++seat) {
      auto at = [&](int d0, int d1, double* v) {
        long long c = SolvedContext(seat, s0 + d0, s1 + d1);
        if (c >= 0) *v = of(c, seat);
        return c >= 0;
      };
      double a, b, c;
      double g = fallback[seat];
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
  // chance is linear in the other's, V = a + b (1 - V'), and the next guess is
  // the fixed point of those lines. It ends when r = |T(W) - W| is at
  // rounding level: the policies of the previous guess were optimal at this
  // one. The solve at W gives the stored values; |W - T(W)| = r, and each
  // value is off by at most its dependencies' error plus (b r + rounding)
  // over 1 - b (the zero-score loop's gain, b < 1).
  void SolveCycle(const std::vector<int>& scores) {
    std::vector<double> u[2] = {MoverUtility(0, scores, 1), MoverUtility(1, scores, 1)};
    // First guesses, typically within 0.3% of the fixed point: the movers'
    // chances and zero-score slopes extrapolated from the solved neighbours.
    double guess[2], b[2];
    Extrapolate(
        scores, [&](long long c, int seat) { return win_[c * 2 + seat]; }, last_, guess);
    Extrapolate(
        scores, [&](long long c, int) { return slope_of_[c]; }, last_slope_, b);
    TurnValues(&values)[2] = values_;  // storage reused from cycle to cycle
    double a[2] = {0, 0}, residual = 0, previous = HUGE_VAL;
    bool solved_slopes = false;  // b[] are slopes of solved policies (not guesses)
    auto accepted = [&] {
      // At rounding level, or rounding keeps r from shrinking further.
      return residual <= kCycleAcceptResidual || (residual <= kCycleStallResidual && residual > previous / 2);
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
        for (int seat = 0; seat < 2; ++seat) {
          u[seat][0] = 1.0 - guess[1 - seat];  // a zero-score turn: the other moves
        }
        SolvePair(u, with_slope, b, values);
        for (int seat = 0; seat < 2; ++seat) {
          residual = std::max(residual, std::abs(values[seat].value[start_] - guess[seat]));
        }
        solved_slopes |= with_slope;
        // Another round, or the end with b[] the slopes of solved policies.
        if (with_slope || (round == 1 ? !accepted() : accepted() && solved_slopes)) break;
        with_slope = true;
      }
      if (accepted() || round == kMaxCycleRounds) break;
      previous = residual;
      // V0 = a0 + b0 (1 - V1), V1 = a1 + b1 (1 - V0).
      for (int seat = 0; seat < 2; ++seat) {
        a[seat] = values[seat].value[start_] - b[seat] * u[seat][0];
      }
      guess[0] = (a[0] + b[0] * (1.0 - a[1] - b[1])) / (1.0 - b[0] * b[1]);
      guess[1] = a[1] + b[1] * (1.0 - guess[0]);
    }
    // The loop's gain b: the slopes of the last policies solved with slopes.
    // When the final round was a plain solve, those are the policies whose
    // fixed point W is: r small says they are optimal at W (up to r), the
    // same local-gain assumption as taking the final policies' own slopes.
    const double slope = std::max(b[0], b[1]);
    report_->max_iterations = std::max(report_->max_iterations, round);
    long long c[2] = {index_.Index(0, scores), index_.Index(1, scores)};
    for (int seat = 0; seat < 2; ++seat) {
      const double w = Probability(values[seat].value[start_]);
      win_[c[seat] * 2 + seat] = w;
      win_[c[seat] * 2 + 1 - seat] = 1.0 - w;
      block_of_[c[seat]] = StoreBlock(u[seat], values[seat]);
    }
    report_->max_residual = std::max(report_->max_residual, residual);
    double error = DependencyError(scores) + (slope * residual + kSolveRounding) / (1.0 - slope);
    error_of_[c[0]] = error_of_[c[1]] = error;
    error_bound_ = std::max(error_bound_, error);
    if (round == kMaxCycleRounds && residual > kCycleStallResidual)
      error_bound_ = HUGE_VAL;  // not converged: say so rather than claim a bound
    last_[0] = values[0].value[start_];
    last_[1] = values[1].value[start_];
    slope_of_[c[0]] = last_slope_[0] = b[0];
    slope_of_[c[1]] = last_slope_[1] = b[1];
  }

  const Rules rules_;
  const int players_;
  const int max_turn_;
  const ContextIndex index_;
  const std::shared_ptr<const TurnModel> model_;
  const int start_;
  std::function<void(double)> progress_;
  GameSolveReport* report_;
  std::vector<double> win_;
  std::vector<std::uint32_t> block_of_;
  std::vector<double> zero_indicator_;
  std::vector<std::array<std::uint8_t, 6>> states_;
  std::vector<int> slot_ids_;
  std::map<std::vector<double>, std::uint32_t> blocks_;
  std::vector<double> rolls_;
  double error_bound_ = 0;
  double last_[2] = {0.5, 0.5};
  TurnValues values_[2];  // the current cycle's turn solves, one per mover
  double last_slope_[2] = {0.2, 0.2};
  std::map<std::uint32_t, double> final_value_;  // block -> mover's chance (final round)
  std::vector<double> error_of_;                 // per context: error bound
  std::vector<double> slope_of_;                 // per open-round context: the mover's b
};

long long CountStoredStates(int n) {
  long long count = 0;
  ForEachStoredState(n, [&](int, int, int, int, int, int) { ++count; });
  return count;
}

std::string Duration(double seconds) {
  if (seconds < 90) return absl::StrFormat("%.0f seconds", seconds);
  if (seconds < 90 * 60) return absl::StrFormat("%.0f minutes", seconds / 60);
  return absl::StrFormat("%.1f hours", seconds / 3600);
}

std::string Size(double bytes) {
  // MiB up to 10 GiB, so that a table just over the limit does not read as equal to it.
  if (bytes < 10.0 * 1024 * 1024 * 1024)
    return absl::StrFormat("%.0f MiB", bytes / (1024.0 * 1024));
  return absl::StrFormat("%.1f GiB", bytes / (1024.0 * 1024 * 1024));
}

absl::Status CheckPlayers(int players) {
  if (players != 2) {
    return absl::UnimplementedError(
        absl::StrFormat("solving for %d players is not supported yet; only 2 players", players));
  }
  return absl::OkStatus();
}

}  // namespace

static_assert(kMaxSolveTableBytes == internal::kMaxTableFileSize,
              "the solver must not write tables the reader refuses");

absl::StatusOr<GameSolveEstimate> EstimateGameSolve(const GameSolveOptions& options) {
  if (absl::Status s = ValidateRules(options.rules); !s.ok()) return s;
  if (absl::Status s = CheckPlayers(options.players); !s.ok()) return s;
  const long long t = options.rules.target;
  const long long m = MaxTurnScore(options.rules);
  GameSolveEstimate e;
  e.contexts = t * t + t * (t + m);  // docs/FORMAT.md numbering, 2 players
  // Open rounds: at most one block per context; final round: the last turn
  // depends on the gap between the totals only (fewer than t + m gaps).
  e.blocks = std::min(e.contexts, 2 * t * t + t + m);
  e.stored_states = CountStoredStates(options.rules.dice);
  // Fits of `martiandice solve --no-certify` on a 2-core Xeon VM (README.md,
  // "Limits"): 8.3-8.6 turn solves per target^2; one turn solve 1.3 us at 8
  // stored states, 66 us at 477, 184 us at 1,316, 1.38 ms at 7,766.
  e.turn_solves = 8.5 * static_cast<double>(t * t);
  e.seconds = e.turn_solves * 0.0725e-6 * std::pow(static_cast<double>(e.stored_states), 1.1);
  const std::uint64_t players = static_cast<std::uint64_t>(options.players);
  e.table_bytes = 128 + static_cast<std::uint64_t>(e.contexts) * (8 * players + 8) +
                  static_cast<std::uint64_t>(e.stored_states) * 8 +
                  static_cast<std::uint64_t>(e.blocks) * e.stored_states * 8;
  return e;
}

absl::StatusOr<std::string> SolveGameTable(const GameSolveOptions& options,
                                           GameSolveReport* report) {
  absl::StatusOr<GameSolveEstimate> estimate = EstimateGameSolve(options);
  if (!estimate.ok()) return estimate.status();
  if (estimate->table_bytes > kMaxSolveTableBytes || estimate->seconds > kMaxSolveSeconds) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "solving dice=%d bonus=%d target=%d would take about %s and write a %s table "
        "(limits: %s of solving, a %s table, which is the largest a reader loads); "
        "use fewer dice or a lower target",
        options.rules.dice, options.rules.bonus, options.rules.target, Duration(estimate->seconds),
        Size(static_cast<double>(estimate->table_bytes)), Duration(kMaxSolveSeconds),
        Size(static_cast<double>(kMaxSolveTableBytes))));
  }
  GameSolveReport local;
  if (report == nullptr) report = &local;
  *report = GameSolveReport();
  auto begin = std::chrono::steady_clock::now();
  TableContents contents = GameSolver(options, report).Run();
  report->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  std::string bytes = SerializeTable(contents);
  if (bytes.size() > kMaxSolveTableBytes) {  // the estimate is an upper bound: not expected
    return absl::InternalError(
        absl::StrFormat("the solved table is %d bytes, over the %d-byte limit readers accept",
                        bytes.size(), kMaxSolveTableBytes));
  }
  return bytes;
}

}  // namespace martiandice::solver
