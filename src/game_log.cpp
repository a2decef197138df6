// A game's moves as review's lines, written and read back
// (martiandice/game_log.h): the writer, the moves a line stands for applied
// to a GameState, a line's fields as written (src/log_line.h, also the
// coach's entries), and the reader's turn machine with its line-numbered
// errors.
#include "martiandice/game_log.h"

#include <algorithm>
#include <cctype>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "log_line.h"
#include "martiandice/advisor.h"
#include "martiandice/state_space.h"
#include "martiandice/turn_query.h"

namespace martiandice {

std::string RulesLine(const Rules& rules) {
  return absl::StrCat("rules dice ", rules.dice, " bonus ", rules.bonus, " target ", rules.target,
                      "\n");
}

void GameLog::Record(const GameState& before, const Move& move, const MoveResult& result) {
  if (text_.empty() && before.rules() != Rules{}) {
    // House rules: the log says them, so that a review under others refuses it.
    text_ = RulesLine(before.rules());
    finished_ = text_.size();
  }
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

// ---------------------------------------------------------------------------
// The moves of a line.

namespace {

// Applies `move` to `state`, recording it; collects the turn it ends.
absl::Status Apply(GameState& state, const Move& move, GameLog* log, std::vector<TurnEnd>& ends) {
  const GameState before = state;
  absl::StatusOr<MoveResult> result = state.Apply(move);
  if (!result.ok()) return result.status();
  if (log != nullptr) log->Record(before, move, *result);
  if (result->turn_end) ends.push_back(*result->turn_end);
  return absl::OkStatus();
}

// The moves in order, on `state` (a copy: left half way on error).
absl::Status ApplyAll(GameState& state, const LogMoves& moves, GameLog* log,
                      std::vector<TurnEnd>& ends) {
  if (moves.roll_on) {
    if (absl::Status status = Apply(state, Move::RollOn(), log, ends); !status.ok()) return status;
  }
  if (moves.roll) {
    // After a take, a roll says the player rolled on.
    if (state.phase() == Phase::kStopOrRoll) {
      if (absl::Status status = Apply(state, Move::RollOn(), log, ends); !status.ok())
        return status;
    }
    if (absl::Status status = Apply(state, Move::Roll(*moves.roll), log, ends); !status.ok())
      return status;
  }
  if (moves.take) {
    const TakeInput& take = *moves.take;
    if (moves.roll && !ends.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("the roll ", FormatDice(*moves.roll),
                       " allows no take: it ends the turn (enter it without the take)"));
    }
    // The count is read only for a legal take: GameState::Take names any other
    // (no face, none shown, already set aside).
    if (take.count && state.can_take(take.face)) {
      const int shown = state.roll().count(take.face);
      if (shown != *take.count) {
        return absl::InvalidArgumentError(absl::StrCat(
            "the roll shows ", FaceCountText(take.face, shown), ", not ", *take.count));
      }
    }
    if (absl::Status status = Apply(state, Move::Take(take.face), log, ends); !status.ok())
      return status;
  }
  if (moves.stop) {
    if (absl::Status status = Apply(state, Move::Stop(), log, ends); !status.ok()) return status;
  }
  if (moves.points) {
    if (absl::Status status = Apply(state, Move::EndTurn(*moves.points), log, ends); !status.ok())
      return status;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<TurnEnd>> PlayMoves(GameState& state, const LogMoves& moves,
                                               GameLog* log) {
  GameState next = state;
  const GameLog::Checkpoint mark = log != nullptr ? log->checkpoint() : GameLog::Checkpoint{};
  std::vector<TurnEnd> ends;
  if (absl::Status status = ApplyAll(next, moves, log, ends); !status.ok()) {
    if (log != nullptr) log->Restore(mark);
    return status;
  }
  state = std::move(next);
  return ends;
}

// ---------------------------------------------------------------------------
// A line as written (src/log_line.h).

namespace internal {
namespace {

// Words [from, to) joined by single spaces.
std::string Join(const std::vector<std::string_view>& words, std::size_t from, std::size_t to) {
  std::string text;
  for (std::size_t i = from; i < to; ++i)
    absl::StrAppend(&text, i > from ? " " : "", std::string(words[i]));
  return text;
}

bool IsKeyword(std::string_view word, std::string_view keyword) {
  return absl::AsciiStrToLower(std::string(word)) == keyword;
}

absl::Status LineProblem(std::string_view message) {
  return absl::InvalidArgumentError(std::string(message));
}

// `roll DICE... [take FACE]`: one face after `take`, alone or after its
// count ("H", "4H", "4 humans").
absl::StatusOr<LogLine> RollLine(const std::vector<std::string_view>& words) {
  std::size_t take_at = words.size();
  for (std::size_t i = 1; i < words.size() && take_at == words.size(); ++i) {
    if (IsKeyword(words[i], "take")) take_at = i;
  }
  if (words.size() == 1) return LineProblem("roll: give the dice rolled");
  if (take_at == 1) return LineProblem("roll: give the dice rolled before 'take'");
  const std::size_t after_take = words.size() - std::min(words.size(), take_at + 1);
  const bool counted_word =
      after_take == 2 &&
      std::all_of(words[take_at + 1].begin(), words[take_at + 1].end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  if (take_at < words.size() && after_take != 1 && !counted_word) {
    return LineProblem("expected 'roll DICE take FACE' (one face after 'take')");
  }
  LogLine line;
  line.kind = LogLine::Kind::kRoll;
  absl::StatusOr<Dice> roll = ParseDice(Join(words, 1, take_at));
  if (!roll.ok()) return LineProblem(absl::StrCat("roll: ", roll.status().message()));
  line.roll = *roll;
  if (take_at < words.size()) {
    absl::StatusOr<TakeInput> take = ParseTake(Join(words, take_at + 1, words.size()));
    if (!take.ok()) return take.status();
    line.take = *take;
  }
  return line;
}

// `scores S0,S1[,...] [seat I]`: the totals as written, the seat a number.
absl::StatusOr<LogLine> ScoresLine(const std::vector<std::string_view>& words) {
  const bool seat_given = words.size() == 4 && IsKeyword(words[2], "seat");
  if (words.size() != 2 && !seat_given) {
    return LineProblem("expected 'scores S0,S1[,...] [seat I]', e.g. 'scores 12,20 seat 1'");
  }
  LogLine line;
  line.kind = LogLine::Kind::kScores;
  line.scores = std::string(words[1]);
  if (seat_given) {
    const std::string seat(words[3]);
    int value = 0;
    if (!absl::SimpleAtoi(seat, &value) || seat.find('+') != std::string::npos) {
      return LineProblem(absl::StrCat("seat: expected a number, got '", seat, "'"));
    }
    line.seat = value;
  }
  return line;
}

// `rules dice D bonus B target T`.
absl::StatusOr<LogLine> RulesLine(const std::vector<std::string_view>& words) {
  int values[3] = {0, 0, 0};
  static constexpr std::string_view kNames[3] = {"dice", "bonus", "target"};
  bool read = words.size() == 7;
  for (int i = 0; read && i < 3; ++i) {
    read = IsKeyword(words[1 + 2 * i], kNames[i]) &&
           absl::SimpleAtoi(std::string(words[2 + 2 * i]), &values[i]);
  }
  if (!read) return LineProblem("expected 'rules dice D bonus B target T'");
  LogLine line;
  line.kind = LogLine::Kind::kRules;
  line.rules = Rules{values[0], values[1], values[2]};
  return line;
}

}  // namespace

std::vector<std::string_view> LogWords(std::string_view line) {
  if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) {
    line = line.substr(0, hash);
  }
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

absl::StatusOr<LogLine> ParseLogLine(const std::vector<std::string_view>& words) {
  if (words.empty()) return LogLine{};
  if (IsKeyword(words[0], "roll")) return RollLine(words);
  if (IsKeyword(words[0], "scores")) return ScoresLine(words);
  if (IsKeyword(words[0], "rules")) return RulesLine(words);
  if (IsKeyword(words[0], "stop")) {
    if (words.size() != 1) return LineProblem("'stop' takes nothing after it");
    LogLine line;
    line.kind = LogLine::Kind::kStop;
    return line;
  }
  return LineProblem(absl::StrCat("expected 'roll', 'stop', 'scores' or 'rules', got '",
                                  std::string(words[0]), "'"));
}

}  // namespace internal

// ---------------------------------------------------------------------------
// The reader.

namespace {

std::string Str(absl::string_view text) { return std::string(text.data(), text.size()); }

absl::Status LineError(int line, std::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", std::string(message)));
}

// A `scores` line's game, checked as a win query's (ParseQuery); errors
// name the input ("scores: ...", "seat: ...").
absl::StatusOr<LogContext> ReadContext(const Rules& rules, const std::string& scores,
                                       std::optional<int> seat) {
  QueryInput input;
  input.objective = Goal::Win().name();
  input.rules = rules;
  input.scores = scores;
  input.seat = seat;
  absl::StatusOr<Query> query = ParseQuery(input);
  if (!query.ok()) return query.status();
  return LogContext{*std::move(query->context), query->players};
}

// "1 ray, 4 humans": the takes `state` (kTake) allows.
std::string LegalTakes(const GameState& state) {
  std::vector<std::string> takes;
  for (Face face : state.legal_takes())
    takes.push_back(FaceCountText(face, state.roll().count(face)));
  return absl::StrJoin(takes, ", ");
}

std::string_view EndWhy(TurnEndReason reason) {
  return reason == TurnEndReason::kStopped       ? "the player stopped"
         : reason == TurnEndReason::kNoLegalTake ? "no take was legal"
                                                 : "no dice were left after the take";
}

}  // namespace

absl::StatusOr<LogStep> GameLogReader::Read(int number, std::string_view line,
                                            const TurnStart& on_turn_start) {
  if (!failed_.ok()) return AfterError(number);
  absl::StatusOr<LogStep> step =
      number > last_line_ ? ReadLine(number, line, on_turn_start) : OutOfOrder(number);
  last_line_ = std::max(last_line_, number);
  if (!step.ok()) failed_ = step.status();
  return step;
}

absl::Status GameLogReader::OutOfOrder(int number) const {
  if (last_line_ == 0) return LineError(number, "lines are numbered from 1");
  return LineError(number, absl::StrCat("lines are numbered in order (the last read was line ",
                                        last_line_, ")"));
}

absl::Status GameLogReader::AfterError(int number) const {
  return absl::FailedPreconditionError(absl::StrCat(
      "line ", number, ": not read: the log stopped at an error (", failed_.message(), ")"));
}

absl::StatusOr<LogStep> GameLogReader::ReadLine(int number, std::string_view line,
                                                const TurnStart& on_turn_start) {
  if (line.size() > kMaxLineBytes) {
    return LineError(number, absl::StrCat("longer than ", kMaxLineBytes, " bytes"));
  }
  if (constexpr std::string_view kByteOrderMark = "\xef\xbb\xbf";
      number == 1 && line.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
    line.remove_prefix(kByteOrderMark.size());
  }
  const std::vector<std::string_view> words = internal::LogWords(line);
  if (words.empty()) return LogStep{};
  // A game line inside a turn is refused before its fields are read.
  if (const std::string keyword = absl::AsciiStrToLower(std::string(words[0]));
      awaiting() && (keyword == "scores" || keyword == "rules")) {
    return LineError(number,
                     absl::StrCat("'", keyword, "' inside a turn: end the turn with 'stop' first"));
  }
  absl::StatusOr<internal::LogLine> parsed = internal::ParseLogLine(words);
  if (!parsed.ok()) return LineError(number, Str(parsed.status().message()));
  switch (parsed->kind) {
    case internal::LogLine::Kind::kRoll:
      return Roll(number, *parsed, on_turn_start);
    case internal::LogLine::Kind::kStop:
      return Stop(number);
    case internal::LogLine::Kind::kScores:
      return Scores(number, *parsed);
    case internal::LogLine::Kind::kRules:
      return RulesOf(number, parsed->rules);
    case internal::LogLine::Kind::kEmpty:
      break;
  }
  return LogStep{};
}

absl::Status GameLogReader::Finish(int last_line) const {
  if (!failed_.ok()) return AfterError(last_line);
  if (last_line < std::max(last_line_, 1)) return OutOfOrder(last_line);
  if (awaiting()) {
    return LineError(last_line,
                     absl::StrCat("the input ends in the middle of a turn: after the "
                                  "take on line ",
                                  take_line_, ", 'stop' or the next 'roll' is expected"));
  }
  if (pending_) return LineError(pending_line_, "'scores' is not followed by a turn");
  return absl::OkStatus();
}

absl::StatusOr<LogStep> GameLogReader::Scores(int number, const internal::LogLine& line) {
  absl::StatusOr<LogContext> context = ReadContext(rules_, line.scores, line.seat);
  if (!context.ok()) return LineError(number, Str(context.status().message()));
  pending_ = *std::move(context);
  pending_line_ = number;
  LogStep step;
  step.kind = LogStep::Kind::kScores;
  return step;
}

absl::StatusOr<LogStep> GameLogReader::RulesOf(int number, const Rules& logged) {
  if (logged != rules_) {
    return LineError(number, absl::StrCat("the game was played under ", RulesText(logged),
                                          "; this log is read under ", RulesText(rules_),
                                          ": give the game's rules"));
  }
  LogStep step;
  step.kind = LogStep::Kind::kRules;
  return step;
}

absl::StatusOr<LogStep> GameLogReader::Stop(int number) {
  if (!awaiting()) {
    if (turns_.empty())
      return LineError(number, "'stop' before any roll (a turn starts with a roll)");
    const LogTurn& last = turns_.back();
    return LineError(number, absl::StrCat("'stop' after the turn ended on line ", last.end_line,
                                          " (", std::string(EndWhy(last.end->reason)), ")"));
  }
  LogMoves stop;
  stop.stop = true;
  turns_.back().end = PlayMoves(*state_, stop)->back();  // waiting for stop or roll on: legal
  turns_.back().end_line = number;
  LogStep step;
  step.kind = LogStep::Kind::kStop;
  return step;
}

absl::StatusOr<LogStep> GameLogReader::Roll(int number, const internal::LogLine& line,
                                            const TurnStart& on_turn_start) {
  const Dice& roll = line.roll;
  std::optional<TakeInput> take = line.take;
  LogStep step;
  step.kind = LogStep::Kind::kRoll;
  step.rolled_on = awaiting();
  step.roll = roll;
  if (!step.rolled_on) {
    if (absl::Status status = StartTurn(number, on_turn_start); !status.ok()) return status;
  }
  // Checked first on a copy, rolled, for this format's messages; then played.
  GameState rolled = *state_;
  if (step.rolled_on) rolled.RollOn().IgnoreError();  // waiting for stop or roll on: legal
  step.aside = rolled.aside();
  if (absl::Status status = ValidateRoll(rules_, step.aside, roll); !status.ok()) {
    return LineError(number, absl::StrCat("roll: ", Str(status.message())));  // names the set-aside
  }
  const std::optional<TurnEnd> over = rolled.Roll(roll)->turn_end;  // a valid roll
  if (over && take) {
    return LineError(number, absl::StrCat("no take is legal from this roll (the turn is over "
                                          "and scores ",
                                          over->score, "); drop 'take'"));
  }
  if (!over) {
    if (absl::Status status = CheckTake(number, rolled, take); !status.ok()) return status;
    take->count = rolled.roll().count(take->face);
    step.take = take;
    take_line_ = number;
  }
  LogMoves moves;
  moves.roll = roll;
  moves.take = take;
  const std::vector<TurnEnd> ends = *PlayMoves(*state_, moves);  // checked above
  if (!ends.empty()) {
    turns_.back().end = ends.back();
    turns_.back().end_line = number;
  }
  return step;
}

absl::Status GameLogReader::CheckTake(int number, const GameState& rolled,
                                      const std::optional<TakeInput>& take) const {
  if (!take) {
    return LineError(
        number, absl::StrCat("say what was taken: 'take FACE' (legal: ", LegalTakes(rolled), ")"));
  }
  if (!rolled.can_take(take->face)) {
    return LineError(number, absl::StrCat("take ", std::string(FaceName(take->face)),
                                          " is not legal here (legal: ", LegalTakes(rolled), ")"));
  }
  const int shown = rolled.roll().count(take->face);
  if (take->count && *take->count != shown) {
    return LineError(
        number, absl::StrCat("take: the roll shows ", shown, " ", std::string(FaceName(take->face)),
                             "s, not ", *take->count, " (every die of the face is taken)"));
  }
  return absl::OkStatus();
}

absl::Status GameLogReader::StartTurn(int number, const TurnStart& on_turn_start) {
  // A `scores` line, else `first` for the first turn, else the totals the
  // last turn left.
  LogTurn turn;
  turn.line = number;
  turn.context = pending_ ? pending_ : turns_.empty() ? first_ : Carried();
  pending_.reset();
  absl::StatusOr<GameState> start =
      turn.context ? GameState::AtTurnStart(rules_, turn.context->players, turn.context->context)
                   : GameState::New(rules_, 2);  // a turn alone: any game will do
  if (!start.ok()) return LineError(number, Str(start.status().message()));
  state_ = *std::move(start);
  turns_.push_back(std::move(turn));
  return on_turn_start ? on_turn_start(number) : absl::OkStatus();
}

std::optional<LogContext> GameLogReader::Carried() const {
  if (turns_.empty() || !turns_.back().context) return std::nullopt;
  const LogContext& last = *turns_.back().context;
  LogContext next{GameContext{state_->scores(), (last.context.seat + 1) % last.players},
                  last.players};
  if (!ValidateContext(rules_, next.players, next.context).ok()) return std::nullopt;
  return next;
}

}  // namespace martiandice
