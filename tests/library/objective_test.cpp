// Objectives: parsing and utility values.
#include "martiandice/objective.h"

#include <doctest/doctest.h>

using namespace martiandice;

TEST_CASE("objective: parse built-ins") {
  CHECK(Objective::Parse("ev")->name() == "ev");
  CHECK(Objective::Parse("ev")->Utility(7) == 7.0);
  auto reach = Objective::Parse("reach:10");
  REQUIRE(reach.ok());
  CHECK(reach->Utility(9) == 0.0);
  CHECK(reach->Utility(10) == 1.0);
  auto capped = Objective::Parse("capped:6");
  REQUIRE(capped.ok());
  CHECK(capped->Utility(4) == 4.0);
  CHECK(capped->ExactUtility(12) == 6);
  CHECK(capped->Describe().find("min(score, 6)") != std::string::npos);
}

TEST_CASE("objective: parse errors name the problem") {
  CHECK(Objective::Parse("win").status().message().find("unknown objective \"win\"") !=
        std::string::npos);
  CHECK(Objective::Parse("reach").status().message().find("missing its number") !=
        std::string::npos);
  CHECK(Objective::Parse("reach:").status().message().find("missing its number") !=
        std::string::npos);
  CHECK(Objective::Parse("reach:abc").status().message().find("not a whole number") !=
        std::string::npos);
  CHECK_FALSE(Objective::Parse("reach:-1").ok());
  for (const char* spec : {"reach:-0", "capped:-0", "capped:+3", "reach: 3"}) {
    INFO(spec);
    CHECK(Objective::Parse(spec).status().message().find("not a whole number") !=
          std::string::npos);
  }
  CHECK_FALSE(Objective::Parse("capped:1001").ok());
  CHECK_FALSE(Objective::Parse("capped:99999999999999999999").ok());
  CHECK_FALSE(Objective::Parse("EV").ok());
}

TEST_CASE("objective: custom utility tables") {
  CHECK_FALSE(Objective::Custom("empty", {}).ok());
  auto custom = Objective::Custom("half", {Rational(0), Rational(1, 2)});
  REQUIRE(custom.ok());
  CHECK(custom->ExactUtility(1) == Rational(1, 2));
  CHECK(custom->ExactUtility(9) == Rational(1, 2));  // past the end: last entry
  CHECK(custom->Utility(0) == 0.0);
}

// final:M/K, the fallback's final round: 1 past the leader, 1/(K+1) level
// with K leaders, 0 below, exactly and as doubles.
TEST_CASE("objective: final:M/K is the final round's chance to win") {
  const absl::StatusOr<Objective> two = Objective::Parse("final:7/2");
  REQUIRE(two.ok());
  CHECK(two->name() == "final:7/2");
  CHECK(two->key() == Objective::FinalRound(7, 2).key());
  for (int score = 0; score <= 20; ++score) {
    INFO(score);
    const Rational want = score >= 7 ? Rational(1) : score == 6 ? Rational(1, 3) : Rational(0);
    CHECK(two->ExactUtility(score) == want);
    CHECK(two->Utility(score) == want.convert_to<double>());
  }
  CHECK(Objective::FinalRound(1, 1).ExactUtility(0) == Rational(1, 2));
  CHECK(Objective::FinalRound(0, 1).ExactUtility(0) == 1);
  CHECK(two->Describe() ==
        "chance to win the final round: scoring at least 7, or a tie at 6 "
        "shared with 2 other seats");
  CHECK(two->is_chance());
  CHECK(Objective::ReachAtLeast(3).is_chance());
  CHECK_FALSE(Objective::ExpectedScore().is_chance());
  CHECK_FALSE(Objective::Capped(3).is_chance());
  CHECK_FALSE(Objective::Custom("half", {Rational(1, 2)})->is_chance());
}

TEST_CASE("objective: final:M/K's errors name the problem") {
  const auto message = [](const char* spec) {
    return std::string(Objective::Parse(spec).status().message());
  };
  CHECK(message("final") ==
        "\"final\" is missing the seats level with the leader, /K (e.g. "
        "final:7/1)");
  CHECK(message("final:7").find("missing the seats level with the leader") != std::string::npos);
  CHECK(message("final:/1") == "\"final:/1\" is missing its number (e.g. final:7/1)");
  CHECK(message("final:7/") == "\"final:7/\" is missing its number (e.g. final:7/1)");
  CHECK(message("final:7/0") == "in \"final:7/0\", the seats level with the leader are 1 or more");
  CHECK(message("final:x/1") == "in \"final:x/1\", \"x\" is not a whole number in 0..1000");
  CHECK(message("final:7/1/2") == "in \"final:7/1/2\", \"1/2\" is not a whole number in 0..1000");
  CHECK(message("final:1001/1").find("not a whole number in 0..1000") != std::string::npos);
  CHECK(message("nope").find("(use ev, reach:K, capped:M or final:M/K)") != std::string::npos);
}
