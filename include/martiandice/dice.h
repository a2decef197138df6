// Dice multisets (counts per face) and the compact notation people type at the
// table: "2T 3R 4H", "TTRRRHHHH", "2t3r4h", "2 tanks 3 rays"; "-" or "" for
// nothing. Takes as people type them: "H", "humans", "4H".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "martiandice/rules.h"

namespace martiandice {

// A multiset of faces. Plain value type; cheap to copy.
class Dice {
 public:
  constexpr Dice() = default;
  // Counts in face order: tanks, rays, humans, cows, chickens. Each count is
  // held in a byte: 0 to 255, a count outside wraps (the rules' checks,
  // ValidateAside and ValidateRoll, bound what a game accepts). The faces
  // given to count, set and add must be faces (IsFace).
  constexpr Dice(int tanks, int rays, int humans, int cows, int chickens)
      : counts_{static_cast<std::uint8_t>(tanks), static_cast<std::uint8_t>(rays),
                static_cast<std::uint8_t>(humans), static_cast<std::uint8_t>(cows),
                static_cast<std::uint8_t>(chickens)} {}

  constexpr int count(Face face) const { return counts_[static_cast<int>(face)]; }
  constexpr void set(Face face, int n) {
    counts_[static_cast<int>(face)] = static_cast<std::uint8_t>(n);
  }
  constexpr void add(Face face, int n) { set(face, count(face) + n); }
  constexpr int total() const {
    return counts_[0] + counts_[1] + counts_[2] + counts_[3] + counts_[4];
  }
  constexpr bool empty() const { return total() == 0; }
  // Dice with the earthling faces only (tanks and rays dropped).
  constexpr int earthlings() const { return counts_[2] + counts_[3] + counts_[4]; }

  friend constexpr bool operator==(const Dice&, const Dice&) = default;
  friend constexpr Dice operator+(Dice a, const Dice& b) {
    for (Face f : kAllFaces) a.add(f, b.count(f));
    return a;
  }

 private:
  std::array<std::uint8_t, kFaceCount> counts_{};
};

// Largest count the notation accepts for one face or in total (kMaxDice).
inline constexpr int kMaxNotationDice = kMaxDice;

// Parses the notation. A group is a face, optionally preceded by a decimal
// count (default 1). A face is a letter T R H C K, or a word: tank, ray,
// human, cow, chicken, or its plural (tanks, rays, ...); any case. A word is a
// whole run of letters ("2tanks3rays", "2 tanks, 3 rays"); a run of letters
// that is not a face word is read letter by letter ("TTR" == "2T 1R"). Spaces
// may separate a count from a word ("2 tanks"), never from a letter ("2 T" is
// refused). Groups may be separated by spaces or commas, and repeated faces
// add up. "-" or blank means no dice. Errors (InvalidArgument, message names
// the problem and its position): unknown letter, count without a face, count
// of zero or a sign, count overflow, more than kMaxNotationDice dice in total.
absl::StatusOr<Dice> ParseDice(std::string_view text);

// The face a letter (T R H C K) or a word (tank, ray, human, cow, chicken,
// or a plural) names, in any case; nothing for anything else.
std::optional<Face> ParseFace(std::string_view word);

// A take as people type it: a face (letter or word, as ParseFace), or a
// count and its face ("4H", "4 humans", "HHH"; ParseDice's notation).
struct TakeInput {
  Face face = Face::kRay;
  std::optional<int> count;  // set unless the text is the face alone
};
// Errors (InvalidArgument): tanks ("tanks are set aside automatically; take R,
// H, C or K"), more than one face ("take one face (R, H, C or K), not ..."),
// and text that is no face nor dice ("take: expected a face: ray, human, cow
// or chicken (R, H, C, K), ...; got '...'").
absl::StatusOr<TakeInput> ParseTake(std::string_view text);

// Prints the canonical form, faces in T R H C K order: "2T 3R 4H", or "-" if empty.
std::string FormatDice(const Dice& dice);

// Score of a turn that ends with `aside` set aside: 0 if tanks outnumber rays,
// else one point per earthling plus rules.bonus when all three types are present.
int TurnScore(const Rules& rules, const Dice& aside);

}  // namespace martiandice
