// A game's moves as lines `martiandice review` reads (its --help gives the
// format), so a game played with `play` (or typed into a coach) can be
// reviewed and replayed:
//   scores S0,S1[,...] seat I   before each turn played move by move: the
//                               totals at its start and the seat to move
//   roll DICE take FACE         a roll and its take (DICE in canonical
//                               notation, FACE a letter: R, H, C or K)
//   roll DICE                   a roll with no legal take: the turn is over
//   stop                        the player stopped
// Rolling on writes nothing (the next roll line says it). A whole turn
// entered as its points writes nothing either: the next `scores` line
// carries the totals.
#pragma once

#include <cstddef>
#include <string>

#include "martiandice/dice.h"
#include "martiandice/game_state.h"

namespace martiandice {

// The lines of one game. A value type; not synchronised.
class GameLog {
 public:
  // Records `move`, just applied with `result` to a game that was `before`
  // (the state the move was applied to). Call it after every successful
  // move, in order.
  void Record(const GameState& before, const Move& move, const MoveResult& result);

  // Every line so far, each ending with "\n".
  const std::string& text() const { return text_; }
  // The lines of the turns that have ended: text() without a turn in
  // progress (what `review` accepts when a game stops half way).
  std::string finished_text() const { return text_.substr(0, finished_); }

  // A point of the log to come back to (an undo): the log only grows, so
  // Restore(checkpoint()) after later records leaves it as it was.
  struct Checkpoint {
    std::size_t size = 0;
    std::size_t finished = 0;
    Dice roll;
  };
  Checkpoint checkpoint() const { return {text_.size(), finished_, roll_}; }
  // Back to `point`, taken from this log before its later records.
  void Restore(const Checkpoint& point) {
    text_.resize(point.size);
    finished_ = point.finished;
    roll_ = point.roll;
  }

 private:
  std::string text_;
  std::size_t finished_ = 0;  // the end of the last finished turn's lines
  Dice roll_;                 // the roll waiting for its take
};

}  // namespace martiandice
