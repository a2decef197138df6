// One line of a game log read as written (GameLog's format, `review --help`),
// before any game checks it: shared by GameLogReader (src/game_log.cpp, which
// defines these) and the coach's entries (app/game_session.cpp), which read
// the same roll, stop and scores lines.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/dice.h"
#include "martiandice/rules.h"

namespace martiandice::internal {

// A line's fields: `roll DICE [take FACE]`, `stop`, `scores S0,S1[,...]
// [seat I]`, `rules dice D bonus B target T`, or nothing (blank, a comment).
struct LogLine {
  enum class Kind { kEmpty, kRoll, kStop, kScores, kRules };
  Kind kind = Kind::kEmpty;
  Dice roll;                      // kRoll: the dice rolled, as written
  std::optional<TakeInput> take;  // kRoll: the face after `take`, with its count if written
  std::string scores;             // kScores: the totals as written ("12,20"), not checked
  std::optional<int> seat;        // kScores: after `seat`
  Rules rules;                    // kRules: as written, not checked
};

// `line`'s words: `#` and what follows it dropped, split at white space.
std::vector<std::string_view> LogWords(std::string_view line);

// Reads a line's `words` (LogWords'; keywords in any case). Errors
// (InvalidArgument) name the problem without the line's number: an unknown
// keyword, the notation ("roll: ..."), a malformed line ("expected 'scores
// S0,S1[,...] [seat I]', ...", "'stop' takes nothing after it").
absl::StatusOr<LogLine> ParseLogLine(const std::vector<std::string_view>& words);

}  // namespace martiandice::internal
