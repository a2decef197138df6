// Internal: the turns of a values-only (format version 2) policy table, solved
// on demand from the stored next-context vectors and kept in a bounded,
// sharded LRU cache that any number of threads may share.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "martiandice/rules.h"
#include "turn_model.h"

namespace martiandice::internal {

class TurnCache {
 public:
  // Most bytes of roll values the cache keeps (all shards together): every
  // context of an official 2-player table (1,650 of 17 KB) fits.
  static constexpr std::size_t kMaxBytes = std::size_t{32} << 20;
  static constexpr int kShards = 16;
  // Most entries per shard (small dice counts: many tiny entries).
  static constexpr int kMaxEntriesPerShard = 4096;

  explicit TurnCache(const Rules& rules);

  const TurnModel& model() const { return *model_; }

  // The mover's roll value at every position (TurnModel ids; NaN with no dice
  // left) of the turn at `context`, whose utility of ending with x points is
  // utility[x]: from the cache, or solved (SolveConventionRolls, double) and
  // cached. `utility` must be a function of `context` alone. Thread-safe; two
  // threads missing the same context may both solve it (same result).
  std::shared_ptr<const std::vector<double>> Rolls(std::int64_t context,
                                                   const std::vector<double>& utility) const;

  // Entries the cache keeps at most, and counters since construction.
  int capacity() const { return kShards * per_shard_; }
  std::int64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  std::int64_t misses() const { return misses_.load(std::memory_order_relaxed); }

 private:
  struct Entry {
    std::uint64_t last_use = 0;
    std::shared_ptr<const std::vector<double>> rolls;
  };
  struct Shard {
    std::mutex mutex;
    std::uint64_t clock = 0;
    absl::flat_hash_map<std::int64_t, Entry> entries;  // by context; at most per_shard_
  };

  std::shared_ptr<const TurnModel> model_;
  int per_shard_ = 1;
  mutable Shard shards_[kShards];
  mutable std::atomic<std::int64_t> hits_{0}, misses_{0};
};

}  // namespace martiandice::internal
