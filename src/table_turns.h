// Internal: the turns of a policy table, solved on demand from the stored
// next-context vectors and kept in a bounded cache that any number of threads
// may share: one slot per context when every context fits the bound (a
// lock-free lookup), else a sharded least-recently-used cache.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "absl/functional/function_ref.h"
#include "martiandice/rules.h"
#include "turn_model.h"

namespace martiandice::internal {

class TurnCache {
 public:
  // Most bytes the cache holds, its bookkeeping included: every context of an
  // official 2-player table (1,650 of 17 KB) fits.
  static constexpr std::size_t kMaxBytes = std::size_t{32} << 20;
  // What a cached turn costs beside its values, an upper estimate: its map
  // node and bucket and place in the use order, or its slot; its vector, the
  // shared count, the allocator's headers (the tests measure the whole
  // against kMaxBytes).
  static constexpr std::size_t kEntryOverheadBytes = 192;
  static constexpr int kShards = 16;
  // Most entries per shard (small dice counts: many tiny entries).
  static constexpr int kMaxEntriesPerShard = 4096;

  // A cache for `contexts` contexts of a table under `rules`, holding at most
  // `max_bytes`.
  TurnCache(const Rules& rules, std::int64_t contexts, std::size_t max_bytes = kMaxBytes);
  ~TurnCache();

  const TurnModel& model() const { return *model_; }

  // The mover's roll values at every position of a turn (TurnModel ids; NaN
  // with no dice left), valid while `keep` (possibly null) or the cache lives.
  struct Turn {
    const std::vector<double>* rolls = nullptr;
    std::shared_ptr<const std::vector<double>> keep;
  };
  // The turn at `context`: from the cache, or solved (SolveConventionRolls,
  // double) and cached, for the utility that `utility(&u)` writes (u[x]:
  // ending the turn with x points), called on a miss only; it must depend on
  // `context` alone. Thread-safe; two threads missing the same context may
  // both solve it (same result).
  Turn Rolls(std::int64_t context, absl::FunctionRef<void(std::vector<double>*)> utility) const {
    if (slots_) {  // the warm lookup inline: one atomic load
      if (const std::vector<double>* rolls = slots_[context].load(std::memory_order_acquire)) {
        return {rolls, nullptr};
      }
    }
    return Find(context, utility);
  }

  // Turns the cache keeps at most, and the turns solved since construction.
  std::int64_t capacity() const;
  std::int64_t misses() const { return misses_.load(std::memory_order_relaxed); }

 private:
  struct Entry {
    std::list<std::int64_t>::iterator use;  // its place in Shard::uses
    std::shared_ptr<const std::vector<double>> rolls;
  };
  struct Shard {
    std::mutex mutex;
    // The contexts cached, most recently used first: evicting is O(1).
    std::list<std::int64_t> uses;
    // By context; at most per_shard_. std's map, not absl's: absl's (20220623)
    // is left broken by an allocation that fails while it grows.
    std::unordered_map<std::int64_t, Entry> entries;
  };

  Turn Find(std::int64_t context, absl::FunctionRef<void(std::vector<double>*)> utility) const;
  std::vector<double>* Solve(absl::FunctionRef<void(std::vector<double>*)> utility) const;
  Turn FromSlots(std::int64_t context,
                 absl::FunctionRef<void(std::vector<double>*)> utility) const;
  Turn FromShards(std::int64_t context,
                  absl::FunctionRef<void(std::vector<double>*)> utility) const;

  std::shared_ptr<const TurnModel> model_;
  // Every context fits: one slot each, filled once (owned, freed with the cache).
  std::unique_ptr<std::atomic<const std::vector<double>*>[]> slots_;
  std::int64_t slot_count_ = 0;
  // Otherwise: the shards.
  int per_shard_ = 1;
  mutable Shard shards_[kShards];
  mutable std::atomic<std::int64_t> misses_{0};
};

}  // namespace martiandice::internal
