// A zero-score cycle without a pure stationary equilibrium (docs/PLAYERS.md
// "Mixed cycles"): the movers whose best replies keep alternating between
// two policies mix them, each with the weight that leaves another mover
// indifferent. Pure arithmetic on the policies' affine maps; the turn solves
// that produce them stay in cycle_solve.cpp.
#pragma once

#include <vector>

#include "wide.h"

namespace martiandice::solver {

using internal::Wide;

// One policy of a mover in a cycle, as a map of the next context's vector G
// (every seat's chance): the mover's turn ends at the context's vector
// E = c + p G (p: its chance of a zero-score turn).
// Extended precision (Wide: x87 long double, src/wide.h): the indifference
// points divide by differences of p near 1e-3, so the c's need digits beyond
// double's.
struct CyclePolicy {
  Wide p = 0;
  std::vector<Wide> c;
};

// A mixed stationary equilibrium of a cycle of P movers.
struct MixedCycle {
  // Per mover: the weight of its second policy (the one with the larger p);
  // 0 or 1 for a mover that plays one policy.
  std::vector<Wide> weight;
  std::vector<bool> mixing;  // per mover: weight strictly between 0 and 1
  // Per mixing mover: its continuation value (own chance at the next context)
  // at which the two policies tie, (c_b - c_a) / (p_a - p_b).
  std::vector<Wide> indifference;
  // Every context's vector under the mixture: values[i][j], mover i's
  // context, seat j's chance.
  std::vector<std::vector<Wide>> values;
  // Per mixing mover: the largest change of any value per unit change of its
  // indifference point (finite differences), for the error bound.
  std::vector<double> sensitivity;
};

// V_i = c_i + p_i V_{i+1} around a cycle of n movers (every mover's policy
// fixed), closed at mover 0: V_0 = (c_0 + p_0 c_1 + p_0 p_1 c_2 + ...) /
// (1 - p_0 ... p_{n-1}), then V_{n-1}, ..., V_1 back from it. `p(i)` and
// `c(i, j)` give mover i's map (seat j), `v(i, j)` the result's element.
// One formula for the double policy iteration and the mixtures.
template <typename Real, typename P, typename C, typename V>
void SolveAffineCycle(int n, P p, C c, V v) {
  for (int j = 0; j < n; ++j) {
    Real acc = 0, prod = 1;
    for (int i = 0; i < n; ++i) {
      acc += prod * c(i, j);
      prod *= p(i);
    }
    v(0, j) = acc / (1 - prod);
    for (int i = n - 1; i >= 1; --i) v(i, j) = c(i, j) + p(i) * v((i + 1) % n, j);
  }
}

// The stationary vectors of the cycle when mover i plays policy options[i][0]
// with weight 1 - weight[i] and options[i][1] (if any) with weight[i].
std::vector<std::vector<Wide>> CloseMixedCycle(const std::vector<std::vector<CyclePolicy>>& options,
                                               const std::vector<Wide>& weight);

// Finds an equilibrium of the cycle restricted to each mover's options (one
// or two policies, the two sorted by increasing p): every mover plays a best
// reply to its continuation, mixing only when indifferent. Support patterns
// with fewer mixing movers are tried first; within a pattern the indifference
// conditions are solved by Newton's method. Returns false if no pattern
// yields one (or a mover has more than two options).
bool FindMixedEquilibrium(const std::vector<std::vector<CyclePolicy>>& options, MixedCycle* out);

}  // namespace martiandice::solver
