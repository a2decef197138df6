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
    if (auto it = shard.entries.find(context); it != shard.entries.end()) {
      it->second.last_use = ++shard.clock;
      hits_.fetch_add(1, std::memory_order_relaxed);
      return it->second.rolls;
    }
  }
  misses_.fetch_add(1, std::memory_order_relaxed);
  // Solved outside the lock: other threads keep using the shard meanwhile.
  auto rolls = std::make_shared<std::vector<double>>();
  SolveConventionRolls(*model_, utility, Arithmetic::kDouble, rolls.get());
  std::shared_ptr<const std::vector<double>> result = std::move(rolls);
  std::lock_guard<std::mutex> lock(shard.mutex);
  if (auto it = shard.entries.find(context); it != shard.entries.end()) {
    return it->second.rolls;  // another thread was first
  }
  if (static_cast<int>(shard.entries.size()) >= per_shard_) {
    auto oldest = std::min_element(
        shard.entries.begin(), shard.entries.end(),
        [](const auto& a, const auto& b) { return a.second.last_use < b.second.last_use; });
    shard.entries.erase(oldest);
  }
  shard.entries.emplace(context, Entry{++shard.clock, result});
  return result;
}

}  // namespace martiandice::internal
