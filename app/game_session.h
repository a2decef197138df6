// A game followed entry by entry, as `coach` and `serve`'s game sessions
// follow it: the entries are lines (review's lines, plus `take FACE` alone, a
// whole turn's `score N`, `scores`, `undo`), each played on the library's
// GameState and recorded in its GameLog by the game log's PlayMoves
// (martiandice/game_log.h), which keeps an entry only if every move in it is
// legal, so a bad entry changes nothing. The advice at the game's decision is the advisor's
// (Advisor::Advise); this is only the bookkeeping between lines and moves.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/dice.h"
#include "martiandice/game_log.h"
#include "martiandice/game_state.h"

namespace martiandice::app {

// The entries, for messages: "roll DICE, take FACE, ...".
extern const std::string_view kSessionEntries;
// The message of a take that names no face (coach's `take`, play's too).
inline constexpr std::string_view kTakeNamesNoFace =
    "take: name the face, e.g. 'take humans' or 'take H'";

// What an accepted line did.
struct SessionStep {
  enum class Kind {
    kNone,     // a blank line or a comment
    kApplied,  // a game entry (moves, or `scores`) was applied
    kUndone,   // `undo` took back `entry`
    kState,    // `state`: nothing changed
    kHelp,     // `help`: nothing changed
    kQuit,     // `quit`: nothing changed
  };
  Kind kind = Kind::kNone;
  std::string entry;               // kApplied: the line; kUndone: the line taken back
  std::optional<Dice> roll;        // kApplied: the dice the entry rolled
  std::vector<TurnEnd> turn_ends;  // kApplied: the turns it ended
};

class GameSession {
 public:
  // A game from `start`, keeping at most `max_undo` entries for `undo`;
  // `quit` an entry (coach's) or not (a session that is closed instead: serve's,
  // the page's), then refused and left out of the unknown-entry message.
  explicit GameSession(GameState start, std::size_t max_undo = 10000, bool quit = true)
      : state_(std::move(start)), max_undo_(max_undo), quit_(quit) {}

  // Applies one line (case does not matter, `#` starts a comment). Errors
  // (InvalidArgument): the problem, in one line; nothing changed.
  absl::StatusOr<SessionStep> Enter(std::string_view line);

  const GameState& state() const { return state_; }
  const GameLog& log() const { return log_; }
  // The log review reads: the whole game once over, else its finished turns.
  std::string review_text() const { return state_.over() ? log_.text() : log_.finished_text(); }
  // Entries `undo` can take back.
  std::size_t undo_depth() const { return undo_.size(); }
  // The entries allowed now, for `help`.
  std::string EntriesNow() const;
  // The game as JSON: phase, seat, scores, final_round, aside, dice_left,
  // turn_score, roll (null unless a take waits), legal, winners, undo.
  std::string StateJson() const;
  // The turns ended as JSON: [{seat, score, reason, aside, game_over}].
  static std::string TurnEndsJson(const std::vector<TurnEnd>& ends);

 private:
  struct Undo {
    std::string entry;
    GameState state;
    GameLog::Checkpoint log;
  };
  void Keep(std::string_view line, const GameLog::Checkpoint& log);

  GameState state_;
  GameLog log_;
  std::deque<Undo> undo_;
  std::size_t max_undo_;
  bool quit_;
};

}  // namespace martiandice::app
