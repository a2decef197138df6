// The turn-score laws of the settling passes, remembered by policy: many
// passes repeat a policy an earlier context chose (docs/SCALING.md counts
// them), and a policy's law is the same wherever it is played. Shared by the
// solve's threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/hash/hash.h"
#include "convention_turn.h"
#include "turn_model.h"
#include "wide.h"

namespace martiandice::solver {

using internal::Wide;

// A policy's fingerprint: two 64-bit hashes of its arrays by two unrelated
// algorithms (absl's and XXH64), so two policies share one with a chance
// about 2^-128 per pair (under 1e-27 for every pair of the millions of
// policies of a 4-player solve).
using PolicyKey = std::pair<std::uint64_t, std::uint64_t>;
PolicyKey FingerprintPolicy(const internal::ConventionPolicy& policy);
// XXH64 of `len` bytes with `seed` (the fingerprint's second hash).
std::uint64_t Xxh64(const void* data, std::size_t len, std::uint64_t seed);

// Laws of the turn score by policy fingerprint, at most `max_entries` of them.
class ScoreLawCache {
 public:
  // `max_entries` bounds the memory: once full, laws are no longer added.
  ScoreLawCache(const internal::TurnModel& model, std::size_t max_entries);

  // Sets *law to internal::PolicyScoreLaw(model, policy, law)'s result: the
  // stored one if the policy was seen before, else computed and stored.
  // Returns whether it was stored before. Thread-safe.
  bool Law(const internal::ConventionPolicy& policy, std::vector<Wide>* law);
  // The two halves of Law, for a law computed elsewhere (a batch's
  // kScoreLaw): sets *law to the law stored under `key` and returns true, or
  // returns false; stores `law` under `key` (unless full or stored). Thread-safe.
  bool Find(const PolicyKey& key, std::vector<Wide>* law) const;
  void Add(const PolicyKey& key, const std::vector<Wide>& law);
  // For laws posted to a batch: what the caller that needs the law of `key`
  // does. Thread-safe.
  enum class Claimed {
    kStored,  // read it (Find)
    kPost,    // post it: the first to ask since, or the store is full
    kWait,    // another caller posted it, whose Add (right after its batch) stores it
  };
  // A kPost claim holds until Add stores the law.
  Claimed Claim(const PolicyKey& key);

  // Laws stored.
  long long entries() const;

 private:
  const internal::TurnModel& model_;
  const std::size_t width_;  // numbers in a law: MaxScore() + 1
  const std::size_t max_entries_;
  mutable std::mutex mu_;
  // Laws in blocks of kBlockLaws, never moved (one vector would double its
  // capacity, twice the laws at once while it grows).
  static constexpr std::size_t kBlockLaws = 1024;
  Wide* At(std::size_t i) const { return &blocks_[i / kBlockLaws][(i % kBlockLaws) * width_]; }
  // Each policy's law, by its number in blocks_. std's map, not absl's: absl's
  // (20220623) is left broken by an allocation that fails while it grows (its
  // destructor then frees a bad pointer).
  std::unordered_map<PolicyKey, std::size_t, absl::Hash<PolicyKey>> offset_;
  std::unordered_set<PolicyKey, absl::Hash<PolicyKey>> claimed_;  // posted, not yet added
  std::vector<std::unique_ptr<Wide[]>> blocks_;
  std::size_t count_ = 0;  // laws stored
};

}  // namespace martiandice::solver
