// Dice notation: parsing the compact forms players type, printing the canonical one.
#include "martiandice/dice.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "utf8.h"

namespace martiandice {
namespace {

std::optional<Face> FaceOfLetter(char c) {
  switch (std::toupper(static_cast<unsigned char>(c))) {
    case 'T':
      return Face::kTank;
    case 'R':
      return Face::kRay;
    case 'H':
      return Face::kHuman;
    case 'C':
      return Face::kCow;
    case 'K':
      return Face::kChicken;
    default:
      return std::nullopt;
  }
}

bool IsSeparator(char c) { return c == ' ' || c == '\t' || c == ','; }

bool IsLetter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// The face a whole word names ("tank", "Rays", ...), or nothing.
std::optional<Face> FaceOfWord(std::string_view word) {
  static constexpr std::array<std::pair<std::string_view, Face>, kFaceCount> kWords = {
      {{"tank", Face::kTank},
       {"ray", Face::kRay},
       {"human", Face::kHuman},
       {"cow", Face::kCow},
       {"chicken", Face::kChicken}}};
  std::string lower(word);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.size() > 1 && lower.back() == 's') {
    const std::string singular = lower.substr(0, lower.size() - 1);
    for (const auto& [name, face] : kWords) {
      if (singular == name) return face;
    }
  }
  for (const auto& [name, face] : kWords) {
    if (lower == name) return face;
  }
  return std::nullopt;
}

// The run of letters starting at `i`.
std::string_view LetterRun(std::string_view text, size_t i) {
  size_t end = i;
  while (end < text.size() && IsLetter(text[end])) ++end;
  return text.substr(i, end - i);
}

std::string Printable(char c) {
  if (std::isprint(static_cast<unsigned char>(c))) return std::string(1, c);
  return absl::StrFormat("\\x%02x", static_cast<unsigned char>(c));
}

// The character at text[i] as a message shows it: a UTF-8 character whole
// ('é', not '\xc3'), else the byte (Printable).
std::string CharAt(std::string_view text, size_t i) {
  const size_t length = internal::Utf8CharLength(text, i);
  return length > 1 ? std::string(text.substr(i, length)) : Printable(text[i]);
}

absl::Status ErrorAt(std::string_view text, size_t pos, std::string_view what) {
  return absl::InvalidArgumentError(absl::StrFormat("bad dice \"%s\" at position %d: %s",
                                                    std::string(text), pos + 1, std::string(what)));
}

bool IsBlank(std::string_view text) {
  for (char c : text) {
    if (!IsSeparator(c)) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<Dice> ParseDice(std::string_view text) {
  if (text.size() > 256) {
    return absl::InvalidArgumentError("bad dice: text longer than 256 characters");
  }
  if (IsBlank(text)) return Dice();
  size_t first = text.find_first_not_of(" \t,");
  size_t last = text.find_last_not_of(" \t,");
  if (first == last && text[first] == '-') return Dice();

  int counts[kFaceCount] = {};
  int total = 0;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (IsSeparator(c)) {
      ++i;
      continue;
    }
    if (c == '-' || c == '+') {
      return ErrorAt(
          text, i,
          absl::StrCat("unexpected sign '", std::string(1, c),
                       "' (counts are plain positive numbers; \"-\" alone means no dice)"));
    }
    size_t start = i;
    long long count = 1;
    if (std::isdigit(static_cast<unsigned char>(c))) {
      count = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        count = count * 10 + (text[i] - '0');
        if (count > kMaxNotationDice) {
          return ErrorAt(text, start, absl::StrFormat("count is larger than %d", kMaxNotationDice));
        }
        ++i;
      }
      if (count == 0) return ErrorAt(text, start, "a count must be at least 1");
      // Spaces may separate a count from a face word ("2 tanks"), not from a letter.
      size_t word = i;
      while (word < text.size() && (text[word] == ' ' || text[word] == '\t')) ++word;
      if (word > i && word < text.size() && FaceOfWord(LetterRun(text, word))) i = word;
      if (i == text.size() || IsSeparator(text[i])) {
        return ErrorAt(text, start,
                       "count is not followed by a face letter (T R H C K) or a face word "
                       "(tank, ray, human, cow, chicken)");
      }
    }
    // A run of letters that is a face word is one face; any other run is letters.
    const std::string_view run = LetterRun(text, i);
    std::optional<Face> face = FaceOfWord(run);
    size_t length = run.size();
    if (!face) {
      face = FaceOfLetter(text[i]);
      length = 1;
    }
    if (!face) {
      return ErrorAt(text, i,
                     absl::StrCat("unknown face letter '", CharAt(text, i),
                                  "' (use T tank, R ray, H human, C cow, K chicken)"));
    }
    counts[static_cast<int>(*face)] += static_cast<int>(count);
    total += static_cast<int>(count);
    if (total > kMaxNotationDice) {
      return ErrorAt(text, start, absl::StrFormat("more than %d dice in total", kMaxNotationDice));
    }
    i += length;
  }
  return Dice(counts[0], counts[1], counts[2], counts[3], counts[4]);
}

std::optional<Face> ParseFace(std::string_view word) {
  if (word.size() == 1) return FaceOfLetter(word[0]);
  return FaceOfWord(word);
}

absl::StatusOr<TakeInput> ParseTake(std::string_view text) {
  constexpr char kTanks[] = "tanks are set aside automatically; take R, H, C or K";
  absl::StatusOr<Dice> dice = ParseDice(text);
  if (!dice.ok()) {  // the notation's detail would offer tanks: the faces a take names instead
    return absl::InvalidArgumentError(
        absl::StrCat("take: expected a face: ray, human, cow or chicken (R, H, C, K), its count "
                     "before it if you like (4H, 4 humans); got '",
                     std::string(text), "'"));
  }
  int faces = 0;
  Face face = Face::kRay;
  for (const Face f : kAllFaces) {
    if (dice->count(f) > 0) {
      ++faces;
      face = f;
    }
  }
  if (faces == 1 && face == Face::kTank) return absl::InvalidArgumentError(kTanks);
  if (faces != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("take one face (R, H, C or K), not '", std::string(text), "'"));
  }
  TakeInput take;
  take.face = face;
  // Anything but the face alone counts its dice: "4H", and "HHH" (three humans) too.
  const absl::string_view alone =
      absl::StripAsciiWhitespace(absl::string_view(text.data(), text.size()));
  if (!ParseFace(std::string_view(alone.data(), alone.size()))) {
    take.count = dice->count(face);
  }
  return take;
}

std::string FormatDice(const Dice& dice) {
  if (dice.empty()) return "-";
  // Written into a buffer: front ends print several per answer. Counts are
  // at most 255 (one byte): "255T 255R ..." fits.
  char text[kFaceCount * 5];
  std::size_t size = 0;
  for (Face f : kAllFaces) {
    const int n = dice.count(f);
    if (n == 0) continue;
    if (size > 0) text[size++] = ' ';
    if (n >= 100) text[size++] = static_cast<char>('0' + n / 100);
    if (n >= 10) text[size++] = static_cast<char>('0' + n / 10 % 10);
    text[size++] = static_cast<char>('0' + n % 10);
    text[size++] = FaceLetter(f);
  }
  return std::string(text, size);
}

int TurnScore(const Rules& rules, const Dice& aside) {
  if (aside.count(Face::kTank) > aside.count(Face::kRay)) return 0;
  bool all_three = aside.count(Face::kHuman) > 0 && aside.count(Face::kCow) > 0 &&
                   aside.count(Face::kChicken) > 0;
  return aside.earthlings() + (all_three ? rules.bonus : 0);
}

}  // namespace martiandice
