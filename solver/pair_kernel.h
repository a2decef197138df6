// The two-player kernel of the game solve. With two players the other
// seat's chance is the complement of the mover's, so how the mover breaks a
// tie changes no stored value: both movers' turns are solved by the plain
// turn solve, in one two-lane pass (SolveDoublePair), and policy iteration
// takes Newton steps along each policy's zero-score slope. Tie counts are
// not kept (kingmaking needs a third seat). Internal to the solver.
#pragma once

#include <vector>

#include "solve_state.h"

namespace martiandice::solver {

// One thread's pair kernel.
class PairKernel {
 public:
  // What the threads' kernels share: per cycle context, its mover's
  // zero-score chance (the next cycles' first guesses).
  struct Shared {
    explicit Shared(const SolveState& state);
    std::vector<double> slope_of;
    std::vector<double> zero_indicator;  // the utility whose value is that chance
  };

  PairKernel(SolveState& state, Shared& shared, TurnScratch& scratch);

  // The zero-score cycle at totals `s`, both below the target: stores both
  // contexts' vectors, error bounds and slopes.
  void SolveCycle(const int* s);

 private:
  template <class Of>
  void Extrapolate(const int* s, Of of, double fallback, double* out) const;

  SolveState& state_;
  Shared& shared_;
  TurnScratch& scratch_;
  internal::TurnValues values_[2];  // the two movers' solves
  std::vector<double> utility_[2];
};

}  // namespace martiandice::solver
