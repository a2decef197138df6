// The N-player game-level solve: backward over the sum of the totals (a
// scoring turn raises it), the P contexts of a score vector below the target
// forming a zero-score cycle solved by policy iteration, final-round contexts
// a chain solved from the last seat back. Score vectors of equal sum are
// independent and shared among threads.
#include "game_solver.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "atomic_file.h"
#include "checkpoint.h"
#include "convention_turn.h"
#include "martiandice/game.h"
#include "mixed_cycle.h"
#include "score_law_cache.h"
#include "table_format.h"
#include "workers.h"

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
  long long mixed_cycles = 0;
  double mixing_error = 0;
  std::vector<MixedCycleReport> mixed;
  long long probe_apart = 0;  // GameSolveReport::probe_*
  double probe_largest = 0;
  std::vector<std::vector<int>> probe_examples;
  long long probe_unconverged = 0;
  std::vector<std::vector<int>> probe_unconverged_examples;
  long long settle_passes = 0, settle_reused = 0;
};

// Policy iteration that has not settled by round kWatchFrom watches the
// movers' policies for kWatchRounds more rounds; movers that alternate
// between two then mix them (mixed_cycle.h).
constexpr int kWatchFrom = 10;
constexpr int kWatchRounds = 8;

// Pair kernel: below this residual the next round is likely the last (the
// previous policies were optimal at the new guess).
constexpr double kNearResidual = 1e-4;

// A solved chance as stored: the exact value is a probability, so rounding
// that strays past 0 or 1 is cut back, which only brings it closer.
double Probability(double value) { return std::clamp(value, 0.0, 1.0); }

// Most turn-score laws the settling passes keep (about 300 bytes each: 40 MB).
constexpr std::size_t kScoreLawEntries = std::size_t{1} << 17;

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
  // p and E before rounding to double (mixed cycles need the digits).
  long double wide_p = 0;
  std::vector<long double> wide_e;
};

class GameSolver {
 public:
  GameSolver(const GameSolveOptions& options)
      : rules_(options.rules),
        n_(options.players),
        threads_(options.threads),
        target_(options.rules.target),
        wide_(options.rules.target + MaxTurnScore(options.rules)),
        max_turn_(MaxTurnScore(options.rules)),
        index_(options.rules, options.players),
        model_(TurnModel::Get(options.rules)),
        start_(model_->Id(0, 0, 0, 0, 0)),
        score_laws_(*model_, kScoreLawEntries),
        progress_(options.progress),
        progress_interval_(options.progress_interval),
        checkpoint_(options.checkpoint),
        resume_hint_(options.resume_hint),
        checkpoint_interval_(options.checkpoint_interval),
        keep_checkpoint_(options.keep_checkpoint),
        stop_(options.stop),
        floor_(options.floor),
        guess_order_(options.guess_order),
        probe_order_(options.probe_guess_order),
        pair_(options.players == 2 && options.arithmetic == SolveArithmetic::kAuto),
        arithmetic_(options.arithmetic == SolveArithmetic::kExtended ||
                            (options.arithmetic == SolveArithmetic::kAuto && options.players > 2)
                        ? internal::Arithmetic::kExtended
                        : internal::Arithmetic::kDouble),
        rounding_(arithmetic_ == internal::Arithmetic::kExtended ? kExtendedTurnRounding
                                                                 : kTurnSolveRounding) {
    win_.assign(index_.size() * n_, 0.0);
    error_of_.assign(index_.size(), 0.0);
    if (pair_) {
      slope_of_.assign(index_.size(), 0.0);
      zero_indicator_.assign(max_turn_ + 1, 0.0);
      zero_indicator_[0] = 1.0;
    }
  }

  // Solves every level not loaded from the checkpoint. Cancelled when stopped.
  absl::StatusOr<GameValues> Run(GameSolveReport* report) {
    report_ = report;
    by_sum_ = ScoreVectorsBySum();
    const int levels = static_cast<int>(by_sum_.size());
    std::vector<long long> level_cost(levels, 0);
    for (int k = 0; k < levels; ++k) {
      for (std::uint64_t code : Level(k)) level_cost[k] += VectorCost(code);
      total_cost_ += level_cost[k];
    }
    std::vector<Scratch> scratch(threads_);
    for (Scratch& s : scratch) s.Init(n_, max_turn_);
    int first_level = 0;
    size_t first_vector = 0;
    if (!checkpoint_.empty()) {
      absl::StatusOr<Checkpoint> loaded =
          ReadCheckpoint(checkpoint_, Identity(), CheckpointSize(index_.size(), n_));
      if (loaded.ok()) {
        if (absl::Status s = Load(*loaded); !s.ok()) return s;
        first_level = static_cast<int>(loaded->levels_done);
        first_vector = static_cast<size_t>(loaded->vectors_done);
      } else if (absl::IsNotFound(loaded.status())) {
        // Written now, so a path that cannot be written fails before the work.
        if (absl::Status s = WriteCheckpoint(0, 0, scratch); !s.ok()) return s;
      } else {
        return loaded.status();
      }
    }
    long long done = 0, prefix = 0;  // levels finished; vectors finished of the next
    for (int k = 0; k < first_level; ++k) done += level_cost[k];
    for (size_t v = 0; v < first_vector; ++v) prefix += VectorCost(Level(first_level)[v]);
    resumed_cost_ = done + prefix;
    report->resumed_fraction = Fraction(resumed_cost_);
    for (int k = first_level; k < levels; ++k) {
      const size_t from = k == first_level ? first_vector : 0;
      if (Stopped()) return Interrupt(k, from, scratch);
      absl::StatusOr<size_t> finished =
          SolveLevel(Level(k), from, done + (k == first_level ? prefix : 0), scratch);
      if (!finished.ok()) return SaveAfter(finished.status(), k, from, scratch);
      if (*finished < Level(k).size()) return Interrupt(k, *finished, scratch);
      done += level_cost[k];
      Progress(done);
      const double since = Seconds() - last_write_end_;
      if (!checkpoint_.empty() && k + 1 < levels &&
          since >= std::max(checkpoint_interval_, 20 * last_write_seconds_)) {
        if (absl::Status s = WriteCheckpoint(k + 1, 0, scratch); !s.ok()) return s;
      }
    }
    if (first_level == levels) Progress(done);  // the checkpoint held everything
    if (!checkpoint_.empty() && keep_checkpoint_ && first_level < levels) {
      // Kept: then it holds the whole solve, and solving again only loads it.
      if (absl::Status s = WriteCheckpoint(levels, 0, scratch); !s.ok()) return s;
    }
    const CheckpointCounters all = Counters(scratch);
    report->contexts = index_.size();
    report->turn_solves = static_cast<long long>(all.turn_solves);
    report->cycles = static_cast<long long>(all.cycles);
    report->max_rounds = static_cast<int>(all.max_rounds);
    report->mean_rounds =
        all.cycles > 0 ? static_cast<double>(all.rounds) / static_cast<double>(all.cycles) : 0;
    report->max_residual = all.max_residual;
    report->error_bound = all.error_bound;
    report->tied_decisions = static_cast<long long>(all.tied);
    report->kingmaking = static_cast<long long>(all.kingmaking);
    report->kingmaking_contexts = static_cast<long long>(all.kingmaking_contexts);
    report->mixed_cycles = static_cast<long long>(all.mixed_cycles);
    report->mixing_error = all.mixing_error;
    for (const Scratch& sc : scratch) {
      report->settle_passes += sc.stats.settle_passes;
      report->settle_reused += sc.stats.settle_reused;
      report->mixed.insert(report->mixed.end(), sc.stats.mixed.begin(), sc.stats.mixed.end());
      report->probe_apart += sc.stats.probe_apart;
      report->probe_largest = std::max(report->probe_largest, sc.stats.probe_largest);
      report->probe_unconverged += sc.stats.probe_unconverged;
    }
    // Each thread's examples, then the first kProbeExamples of them all.
    auto merge = [&](std::vector<std::vector<int>>* to,
                     std::vector<std::vector<int>> ThreadStats::*from) {
      for (const Scratch& sc : scratch) {
        to->insert(to->end(), (sc.stats.*from).begin(), (sc.stats.*from).end());
      }
      std::sort(to->begin(), to->end());
      if (to->size() > static_cast<size_t>(kProbeExamples)) to->resize(kProbeExamples);
    };
    merge(&report->probe_examples, &ThreadStats::probe_examples);
    merge(&report->probe_unconverged_examples, &ThreadStats::probe_unconverged_examples);
    std::sort(
        report->mixed.begin(), report->mixed.end(),
        [](const MixedCycleReport& a, const MixedCycleReport& b) { return a.scores < b.scores; });
    std::vector<int> from(n_, 0);  // the start, or the floor's first context
    if (!floor_.empty()) from = floor_;
    const double* start = &win_[index_.Index(FirstMover(from.data()), from) * n_];
    report->start.assign(start, start + n_);
    if (!checkpoint_.empty() && !keep_checkpoint_) {
      std::error_code ignored;  // one left behind is harmless: the same solve would load it
      std::filesystem::remove(checkpoint_, ignored);
    }
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
    std::vector<std::vector<CyclePolicy>> seen;      // per mover: policies while watched
    MixedCycle mix;                                  // the mixture, once found
    std::vector<double> nudged;                      // a mixing mover's next vector
    std::vector<MoverTurn> below, above;             // per mixing mover: its two policies
    std::vector<double> mix_errors;                  // per mixing mover: see MixingError
    std::vector<long double> low_law, high_law;      // their turn scores' distributions
    internal::ConventionPolicy mix_policy;           // a mixing mover's reply, for its law
    // Per mover: the actions of its last double solve in a settling cycle's
    // search, and the law of the turn score they give.
    std::vector<internal::ConventionPolicy> policies;
    std::vector<long double> score_law;
    // Per mover, in a settling cycle's search: whether its policy must be
    // solved again (its range no longer holds the guess), and the utility[0]
    // its last solve had (its range is about that).
    std::vector<char> stale;
    std::vector<double> solved_at;
    bool mix_failed = false;
    internal::TurnValues pair[2];  // the pair kernel's two movers' solves
    std::vector<double> pair_utility[2];
    std::string key;  // of a final-round turn's outcomes
    absl::flat_hash_map<std::string, MoverTurn> final_solves;
    ThreadStats stats;
    void Init(int n, int max_turn) {
      utility.resize(max_turn + 1);
      carried.assign(n + 1, std::vector<double>(max_turn + 1));
      over.resize(static_cast<size_t>(max_turn + 1) * n);
      movers.assign(n,
                    MoverTurn{0, std::vector<double>(n), 0, 0, 0, 0, std::vector<long double>(n)});
      guess.assign(n, std::vector<double>(n));
      closed.assign(n, std::vector<double>(n));
      below = above = movers;
      mix_errors.assign(n, 0.0);
      policies.resize(n);
      for (auto& p : policies) p.zero_lane = 0;  // carried[0]: ranges of utility[0]
      stale.assign(n, 1);
      solved_at.assign(n, 0.0);
      for (auto& u : pair_utility) u.resize(max_turn + 1);
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
      bool below = false;
      for (int j = 0; j < static_cast<int>(floor_.size()); ++j) below |= s[j] < floor_[j];
      if (below) continue;
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
  // the threads, each taking the next vector left, from vector `from` on.
  // Unless stopped, every thread finishes the vector it took: the vectors
  // done are a prefix, whose length is returned. `done` is the cost of the
  // work before the level and its vectors before `from` (progress). Errors:
  // RunWorkers's (no vector solved then).
  absl::StatusOr<size_t> SolveLevel(const std::vector<std::uint64_t>& level, size_t from,
                                    long long done, std::vector<Scratch>& scratch) {
    std::atomic<size_t> next{from};
    std::atomic<long long> level_done{0};
    auto work = [&](int thread) {
      Scratch& mine = scratch[thread];
      const bool caller = thread == 0;
      std::vector<int> s(n_);
      while (!Stopped()) {
        const size_t k = next++;
        if (k >= level.size()) break;
        Unpack(level[k], s.data());
        SolveScoreVector(s.data(), mine);
        level_done += VectorCost(level[k]);
        if (caller && progress_ && Seconds() - last_progress_ >= progress_interval_) {
          Progress(done + level_done.load());
        }
      }
    };
    const int workers = static_cast<int>(std::min<size_t>(threads_, level.size() - from));
    if (absl::Status s = RunWorkers(std::max(workers, 1), work); !s.ok()) return s;
    return std::min(next.load(), level.size());
  }

  // ---- progress, stopping, checkpoints

  // The k-th level solved: the score vectors of the k-th largest sum.
  const std::vector<std::uint64_t>& Level(int k) const { return by_sum_[by_sum_.size() - 1 - k]; }

  // The first seat with a context at totals `s` (those after it have one too):
  // every seat below the target, else the seats after the last one to reach it.
  int FirstMover(const int* s) const {
    int first = 0;
    for (int j = 0; j < n_; ++j) {
      if (s[j] >= target_) first = j + 1;
    }
    return first;
  }

  // Progress weight of a score vector, in hundredths of a turn solve.
  long long VectorCost(std::uint64_t code) const {
    int s[kMaxPlayers];
    Unpack(code, s);
    const int first = FirstMover(s);
    static constexpr long long kCycle = static_cast<long long>(kCycleCost * 100 + 0.5);
    static constexpr long long kFinal = static_cast<long long>(kFinalCost * 100 + 0.5);
    return first == 0 ? kCycle * n_ : kFinal * (n_ - first);
  }

  double Fraction(long long done) const {
    return total_cost_ > 0 ? static_cast<double>(done) / static_cast<double>(total_cost_) : 1.0;
  }
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count();
  }
  bool Stopped() const { return stop_ != nullptr && stop_->load(std::memory_order_relaxed); }

  // Calls the progress callback (from the calling thread).
  void Progress(long long done) {
    last_progress_ = Seconds();
    if (!progress_) return;
    GameSolveProgress p;
    p.fraction = Fraction(done);
    p.seconds = last_progress_;
    if (done == total_cost_) {
      p.seconds_left = 0;
    } else if (done > resumed_cost_ && p.seconds > 0) {
      p.seconds_left = p.seconds * static_cast<double>(total_cost_ - done) /
                       static_cast<double>(done - resumed_cost_);
    }
    progress_(p);
  }

  CheckpointIdentity Identity() const {
    CheckpointIdentity id;
    id.rules = rules_;
    id.players = n_;
    id.extended = arithmetic_ == internal::Arithmetic::kExtended;
    id.solver_version = kSolverVersion;
    id.levels = static_cast<std::uint32_t>(by_sum_.size());
    return id;
  }

  // Calls fn(context) for every context of the first `levels` levels and
  // the first `vectors` score vectors of the next, in the checkpoint's order.
  template <typename Fn>
  void ForEachFinished(int levels, size_t vectors, Fn fn) const {
    int s[kMaxPlayers];
    auto visit = [&](std::uint64_t code) {
      Unpack(code, s);
      for (int seat = FirstMover(s); seat < n_; ++seat) fn(index_.Index(seat, s));
    };
    for (int k = 0; k < levels; ++k) {
      for (std::uint64_t code : Level(k)) visit(code);
    }
    for (size_t v = 0; v < vectors; ++v) visit(Level(levels)[v]);
  }

  // The report counters of the work so far: the threads' and the checkpoint's.
  CheckpointCounters Counters(const std::vector<Scratch>& scratch) const {
    CheckpointCounters all = loaded_;
    for (const Scratch& s : scratch) {
      all.turn_solves += s.stats.turn_solves;
      all.cycles += s.stats.cycles;
      all.rounds += s.stats.rounds;
      all.tied += s.stats.tied;
      all.kingmaking += s.stats.kingmaking;
      all.kingmaking_contexts += s.stats.kingmaking_contexts;
      all.max_rounds = std::max<std::uint32_t>(all.max_rounds, s.stats.max_rounds);
      all.max_residual = std::max(all.max_residual, s.stats.max_residual);
      all.error_bound = std::max(all.error_bound, s.stats.error_bound);
      all.mixed_cycles += s.stats.mixed_cycles;
      all.mixing_error = std::max(all.mixing_error, s.stats.mixing_error);
    }
    return all;
  }

  absl::Status WriteCheckpoint(int levels, size_t vectors, const std::vector<Scratch>& scratch) {
    const double began = Seconds();
    Checkpoint c;
    c.identity = Identity();
    c.levels_done = static_cast<std::uint32_t>(levels);
    c.vectors_done = vectors;
    c.counters = Counters(scratch);
    c.seconds = report_->earlier_seconds + began;
    std::uint64_t contexts = 0;
    ForEachFinished(levels, vectors, [&](long long) { ++contexts; });
    CheckpointWriter writer(c, contexts);
    ForEachFinished(levels, vectors, [&](long long context) {
      writer.Append(&win_[context * n_], n_);
      writer.Append(&error_of_[context], 1);
    });
    absl::StatusOr<std::string> bytes = writer.Finish();
    if (!bytes.ok()) return bytes.status();
    if (absl::Status s = WriteFileAtomically(checkpoint_, *bytes); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat("writing the checkpoint: ", s.message()));
    }
    last_write_end_ = Seconds();
    last_write_seconds_ = last_write_end_ - began;
    ++report_->checkpoints_written;
    report_->checkpoint_bytes = static_cast<long long>(bytes->size());
    report_->checkpoint_seconds += last_write_seconds_;
    return absl::OkStatus();
  }

  // Takes a parsed checkpoint's finished work.
  absl::Status Load(const Checkpoint& c) {
    const int level = static_cast<int>(c.levels_done);
    const int levels = static_cast<int>(by_sum_.size());
    if (level < levels && c.vectors_done > 0 && c.vectors_done >= Level(level).size()) {
      return absl::DataLossError(absl::StrFormat(
          "checkpoint %s is unusable: %u score vectors done of a level of %u; delete it to start "
          "the solve over",
          checkpoint_, c.vectors_done, Level(level).size()));
    }
    const size_t vectors = level < levels ? static_cast<size_t>(c.vectors_done) : 0;
    size_t contexts = 0;
    ForEachFinished(level, vectors, [&](long long) { ++contexts; });
    if (contexts * (n_ + 1) != c.records.size()) {
      return absl::DataLossError(absl::StrFormat(
          "checkpoint %s is unusable: %u contexts stored where its progress has %u; delete it to "
          "start the solve over",
          checkpoint_, c.records.size() / (n_ + 1), contexts));
    }
    const double* r = c.records.data();
    ForEachFinished(level, vectors, [&](long long context) {
      std::copy(r, r + n_, &win_[context * n_]);
      error_of_[context] = r[n_];
      r += n_ + 1;
    });
    loaded_ = c.counters;
    report_->earlier_seconds = c.seconds;
    return absl::OkStatus();
  }

  // Stopped before the level's vector `vectors`: saves and says how to go on.
  absl::Status Interrupt(int level, size_t vectors, const std::vector<Scratch>& scratch) {
    long long done = 0;
    for (int k = 0; k < level; ++k) {
      for (std::uint64_t code : Level(k)) done += VectorCost(code);
    }
    for (size_t v = 0; v < vectors; ++v) done += VectorCost(Level(level)[v]);
    const std::string where = absl::StrFormat("%.1f%% done (level %d of %d)", 100 * Fraction(done),
                                              level + 1, static_cast<int>(by_sum_.size()));
    if (checkpoint_.empty()) {
      return absl::CancelledError(
          absl::StrCat("solve interrupted at ", where, "; no checkpoint file: the work is lost"));
    }
    if (absl::Status s = WriteCheckpoint(level, vectors, scratch); !s.ok()) return s;
    return absl::CancelledError(absl::StrCat("solve interrupted at ", where,
                                             "; the finished work is saved in ", checkpoint_, ": ",
                                             resume_hint_));
  }

  // `status` (the solve stopped before level `level`'s vector `vectors`),
  // saying where the finished work is saved if there is a checkpoint.
  absl::Status SaveAfter(const absl::Status& status, int level, size_t vectors,
                         const std::vector<Scratch>& scratch) {
    if (checkpoint_.empty()) return status;
    if (absl::Status s = WriteCheckpoint(level, vectors, scratch); !s.ok()) return status;
    return absl::Status(status.code(),
                        absl::StrCat(status.message(), "; the finished work is saved in ",
                                     checkpoint_, ": ", resume_hint_));
  }

  void SolveScoreVector(const int* s, Scratch& scratch) {
    int last_reached = -1;  // the last seat at or over the target
    for (int j = 0; j < n_; ++j) {
      if (s[j] >= target_) last_reached = j;
    }
    if (last_reached < 0) {
      if (pair_) return SolvePairCycle(s, scratch);
      SolveCycle(s, guess_order_, scratch);
      if (probe_order_ > 0) ProbeCycle(s, scratch);
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
    int next[kMaxPlayers] = {};
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
    SolveMover(seat, s, zero, error_lane, arithmetic_, scratch, out);
  }
  void SolveMover(int seat, const int* s, const double* zero, bool error_lane,
                  internal::Arithmetic arithmetic, Scratch& scratch, MoverTurn* out,
                  internal::ConventionPolicy* policy = nullptr) {
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
                              arithmetic, &scratch.turn, policy);
    ++scratch.stats.turn_solves;
    out->p = scratch.turn.carried[0];
    out->e[seat] = scratch.turn.value;
    out->wide_p = scratch.turn.wide_carried[0];
    out->wide_e[seat] = scratch.turn.wide_value;
    double rest = 1.0 - scratch.turn.value;
    long double wide_rest = 1 - scratch.turn.wide_value;
    for (int c = 1; c < k; ++c) {
      out->e[scratch.carried_seat[c]] = scratch.turn.carried[c];
      out->wide_e[scratch.carried_seat[c]] = scratch.turn.wide_carried[c];
      rest -= scratch.turn.carried[c];
      wide_rest -= scratch.turn.wide_carried[c];
    }
    if (last_other >= 0) {
      out->e[last_other] = rest;
      out->wide_e[last_other] = wide_rest;
    }
    out->d = error_lane ? scratch.turn.carried[error_index] : 0.0;
    out->tied = scratch.turn.tied_decisions;
    out->kingmaking = scratch.turn.kingmaking;
  }

  // The settling round's solve of `seat`'s turn at `s` (zero-score outcome
  // `zero`, as the search's last round had it): the policy that round chose,
  // valued in extended precision as the law of its turn score times each
  // outcome's vector: one pass of one number per position, where a backward
  // solve would carry every seat in x87 through every position and outcome
  // class for the same digits. Keeps the search's tie counts.
  void SettleMover(int seat, const int* s, const double* zero, Scratch& scratch, MoverTurn* out) {
    ++scratch.stats.settle_passes;
    scratch.stats.settle_reused += score_laws_.Law(scratch.policies[seat], &scratch.score_law);
    const std::vector<long double>& law = scratch.score_law;
    long double d = 0;
    for (int j = 0; j < n_; ++j) out->wide_e[j] = law[0] * zero[j];
    for (int x = 1; x <= max_turn_; ++x) {
      const double* next = AfterTurn(seat, s, x, scratch);
      for (int j = 0; j < n_; ++j) out->wide_e[j] += law[x] * next[j];
      if (n_ > 2) d += law[x] * ErrorAfter(seat, s, x);
    }
    out->wide_p = law[0];
    out->p = static_cast<double>(law[0]);
    for (int j = 0; j < n_; ++j) out->e[j] = static_cast<double>(out->wide_e[j]);
    out->d = static_cast<double>(d);
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
    } else if (pair_) {
      SolvePairFinal(seat, s, scratch, &m);
      scratch.final_solves.emplace(key, m);
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

  // ---- two players: the pair kernel
  //
  // With two players the other seat's chance is the complement of the
  // mover's, so how the mover breaks a tie changes no stored value: both
  // movers' turns are solved by the plain turn solve, in one two-lane pass
  // (SolveDoublePair), and policy iteration takes Newton steps along each
  // policy's zero-score slope. Tie counts are not kept (kingmaking needs a
  // third seat).

  // The last seat's final-round turn: every outcome ends the game.
  void SolvePairFinal(int seat, const int* s, Scratch& scratch, MoverTurn* out) {
    std::vector<double>& u = scratch.pair_utility[0];
    for (int x = 0; x <= max_turn_; ++x) u[x] = AfterTurn(seat, s, x, scratch)[seat];
    internal::SolveDouble(*model_, u, &scratch.pair[0]);
    ++scratch.stats.turn_solves;
    out->e[seat] = Probability(scratch.pair[0].value[start_]);
    out->e[1 - seat] = 1.0 - out->e[seat];
    out->tied = out->kingmaking = 0;
  }

  // A per-context figure of each mover at totals s, extrapolated from the
  // solved cycles around it: a plane through (s0+1, s1), (s0, s1+1) and
  // (s0+1, s1+1), or a line along the one axis left at the edge, else
  // `fallback` (the first cycle solved has no solved neighbour). `of(context,
  // seat)` reads it.
  template <class Of>
  void Extrapolate(const int* s, Of of, double fallback, double* out) const {
    for (int seat = 0; seat < 2; ++seat) {
      auto at = [&](int d0, int d1, double* v) {
        const int up[2] = {s[0] + d0, s[1] + d1};
        if (up[0] >= target_ || up[1] >= target_) return false;
        *v = of(index_.Index(seat, up), seat);
        return true;
      };
      double a, b, c;
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
  void SolvePairCycle(const int* s, Scratch& scratch) {
    std::vector<double>(&u)[2] = scratch.pair_utility;
    for (int seat = 0; seat < 2; ++seat) {
      for (int x = 1; x <= max_turn_; ++x) u[seat][x] = AfterTurn(seat, s, x, scratch)[seat];
    }
    // First guesses, usually close to the fixed point: the movers' chances
    // and zero-score slopes extrapolated from the solved neighbours.
    double guess[2], b[2];
    Extrapolate(
        s, [&](long long c, int seat) { return win_[c * 2 + seat]; }, 0.5, guess);
    Extrapolate(
        s, [&](long long c, int) { return slope_of_[c]; }, 0.2, b);
    internal::TurnValues(&values)[2] = scratch.pair;
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
        for (int seat = 0; seat < 2; ++seat) u[seat][0] = 1.0 - guess[1 - seat];
        const std::vector<double>* pair[2] = {&u[0], &u[1]};
        double slopes[2] = {0, 0};
        internal::SolveDoublePair(*model_, pair, with_slope ? &zero_indicator_ : nullptr, slopes,
                                  values);
        scratch.stats.turn_solves += 2;
        if (with_slope) std::copy(slopes, slopes + 2, b);
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
    const bool converged = round < kMaxCycleRounds || residual <= kCycleStallResidual;
    const double error = converged ? std::max(DependencyError(0, s, 1), DependencyError(1, s, 1)) +
                                         (slope * residual + rounding_) / (1.0 - slope)
                                   : HUGE_VAL;
    for (int seat = 0; seat < 2; ++seat) {
      const long long c = index_.Index(seat, s);
      const double w = Probability(values[seat].value[start_]);
      win_[c * 2 + seat] = w;
      win_[c * 2 + 1 - seat] = 1.0 - w;
      error_of_[c] = error;
      slope_of_[c] = b[seat];
    }
    RecordCycle(round, residual, error, scratch.stats);
  }

  // Adds a solved cycle's figures to its thread's.
  static void RecordCycle(int rounds, double residual, double error, ThreadStats& st) {
    ++st.cycles;
    st.rounds += rounds;
    st.max_rounds = std::max(st.max_rounds, rounds);
    st.max_residual = std::max(st.max_residual, residual);
    st.error_bound = std::max(st.error_bound, error);
  }

  // With every mover's actions fixed, V_i = c_i + p_i V_{i+1} around the
  // cycle, c_i = E_i - p_i G_{i+1} for the guess G the turn was solved with:
  // V_0 = (c_0 + p_0 c_1 + p_0 p_1 c_2 + ...) / (1 - p_0 ... p_{P-1}).
  void CloseCycle(const std::vector<std::vector<double>>& guess, Scratch& scratch) {
    SolveAffineCycle<double>(
        n_, [&](int i) { return scratch.movers[i].p; },
        [&](int i, int j) {
          return scratch.movers[i].e[j] - scratch.movers[i].p * guess[(i + 1) % n_][j];
        },
        [&](int i, int j) -> double& { return scratch.closed[i][j]; });
  }

  // First guess of the cycle's vectors, from the solved score vectors up
  // to guess_order_ + 1 points up on each seat that can take them: the mean
  // of the extrapolations along those seats, of the highest order (at most
  // guess_order_) any seat can take: linear 2 V(s + e_j) - V(s + 2 e_j),
  // else V(s + e_j), else even chances. This start selects the equilibrium
  // where a cycle has several: a cubic one saves rounds but reaches another
  // with 4 players (docs/PLAYERS.md).
  void InitialGuess(const int* s, int guess_order, Scratch& scratch) const {
    static constexpr double kWeights[kMaxGuessOrder + 1][kMaxGuessOrder + 1] = {
        {1, 0, 0, 0}, {2, -1, 0, 0}, {3, -3, 1, 0}, {4, -6, 4, -1}};
    for (auto& g : scratch.guess) std::fill(g.begin(), g.end(), 0.0);
    int order = -1;  // the highest any seat can take: V(s + (order + 1) e_j) solved
    for (int j = 0; j < n_; ++j) {
      order = std::max(order, std::min(guess_order, target_ - 2 - s[j]));
    }
    int count = 0;
    int up[kMaxPlayers];
    for (int j = 0; order >= 0 && j < n_; ++j) {
      if (target_ - 2 - s[j] < order) continue;
      for (int i = 0; i < n_; ++i) {
        const double* v[kMaxGuessOrder + 1];  // V(s + k e_j) for mover i, k = 1..order + 1
        for (int k = 1; k <= order + 1; ++k) {
          std::copy(s, s + n_, up);
          up[j] += k;
          v[k - 1] = &win_[index_.Index(i, up) * n_];
        }
        for (int c = 0; c < n_; ++c) {
          double extrapolated = 0;
          for (int k = 0; k <= order; ++k) extrapolated += kWeights[order][k] * v[k][c];
          scratch.guess[i][c] += extrapolated;
        }
      }
      ++count;
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
  // With extended arithmetic the policy iteration's rounds run in double
  // (they only find the policies and the guess) and one more round at the
  // accepted guess, in extended precision (SettleMover: the last round's
  // policies), gives the stored values and the residual the bound uses:
  // stored values that should be equal (e.g. two certain wins) then come out
  // equal, so the reader's ties stay exact. Those double rounds re-solve
  // only the movers whose policy may have changed (MarkStale), and stop
  // once every policy stands at the closed guess (docs/PLAYERS.md).
  // A cycle whose policies keep alternating has no pure equilibrium: its
  // movers mix (MixCycle) and one round at the mixture is checked.
  void SolveCycle(const int* s, int guess_order, Scratch& scratch) {
    InitialGuess(s, guess_order, scratch);
    const bool settle = arithmetic_ == internal::Arithmetic::kExtended;
    const internal::Arithmetic search = settle ? internal::Arithmetic::kDouble : arithmetic_;
    int round = 1;
    bool mixed = false, converged = false;
    double residual = HUGE_VAL, previous = HUGE_VAL, slope = 0;
    // A search round solves the stale movers only (the others' policies
    // stand, and their maps too); every other round solves every mover.
    std::fill(scratch.stale.begin(), scratch.stale.end(), 1);
    auto solve_round = [&](internal::Arithmetic arithmetic, bool error_lane) {
      residual = slope = 0;
      for (int i = 0; i < n_; ++i) {
        MoverTurn& m = scratch.movers[i];
        const double* next = scratch.guess[(i + 1) % n_].data();
        if (arithmetic != search && !mixed) {
          SettleMover(i, s, next, scratch, &m);
        } else if (mixed && scratch.mix.mixing[i]) {
          SolveMixingMover(i, s, next, error_lane, arithmetic, scratch, &m);
        } else if (scratch.stale[i]) {
          // A settling cycle's search records the policies (and their
          // ranges) for MarkStale and SettleMover.
          SolveMover(i, s, next, error_lane, arithmetic, scratch, &m,
                     settle && arithmetic == search ? &scratch.policies[i] : nullptr);
          scratch.solved_at[i] = next[i];
        } else {
          continue;
        }
        slope = std::max(slope, m.p);
        for (int j = 0; j < n_; ++j) {
          residual = std::max(residual, std::abs(m.e[j] - scratch.guess[i][j]));
        }
      }
    };
    for (auto& options : scratch.seen) options.clear();
    scratch.mix_failed = false;
    for (;; ++round) {
      previous = residual;
      solve_round(search, /*error_lane=*/n_ > 2 && !settle);
      if (mixed) {  // the round at the mixture: it must be a fixed point
        converged = residual <= kCycleStallResidual && !scratch.mix_failed;
        break;
      }
      // At rounding level, or rounding keeps r from shrinking further.
      const bool accepted = residual <= kCycleAcceptResidual ||
                            (residual <= kCycleStallResidual && residual > previous / 2);
      if (accepted || round == kMaxCycleRounds) {
        converged = accepted || residual <= kCycleStallResidual;
        break;
      }
      if (round >= kWatchFrom) WatchPolicies(scratch);
      if (round == kWatchFrom + kWatchRounds - 1 && MixCycle(scratch)) {
        mixed = true;
        SetGuess(scratch);
        continue;
      }
      CloseCycle(scratch.guess, scratch);
      // Every mover's policy still best at the closed guess: it is the
      // fixed point, and a confirming round would find the same actions.
      const bool confirmed = settle && !mixed && MarkStale(round + 1 < kWatchFrom, scratch);
      scratch.guess = scratch.closed;
      if (confirmed) {
        converged = true;
        break;
      }
    }
    if (settle) {
      if (mixed && converged) {
        // The weights found in double, solved again from the extended
        // solves' policies; the settling round then runs at that mixture.
        solve_round(arithmetic_, /*error_lane=*/false);
        if (Remix(scratch)) {
          SetGuess(scratch);
        } else {
          converged = false;
        }
      }
      solve_round(arithmetic_, /*error_lane=*/n_ > 2);
      if (mixed) converged &= residual <= kCycleStallResidual && !scratch.mix_failed;
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
    const double mixing = mixed ? MixingError(scratch) : 0.0;
    const double error =
        converged ? deps + (slope * residual + rounding_) / (1 - slope) + mixing : HUGE_VAL;
    for (int i = 0; i < n_; ++i) error_of_[index_.Index(i, s)] = error;
    ThreadStats& st = scratch.stats;
    RecordCycle(round, residual, error, st);
    if (mixed) {
      ++st.mixed_cycles;
      st.mixing_error = std::max(st.mixing_error, mixing);
      MixedCycleReport r;
      r.scores.assign(s, s + n_);
      for (int i = 0; i < n_; ++i) {
        r.weights.push_back(scratch.mix.mixing[i] ? static_cast<double>(scratch.mix.weight[i])
                                                  : -1);
      }
      r.error = mixing;
      st.mixed.push_back(std::move(r));
    }
  }

  // Marks stale the movers whose utility[0] at the closed guess (their own
  // chance at the next context) is out of the range their last solve kept
  // its actions over; the others' policies stand, and their solves are
  // moved to the closed guess along their maps E = c + p G. With `partial`
  // false, every mover is stale for the next round. Returns whether every
  // policy stands: then the closed guess is the fixed point.
  bool MarkStale(bool partial, Scratch& scratch) const {
    bool all_stand = true;
    for (int i = 0; i < n_; ++i) {
      const int next = (i + 1) % n_;
      const double move = scratch.closed[next][i] - scratch.solved_at[i];
      const internal::ConventionPolicy& p = scratch.policies[i];
      const bool stands = move >= -p.below && move <= p.above;
      all_stand = all_stand && stands;
      scratch.stale[i] = !stands;
    }
    if (all_stand) return true;
    for (int i = 0; i < n_; ++i) {
      if (!partial) {
        scratch.stale[i] = 1;
      } else if (!scratch.stale[i]) {
        MoverTurn& m = scratch.movers[i];
        const std::vector<double>& from = scratch.guess[(i + 1) % n_];
        const std::vector<double>& to = scratch.closed[(i + 1) % n_];
        for (int j = 0; j < n_; ++j) m.e[j] += m.p * (to[j] - from[j]);
      }
    }
    return false;
  }

  // The cycle at `s` (just solved) solved again from probe_order_'s start
  // and compared; the first solve's vectors, bounds and counters are kept.
  void ProbeCycle(const int* s, Scratch& scratch) {
    std::vector<double> kept(static_cast<size_t>(n_) * n_), kept_error(n_);
    for (int i = 0; i < n_; ++i) {
      const long long c = index_.Index(i, s);
      std::copy(&win_[c * n_], &win_[c * n_] + n_, &kept[static_cast<size_t>(i) * n_]);
      kept_error[i] = error_of_[c];
    }
    ThreadStats stats = std::move(scratch.stats);
    scratch.stats = ThreadStats();
    SolveCycle(s, probe_order_, scratch);
    double apart = 0;
    for (int i = 0; i < n_; ++i) {
      const long long c = index_.Index(i, s);
      for (int j = 0; j < n_; ++j) {
        apart = std::max(apart, std::abs(win_[c * n_ + j] - kept[static_cast<size_t>(i) * n_ + j]));
      }
      std::copy(&kept[static_cast<size_t>(i) * n_], &kept[static_cast<size_t>(i) * n_] + n_,
                &win_[c * n_]);
      error_of_[c] = kept_error[i];
    }
    // Another fixed point only if the second solve converged too; one that
    // did not is counted apart (that start fails to settle there).
    const bool converged = std::isfinite(scratch.stats.error_bound);
    scratch.stats = std::move(stats);
    auto add_example = [&](std::vector<std::vector<int>>* examples) {
      if (examples->size() < kProbeExamples) examples->emplace_back(s, s + n_);
    };
    if (!converged) {
      ++scratch.stats.probe_unconverged;
      add_example(&scratch.stats.probe_unconverged_examples);
    } else if (apart > kProbeApart) {
      ++scratch.stats.probe_apart;
      scratch.stats.probe_largest = std::max(scratch.stats.probe_largest, apart);
      add_example(&scratch.stats.probe_examples);
    }
  }

  // Records each mover's policy of the round just solved (as its map
  // E = c + p G), once per distinct policy.
  void WatchPolicies(Scratch& scratch) {
    scratch.seen.resize(n_);
    for (int i = 0; i < n_; ++i) {
      CyclePolicy policy = PolicyOf(scratch.movers[i], scratch.guess[(i + 1) % n_]);
      auto same = [&](const CyclePolicy& o) {
        return std::abs(o.p - policy.p) <= 1e-13L && std::abs(o.c[i] - policy.c[i]) <= 1e-13L;
      };
      std::vector<CyclePolicy>& seen = scratch.seen[i];
      if (std::none_of(seen.begin(), seen.end(), same)) seen.push_back(std::move(policy));
    }
  }
  CyclePolicy PolicyOf(const MoverTurn& m, const std::vector<double>& next) const {
    CyclePolicy policy{m.wide_p, std::vector<long double>(n_)};
    for (int j = 0; j < n_; ++j) policy.c[j] = m.wide_e[j] - m.wide_p * next[j];
    return policy;
  }
  void SetGuess(Scratch& scratch) const {
    for (int i = 0; i < n_; ++i) {
      for (int j = 0; j < n_; ++j) {
        scratch.guess[i][j] = static_cast<double>(scratch.mix.values[i][j]);
      }
    }
  }

  // The watched policies' equilibrium (mixed_cycle.h); false if there is none
  // among them or it is pure (the cycle then ends unconverged, with an
  // infinite bound: policy iteration found no fixed point).
  bool MixCycle(Scratch& scratch) {
    for (auto& options : scratch.seen) {
      std::sort(options.begin(), options.end(),
                [](const CyclePolicy& a, const CyclePolicy& b) { return a.p < b.p; });
    }
    if (!FindMixedEquilibrium(scratch.seen, &scratch.mix)) return false;
    return std::find(scratch.mix.mixing.begin(), scratch.mix.mixing.end(), true) !=
           scratch.mix.mixing.end();
  }

  // The mixture again, from the last round's solves (the mixing movers' two
  // policies, the others' one): false if the same movers no longer mix.
  bool Remix(Scratch& scratch) {
    std::vector<std::vector<CyclePolicy>> options(n_);
    for (int i = 0; i < n_; ++i) {
      const std::vector<double>& next = scratch.guess[(i + 1) % n_];
      if (scratch.mix.mixing[i]) {
        options[i] = {PolicyOf(scratch.below[i], next), PolicyOf(scratch.above[i], next)};
      } else {
        options[i] = {PolicyOf(scratch.movers[i], next)};
      }
    }
    MixedCycle again;
    if (!FindMixedEquilibrium(options, &again) || again.mixing != scratch.mix.mixing) return false;
    for (int i = 0; i < n_; ++i) {
      if (again.mixing[i]) scratch.seen[i] = options[i];
    }
    scratch.mix = std::move(again);
    return true;
  }

  // A mixing mover: its two policies are the best replies just below and
  // just above its indifference point (the next vector's own chance nudged
  // down and up, the solves' values then moved back to `zero`), played with
  // the mixture's weights. Flags the scratch if either solve's policy is not
  // the watched one. Also measures the policies' turn-score distributions
  // (for MixingError).
  void SolveMixingMover(int seat, const int* s, const double* zero, bool error_lane,
                        internal::Arithmetic arithmetic, Scratch& scratch, MoverTurn* out) {
    const CyclePolicy& low = scratch.seen[seat][0];
    const CyclePolicy& high = scratch.seen[seat][1];
    // eta * (p_b - p_a) = 1e-8, far above the turn solve's tie distance.
    const double eta = std::min(1e-3, 1e-8 / static_cast<double>(high.p - low.p));
    MoverTurn& a = scratch.below[seat];
    MoverTurn& b = scratch.above[seat];
    auto solve = [&](double next_own, MoverTurn* m, std::vector<long double>* law) {
      scratch.nudged.assign(zero, zero + n_);
      scratch.nudged[seat] = next_own;
      SolveMover(seat, s, scratch.nudged.data(), error_lane, arithmetic, scratch, m,
                 &scratch.mix_policy);
      internal::PolicyScoreLaw(*model_, scratch.mix_policy, law);
      m->wide_e[seat] += m->wide_p * (static_cast<long double>(zero[seat]) - next_own);
    };
    solve(zero[seat] - eta, &a, &scratch.low_law);
    solve(zero[seat] + eta, &b, &scratch.high_law);
    if (!(std::abs(a.wide_p - low.p) <= 1e-12L && std::abs(b.wide_p - high.p) <= 1e-12L)) {
      scratch.mix_failed = true;
    }
    const long double w = scratch.mix.weight[seat];
    out->wide_p = (1 - w) * a.wide_p + w * b.wide_p;
    out->p = static_cast<double>(out->wide_p);
    for (int j = 0; j < n_; ++j) {
      out->wide_e[j] = (1 - w) * a.wide_e[j] + w * b.wide_e[j];
      out->e[j] = static_cast<double>(out->wide_e[j]);
    }
    out->d = static_cast<double>((1 - w) * a.d + w * b.d);
    out->tied = a.tied;
    out->kingmaking = a.kingmaking;
    // The policies' c's differ only where their turn-score laws do.
    long double apart = 0;
    for (int x = 1; x <= max_turn_; ++x) {
      apart += std::abs(scratch.high_law[x] - scratch.low_law[x]) * ErrorAfter(seat, s, x);
    }
    scratch.mix_errors[seat] = static_cast<double>(apart);
  }

  // Bound on the values' error from the mixture's: mixing mover i's
  // indifference point (c_b - c_a) / (p_a - p_b) is off by at most
  // (sum over scores x >= 1 of |P_b(x) - P_a(x)| error(x) + the extended
  // sums' rounding) / (p_b - p_a), and the stored continuation is off it by
  // its gap; times the values' sensitivity to the point. The values are a
  // smooth function of the points, the slope from a 1e-9 shift is their
  // derivative to about 1e-6, and the shifts here are below 1e-12 (second
  // order negligible): 1e-3 more covers both.
  double MixingError(const Scratch& scratch) const {
    const bool wide = arithmetic_ == internal::Arithmetic::kExtended;
    const double rounding = wide ? kWideTurnRounding : kTurnSolveRounding;
    const MixedCycle& mix = scratch.mix;
    double total = 0;
    for (int i = 0; i < n_; ++i) {
      if (!mix.mixing[i]) continue;
      const long double point = mix.indifference[i];
      const double gap =
          static_cast<double>(std::abs(scratch.movers[(i + 1) % n_].wide_e[i] - point));
      const double spread = static_cast<double>(scratch.seen[i][1].p - scratch.seen[i][0].p);
      const double off =
          (scratch.mix_errors[i] + 2 * rounding * (1 + static_cast<double>(std::abs(point)))) /
              spread +
          gap;
      total += (1 + 1e-3) * mix.sensitivity[i] * off;
    }
    return total;
  }

  const Rules rules_;
  const int n_, threads_, target_, wide_, max_turn_;
  const internal::ContextNumbering index_;
  const std::shared_ptr<const TurnModel> model_;
  const int start_;
  ScoreLawCache score_laws_;  // of the settling passes, by policy
  std::function<void(const GameSolveProgress&)> progress_;
  const double progress_interval_;
  const std::string checkpoint_;
  const std::string resume_hint_;  // the Cancelled message's last words
  const double checkpoint_interval_;
  const bool keep_checkpoint_;
  const std::atomic<bool>* const stop_;
  const std::vector<int> floor_;
  const int guess_order_;  // GameSolveOptions::guess_order
  const int probe_order_;  // GameSolveOptions::probe_guess_order
  const bool pair_;        // two players, kAuto: the pair kernel
  const internal::Arithmetic arithmetic_;
  const double rounding_;         // of one turn solve's stored values
  std::vector<double> win_;       // [context * players + seat]
  std::vector<double> error_of_;  // per context: error bound
  std::vector<double> slope_of_;  // pair kernel, per cycle context: its mover's zero-score chance
  std::vector<double> zero_indicator_;  // pair kernel: the utility whose value is that chance
  std::vector<std::vector<std::uint64_t>> by_sum_;  // score vectors by sum of totals
  GameSolveReport* report_ = nullptr;
  const std::chrono::steady_clock::time_point begin_ = std::chrono::steady_clock::now();
  long long total_cost_ = 0, resumed_cost_ = 0;         // progress weights
  double last_progress_ = 0;                            // seconds, at the last callback
  double last_write_end_ = 0, last_write_seconds_ = 0;  // checkpoint writes
  CheckpointCounters loaded_;                           // from the checkpoint
};

}  // namespace

absl::StatusOr<GameValues> SolveGameValues(const GameSolveOptions& options,
                                           GameSolveReport* report) {
  if (absl::Status s = ValidateRules(options.rules); !s.ok()) return s;
  if (options.players < kMinPlayers || options.players > kMaxPlayers) {
    return absl::InvalidArgumentError(absl::StrFormat("players must be %d..%d, got %d", kMinPlayers,
                                                      kMaxPlayers, options.players));
  }
  if (options.threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrFormat("threads must be at least 1, got %d", options.threads));
  }
  if (!(options.progress_interval >= 0) || !(options.checkpoint_interval >= 0)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("progress and checkpoint intervals must be >= 0 seconds, got %g and %g",
                        options.progress_interval, options.checkpoint_interval));
  }
  if (options.guess_order < 1 || options.guess_order > kMaxGuessOrder ||
      (options.guess_order != 1 && !options.checkpoint.empty())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("the guess order must be 1 to %d (and 1 with a checkpoint), got %d",
                        kMaxGuessOrder, options.guess_order));
  }
  if (options.probe_guess_order < 0 || options.probe_guess_order > kMaxGuessOrder ||
      (options.probe_guess_order != 0 && !options.checkpoint.empty())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("the probe guess order must be 0 to %d (and 0 with a checkpoint), got %d",
                        kMaxGuessOrder, options.probe_guess_order));
  }
  if (options.players == 2 && options.arithmetic == SolveArithmetic::kAuto &&
      (!options.checkpoint.empty() || options.guess_order != 1 || options.probe_guess_order != 0)) {
    return absl::InvalidArgumentError(
        "the 2-player solve takes no checkpoint, guess order or probe (it takes a fraction of a "
        "second; those are for 3 or more players)");
  }
  if (!options.floor.empty() &&
      (static_cast<int>(options.floor.size()) != options.players || !options.checkpoint.empty())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("a floor needs one total per seat (%d, got %d) and no checkpoint",
                        options.players, static_cast<int>(options.floor.size())));
  }
  GameSolveReport local;
  if (report == nullptr) report = &local;
  *report = GameSolveReport();
  auto begin = std::chrono::steady_clock::now();
  absl::StatusOr<GameValues> values = GameSolver(options).Run(report);
  report->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return values;
}

absl::StatusOr<std::string> SolveGameTable(const GameSolveOptions& options,
                                           GameSolveReport* report) {
  if (absl::Status s = ValidateRules(options.rules); !s.ok()) return s;
  if (options.players >= kMinPlayers && options.players <= kMaxPlayers) {
    // A table the reader would refuse is not worth the solve (nor its memory).
    const long long contexts = internal::ContextNumbering(options.rules, options.players).size();
    const double bytes = 128.0 + 8.0 * options.players * static_cast<double>(contexts);
    if (bytes > static_cast<double>(kMaxSolveTableBytes)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%d players with these rules have %d turn-start contexts: the table would take %.3g "
          "bytes, more than the 1 GiB a table may have; lower the target or the number of "
          "players",
          options.players, contexts, bytes));
    }
  }
  GameSolveReport local;
  absl::StatusOr<GameValues> values = SolveGameValues(options, report ? report : &local);
  if (!values.ok()) return values.status();
  // A zero-score cycle that did not converge leaves values without a bound
  // (docs/PLAYERS.md, "Zero-score cycles" and "Mixed cycles"): no table a
  // reader would refuse, or worse trust, is written.
  if (!(values->error_bound < 1e-9)) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the %d-player solve could not bound its values (error bound %g): a zero-score cycle "
        "did not converge within %d rounds of policy iteration (its best replies alternate; "
        "see docs/PLAYERS.md); no table written",
        values->players, values->error_bound, kMaxCycleRounds));
  }
  return internal::SerializeTable(values->rules, values->players, values->error_bound, values->win);
}

}  // namespace martiandice::solver
