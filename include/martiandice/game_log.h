// A game's moves as lines, written (GameLog) and read back (GameLogReader,
// PlayMoves): the lines `martiandice review` reads (its --help gives the
// format), so a game played with `play` (or typed into a coach) can be
// reviewed and replayed:
//   scores S0,S1[,...] seat I   before each turn played move by move: the
//                               totals at its start and the seat to move
//   roll DICE take FACE         a roll and its take (DICE in canonical
//                               notation, FACE a letter: R, H, C or K)
//   roll DICE                   a roll with no legal take: the turn is over
//   stop                        the player stopped
//   rules dice D bonus B target T   first, in the log of a game under house
//                               rules: a reader under other rules refuses it
// Rolling on writes nothing (the next roll line says it). A whole turn
// entered as its points writes nothing either: the next `scores` line
// carries the totals.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/game_state.h"
#include "martiandice/rules.h"

namespace martiandice {

namespace internal {
struct LogLine;  // src/log_line.h: a line's fields, read as written
}  // namespace internal

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

// ---------------------------------------------------------------------------
// Reading the lines back: the one turn machine that `review`, `coach`,
// `serve`'s game sessions and the page replay lines with. Every move is
// applied to a GameState, so the rules are the game's. PlayMoves touches only
// its arguments; a GameLogReader is a value type, not synchronised.

// What one line asks for, in the order its moves are applied: a roll (after
// a take: the player rolled on first), its take, a stop; or a whole turn.
struct LogMoves {
  bool roll_on = false;           // `roll` alone: the player rolls on
  std::optional<Dice> roll;       // the dice rolled
  std::optional<TakeInput> take;  // the face set aside (its count checked when given)
  bool stop = false;              // the player stops
  std::optional<int> points;      // a whole turn entered as its points
};

// Applies `moves` to `state`, recording each in `log` (when not null). A roll
// while the game waits for stop or roll on rolls on first. Returns the turns
// the moves ended, in order. Errors (InvalidArgument), with `state` and `log`
// unchanged: GameState's (e.g. "humans are already set aside this turn
// (legal: ray, cow)"), "the roll 13T allows no take: it ends the turn (enter
// it without the take)", "the roll shows 4 humans, not 3".
absl::StatusOr<std::vector<TurnEnd>> PlayMoves(GameState& state, const LogMoves& moves,
                                               GameLog* log = nullptr);

// The game at a turn's start, as a `scores` line (or --scores) gives it.
struct LogContext {
  GameContext context;
  int players = 0;
};

// One turn read by GameLogReader.
struct LogTurn {
  int line = 0;                       // its first roll's line
  std::optional<LogContext> context;  // the game at its start, when known
  std::optional<TurnEnd> end;         // set once the turn is over
  int end_line = 0;                   // the line that ended it
};

// What one line did (GameLogReader::Read).
struct LogStep {
  enum class Kind { kNone, kScores, kRoll, kStop, kRules };
  Kind kind = Kind::kNone;        // kNone: a blank line or a comment
  bool rolled_on = false;         // kRoll: it followed a take (the take's `then` was roll on)
  Dice aside;                     // kRoll: the set-aside before the roll
  Dice roll;                      // kRoll: the dice rolled, tanks included
  std::optional<TakeInput> take;  // kRoll: the take (its count that of the roll); none when
                                  // no take was legal
};

// Reads the lines GameLog writes (and people type: the format of `review
// --help`) into turns, line by line: each turn played on a GameState (of its
// `scores` line's game, or of any game for a turn alone). A value type; not
// synchronised.
class GameLogReader {
 public:
  // Longest line, in bytes.
  static constexpr std::size_t kMaxLineBytes = 4096;

  // Lines of turns played under `rules` (valid). `first`: the first turn's
  // game when no `scores` line gives it; later turns without one go on from
  // the totals the last turn left (none once the game is over).
  explicit GameLogReader(const Rules& rules, std::optional<LogContext> first = std::nullopt)
      : rules_(rules), first_(std::move(first)) {}

  // Called when a roll starts a turn (turns().back()), before the roll is
  // checked; an error it returns is the line's, as returned.
  using TurnStart = std::function<absl::Status(int line)>;

  // Reads line `number` (1, 2, ...: each call's past the last), without its
  // "\n" (keywords in any case, `#` starts a comment; a UTF-8 byte order mark
  // before line 1, as some editors save, is skipped). Errors (InvalidArgument)
  // begin "line N: " and name the problem: the notation, a roll that does not
  // show the dice left, an illegal take, an impossible sequence ("'stop'
  // before any roll (a turn starts with a roll)"), a game at a turn's start
  // (`first`'s) that cannot be, a `number` not past the last line read; or
  // `on_turn_start`'s. After an error, every later Read and Finish fails
  // (FailedPrecondition, quoting that error).
  absl::StatusOr<LogStep> Read(int number, std::string_view line,
                               const TurnStart& on_turn_start = nullptr);
  // After the last line (`last_line`: at least 1 and the last line read).
  // Errors (InvalidArgument): "line N: the input ends in the middle of a turn:
  // ..." (a take waits for `stop` or the next roll), "line N: 'scores' is not
  // followed by a turn", a `last_line` before the last line read.
  absl::Status Finish(int last_line) const;

  // The turns so far, in order (after an error, the last may be the one the
  // error stopped).
  const std::vector<LogTurn>& turns() const { return turns_; }

 private:
  absl::StatusOr<LogStep> ReadLine(int number, std::string_view line,
                                   const TurnStart& on_turn_start);
  absl::Status AfterError(int number) const;
  absl::Status OutOfOrder(int number) const;
  absl::StatusOr<LogStep> Scores(int number, const internal::LogLine& line);
  absl::StatusOr<LogStep> Stop(int number);
  absl::StatusOr<LogStep> RulesOf(int number, const Rules& logged);
  absl::StatusOr<LogStep> Roll(int number, const internal::LogLine& line,
                               const TurnStart& on_turn_start);
  absl::Status CheckTake(int number, const GameState& rolled,
                         const std::optional<TakeInput>& take) const;
  absl::Status StartTurn(int number, const TurnStart& on_turn_start);
  // The game after the last turn, for the next (none once it is over).
  std::optional<LogContext> Carried() const;
  bool awaiting() const { return state_ && state_->phase() == Phase::kStopOrRoll; }

  Rules rules_;
  std::optional<LogContext> first_;
  std::vector<LogTurn> turns_;
  std::optional<GameState> state_;     // the turn being read, once one starts
  int take_line_ = 0;                  // the last take's line
  int last_line_ = 0;                  // the last line read
  std::optional<LogContext> pending_;  // a `scores` line's game
  int pending_line_ = 0;
  absl::Status failed_;  // the first error: nothing is read after it
};

}  // namespace martiandice
