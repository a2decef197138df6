// Rules of Martian Dice: the five faces, the rule constants users may vary, and
// the game's end (the final round, the tied leaders' shares). A finished turn's
// score is TurnScore in dice.h. See docs/RULES.md for the rulings implemented.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
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
// True for the five faces: a Face cast from another number is none of them.
// The game's moves and reviews refuse it (GameState, PlayMoves,
// ReviewChoice), FaceLetter and FaceName name it "?"; Dice takes faces only.
constexpr bool IsFace(Face face) { return static_cast<int>(face) < kFaceCount; }
// Notation letter: T, R, H, C or K ('?' for no face).
char FaceLetter(Face face);
// Lower-case English name used in JSON: "tank", "ray", "human", "cow",
// "chicken" ("?" for no face).
std::string_view FaceName(Face face);
// A count of a face for people: "4 humans", "1 ray".
std::string FaceCountText(Face face, int count);

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

// The rules for people: "13 dice, bonus 3, target 25" ("1 die, ...").
std::string RulesText(const Rules& rules);

// Highest score a single turn can reach under `rules` (16 for the official game).
int MaxTurnScore(const Rules& rules);

// ---- The game's end (docs/RULES.md, "Winning"). Seats are numbered 0..P-1
// in turn order; `scores` holds every seat's total. Each is the one place its
// rule is decided: the game solve, the certifier, the win queries, GameState
// and the front ends call them. Pure, thread-safe.

// Whether the final round has begun when `seat` is to move: a seat before it
// in this round has reached the target (seats after it cannot have, or the
// game would have ended).
inline bool FinalRoundBegun(const Rules& rules, std::span<const int> scores, int seat) {
  const std::size_t before = std::min<std::size_t>(seat < 0 ? 0 : seat, scores.size());
  return std::any_of(scores.begin(), scores.begin() + before,
                     [&](int total) { return total >= rules.target; });
}

// The first seat that can be to move at totals `scores`: 0 while every seat
// is below the target, else the seat after the last one to have reached it
// (a seat that starts its turn at or over the target would mean the game
// ended a round ago). scores.size() when the last seat has reached it.
inline int FirstSeatToMove(const Rules& rules, std::span<const int> scores) {
  int first = 0;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    if (scores[j] >= rules.target) first = static_cast<int>(j) + 1;
  }
  return first;
}

// Whether the game ends when `seat` ends its turn, `after` being every seat's
// total with that turn's points added: the last seat's turn ends the round,
// and the game once some seat has reached the target.
inline bool GameEndsAfterTurn(const Rules& rules, std::span<const int> after, int seat) {
  return !after.empty() && seat == static_cast<int>(after.size()) - 1 &&
         *std::max_element(after.begin(), after.end()) >= rules.target;
}

// Number of seats tied for the lead at the end of a game with totals `scores`
// (>= 1 for a non-empty span, 0 for an empty one): the leaders split the win
// equally.
inline int LeaderCount(std::span<const int> scores) {
  if (scores.empty()) return 0;
  const int top = *std::max_element(scores.begin(), scores.end());
  return static_cast<int>(std::count(scores.begin(), scores.end(), top));
}

// `seat`'s share of the win at the end of a game with totals `scores`:
// 1 / LeaderCount for each tied leader, 0 for the others (and for a seat
// that is not one of `scores`).
inline double WinShare(std::span<const int> scores, int seat) {
  if (seat < 0 || seat >= static_cast<int>(scores.size())) return 0.0;
  const int top = *std::max_element(scores.begin(), scores.end());
  return scores[seat] == top ? 1.0 / LeaderCount(scores) : 0.0;
}

}  // namespace martiandice
