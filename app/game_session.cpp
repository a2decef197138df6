// A game followed entry by entry (app/game_session.h).
#include "game_session.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "answers.h"
#include "json.h"
#include "log_line.h"
#include "martiandice/context.h"

namespace martiandice::app {

const std::string_view kSessionEntries =
    "roll DICE, take FACE (or the bare FACE), roll DICE take FACE, stop, roll (roll on), "
    "score N (a whole turn), scores S0,S1 seat I, undo, state, help";

namespace {

std::string Str(absl::string_view text) { return std::string(text.data(), text.size()); }

// What a line says.
struct Entry {
  enum class Kind { kNone, kGame, kScores, kUndo, kState, kHelp, kQuit };
  Kind kind = Kind::kNone;
  LogMoves moves;           // kGame: `roll` (on), `roll DICE`, `take FACE`, `stop`, `score N`
  GameContext context;      // kScores
  bool seat_given = false;  // kScores: `seat I` given
};

absl::Status Bad(std::string_view problem) {
  return absl::InvalidArgumentError(std::string(problem));
}

// The log's lines (roll DICE [take FACE], stop, scores S0,S1 [seat I]), read
// by the log's reader (src/log_line.h), as entries.
absl::StatusOr<Entry> LogLineEntry(const std::vector<std::string_view>& typed) {
  absl::StatusOr<internal::LogLine> line = internal::ParseLogLine(typed);
  if (!line.ok()) return line.status();
  Entry entry;
  entry.kind = Entry::Kind::kGame;
  switch (line->kind) {
    case internal::LogLine::Kind::kStop:
      entry.moves.stop = true;
      break;
    case internal::LogLine::Kind::kRoll:
      entry.moves.roll = line->roll;
      entry.moves.take = line->take;
      break;
    case internal::LogLine::Kind::kScores: {
      entry.kind = Entry::Kind::kScores;
      absl::StatusOr<std::vector<int>> scores = ParseScores(line->scores);
      if (!scores.ok()) return Bad(absl::StrCat("scores: ", scores.status().message()));
      entry.context.scores = *std::move(scores);
      entry.context.seat = line->seat.value_or(0);
      entry.seat_given = line->seat.has_value();
      break;
    }
    case internal::LogLine::Kind::kRules:  // not an entry: the session's rules are its own
    case internal::LogLine::Kind::kEmpty:
      entry.kind = Entry::Kind::kNone;
      break;
  }
  return entry;
}

// `quit`: whether quit is an entry (GameSession's).
absl::StatusOr<Entry> ReadEntry(std::string_view line, bool quit) {
  Entry entry;
  const std::vector<std::string_view> typed = internal::LogWords(line);
  std::vector<std::string> words;  // in lower case; messages quote `typed`
  for (std::string_view word : typed) words.push_back(absl::AsciiStrToLower(std::string(word)));
  if (words.empty()) return entry;
  const std::string& first = words[0];
  const std::size_t n = words.size();
  if (n == 1 &&
      (first == "undo" || first == "state" || first == "help" || first == "?" || first == "quit")) {
    entry.kind = first == "undo"    ? Entry::Kind::kUndo
                 : first == "state" ? Entry::Kind::kState
                 : first == "quit"  ? Entry::Kind::kQuit
                                    : Entry::Kind::kHelp;
    return entry;
  }
  entry.kind = Entry::Kind::kGame;
  if (first == "score") {
    int points = 0;
    if (n != 2 || !absl::SimpleAtoi(words[1], &points) || words[1][0] == '+') {
      return Bad("score: expected the whole turn's points, e.g. 'score 7'");
    }
    entry.moves.points = points;
    return entry;
  }
  if (first == "roll" && (n == 1 || (n == 2 && words[1] == "on"))) {
    entry.moves.roll_on = true;
    return entry;
  }
  if (first == "roll" || first == "stop" || first == "scores") return LogLineEntry(typed);
  if (first == "take") {
    const std::string face = absl::StrJoin(words.begin() + 1, words.end(), " ");
    if (face.empty()) return Bad(kTakeNamesNoFace);
    absl::StatusOr<TakeInput> take = ParseTake(face);
    if (!take.ok()) return take.status();
    entry.moves.take = *take;
    return entry;
  }
  if (absl::StatusOr<TakeInput> bare = ParseTake(absl::StrJoin(words, " ")); bare.ok()) {
    entry.moves.take = *bare;  // the bare face ("humans", "H"), as play takes it
    return entry;
  }
  const std::string said(line.substr(0, line.find('#')));  // without its comment
  return Bad(absl::StrCat("unknown entry '", Str(absl::StripAsciiWhitespace(said)),
                          "'; the entries: ", std::string(kSessionEntries), quit ? ", quit" : ""));
}

}  // namespace

void GameSession::Keep(std::string_view line, const GameLog::Checkpoint& log) {
  if (max_undo_ == 0) return;
  if (undo_.size() >= max_undo_) undo_.pop_front();
  undo_.push_back(Undo{std::string(line), state_, log});
}

absl::StatusOr<SessionStep> GameSession::Enter(std::string_view line) {
  absl::StatusOr<Entry> read = ReadEntry(line, quit_);
  if (!read.ok()) return read.status();
  const Entry& entry = *read;
  SessionStep step;
  switch (entry.kind) {
    case Entry::Kind::kNone:
      return step;
    case Entry::Kind::kState:
      step.kind = SessionStep::Kind::kState;
      return step;
    case Entry::Kind::kHelp:
      step.kind = SessionStep::Kind::kHelp;
      return step;
    case Entry::Kind::kQuit:
      if (!quit_) return Bad("quit is not an entry here: close the game");
      step.kind = SessionStep::Kind::kQuit;
      return step;
    case Entry::Kind::kUndo: {
      if (undo_.empty()) return Bad("nothing to undo");
      Undo last = std::move(undo_.back());
      undo_.pop_back();
      state_ = std::move(last.state);
      log_.Restore(last.log);
      step.kind = SessionStep::Kind::kUndone;
      step.entry = std::move(last.entry);
      return step;
    }
    case Entry::Kind::kScores: {
      // At a turn's start: the totals and the seat to move (0 when not given,
      // as in review's lines). The same totals and seat change nothing, so a
      // log replays.
      if (state_.over()) return Bad("the game is over (undo takes back the last entry)");
      if (state_.phase() != Phase::kRoll || !state_.aside().empty()) {
        return Bad(absl::StrCat("scores: only at a turn's start; seat ", state_.seat(),
                                "'s turn is in progress"));
      }
      const int players = state_.players();
      GameContext context = entry.context;
      if (!entry.seat_given) context.seat = 0;
      if (static_cast<int>(context.scores.size()) != players) {
        return Bad(
            absl::StrCat("scores: ", context.scores.size(), " totals for ", players, " players"));
      }
      absl::StatusOr<GameState> next = GameState::AtTurnStart(state_.rules(), players, context);
      if (!next.ok()) return Bad(absl::StrCat("scores: ", next.status().message()));
      Keep(line, log_.checkpoint());
      state_ = *std::move(next);
      step.kind = SessionStep::Kind::kApplied;
      step.entry = std::string(line);
      return step;
    }
    case Entry::Kind::kGame:
      break;
  }
  // A bare roll (on) where the dice rolled are awaited: they are what to enter.
  if (entry.moves.roll_on && state_.phase() == Phase::kRoll && !state_.over()) {
    return Bad(absl::StrCat("enter the dice rolled: ", EntriesNow()));
  }
  // The moves, applied to a copy (the log's records undone on failure).
  GameState next = state_;
  const GameLog::Checkpoint mark = log_.checkpoint();
  absl::StatusOr<std::vector<TurnEnd>> ends = PlayMoves(next, entry.moves, &log_);
  if (!ends.ok()) {
    if (state_.over()) {
      return Bad(absl::StrCat(ends.status().message(), " (undo takes back the last entry)"));
    }
    // A roll entered again where a take is awaited: the first may be mistyped.
    if (entry.moves.roll && state_.phase() == Phase::kTake && !undo_.empty()) {
      return Bad(absl::StrCat(ends.status().message(), "; undo takes back the roll entered"));
    }
    return ends.status();
  }
  Keep(line, mark);
  state_ = std::move(next);
  step.kind = SessionStep::Kind::kApplied;
  step.entry = std::string(line);
  step.roll = entry.moves.roll;
  step.turn_ends = *std::move(ends);
  return step;
}

std::string GameSession::EntriesNow() const {
  switch (state_.phase()) {
    case Phase::kRoll:
      return state_.aside().empty()
                 ? absl::StrCat("roll DICE (the ", DiceCount(state_.dice_left()),
                                " rolled), or score N (the whole turn), or scores S0,S1 seat I")
                 : absl::StrCat("roll DICE (the ", DiceCount(state_.dice_left()), " rolled)");
    case Phase::kTake:
      return "take FACE (ray, human, cow, chicken, or R, H, C, K)";
    case Phase::kStopOrRoll:
      return absl::StrCat("stop, or roll DICE (the ", DiceCount(state_.dice_left()), " rolled on)");
    case Phase::kOver:
      return "none: the game is over (undo takes back the last entry)";
  }
  return "";
}

std::string GameSession::StateJson() const {
  JsonObject s;
  s.Str("phase", PhaseName(state_.phase()))
      .Int("seat", state_.seat())
      .Raw("scores", JsonIntArray(state_.scores()))
      .Bool("final_round", state_.final_round())
      .Str("aside", FormatDice(state_.aside()))
      .Int("dice_left", state_.dice_left())
      .Int("turn_score", state_.turn_score());
  if (state_.phase() == Phase::kTake) {
    s.Str("roll", FormatDice(state_.roll()));
  } else {
    s.Null("roll");
  }
  s.Raw("legal", FaceNamesJson(state_.legal_takes()))
      .Raw("winners", JsonIntArray(state_.winners()))
      .Int("undo", static_cast<int>(undo_.size()));
  return std::move(s).Build();
}

std::string GameSession::TurnEndsJson(const std::vector<TurnEnd>& ends) {
  std::vector<std::string> items;
  for (const TurnEnd& end : ends) {
    items.push_back(JsonObject()
                        .Int("seat", end.seat)
                        .Int("score", end.score)
                        .Str("reason", TurnEndReasonName(end.reason))
                        .Str("aside", FormatDice(end.aside))
                        .Bool("tanks_won", LostToTanks(end.aside))
                        .Bool("game_over", end.game_over)
                        .Build());
  }
  return JsonArray(items);
}

}  // namespace martiandice::app
