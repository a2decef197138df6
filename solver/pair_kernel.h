// The two-player kernel of the game solve. With two players the other
// seat's chance is the complement of the mover's, so how the mover breaks a
// tie changes no stored value: both movers' turns are solved by the plain
// turn solve, in one two-lane pass (SolveDoublePair), and policy iteration
// takes Newton steps along each policy's zero-score slope. Tie counts are
// not kept (kingmaking needs a third seat). Each round's pair solve is
// posted to the turn batch (cycle_task.h). Internal to the solver.
#pragma once

#include <vector>

#include "cycle_task.h"
#include "solve_state.h"

namespace martiandice::solver {

// One cycle's pair kernel at a time (a slot of cycle_rounds.h).
class PairKernel {
 public:
  // What the slots' kernels share (besides SolveState::pair_slope, each
  // cycle context's zero-score chance: the next cycles' first guesses).
  struct Shared {
    explicit Shared(const SolveState& state);
    std::vector<double> zero_indicator;  // the utility whose value is that chance
  };

  PairKernel(SolveState& state, Shared& shared, TurnScratch& scratch);

  // The zero-score cycle at totals `s`, both below the target: its rounds'
  // pair solves posted to scratch.posts, one per step of the task; at its
  // end both contexts' vectors, error bounds and slopes stored. This object
  // must outlive the task; one task at a time.
  CycleTask SolveCycle(const int* s);

 private:
  CycleTask Rounds();
  template <class Of>
  void Extrapolate(const int* s, Of of, double fallback, double* out) const;
  std::size_t PostPair(bool with_slope);

  SolveState& state_;
  Shared& shared_;
  TurnScratch& scratch_;
  int s_[2] = {0, 0};  // the totals of the cycle being solved
};

}  // namespace martiandice::solver
