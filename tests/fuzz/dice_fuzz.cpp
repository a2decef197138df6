// libFuzzer target: the dice notation parser (ParseDice / FormatDice) and the
// position checks that take parsed dice (ValidateAside, ValidateRoll,
// TurnScore) under a few rule sets. The input is one or two notations
// separated by '|': "ASIDE" or "ASIDE|ROLL". Aborts (a finding) when a
// parsed value breaks the documented contract.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "martiandice/dice.h"
#include "martiandice/rules.h"
#include "martiandice/state_space.h"

namespace {

using martiandice::Dice;
using martiandice::Rules;

void Require(bool condition) {
  if (!condition) std::abort();
}

// Parses `text`; on success checks the round trip through FormatDice.
absl::StatusOr<Dice> ParseChecked(std::string_view text) {
  absl::StatusOr<Dice> dice = martiandice::ParseDice(text);
  if (!dice.ok()) {
    Require(dice.status().code() == absl::StatusCode::kInvalidArgument);
    Require(!dice.status().message().empty());
    return dice;
  }
  Require(dice->total() <= martiandice::kMaxNotationDice);
  const std::string canonical = martiandice::FormatDice(*dice);
  absl::StatusOr<Dice> again = martiandice::ParseDice(canonical);
  Require(again.ok() && *again == *dice);
  return dice;
}

constexpr Rules kRuleSets[] = {{13, 3, 25}, {3, 0, 5}, {1, 0, 1}, {20, 100, 200}, {6, 2, 10}};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t bar = input.find('|');
  absl::StatusOr<Dice> aside = ParseChecked(input.substr(0, bar));
  absl::StatusOr<Dice> roll =
      bar == std::string_view::npos ? absl::StatusOr<Dice>() : ParseChecked(input.substr(bar + 1));
  if (!aside.ok()) return 0;
  for (const Rules& rules : kRuleSets) {
    const absl::Status aside_ok = martiandice::ValidateAside(rules, *aside);
    if (aside_ok.ok()) {
      Require(aside->total() <= rules.dice);
      const int score = martiandice::TurnScore(rules, *aside);
      Require(score >= 0 && score <= martiandice::MaxTurnScore(rules));
    } else {
      Require(aside_ok.code() == absl::StatusCode::kInvalidArgument);
    }
    if (roll.ok()) {
      const absl::Status roll_ok = martiandice::ValidateRoll(rules, *aside, *roll);
      // A valid roll needs a valid set-aside and shows exactly the dice left.
      if (roll_ok.ok()) {
        Require(aside_ok.ok());
        Require(aside->total() + roll->total() == rules.dice);
      } else {
        Require(roll_ok.code() == absl::StatusCode::kInvalidArgument);
      }
    }
  }
  return 0;
}
