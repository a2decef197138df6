// State space: position validation, roll validation, counts of the official turn.
#include "martiandice/state_space.h"

#include <doctest/doctest.h>

using namespace martiandice;

TEST_CASE("state space: official counts by enumeration match the closed form") {
  auto stats = ComputeStateSpaceStats(Rules{});
  REQUIRE(stats.ok());
  // Every (t, r, h, c, k) with sum <= 13 is reachable except tanks alone:
  // C(18, 5) - 13 = 8555 positions; up to relabelling earthlings, 2175 - 13.
  CHECK(stats->positions == 8555);
  CHECK(stats->canonical_positions == 2162);
  // Each position with m dice left meets C(m+4, 4) distinct rolls.
  std::int64_t pairs = 0;
  for (int t = 0; t <= 13; ++t)
    for (int r = 0; t + r <= 13; ++r)
      for (int h = 0; t + r + h <= 13; ++h)
        for (int c = 0; t + r + h + c <= 13; ++c)
          for (int k = 0; t + r + h + c + k <= 13; ++k) {
            int m = 13 - t - r - h - c - k;
            if (m == 0 || (t > 0 && r + h + c + k == 0)) continue;
            pairs += (m + 1) * (m + 2) * (m + 3) * (m + 4) / 24;
          }
  CHECK(stats->roll_pairs == pairs);
}

TEST_CASE("state space: roll distributions sum to 6^n") {
  for (int n = 0; n <= kMaxDice; ++n) {
    std::uint64_t sum = 0;
    auto dist = RollDistribution(n);
    for (const RollOutcome& o : dist) {
      CHECK(o.faces.total() == n);
      sum += o.weight;
    }
    CHECK(sum == PowerOfSix(n));
    CHECK(dist.size() == static_cast<size_t>((n + 1) * (n + 2) * (n + 3) * (n + 4) / 24));
  }
  CHECK(RollDistribution(-1).empty());
  CHECK(RollDistribution(kMaxDice + 1).empty());
}

TEST_CASE("state space: one die's law is 1 tank, 2 rays, 1 of each earthling in 6") {
  for (const RollOutcome& o : RollDistribution(1)) {
    CHECK(o.weight == (o.faces.count(Face::kRay) == 1 ? 2u : 1u));
  }
}

TEST_CASE("state space: impossible positions and rolls are refused with reasons") {
  Rules rules;
  CHECK(ValidateAside(rules, Dice()).ok());
  CHECK(ValidateAside(rules, Dice(3, 2, 4, 0, 0)).ok());
  CHECK(ValidateAside(rules, Dice(5, 0, 0, 0, 1)).ok());  // tanks beside a take: fine
  auto too_many = ValidateAside(rules, Dice(5, 5, 4, 0, 0));
  CHECK(too_many.message().find("14 dice but the rules have 13") != std::string::npos);
  auto tanks_only = ValidateAside(rules, Dice(2, 0, 0, 0, 0));
  CHECK(tanks_only.message().find("impossible") != std::string::npos);
  CHECK(ValidateRoll(rules, Dice(), Dice(2, 3, 4, 3, 1)).ok());
  auto wrong = ValidateRoll(rules, Dice(2, 0, 4, 0, 0), Dice(1, 2, 3, 0, 0));
  CHECK(wrong.message().find("shows 6 dice but 7 are left") != std::string::npos);
  auto one = ValidateRoll(rules, Dice(2, 0, 4, 0, 0), Dice(1, 0, 0, 0, 0));
  CHECK(one.message().find("roll 1T shows 1 die but 7 are left") != std::string::npos);
  auto none_left = ValidateRoll(rules, Dice(3, 5, 5, 0, 0), Dice());
  CHECK(none_left.message().find("no dice are left") != std::string::npos);
  CHECK_FALSE(ValidateAside(Rules{0, 3, 25}, Dice()).ok());
}

TEST_CASE("state space: reachable positions of a 2-dice turn, listed by hand") {
  auto positions = ReachablePositions(Rules{2, 3, 25});
  REQUIRE(positions.ok());
  // Start; one die taken (R, H, C or K) with 0 or 1 tank beside it; two dice
  // with no tank: RR, RH.., HC..; that is 1 + 4 + 4 + (RR + 3 R+E + 3 EE + 3 E-pairs).
  // Counted: sum <= 2, not tanks alone: C(7,5)=21 tuples minus TT, T = 19.
  CHECK(positions->size() == 19);
  CHECK(positions->front() == Dice());
}
