// The settling passes' laws remembered by policy fingerprint.
#include "score_law_cache.h"

#include <algorithm>
#include <cstring>

#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"

namespace martiandice::solver {

namespace {

std::uint64_t Rotl(std::uint64_t x, int r) { return x << r | x >> (64 - r); }
std::uint64_t Read64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;  // the host's order: a fingerprint never leaves the process
}
std::uint32_t Read32(const unsigned char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

}  // namespace

// XXH64 (Yann Collet's published algorithm; four independent lanes, so it
// hashes a policy's arrays faster than the standard library's string hash).
std::uint64_t Xxh64(const void* data, std::size_t len, std::uint64_t seed) {
  constexpr std::uint64_t P1 = 11400714785074694791ULL, P2 = 14029467366897019727ULL,
                          P3 = 1609587929392839161ULL, P4 = 9650029242287828579ULL,
                          P5 = 2870177450012600261ULL;
  auto round = [](std::uint64_t acc, std::uint64_t input) {
    return Rotl(acc + input * P2, 31) * P1;
  };
  const unsigned char* p = static_cast<const unsigned char*>(data);
  const unsigned char* const end = p + len;
  std::uint64_t h;
  if (len >= 32) {
    std::uint64_t v[4] = {seed + P1 + P2, seed + P2, seed, seed - P1};
    for (; p + 32 <= end; p += 32) {
      for (int i = 0; i < 4; ++i) v[i] = round(v[i], Read64(p + 8 * i));
    }
    h = Rotl(v[0], 1) + Rotl(v[1], 7) + Rotl(v[2], 12) + Rotl(v[3], 18);
    for (std::uint64_t lane : v) h = (h ^ round(0, lane)) * P1 + P4;
  } else {
    h = seed + P5;
  }
  h += len;
  for (; p + 8 <= end; p += 8) h = Rotl(h ^ round(0, Read64(p)), 27) * P1 + P4;
  if (p + 4 <= end) {
    h = Rotl(h ^ (Read32(p) * P1), 23) * P2 + P3;
    p += 4;
  }
  for (; p < end; ++p) h = Rotl(h ^ (*p * P5), 11) * P1;
  h ^= h >> 33;
  h *= P2;
  h ^= h >> 29;
  h *= P3;
  return h ^ h >> 32;
}

PolicyKey FingerprintPolicy(const internal::ConventionPolicy& policy) {
  // absl::string_view: absl's own hash (its std::string_view hash here is the
  // standard library's, through std::hash).
  const absl::string_view rolls(reinterpret_cast<const char*>(policy.rolls.data()),
                                policy.rolls.size());
  const absl::string_view takes(reinterpret_cast<const char*>(policy.take.data()),
                                policy.take.size());
  // The rolls' hash seeds the takes': the sizes are in both.
  const std::uint64_t b = Xxh64(takes.data(), takes.size(), Xxh64(rolls.data(), rolls.size(), 0));
  return {absl::HashOf(rolls, takes), b};
}

ScoreLawCache::ScoreLawCache(const internal::TurnModel& model, std::size_t max_entries)
    : model_(model),
      width_(static_cast<std::size_t>(model.MaxScore()) + 1),
      max_entries_(max_entries) {}

bool ScoreLawCache::Law(const internal::ConventionPolicy& policy, std::vector<Wide>* law) {
  const PolicyKey key = FingerprintPolicy(policy);
  if (Find(key, law)) return true;
  internal::PolicyScoreLaw(model_, policy, law);  // outside the lock: the threads' work
  Add(key, *law);
  return false;
}

bool ScoreLawCache::Find(const PolicyKey& key, std::vector<Wide>* law) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto found = offset_.find(key);
  if (found == offset_.end()) return false;
  const Wide* stored = At(found->second);
  law->assign(stored, stored + width_);
  return true;
}

void ScoreLawCache::Add(const PolicyKey& key, const std::vector<Wide>& law) {
  std::lock_guard<std::mutex> lock(mu_);
  claimed_.erase(key);
  if (offset_.size() >= max_entries_ || offset_.contains(key)) return;
  // The law first, then its number: a failed allocation leaves no number
  // pointing past the laws (a new block stays, empty).
  if (count_ % kBlockLaws == 0 && count_ / kBlockLaws == blocks_.size()) {
    blocks_.push_back(std::make_unique<Wide[]>(kBlockLaws * width_));
  }
  std::copy(law.begin(), law.end(), At(count_));
  offset_.emplace(key, count_);
  ++count_;
}

ScoreLawCache::Claimed ScoreLawCache::Claim(const PolicyKey& key) {
  std::lock_guard<std::mutex> lock(mu_);
  if (offset_.contains(key)) return Claimed::kStored;
  if (offset_.size() + claimed_.size() >= max_entries_) return Claimed::kPost;  // no room to wait
  return claimed_.insert(key).second ? Claimed::kPost : Claimed::kWait;
}

long long ScoreLawCache::entries() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<long long>(offset_.size());
}

}  // namespace martiandice::solver
