// The N-player game-level solve: backward over the sum of the totals (a
// scoring turn raises it), the P contexts of a score vector below the target
// forming a zero-score cycle solved by policy iteration, final-round contexts
// a chain solved from the last seat back. Score vectors of equal sum are
// independent and shared among threads.
#include "nplayer_solver.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "context_index.h"
#include "convention_turn.h"
#include "game_solver.h"
#include "martiandice/game.h"

namespace martiandice::solver {
namespace {

using internal::ConventionTurn;
using internal::TurnModel;

// What one thread measured; merged into the report.
struct ThreadStats {
  long long turn_solves = 0, cycles = 0, rounds = 0;
  long long tied = 0, kingmaking = 0, kingmaking_contexts = 0;
  int max_rounds = 0;
  double max_residual = 0, error_bound = 0;
};

// One mover's turn solved for a guess of the next context's vector: its
// chance of a zero-score turn p, every seat's expected chance E, and its tie
// counts.
struct MoverTurn {
  double p = 0;
  std::vector<double> e;
  // With more than two players (a cycle's turn): the expected error bound of
  // the scoring outcomes' contexts, sum over x >= 1 of P(x) * error(next_x).
  double d = 0;
  long long tied = 0, kingmaking = 0;  // the solve's tie counts
};

class NPlayerSolver {
 public:
  NPlayerSolver(const NPlayerSolveOptions& options)
      : rules_(options.rules),
        n_(options.players),
        threads_(options.threads),
        target_(options.rules.target),
        wide_(options.rules.target + MaxTurnScore(options.rules)),
        max_turn_(MaxTurnScore(options.rules)),
        index_(options.rules, options.players),
        model_(TurnModel::Get(options.rules)),
        start_(model_->Id(0, 0, 0, 0, 0)),
        progress_(options.progress),
        arithmetic_(options.arithmetic == SolveArithmetic::kExtended
                        ? internal::Arithmetic::kExtended
                        : internal::Arithmetic::kDouble),
        rounding_(arithmetic_ == internal::Arithmetic::kExtended ? kExtendedTurnRounding
                                                                 : kTurnSolveRounding) {
    win_.assign(index_.size() * n_, 0.0);
    error_of_.assign(index_.size(), 0.0);
  }

  GameValues Run(NPlayerReport* report) {
    std::vector<std::vector<std::uint64_t>> by_sum = ScoreVectorsBySum();
    std::vector<Scratch> scratch(threads_);
    for (Scratch& s : scratch) s.Init(n_, max_turn_);
    long long total = 0, done = 0;
    for (const auto& level : by_sum) total += static_cast<long long>(level.size());
    for (int sum = static_cast<int>(by_sum.size()) - 1; sum >= 0; --sum) {
      SolveLevel(by_sum[sum], scratch);
      done += static_cast<long long>(by_sum[sum].size());
      if (progress_) progress_(static_cast<double>(done) / static_cast<double>(total));
    }
    ThreadStats all;
    for (const Scratch& s : scratch) {
      all.turn_solves += s.stats.turn_solves;
      all.cycles += s.stats.cycles;
      all.rounds += s.stats.rounds;
      all.tied += s.stats.tied;
      all.kingmaking += s.stats.kingmaking;
      all.kingmaking_contexts += s.stats.kingmaking_contexts;
      all.max_rounds = std::max(all.max_rounds, s.stats.max_rounds);
      all.max_residual = std::max(all.max_residual, s.stats.max_residual);
      all.error_bound = std::max(all.error_bound, s.stats.error_bound);
    }
    report->contexts = index_.size();
    report->turn_solves = all.turn_solves;
    report->cycles = all.cycles;
    report->max_rounds = all.max_rounds;
    report->mean_rounds =
        all.cycles > 0 ? static_cast<double>(all.rounds) / static_cast<double>(all.cycles) : 0;
    report->max_residual = all.max_residual;
    report->error_bound = all.error_bound;
    report->tied_decisions = all.tied;
    report->kingmaking = all.kingmaking;
    report->kingmaking_contexts = all.kingmaking_contexts;
    std::vector<int> zeros(n_, 0);
    const double* start = &win_[index_.Index(0, zeros) * n_];
    report->start.assign(start, start + n_);
    GameValues out;
    out.rules = rules_;
    out.players = n_;
    out.win = std::move(win_);
    out.error_bound = all.error_bound;
    return out;
  }

 private:
  // Per-thread buffers, reused by every solve of the thread.
  struct Scratch {
    std::vector<double> utility;
    std::vector<std::vector<double>> carried;  // [0]: zero-score indicator; [c]: a seat's chance
    int carried_seat[kMaxPlayers + 1] = {};    // the seat of carried utility c >= 1
    std::vector<double> over;                  // game-over vectors, by turn score
    ConventionTurn turn;
    std::vector<MoverTurn> movers;
    std::vector<std::vector<double>> guess, closed;  // per mover: the context's vector
    std::string key;                                  // of a final-round turn's outcomes
    absl::flat_hash_map<std::string, MoverTurn> final_solves;
    ThreadStats stats;
    void Init(int n, int max_turn) {
      utility.resize(max_turn + 1);
      carried.assign(n + 1, std::vector<double>(max_turn + 1));
      over.resize(static_cast<size_t>(max_turn + 1) * n);
      movers.assign(n, MoverTurn{0, std::vector<double>(n), 0, 0, 0});
      guess.assign(n, std::vector<double>(n));
      closed.assign(n, std::vector<double>(n));
    }
  };

  // Score vectors in [0, wide)^P that have a context (the last seat below
  // the target), packed mixed radix, by the sum of the totals.
  std::vector<std::vector<std::uint64_t>> ScoreVectorsBySum() const {
    std::vector<std::vector<std::uint64_t>> by_sum(n_ * (wide_ - 1) + 1);
    long long count = 1;
    for (int j = 0; j < n_; ++j) count *= wide_;
    std::vector<int> s(n_);
    for (long long code = 0; code < count; ++code) {
      Unpack(static_cast<std::uint64_t>(code), s.data());
      if (s[n_ - 1] >= target_) continue;
      int sum = 0;
      for (int v : s) sum += v;
      by_sum[sum].push_back(static_cast<std::uint64_t>(code));
    }
    return by_sum;
  }
  void Unpack(std::uint64_t code, int* s) const {
    for (int j = n_ - 1; j >= 0; --j) {
      s[j] = static_cast<int>(code % wide_);
      code /= wide_;
    }
  }

  // The score vectors of one sum depend only on larger sums: shared among
  // the threads, each taking the next vector left.
  void SolveLevel(const std::vector<std::uint64_t>& level, std::vector<Scratch>& scratch) {
    std::atomic<size_t> next{0};
    auto work = [&](Scratch& mine) {
      std::vector<int> s(n_);
      for (size_t k = next++; k < level.size(); k = next++) {
        Unpack(level[k], s.data());
        SolveScoreVector(s.data(), mine);
      }
    };
    const int helpers = static_cast<int>(std::min<size_t>(threads_, level.size())) - 1;
    std::vector<std::thread> pool;
    for (int t = 1; t <= helpers; ++t) pool.emplace_back(work, std::ref(scratch[t]));
    work(scratch[0]);
    for (std::thread& t : pool) t.join();
  }

  void SolveScoreVector(const int* s, Scratch& scratch) {
    int last_reached = -1;  // the last seat at or over the target
    for (int j = 0; j < n_; ++j) {
      if (s[j] >= target_) last_reached = j;
    }
    if (last_reached < 0) {
      SolveCycle(s, scratch);
    } else {
      // Final round: seats after the last one to reach the target still move.
      for (int seat = n_ - 1; seat > last_reached; --seat) SolveFinal(seat, s, scratch);
    }
  }

  // Every seat's chance after `seat` ends its turn with x points: the next
  // context's vector, or the end of the game (tied leaders split).
  const double* AfterTurn(int seat, const int* s, int x, Scratch& scratch) const {
    bool final_round = s[seat] + x >= target_;
    for (int j = 0; j < seat; ++j) final_round |= s[j] >= target_;
    int next[kMaxPlayers];
    std::copy(s, s + n_, next);
    next[seat] += x;
    if (seat == n_ - 1 && final_round) {
      double* out = &scratch.over[static_cast<size_t>(x) * n_];
      int best = *std::max_element(next, next + n_);
      int leaders = static_cast<int>(std::count(next, next + n_, best));
      for (int j = 0; j < n_; ++j) out[j] = next[j] == best ? 1.0 / leaders : 0.0;
      return out;
    }
    return &win_[index_.Index((seat + 1) % n_, next) * n_];
  }

  // The error bound of the context after `seat` ends its turn at `s` with
  // x >= 1 points (0 at the end of the game, which is exact).
  double ErrorAfter(int seat, const int* s, int x) const {
    bool final_round = s[seat] + x >= target_;
    for (int j = 0; j < seat; ++j) final_round |= s[j] >= target_;
    if (seat == n_ - 1 && final_round) return 0;
    int next[kMaxPlayers];
    std::copy(s, s + n_, next);
    next[seat] += x;
    return error_of_[index_.Index((seat + 1) % n_, next)];
  }

  // Solves `seat`'s turn at `s`, the zero-score outcome leading to `zero`
  // (every seat's chance): the mover maximises its own; carried are the
  // zero-score indicator and the other seats' chances. With two players the
  // other seat's chance is the complement (1 - the mover's: its error is the
  // mover's); with more every seat is carried (a complement's error would be
  // the sum of the others'), and with `error_lane` also the error bound of
  // each scoring outcome's context, whose expectation is out->d.
  void SolveMover(int seat, const int* s, const double* zero, bool error_lane, Scratch& scratch,
                  MoverTurn* out) {
    const int last_other = n_ > 2 ? -1 : 1 - seat;
    int k = 1;
    for (int j = 0; j < n_; ++j) {
      if (j != seat && j != last_other) scratch.carried_seat[k++] = j;
    }
    const int error_index = error_lane ? k : -1;
    for (int x = 0; x <= max_turn_; ++x) {
      const double* next = x == 0 ? zero : AfterTurn(seat, s, x, scratch);
      scratch.utility[x] = next[seat];
      scratch.carried[0][x] = x == 0 ? 1.0 : 0.0;
      for (int c = 1; c < k; ++c) scratch.carried[c][x] = next[scratch.carried_seat[c]];
      if (error_lane) scratch.carried[k][x] = x == 0 ? 0.0 : ErrorAfter(seat, s, x);
    }
    const unsigned watched = ((1u << k) - 1) & ~1u;
    internal::SolveConvention(*model_, scratch.utility,
                              std::span(scratch.carried.data(), k + (error_lane ? 1 : 0)), watched,
                              arithmetic_, &scratch.turn);
    ++scratch.stats.turn_solves;
    out->p = scratch.turn.carried[0];
    out->e[seat] = scratch.turn.value;
    double rest = 1.0 - scratch.turn.value;
    for (int c = 1; c < k; ++c) {
      out->e[scratch.carried_seat[c]] = scratch.turn.carried[c];
      rest -= scratch.turn.carried[c];
    }
    if (last_other >= 0) out->e[last_other] = rest;
    out->d = error_lane ? scratch.turn.carried[error_index] : 0.0;
    out->tied = scratch.turn.tied_decisions;
    out->kingmaking = scratch.turn.kingmaking;
  }

  // Largest error bound of the contexts a turn of `seat` at `s` leads to
  // with x >= from points (the end of the game is exact).
  double DependencyError(int seat, const int* s, int from) const {
    bool final_round = false;
    for (int j = 0; j < seat; ++j) final_round |= s[j] >= target_;
    double worst = 0;
    int next[kMaxPlayers];
    for (int x = from; x <= max_turn_; ++x) {
      std::copy(s, s + n_, next);
      next[seat] += x;
      if (seat == n_ - 1 && (final_round || next[seat] >= target_)) continue;
      worst = std::max(worst, error_of_[index_.Index((seat + 1) % n_, next)]);
    }
    return worst;
  }

  // Adds the tie counts of mover `seat`'s last solve.
  void CountTies(Scratch& scratch, int seat) {
    const MoverTurn& m = scratch.movers[seat];
    scratch.stats.tied += m.tied;
    scratch.stats.kingmaking += m.kingmaking;
    scratch.stats.kingmaking_contexts += m.kingmaking > 0;
  }

  // A final-round context: every outcome's vector is known. Many share
  // every outcome's vector (the last seat's turn depends on the gaps between
  // the totals only): those reuse one solve (per thread).
  void SolveFinal(int seat, const int* s, Scratch& scratch) {
    MoverTurn& m = scratch.movers[seat];
    const double* zero = AfterTurn(seat, s, 0, scratch);
    std::string& key = scratch.key;
    key.assign(reinterpret_cast<const char*>(&seat), sizeof seat);
    for (int x = 0; x <= max_turn_; ++x) {
      const double* next = x == 0 ? zero : AfterTurn(seat, s, x, scratch);
      key.append(reinterpret_cast<const char*>(next), sizeof(double) * n_);
    }
    auto known = scratch.final_solves.find(key);
    if (known != scratch.final_solves.end()) {
      m = known->second;
    } else {
      SolveMover(seat, s, zero, /*error_lane=*/false, scratch, &m);
      scratch.final_solves.emplace(key, m);
    }
    CountTies(scratch, seat);
    const long long c = index_.Index(seat, s);
    std::copy(m.e.begin(), m.e.end(), &win_[c * n_]);
    error_of_[c] = DependencyError(seat, s, 0) + rounding_;
    scratch.stats.error_bound = std::max(scratch.stats.error_bound, error_of_[c]);
  }

  // With every mover's actions fixed, V_i = c_i + p_i V_{i+1} around the
  // cycle, c_i = E_i - p_i G_{i+1} for the guess G the turn was solved with:
  // V_0 = (c_0 + p_0 c_1 + p_0 p_1 c_2 + ...) / (1 - p_0 ... p_{P-1}).
  void CloseCycle(const std::vector<std::vector<double>>& guess, Scratch& scratch) {
    auto c = [&](int i, int j) {
      return scratch.movers[i].e[j] - scratch.movers[i].p * guess[(i + 1) % n_][j];
    };
    for (int j = 0; j < n_; ++j) {
      double acc = 0, prod = 1;
      for (int i = 0; i < n_; ++i) {
        acc += prod * c(i, j);
        prod *= scratch.movers[i].p;
      }
      scratch.closed[0][j] = acc / (1.0 - prod);
      for (int i = n_ - 1; i >= 1; --i) {
        scratch.closed[i][j] = c(i, j) + scratch.movers[i].p * scratch.closed[(i + 1) % n_][j];
      }
    }
  }

  // First guess of the cycle's vectors, from the solved score vectors one
  // and two points up on each seat that can take them: the mean of the
  // linear extrapolations (2 V(s + e_j) - V(s + 2 e_j)), else of V(s + e_j),
  // else even chances.
  void InitialGuess(const int* s, Scratch& scratch) const {
    for (auto& g : scratch.guess) std::fill(g.begin(), g.end(), 0.0);
    int up[kMaxPlayers], up2[kMaxPlayers];
    int count = 0;
    for (int linear = 1; linear >= 0 && count == 0; --linear) {
      for (int j = 0; j < n_; ++j) {
        if (s[j] + 1 + linear >= target_) continue;
        std::copy(s, s + n_, up);
        std::copy(s, s + n_, up2);
        ++up[j];
        up2[j] += 2;
        for (int i = 0; i < n_; ++i) {
          const double* v1 = &win_[index_.Index(i, up) * n_];
          const double* v2 = linear ? &win_[index_.Index(i, up2) * n_] : v1;
          for (int k = 0; k < n_; ++k) scratch.guess[i][k] += linear ? 2 * v1[k] - v2[k] : v1[k];
        }
        ++count;
      }
    }
    for (auto& g : scratch.guess) {
      for (double& x : g) x = count > 0 ? x / count : 1.0 / n_;
    }
  }

  // The P movers' turns at totals `s`, all below the target. Each round
  // solves every mover for the guessed next vectors G; the largest change r
  // = |T(G) - G| decides: small enough, those solves are the stored values;
  // else the cycle closed under the round's policies (Newton on a piecewise
  // linear map) is the next guess.
  void SolveCycle(const int* s, Scratch& scratch) {
    InitialGuess(s, scratch);
    int round = 1;
    double residual = HUGE_VAL, previous = HUGE_VAL, slope = 0;
    for (;; ++round) {
      previous = residual;
      residual = slope = 0;
      for (int i = 0; i < n_; ++i) {
        MoverTurn& m = scratch.movers[i];
        SolveMover(i, s, scratch.guess[(i + 1) % n_].data(), /*error_lane=*/n_ > 2, scratch, &m);
        slope = std::max(slope, m.p);
        for (int j = 0; j < n_; ++j) {
          residual = std::max(residual, std::abs(m.e[j] - scratch.guess[i][j]));
        }
      }
      // At rounding level, or rounding keeps r from shrinking further.
      const bool accepted =
          residual <= kCycleAcceptResidual || (residual <= kCycleStallResidual && residual > previous / 2);
      if (accepted || round == kMaxCycleRounds) break;
      CloseCycle(scratch.guess, scratch);
      scratch.guess = scratch.closed;
    }
    // |W - T(W)| <= b r + rounding for the stored W (the last round's
    // solves), so each value is off by at most its dependencies' error plus
    // that over 1 - b (b: the largest zero-score chance, the cycle's
    // contraction per step). Two players: the dependencies' largest error.
    // More: mover i's error e_i <= d_i + p_i E + c (d_i: the expected error
    // of its scoring outcomes, at most (1 - p_i) times their largest; c = b r
    // + rounding), so E = max_i d_i / (1 - p_i) + c / (1 - b) bounds every
    // e_i. This assumes, as the carried chances do anyway, that the computed
    // decisions are the exact values' (closer ones are ties, within 1e-12).
    double deps = 0;
    for (int i = 0; i < n_; ++i) {
      CountTies(scratch, i);
      const MoverTurn& m = scratch.movers[i];
      // The error lane's own rounding is relative, far below 1e-9.
      deps = std::max(deps, n_ > 2 ? m.d / (1 - m.p) * (1 + 1e-9) : DependencyError(i, s, 1));
      std::copy(m.e.begin(), m.e.end(), &win_[index_.Index(i, s) * n_]);
    }
    const bool converged = round < kMaxCycleRounds || residual <= kCycleStallResidual;
    const double error =
        converged ? deps + (slope * residual + rounding_) / (1 - slope) : HUGE_VAL;
    for (int i = 0; i < n_; ++i) error_of_[index_.Index(i, s)] = error;
    ThreadStats& st = scratch.stats;
    ++st.cycles;
    st.rounds += round;
    st.max_rounds = std::max(st.max_rounds, round);
    st.max_residual = std::max(st.max_residual, residual);
    st.error_bound = std::max(st.error_bound, error);
  }

  const Rules rules_;
  const int n_, threads_, target_, wide_, max_turn_;
  const ContextIndex index_;
  const std::shared_ptr<const TurnModel> model_;
  const int start_;
  std::function<void(double)> progress_;
  const internal::Arithmetic arithmetic_;
  const double rounding_;  // of one turn solve's stored values
  std::vector<double> win_;       // [context * players + seat]
  std::vector<double> error_of_;  // per context: error bound
};

}  // namespace

absl::StatusOr<GameValues> SolveGameValues(const NPlayerSolveOptions& options,
                                           NPlayerReport* report) {
  if (absl::Status s = ValidateRules(options.rules); !s.ok()) return s;
  if (options.players < kMinPlayers || options.players > kMaxPlayers) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "players must be %d..%d, got %d", kMinPlayers, kMaxPlayers, options.players));
  }
  if (options.threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrFormat("threads must be at least 1, got %d", options.threads));
  }
  NPlayerReport local;
  if (report == nullptr) report = &local;
  *report = NPlayerReport();
  auto begin = std::chrono::steady_clock::now();
  GameValues values = NPlayerSolver(options).Run(report);
  report->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return values;
}

}  // namespace martiandice::solver
