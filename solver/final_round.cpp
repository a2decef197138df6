// The final round's turns by waves of seats: one solve per distinct set of
// outcome vectors, each wave's new ones one batch.
#include "final_round.h"

#include <algorithm>
#include <span>

#include "martiandice/rules.h"

namespace martiandice::solver {

FinalRound::FinalRound(SolveState& state, const LevelSchedule& schedule, TurnBatchSolver& batch)
    : state_(state), schedule_(schedule), batch_(batch), scratch_(state.n, state.max_turn) {}

absl::Status FinalRound::SolveLevel(int level, std::size_t from) {
  const std::vector<std::uint64_t>& level_vectors = schedule_.Level(level);
  vectors_.clear();
  solved_.clear();
  for (std::size_t at = from; at < level_vectors.size(); ++at) {
    Vector v{at, 0, {}};
    schedule_.Unpack(level_vectors[at], v.s);
    v.first = state_.FirstMover(v.s);
    if (FinalRoundBegun(state_.rules, std::span<const int>(v.s, state_.n), v.first)) {
      vectors_.push_back(v);
    }
  }
  for (int seat = state_.n - 1; seat >= 0; --seat) {
    if (absl::Status s = SolveWave(seat); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// The bytes of every outcome's vector of `seat`'s turn at `s`, into key_.
void FinalRound::Key(int seat, const int* s) {
  key_.assign(reinterpret_cast<const char*>(&seat), sizeof seat);
  for (int x = 0; x <= state_.max_turn; ++x) {
    const double* next = state_.AfterTurn(seat, s, x, scratch_);
    key_.append(reinterpret_cast<const char*>(next), sizeof(double) * state_.n);
  }
}

// `seat`'s contexts of the level: the turns not solved before, one batch;
// then every context's vector and error bound.
absl::Status FinalRound::SolveWave(int seat) {
  const int n = state_.n;
  wave_.clear();
  requested_.clear();
  for (std::size_t v = 0; v < vectors_.size(); ++v) {
    const int* s = vectors_[v].s;
    if (vectors_[v].first > seat) continue;
    Key(seat, s);
    auto [known, added] = known_.try_emplace(key_, turns_.size());
    if (added) {
      turns_.emplace_back(n);
      if (requested_.size() == requests_.size()) requests_.emplace_back();
      state_.MoverRequest(seat, s, state_.AfterTurn(seat, s, 0, scratch_), /*error_lane=*/false,
                          state_.arithmetic, scratch_, &requests_[requested_.size()]);
      requested_.push_back(known->second);
    }
    wave_.emplace_back(v, known->second);
  }
  const std::size_t count = requested_.size();
  results_.resize(count);
  if (absl::Status s = batch_.Solve(*state_.model, std::span(requests_.data(), count),
                                    std::span(results_.data(), count));
      !s.ok()) {
    return s;
  }
  stats_.counters.turn_solves += static_cast<long long>(count);
  for (std::size_t r = 0; r < count; ++r) {
    state_.ReadMover(seat, /*error_lane=*/false, results_[r], &turns_[requested_[r]]);
  }
  for (auto [v, turn] : wave_) {
    const MoverTurn& m = turns_[turn];
    const int* s = vectors_[v].s;
    const long long c = state_.index.Index(seat, s);
    std::copy(m.e.begin(), m.e.end(), &state_.win[c * n]);
    state_.error_of[c] = state_.DependencyError(seat, s, 0) + state_.rounding;
    solved_.push_back(Solved{vectors_[v].at, m.tied, m.kingmaking, state_.error_of[c]});
  }
  return absl::OkStatus();
}

void FinalRound::Commit(std::size_t finished) {
  CheckpointCounters& counters = stats_.counters;
  for (const Solved& x : solved_) {
    if (x.at >= finished) continue;
    CountTies(x.tied, x.kingmaking, counters);
    counters.error_bound = std::max(counters.error_bound, x.error);
  }
  solved_.clear();
}

}  // namespace martiandice::solver
