// The final round of the game solve: once a seat has reached the target,
// the seats after it move once more, and every outcome of a turn is known
// (the next seat's context, solved just before, or the game's end). Many
// such turns share every outcome's vector (the last seat's turn depends on
// the gaps between the totals only): those reuse one solve. Internal to
// the solver.
#pragma once

#include <string>

#include "absl/container/flat_hash_map.h"
#include "pair_kernel.h"
#include "solve_state.h"

namespace martiandice::solver {

// One thread's final-round solves.
class FinalRound {
 public:
  // `pair`: the 2-player kernel's turn solve (SolveArithmetic::kAuto with
  // two players), else null: the convention solve.
  FinalRound(SolveState& state, TurnScratch& scratch, PairKernel* pair);

  // The context of `seat` at totals `s`, in the final round: stores its
  // vector and error bound.
  void Solve(int seat, const int* s);

 private:
  SolveState& state_;
  TurnScratch& scratch_;
  PairKernel* const pair_;
  std::string key_;                                     // of a final-round turn's outcomes
  absl::flat_hash_map<std::string, MoverTurn> solved_;  // by key_
};

}  // namespace martiandice::solver
