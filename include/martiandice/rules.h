// Rules of Martian Dice: the five faces, the rule constants users may vary, and
// the scoring of a finished turn. See docs/RULES.md for the rulings implemented.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "absl/status/status.h"

namespace martiandice {

// The five faces of a die. Death Ray appears on two of the six sides.
enum class Face : std::uint8_t { kTank = 0, kRay = 1, kHuman = 2, kCow = 3, kChicken = 4 };

inline constexpr int kFaceCount = 5;
inline constexpr int kDieSides = 6;
inline constexpr std::array<Face, kFaceCount> kAllFaces = {Face::kTank, Face::kRay, Face::kHuman,
                                                           Face::kCow, Face::kChicken};
inline constexpr std::array<Face, 3> kEarthlings = {Face::kHuman, Face::kCow, Face::kChicken};

// Number of the six sides of a die that show `face` (2 for Death Ray, else 1).
constexpr int SidesShowing(Face face) { return face == Face::kRay ? 2 : 1; }
// True for Human, Cow and Chicken.
constexpr bool IsEarthling(Face face) { return face >= Face::kHuman; }
// Notation letter: T, R, H, C or K.
char FaceLetter(Face face);
// Lower-case English name used in JSON: "tank", "ray", "human", "cow", "chicken".
std::string_view FaceName(Face face);

// Supported ranges of the rule constants. Wider ranges would need more than
// 64-bit roll weights (6^dice) or make the solve too slow to be interactive.
inline constexpr int kMinDice = 1;
inline constexpr int kMaxDice = 20;
inline constexpr int kMaxBonus = 100;
inline constexpr int kMinTarget = 1;
inline constexpr int kMaxTarget = 200;

// The rule constants; defaults are the official game.
struct Rules {
  int dice = 13;    // dice rolled at the start of a turn
  int bonus = 3;    // points for setting aside at least one of each earthling type
  int target = 25;  // game total that ends the game (used by game-level queries)

  friend bool operator==(const Rules&, const Rules&) = default;
};

// Returns OK, or InvalidArgument naming the constant that is out of its supported range.
absl::Status ValidateRules(const Rules& rules);

// Highest score a single turn can reach under `rules` (16 for the official game).
int MaxTurnScore(const Rules& rules);

}  // namespace martiandice
