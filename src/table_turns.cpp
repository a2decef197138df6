// The on-demand turn solves of values-only policy tables (table_turns.h).
#include "table_turns.h"

#include <algorithm>

#include "convention_turn.h"

namespace martiandice::internal {

TurnCache::TurnCache(const Rules& rules) : model_(TurnModel::Get(rules)) {
  const std::size_t entry_bytes = sizeof(double) * static_cast<std::size_t>(model_->size());
  per_shard_ = static_cast<int>(
      std::clamp<std::size_t>(kMaxBytes / kShards / entry_bytes, 1, kMaxEntriesPerShard));
}

std::shared_ptr<const std::vector<double>> TurnCache::Rolls(
    std::int64_t context, const std::vector<double>& utility) const {
  // Neighbouring contexts (one seat's total apart) land in different shards.
  Shard& shard = shards_[static_cast<std::uint64_t>(context) % kShards];
  {
    std::lock_guard<std::mutex> lock(shard.mutex);
    for (Entry& e : shard.entries) {
      if (e.context == context) {
        e.last_use = ++shard.clock;
        hits_.fetch_add(1, std::memory_order_relaxed);
        return e.rolls;
      }
    }
  }
  misses_.fetch_add(1, std::memory_order_relaxed);
  // Solved outside the lock: other threads keep using the shard meanwhile.
  auto rolls = std::make_shared<std::vector<double>>();
  SolveConventionRolls(*model_, utility, Arithmetic::kDouble, rolls.get());
  std::shared_ptr<const std::vector<double>> result = std::move(rolls);
  std::lock_guard<std::mutex> lock(shard.mutex);
  for (Entry& e : shard.entries) {
    if (e.context == context) return e.rolls;  // another thread was first
  }
  Entry entry{context, ++shard.clock, result};
  if (static_cast<int>(shard.entries.size()) < per_shard_) {
    shard.entries.push_back(std::move(entry));
  } else {
    auto oldest =
        std::min_element(shard.entries.begin(), shard.entries.end(),
                         [](const Entry& a, const Entry& b) { return a.last_use < b.last_use; });
    *oldest = std::move(entry);
  }
  return result;
}

}  // namespace martiandice::internal
