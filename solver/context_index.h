// The numbering of turn-start contexts of docs/FORMAT.md ("Contexts"), shared
// by the game solvers: mover-major, then mixed radix over the seats' totals
// (seats before the mover range over [0, target + max turn score), the others
// over [0, target)).
#pragma once

#include <vector>

#include "martiandice/rules.h"

namespace martiandice::solver {

class ContextIndex {
 public:
  ContextIndex(const Rules& rules, int players)
      : players_(players), target_(rules.target), wide_(rules.target + MaxTurnScore(rules)) {
    offset_.push_back(0);
    for (int seat = 0; seat < players; ++seat) {
      long long size = 1;
      for (int j = 0; j < players; ++j) size *= j < seat ? wide_ : target_;
      offset_.push_back(offset_.back() + size);
    }
  }
  // Number of contexts.
  long long size() const { return offset_.back(); }
  // Index of the context where `seat` moves with totals `scores` (in range).
  long long Index(int seat, const int* scores) const {
    long long index = 0;
    for (int j = 0; j < players_; ++j) index = index * (j < seat ? wide_ : target_) + scores[j];
    return offset_[seat] + index;
  }
  long long Index(int seat, const std::vector<int>& scores) const {
    return Index(seat, scores.data());
  }

 private:
  int players_, target_, wide_;
  std::vector<long long> offset_;
};

}  // namespace martiandice::solver
