// The final round's turns: one solve per distinct set of outcome vectors.
#include "final_round.h"

namespace martiandice::solver {

FinalRound::FinalRound(SolveState& state, TurnScratch& scratch, PairKernel* pair)
    : state_(state), scratch_(scratch), pair_(pair) {}

void FinalRound::Solve(int seat, const int* s) {
  const int n = state_.n;
  MoverTurn& m = scratch_.movers[seat];
  const double* zero = state_.AfterTurn(seat, s, 0, scratch_);
  key_.assign(reinterpret_cast<const char*>(&seat), sizeof seat);
  for (int x = 0; x <= state_.max_turn; ++x) {
    const double* next = x == 0 ? zero : state_.AfterTurn(seat, s, x, scratch_);
    key_.append(reinterpret_cast<const char*>(next), sizeof(double) * n);
  }
  auto known = solved_.find(key_);
  if (known != solved_.end()) {
    m = known->second;
  } else if (pair_ != nullptr) {
    pair_->SolveFinalTurn(seat, s, &m);
    solved_.emplace(key_, m);
  } else {
    state_.SolveMover(seat, s, zero, /*error_lane=*/false, state_.arithmetic, scratch_, &m);
    solved_.emplace(key_, m);
  }
  CountTies(m.tied, m.kingmaking, scratch_.stats.counters);
  const long long c = state_.index.Index(seat, s);
  std::copy(m.e.begin(), m.e.end(), &state_.win[c * n]);
  state_.error_of[c] = state_.DependencyError(seat, s, 0) + state_.rounding;
  scratch_.stats.counters.error_bound =
      std::max(scratch_.stats.counters.error_bound, state_.error_of[c]);
}

}  // namespace martiandice::solver
