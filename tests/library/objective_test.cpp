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
        "chance to score at least 7 and pass the leader (a tie at 6 with 2 seats counts 1/3)");
  CHECK(Objective::FinalRound(12, 1).Describe() ==
        "chance to score at least 12 and pass the leader (a tie at 11 with 1 seat counts 1/2)");
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
  const std::string m = "M (the points that pass the leader) is a whole number in 1..1000";
  const std::string k = "K (the other seats level with the leader) is a whole number in 1..5";
  CHECK(message("final") == "in \"final\", " + m + ", not \"\" (e.g. final:7/1)");
  CHECK(message("final:7") ==
        "\"final:7\" is missing /K, the other seats level with the leader (e.g. final:7/1)");
  CHECK(message("final:abc") == "in \"final:abc\", " + m + ", not \"abc\" (e.g. final:7/1)");
  CHECK(message("final:/1") == "in \"final:/1\", " + m + ", not \"\" (e.g. final:7/1)");
  CHECK(message("final:0/1") == "in \"final:0/1\", " + m + ", not \"0\" (e.g. final:7/1)");
  CHECK(message("final:7/") == "in \"final:7/\", " + k + ", not \"\" (e.g. final:7/1)");
  CHECK(message("final:7/0") == "in \"final:7/0\", " + k + ", not \"0\" (e.g. final:7/1)");
  CHECK(message("final:7/6") == "in \"final:7/6\", " + k + ", not \"6\" (e.g. final:7/1)");
  CHECK(message("final:7/-1") == "in \"final:7/-1\", " + k + ", not \"-1\" (e.g. final:7/1)");
  CHECK(message("final:7/1/2") == "in \"final:7/1/2\", " + k + ", not \"1/2\" (e.g. final:7/1)");
  CHECK(message("final:1001/1").find(m + ", not \"1001\"") != std::string::npos);
  CHECK(message("final:99999999999999999999/1").find(m) != std::string::npos);
  CHECK(Objective::Parse("final:1000/5").ok());
  CHECK(message("nope").find("(use ev, reach:K, capped:M or final:M/K)") != std::string::npos);
}
