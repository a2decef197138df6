// A game's moves as review's lines (martiandice/game_log.h).
#include "martiandice/game_log.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace martiandice {

void GameLog::Record(const GameState& before, const Move& move, const MoveResult& result) {
  switch (move.kind) {
    case Move::Kind::kRoll:
      if (before.aside().empty()) {  // the turn's first roll
        absl::StrAppend(&text_, "scores ", absl::StrJoin(before.scores(), ","), " seat ",
                        before.seat(), "\n");
      }
      if (result.turn_end) {
        absl::StrAppend(&text_, "roll ", FormatDice(move.dice), "\n");
      } else {
        roll_ = move.dice;
      }
      break;
    case Move::Kind::kTake:
      absl::StrAppend(&text_, "roll ", FormatDice(roll_), " take ",
                      std::string(1, FaceLetter(move.face)), "\n");
      break;
    case Move::Kind::kStop:
      absl::StrAppend(&text_, "stop\n");
      break;
    case Move::Kind::kRollOn:
    case Move::Kind::kEndTurn:
      break;
  }
  if (result.turn_end) finished_ = text_.size();
}

}  // namespace martiandice
