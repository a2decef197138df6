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
