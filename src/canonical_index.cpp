// Internal: the dense numbering of canonical turn positions.
#include "canonical_index.h"

#include <algorithm>

namespace martiandice::internal {

CanonicalIndex::CanonicalIndex(int dice) : dice_(dice) {
  const int n = dice;
  // Sorted triples ranked by sum, so those fitting s dice are a prefix.
  rank3_.assign((n + 1) * (n + 1) * (n + 1), 0);
  std::vector<int> prefix(n + 1, 0);
  int rank = 0;
  for (int sum = 0; sum <= n; ++sum) {
    for (int e0 = sum; e0 >= 0; --e0) {
      for (int e1 = std::min(e0, sum - e0); e1 >= 0; --e1) {
        int e2 = sum - e0 - e1;
        if (e2 > e1) continue;
        rank3_[(e0 * (n + 1) + e1) * (n + 1) + e2] = rank++;
      }
    }
    prefix[sum] = rank;
  }
  base_.assign((n + 1) * (n + 1), 0);
  for (int t = 0; t <= n; ++t) {
    for (int r = 0; t + r <= n; ++r) {
      base_[t * (n + 1) + r] = size_;
      size_ += prefix[n - t - r];
    }
  }
}

}  // namespace martiandice::internal
