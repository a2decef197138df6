// Notation: every accepted form and every error path of ParseDice, and printing.
#include "martiandice/dice.h"

#include <doctest/doctest.h>

#include <string>

using martiandice::Dice;
using martiandice::Face;
using martiandice::FormatDice;
using martiandice::ParseDice;

namespace {

std::string ErrorOf(std::string_view text) {
  auto parsed = ParseDice(text);
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.status().code() == absl::StatusCode::kInvalidArgument);
  return std::string(parsed.status().message());
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("notation: the three forms people type parse alike") {
  const Dice expected(2, 3, 4, 0, 0);
  for (const char* text :
       {"2T 3R 4H", "TTRRRHHHH", "2t3r4h", "2T,3R,4H", " 4h 2T  3r ", "T1T3R4H"}) {
    auto parsed = ParseDice(text);
    REQUIRE_MESSAGE(parsed.ok(), text);
    CHECK_MESSAGE(*parsed == expected, text);
  }
}

TEST_CASE("notation: every face letter, upper and lower case") {
  CHECK(*ParseDice("tRhCk") == Dice(1, 1, 1, 1, 1));
  CHECK(*ParseDice("10K") == Dice(0, 0, 0, 0, 10));
  CHECK(*ParseDice("20r") == Dice(0, 20, 0, 0, 0));
}

TEST_CASE("notation: nothing set aside is '-' or blank") {
  CHECK(ParseDice("-")->empty());
  CHECK(ParseDice("")->empty());
  CHECK(ParseDice("   ")->empty());
  CHECK(ParseDice(" - ")->empty());
}

TEST_CASE("notation: canonical printing round-trips") {
  CHECK(FormatDice(Dice()) == "-");
  CHECK(FormatDice(Dice(2, 3, 4, 3, 1)) == "2T 3R 4H 3C 1K");
  CHECK(FormatDice(Dice(0, 0, 0, 1, 0)) == "1C");
  CHECK(FormatDice(Dice(20, 10, 0, 0, 9)) == "20T 10R 9K");  // multi-digit counts
  CHECK(FormatDice(Dice(0, 255, 100, 0, 0)) == "255R 100H");
  for (const Dice& d : {Dice(1, 0, 0, 0, 0), Dice(0, 2, 0, 5, 1), Dice(3, 3, 3, 3, 1)}) {
    CHECK(*ParseDice(FormatDice(d)) == d);
  }
}

TEST_CASE("notation: errors name the problem") {
  CHECK(Contains(ErrorOf("2T 3X"), "unknown face letter 'X'"));
  CHECK(Contains(ErrorOf("2T 3X"), "position 5"));
  CHECK(Contains(ErrorOf("hello"), "unknown face letter 'e'"));
  CHECK(Contains(ErrorOf("3"), "not followed by a face letter"));
  CHECK(Contains(ErrorOf("3 T"), "not followed by a face letter"));
  CHECK(Contains(ErrorOf("0T"), "at least 1"));
  CHECK(Contains(ErrorOf("-3T"), "unexpected sign '-'"));
  CHECK(Contains(ErrorOf("+3T"), "unexpected sign '+'"));
  CHECK(Contains(ErrorOf("--"), "unexpected sign"));
  CHECK(Contains(ErrorOf("21T"), "larger than 20"));
  CHECK(Contains(ErrorOf("99999999999999999999999T"), "larger than 20"));
  CHECK(Contains(ErrorOf("15T 6R"), "more than 20 dice in total"));
  CHECK(Contains(ErrorOf(std::string(21, 'H')), "more than 20 dice in total"));
  CHECK(Contains(ErrorOf(std::string("2T\x01")), "\\x01"));
  // A character of another script is shown whole; a byte that starts none, escaped.
  CHECK(Contains(ErrorOf("2\xc3\xa9"), "unknown face letter '\xc3\xa9'"));
  CHECK(Contains(ErrorOf("2\xe2\x82\xac"), "unknown face letter '\xe2\x82\xac'"));
  CHECK(Contains(ErrorOf("2\xc3"), "unknown face letter '\\xc3'"));
  CHECK(Contains(ErrorOf("2\xc3T"), "unknown face letter '\\xc3'"));
  CHECK(Contains(ErrorOf(std::string(300, ' ')), "longer than 256"));
}

TEST_CASE("dice: totals and sums") {
  Dice d(1, 2, 3, 0, 1);
  CHECK(d.total() == 7);
  CHECK(d.earthlings() == 4);
  d.add(Face::kCow, 2);
  CHECK(d.count(Face::kCow) == 2);
  CHECK(d + Dice(1, 0, 0, 0, 0) == Dice(2, 2, 3, 2, 1));
}

TEST_CASE("notation: faces as words, singular or plural, any case") {
  const Dice expected(2, 3, 4, 0, 0);
  for (const char* text : {"2 tanks 3 rays 4 humans", "2tanks3rays4humans", "2 Tanks, 3 RAYS, 4H",
                           "tank tank 3 ray 4 human", "2T 3 rays 4h", "2 tank 3 ray 4 human"}) {
    auto parsed = ParseDice(text);
    REQUIRE_MESSAGE(parsed.ok(), text << ": " << parsed.status().message());
    CHECK_MESSAGE(*parsed == expected, text);
  }
  CHECK(*ParseDice("cow chickens") == Dice(0, 0, 0, 1, 1));
  CHECK(*ParseDice("1 chicken 2 cows 3 humans") == Dice(0, 0, 3, 2, 1));
  // A run of letters that is no face word is read letter by letter.
  CHECK(*ParseDice("TRHCK") == Dice(1, 1, 1, 1, 1));
  CHECK(Contains(ErrorOf("2 tankz"), "not followed by a face letter"));
  CHECK(Contains(ErrorOf("tankz"), "unknown face letter 'a'"));
  CHECK(Contains(ErrorOf("2 T"), "not followed by a face letter"));
  CHECK(Contains(ErrorOf("0 tanks"), "at least 1"));
  CHECK(Contains(ErrorOf("11 rays 10 cows"), "more than 20 dice in total"));
}

TEST_CASE("notation: a face and a take as people type them") {
  using martiandice::ParseFace;
  using martiandice::ParseTake;
  CHECK(ParseFace("T") == Face::kTank);
  CHECK(ParseFace("k") == Face::kChicken);
  CHECK(ParseFace("Rays") == Face::kRay);
  CHECK(ParseFace("cow") == Face::kCow);
  CHECK(ParseFace("HUMANS") == Face::kHuman);
  CHECK_FALSE(ParseFace("x").has_value());
  CHECK_FALSE(ParseFace("").has_value());
  CHECK_FALSE(ParseFace("rr").has_value());
  CHECK_FALSE(ParseFace("s").has_value());

  CHECK(ParseTake("h")->face == Face::kHuman);
  CHECK_FALSE(ParseTake("h")->count.has_value());
  CHECK(ParseTake("chickens")->face == Face::kChicken);
  CHECK(ParseTake("4H")->count == 4);
  CHECK(ParseTake("4 humans")->count == 4);
  CHECK(ParseTake("4 humans")->face == Face::kHuman);
  // A letter repeated is a count (three humans), never the face alone.
  CHECK(ParseTake("HHH")->count == 3);
  CHECK(ParseTake("H H")->count == 2);
  CHECK(ParseTake(" Humans ")->face == Face::kHuman);
  CHECK_FALSE(ParseTake(" Humans ")->count.has_value());
  auto message = [](std::string_view text) {
    auto take = ParseTake(text);
    REQUIRE_FALSE(take.ok());
    CHECK(take.status().code() == absl::StatusCode::kInvalidArgument);
    return std::string(take.status().message());
  };
  CHECK(Contains(message("T"), "tanks are set aside automatically"));
  CHECK(Contains(message("2 tanks"), "tanks are set aside automatically"));
  CHECK(Contains(message("HC"), "take one face (R, H, C or K), not 'HC'"));
  CHECK(Contains(message("-"), "take one face"));
  CHECK(message("Q") ==
        "take: expected a face: ray, human, cow or chicken (R, H, C, K), its count before it if "
        "you like (4H, 4 humans); got 'Q'");
  CHECK(Contains(message("4 dragons"), "got '4 dragons'"));
}
