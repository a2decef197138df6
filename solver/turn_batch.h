// The batch interface of the game solve's turn solves: a set of turns (each
// the mover's utility of every turn score, and the utilities carried along)
// in, their solutions out. The worker threads implement it
// (ThreadedTurnBatch); other backends (a GPU, a cluster) implement the same
// interface and plug in through GameSolveOptions::turn_batch.
//
// What goes through it: every final-round turn (game_solver.cpp solves a
// level's final-round contexts in waves, one batch per seat, last seat
// first: final_round.h). What does not yet: the zero-score cycles' rounds of
// policy iteration (cycle_solve.h, pair_kernel.h), whose solves depend on
// the round before; the worker threads run them, one score vector each.
// Internal to the solver.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "convention_turn.h"
#include "turn_model.h"

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

  std::span<const std::vector<double>> Carried() const {
    return {carried.data(), static_cast<std::size_t>(lanes)};
  }
};

// What the solve keeps of one turn: the convention solve's result. kPlain
// sets value and wide_value (the start position's value) and nothing else.
using TurnResult = internal::ConventionTurn;

// Solves `request` alone on `model`: the reference every batch solver
// matches. `plain`: a buffer for kPlain's solve (reused across calls).
void SolveTurn(const internal::TurnModel& model, const TurnRequest& request,
               internal::TurnValues* plain, TurnResult* out);

// A solver of batches of turns.
//
// Contract: Solve(model, requests, results) sets results[i] to what
// SolveTurn(model, requests[i]) gives, bit for bit (values, wide values and
// tie counts), for every i, whatever the order, grouping or concurrency of
// the work: the game solve's tables must not depend on the backend. Every
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
};

// The worker threads' batch solver: `threads` workers (RunWorkers, workers.h;
// at most one per request) each take the next request left.
class ThreadedTurnBatch final : public TurnBatchSolver {
 public:
  explicit ThreadedTurnBatch(int threads) : threads_(threads) {}
  absl::Status Solve(const internal::TurnModel& model, std::span<const TurnRequest> requests,
                     std::span<TurnResult> results) override;

 private:
  const int threads_;
};

}  // namespace martiandice::solver
