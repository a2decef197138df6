// Internal: dense numbering of canonical turn positions (tanks, rays,
// earthling counts sorted descending) for a dice count, shared by the turn
// model and the table reader.
#pragma once

#include <cstdint>
#include <vector>

namespace martiandice::internal {

// Maps (t, r, e0 >= e1 >= e2) with at most `dice` dice to a dense id: a base
// per (t, r) plus the rank of the earthling triple, triples ranked by sum so
// those fitting the dice left are a prefix.
class CanonicalIndex {
 public:
  CanonicalIndex() = default;
  explicit CanonicalIndex(int dice);
  int size() const { return size_; }
  int Id(int tanks, int rays, int e0, int e1, int e2) const {
    return base_[tanks * (dice_ + 1) + rays] + rank3_[(e0 * (dice_ + 1) + e1) * (dice_ + 1) + e2];
  }

 private:
  int dice_ = 0;
  int size_ = 0;
  std::vector<std::int32_t> base_;
  std::vector<std::int32_t> rank3_;
};

}  // namespace martiandice::internal
