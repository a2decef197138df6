// The batch interface of the game solve's turn solves: a set of turns (each
// the mover's utility of every turn score, and the utilities carried along)
// in, their solutions out. The worker threads implement it
// (ThreadedTurnBatch); other backends (a GPU, a cluster) implement the same
// interface and plug in through GameSolveOptions::turn_batch.
//
// What goes through it: every turn solve of the game solve. A level's
// final-round contexts are solved in waves, one batch per seat, last seat
// first (final_round.h); its zero-score cycles (cycle_rounds.h): with a
// solver of the caller's, in lockstep rounds, each round every live cycle's
// turns one batch; on the worker threads, each round of a cycle one batch
// solved by the thread running that cycle. Internal to the solver.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "convention_turn.h"
#include "turn_model.h"
#include "workers.h"

namespace martiandice::solver {

// One turn to solve, on the solve's turn model.
struct TurnRequest {
  enum class Kind {
    // internal::SolveConvention: the mover maximises `utility`, ties broken
    // by the convention, the carried lanes' expectations kept.
    kConvention,
    // internal::SolveDouble: the mover maximises `utility` (no lanes): the
    // 2-player kernel's, where the other seat's chance is the complement.
    kPlain,
    // internal::SolveDoublePair: two plain solves in one pass, of `utility`
    // and of carried[0] (the two movers of a 2-player cycle, pair_kernel.h);
    // with lanes == 2 also each one's start slope along carried[1] (the
    // pair kernel's zero-score indicator: the zero-score chance).
    kPair,
    // internal::PolicyScoreLaw: the law of the turn score when the mover
    // plays `policy` (a settling pass's; no utility, no lanes). Not a turn
    // solve: the solve counts these apart.
    kScoreLaw,
  };
  Kind kind = Kind::kConvention;
  // [x]: the mover's utility of ending the turn with x points, x = 0..max
  // turn score.
  std::vector<double> utility;
  // kConvention: the first `lanes` entries are the carried utilities (each
  // indexed by score like `utility`; 1..internal::kMaxCarried of them). More
  // may be held (storage kept for reuse), unread.
  std::vector<std::vector<double>> carried;
  int lanes = 0;
  unsigned watched = 0;  // kConvention: the lanes whose ties count as kingmaking
  internal::Arithmetic arithmetic = internal::Arithmetic::kDouble;  // kConvention's
  // kConvention: also record the actions chosen (TurnResult::policy), with
  // `policy_zero_lane` as ConventionPolicy::zero_lane (the lane whose
  // ranges of utility[0] the policy reports, or -1).
  bool record_policy = false;
  int policy_zero_lane = -1;
  // kScoreLaw: the actions played (a recorded policy: each take one its
  // class allows); the caller's, unchanged until the batch is solved.
  const internal::ConventionPolicy* policy = nullptr;

  std::span<const std::vector<double>> Carried() const {
    return {carried.data(), static_cast<std::size_t>(lanes)};
  }
};

// What the solve keeps of one turn: the convention solve's result. kPlain
// sets value and wide_value (the start position's value) and nothing else;
// kPair sets pair_value and pair_slope (0 without a slope lane) only;
// kScoreLaw sets score_law only.
struct TurnResult : internal::ConventionTurn {
  internal::ConventionPolicy policy;      // kConvention with record_policy
  double pair_value[2] = {0, 0};          // kPair: each solve's start value
  double pair_slope[2] = {0, 0};          // kPair: each one's zero-score chance
  std::vector<internal::Wide> score_law;  // kScoreLaw: [x] = P(the turn scores x)
};

// Solves `request` alone on `model`: the reference every batch solver
// matches. `plain`: two buffers for kPlain's and kPair's solves (reused
// across calls).
void SolveTurn(const internal::TurnModel& model, const TurnRequest& request,
               internal::TurnValues plain[2], TurnResult* out);

// One client's share of a batch: the requests it posts, then their results
// (storage reused from round to round).
struct TurnPosts {
  std::vector<TurnRequest> requests;  // [0, count) posted
  std::vector<TurnResult> results;    // [0, count), once solved
  std::size_t count = 0;

  void Clear() { count = 0; }
  // The next request to fill (its storage kept from an earlier round).
  TurnRequest& Add() {
    if (count == requests.size()) {
      requests.emplace_back();
      results.emplace_back();
    }
    return requests[count++];
  }
};

// Zero-score cycles the lockstep rounds keep in flight for a batch solver
// that states no preference (TurnBatchSolver::CyclesInFlight): bounds the
// memory of their solvers (a recorded policy per mover, twice) and of a
// batch, and how long a stop waits. 32 solved the official 3-player solve as
// fast as 256 on two cores' threads; a device wanting larger batches (a GPU)
// asks for more.
inline constexpr std::size_t kCyclesInFlight = 32;
inline constexpr std::size_t kMaxCyclesInFlight = 1 << 16;

// A solver of batches of turns.
//
// Contract: Solve(model, requests, results) sets results[i] to what
// SolveTurn(model, requests[i]) gives, bit for bit (values, wide values and
// tie counts), for every i, whatever the order, grouping or concurrency of
// the work (a recorded policy too, and a kPair's values and slopes): the
// game solve's tables must not depend on the backend. Every
// request is solved (the game solve polls its stop flag between batches).
// One Solve runs at a time on a solver (the game solve calls it from one
// thread); the solver may use threads of its own within a call. Errors
// (e.g. ResourceExhausted: workers that cannot start) leave `results`
// unspecified; the game solve then saves its finished work and fails with
// that status. InvalidArgument if the spans' sizes differ.
class TurnBatchSolver {
 public:
  virtual ~TurnBatchSolver() = default;
  virtual absl::Status Solve(const internal::TurnModel& model,
                             std::span<const TurnRequest> requests,
                             std::span<TurnResult> results) = 0;
  // Whether Solve works on threads (or a device) of its own, never the game
  // solve's worker pool, so that the solve may call it (from a helper
  // thread) while its workers step other cycles: it then keeps two groups
  // of cycles in flight, one's batch solved while the other's cycles step
  // (cycle_rounds.h). False unless a solver says so.
  virtual bool SolvesBesideSteps() const { return false; }
  // Whether the lockstep rounds post their settling passes' score laws to
  // it (kScoreLaw, in the batch of the other cycles' turns) rather than
  // compute them on the cycle's own thread: a device that computes them.
  // Every solver solves kScoreLaw requests. False unless a solver says so.
  virtual bool SolvesScoreLaws() const { return false; }
  // How many zero-score cycles of a `players`-player solve the lockstep
  // rounds keep in flight when GameSolveOptions::cycles_in_flight is 0 (its
  // default): each round's batch is about players / 2 turns a cycle in
  // flight. 1..kMaxCyclesInFlight; kCyclesInFlight unless a solver says.
  virtual std::size_t CyclesInFlight(int players) const {
    (void)players;
    return kCyclesInFlight;
  }
};

// The worker threads' batch solver: a WorkerPool's workers (workers.h; at
// most one per request) each take the next request left.
// Solve is not thread-safe: one caller, one batch at a time.
class ThreadedTurnBatch final : public TurnBatchSolver {
 public:
  // On a pool of its own of `threads` workers.
  explicit ThreadedTurnBatch(int threads) : own_(std::in_place, threads), pool_(*own_) {}
  // On `pool`, which must outlive it (the game solve's, shared with the
  // cycles' steps).
  explicit ThreadedTurnBatch(WorkerPool& pool) : pool_(pool) {}
  absl::Status Solve(const internal::TurnModel& model, std::span<const TurnRequest> requests,
                     std::span<TurnResult> results) override;
  // On a pool of its own only.
  bool SolvesBesideSteps() const override { return own_.has_value(); }

 private:
  std::optional<WorkerPool> own_;
  WorkerPool& pool_;  // started on the first batch, kept for the next
  std::vector<std::array<internal::TurnValues, 2>> plain_;  // per worker, kept
};

}  // namespace martiandice::solver
