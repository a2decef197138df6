// Rule constants: face names, range checks, maximum turn score.
#include "martiandice/rules.h"

#include "absl/strings/str_format.h"

namespace martiandice {

char FaceLetter(Face face) {
  static constexpr char kLetters[kFaceCount] = {'T', 'R', 'H', 'C', 'K'};
  return IsFace(face) ? kLetters[static_cast<int>(face)] : '?';
}

std::string_view FaceName(Face face) {
  static constexpr std::string_view kNames[kFaceCount] = {"tank", "ray", "human", "cow", "chicken"};
  return IsFace(face) ? kNames[static_cast<int>(face)] : "?";
}

std::string FaceCountText(Face face, int count) {
  return absl::StrFormat("%d %s%s", count, FaceName(face), count == 1 ? "" : "s");
}

std::string RulesText(const Rules& rules) {
  return absl::StrFormat("%d %s, bonus %d, target %d", rules.dice, rules.dice == 1 ? "die" : "dice",
                         rules.bonus, rules.target);
}

absl::Status ValidateRules(const Rules& rules) {
  if (rules.dice < kMinDice || rules.dice > kMaxDice) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "dice count %d is out of the supported range %d..%d", rules.dice, kMinDice, kMaxDice));
  }
  if (rules.bonus < 0 || rules.bonus > kMaxBonus) {
    return absl::InvalidArgumentError(
        absl::StrFormat("bonus %d is out of the supported range 0..%d", rules.bonus, kMaxBonus));
  }
  if (rules.target < kMinTarget || rules.target > kMaxTarget) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "target %d is out of the supported range %d..%d", rules.target, kMinTarget, kMaxTarget));
  }
  return absl::OkStatus();
}

int MaxTurnScore(const Rules& rules) {
  // Every die an earthling, all three types present when there are enough dice.
  return rules.dice + (rules.dice >= 3 ? rules.bonus : 0);
}

}  // namespace martiandice
