// The settling passes' store of turn-score laws (solver/score_law_cache.h):
// a stored law is the pass's own, bit for bit; policies that differ are told
// apart; a claimed law is posted once; the store stops growing at its bound.
#include "score_law_cache.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "convention_turn.h"
#include "martiandice/rules.h"
#include "turn_model.h"

using namespace martiandice;

namespace {

// The policies a recording solve chooses for `count` varied utilities.
std::vector<internal::ConventionPolicy> Policies(const internal::TurnModel& model, int count) {
  std::uint64_t state = 777;
  auto uniform = [&] {  // a fixed LCG: varied, not random, utilities
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  std::vector<internal::ConventionPolicy> policies(count);
  for (internal::ConventionPolicy& policy : policies) {
    std::vector<double> u(model.MaxScore() + 1);
    for (double& x : u) x = uniform();
    std::sort(u.begin() + 1, u.end());
    const std::vector<std::vector<double>> carried = {std::vector<double>(u.size(), 0.5)};
    internal::ConventionTurn turn;
    internal::SolveConvention(model, u, carried, 0u, internal::Arithmetic::kDouble, &turn, &policy);
  }
  return policies;
}

TEST_CASE("score law cache: a stored law is the pass's own, and policies are told apart") {
  auto model = internal::TurnModel::Get(Rules{});
  const std::vector<internal::ConventionPolicy> policies = Policies(*model, 4);
  solver::ScoreLawCache cache(*model, 100);
  std::vector<long double> direct, first, again;
  for (const internal::ConventionPolicy& policy : policies) {
    internal::PolicyScoreLaw(*model, policy, &direct);
    CHECK_FALSE(cache.Law(policy, &first));  // new: computed
    CHECK(first == direct);
    CHECK(cache.Law(policy, &again));  // seen: stored
    CHECK(again == direct);
  }
  CHECK(cache.entries() == 4);
  // Random utilities choose different policies, with different fingerprints;
  // one changed entry changes the fingerprint.
  for (size_t i = 0; i < policies.size(); ++i) {
    for (size_t j = i + 1; j < policies.size(); ++j) {
      CHECK(policies[i].take != policies[j].take);
      CHECK(solver::FingerprintPolicy(policies[i]) != solver::FingerprintPolicy(policies[j]));
    }
  }
  internal::ConventionPolicy changed = policies[0];
  changed.rolls.back() ^= 1;
  CHECK(solver::FingerprintPolicy(changed) != solver::FingerprintPolicy(policies[0]));
  changed = policies[0];
  changed.take[changed.take.size() / 2] ^= 1;
  CHECK(solver::FingerprintPolicy(changed) != solver::FingerprintPolicy(policies[0]));
}

TEST_CASE("score law cache: the store stops growing at its bound") {
  auto model = internal::TurnModel::Get(Rules{7, 3, 25});
  const std::vector<internal::ConventionPolicy> policies = Policies(*model, 3);
  solver::ScoreLawCache cache(*model, 1);
  std::vector<long double> law, direct;
  CHECK_FALSE(cache.Law(policies[0], &law));
  CHECK_FALSE(cache.Law(policies[1], &law));  // not stored: full
  CHECK(cache.entries() == 1);
  CHECK_FALSE(cache.Law(policies[1], &law));  // still computed, and right
  internal::PolicyScoreLaw(*model, policies[1], &direct);
  CHECK(law == direct);
  CHECK(cache.Law(policies[0], &law));
}

TEST_CASE("score law cache: a claimed law is posted once, then read from the store") {
  auto model = internal::TurnModel::Get(Rules{7, 3, 25});
  const std::vector<internal::ConventionPolicy> policies = Policies(*model, 3);
  const solver::PolicyKey a = solver::FingerprintPolicy(policies[0]);
  const solver::PolicyKey b = solver::FingerprintPolicy(policies[1]);
  solver::ScoreLawCache cache(*model, 3);
  using Claimed = solver::ScoreLawCache::Claimed;
  CHECK(cache.Claim(a) == Claimed::kPost);  // the first poster posts it
  CHECK(cache.Claim(a) == Claimed::kWait);  // the others wait for it
  CHECK(cache.Claim(b) == Claimed::kPost);  // another policy is claimed apart
  std::vector<long double> law;
  internal::PolicyScoreLaw(*model, policies[0], &law);
  cache.Add(a, law);  // stored: the claim released
  std::vector<long double> read;
  CHECK(cache.Find(a, &read));
  CHECK(read == law);
  CHECK(cache.Claim(a) == Claimed::kStored);  // nothing to post
  // The room (3 laws) counts the claims: a stored, b and c claimed, it is
  // full, and c's other posters post it too rather than wait; a stays stored.
  const solver::PolicyKey c = solver::FingerprintPolicy(policies[2]);
  CHECK(cache.Claim(c) == Claimed::kPost);
  CHECK(cache.Claim(c) == Claimed::kPost);
  CHECK(cache.Claim(a) == Claimed::kStored);
  CHECK(cache.entries() == 1);
}

// The fingerprint's second hash is XXH64: its values for inputs that take
// every branch (32-byte stripes, 8- and 4-byte and single-byte tails), as
// Debian's libxxhash 0.8.1 computes them.
TEST_CASE("score law cache: XXH64 gives the reference library's values") {
  auto bytes = [](int n) {
    std::string s(n, '\0');
    for (int i = 0; i < n; ++i) s[i] = static_cast<char>((i * 7 + 3) % 256);
    return s;
  };
  auto xxh = [](const std::string& s, std::uint64_t seed) {
    return solver::Xxh64(s.data(), s.size(), seed);
  };
  CHECK(xxh("", 0) == 0xef46db3751d8e999ULL);
  CHECK(xxh("a", 0) == 0xd24ec4f1a98c6e5bULL);
  CHECK(xxh("abc", 0) == 0x44bc2cf5ad770999ULL);
  CHECK(xxh("Nobody inspects the spammish repetition", 0) == 0xfbcea83c8a378bf1ULL);
  std::string counting;
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < 256; ++i) counting += static_cast<char>(i);
  }
  CHECK(xxh(counting + "xyz", 12345) == 0x6b1b5d671fb93b43ULL);
  CHECK(xxh(counting.substr(0, 37), 7) == 0x69e0c889396afaf7ULL);
  CHECK(xxh(bytes(45), 0) == 0x86faee00897c4b41ULL);
  CHECK(xxh(bytes(12), 99) == 0x97c5d336bdba5189ULL);
  CHECK(xxh(bytes(77), ~std::uint64_t{0}) == 0x16ee0a6aae6af24bULL);
}

}  // namespace
