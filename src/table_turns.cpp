// The on-demand turn solves of policy tables (table_turns.h).
#include "table_turns.h"

#include <algorithm>

#include "convention_turn.h"

namespace martiandice::internal {

TurnCache::TurnCache(const Rules& rules, std::int64_t contexts, std::size_t max_bytes)
    : model_(TurnModel::Get(rules)) {
  const std::size_t entry_bytes =
      sizeof(double) * static_cast<std::size_t>(model_->size()) + kEntryOverheadBytes;
  // Slots are held for every context, filled or not.
  const std::size_t slot_bytes = entry_bytes + sizeof(std::atomic<const std::vector<double>*>);
  if (contexts > 0 && static_cast<std::size_t>(contexts) <= max_bytes / slot_bytes) {
    slot_count_ = contexts;
    slots_ = std::make_unique<std::atomic<const std::vector<double>*>[]>(contexts);
    for (std::int64_t c = 0; c < contexts; ++c) slots_[c].store(nullptr);
  }
  per_shard_ = static_cast<int>(
      std::clamp<std::size_t>(max_bytes / kShards / entry_bytes, 1, kMaxEntriesPerShard));
}

TurnCache::~TurnCache() {
  for (std::int64_t c = 0; c < slot_count_; ++c) delete slots_[c].load();
}

std::int64_t TurnCache::capacity() const {
  return slots_ ? slot_count_ : std::int64_t{kShards} * per_shard_;
}

TurnCache::Turn TurnCache::Find(std::int64_t context,
                                absl::FunctionRef<void(std::vector<double>*)> utility) const {
  return slots_ ? FromSlots(context, utility) : FromShards(context, utility);
}

std::vector<double>* TurnCache::Solve(
    absl::FunctionRef<void(std::vector<double>*)> utility) const {
  misses_.fetch_add(1, std::memory_order_relaxed);
  std::vector<double> u(model_->MaxScore() + 1);
  utility(&u);
  auto rolls = std::make_unique<std::vector<double>>();
  SolveConventionRolls(*model_, u, Arithmetic::kDouble, rolls.get());
  return rolls.release();
}

TurnCache::Turn TurnCache::FromSlots(std::int64_t context,
                                     absl::FunctionRef<void(std::vector<double>*)> utility) const {
  std::atomic<const std::vector<double>*>& slot = slots_[context];
  if (const std::vector<double>* rolls = slot.load(std::memory_order_acquire)) {
    return {rolls, nullptr};
  }
  const std::vector<double>* solved = Solve(utility);
  const std::vector<double>* expected = nullptr;
  if (!slot.compare_exchange_strong(expected, solved, std::memory_order_acq_rel)) {
    delete solved;  // another thread was first
    return {expected, nullptr};
  }
  return {solved, nullptr};
}

TurnCache::Turn TurnCache::FromShards(std::int64_t context,
                                      absl::FunctionRef<void(std::vector<double>*)> utility) const {
  // Neighbouring contexts (one seat's total apart) land in different shards.
  Shard& shard = shards_[static_cast<std::uint64_t>(context) % kShards];
  {
    std::lock_guard<std::mutex> lock(shard.mutex);
    if (auto it = shard.entries.find(context); it != shard.entries.end()) {
      shard.uses.splice(shard.uses.begin(), shard.uses, it->second.use);
      return {it->second.rolls.get(), it->second.rolls};
    }
  }
  // Solved outside the lock: other threads keep using the shard meanwhile.
  std::shared_ptr<const std::vector<double>> result(Solve(utility));
  std::lock_guard<std::mutex> lock(shard.mutex);
  if (auto it = shard.entries.find(context); it != shard.entries.end()) {
    return {it->second.rolls.get(), it->second.rolls};  // another thread was first
  }
  if (static_cast<int>(shard.entries.size()) >= per_shard_) {
    shard.entries.erase(shard.uses.back());  // the least recently used
    shard.uses.pop_back();
  }
  shard.uses.push_front(context);
  try {
    shard.entries.emplace(context, Entry{shard.uses.begin(), result});
  } catch (...) {  // std::bad_alloc: the order keeps only what the map holds
    shard.uses.pop_front();
    throw;
  }
  return {result.get(), result};
}

}  // namespace martiandice::internal
