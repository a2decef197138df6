// Game logs read back (martiandice/game_log.h: GameLogReader, PlayMoves):
// seeded games of 2 to 6 players written by GameLog and read back to the same
// turns, rolls, takes and ends; every error the reader gives, word for word;
// the turn machine's corners (rolling on, no dice left, a turn over, games
// carried from turn to turn, the turn-start hook); PlayMoves' moves and its
// errors, which change nothing.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "martiandice/dice.h"
#include "martiandice/game_log.h"
#include "martiandice/game_state.h"

using namespace martiandice;

namespace {

Dice D(const std::string& text) { return *ParseDice(text); }

// Reads `text` line by line as review does; the first error, else Finish's.
absl::Status ReadAll(GameLogReader& reader, std::string_view text,
                     std::vector<LogStep>* steps = nullptr,
                     const GameLogReader::TurnStart& on_turn_start = nullptr) {
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    absl::StatusOr<LogStep> step =
        reader.Read(++number, text.substr(start, end - start), on_turn_start);
    if (!step.ok()) return step.status();
    if (steps != nullptr) steps->push_back(*step);
    start = end + 1;
  }
  return reader.Finish(number > 0 ? number : 1);
}

std::string ReadError(std::string_view text, std::optional<LogContext> first = std::nullopt) {
  GameLogReader reader(Rules{}, std::move(first));
  const absl::Status status = ReadAll(reader, text);
  CHECK(status.code() == absl::StatusCode::kInvalidArgument);
  return std::string(status.message());
}

// A move the game played, as the reader should see it again.
struct Played {
  Dice roll;
  std::optional<Face> take;  // none: no take was legal
};

// Plays a game with random legal moves from `seed` (stopping half way after
// `max_turns` turns), recording it; the rolls and takes, and the turns' ends.
void PlayRandomGame(std::uint64_t seed, const Rules& rules, int players, int max_turns,
                    GameLog& log, std::vector<Played>& played, std::vector<TurnEnd>& ends,
                    std::vector<GameContext>& starts, GameState& state) {
  DiceRng rng = SeededRng(seed);
  auto apply = [&](const Move& move) {
    const GameState before = state;
    const absl::StatusOr<MoveResult> result = state.Apply(move);
    REQUIRE_MESSAGE(result.ok(), result.status().message());
    log.Record(before, move, *result);
    if (result->turn_end) ends.push_back(*result->turn_end);
    return result->turn_end.has_value();
  };
  while (!state.over() && static_cast<int>(ends.size()) < max_turns) {
    if (state.aside().empty()) starts.push_back(state.context());
    const Dice roll = RollDice(state.dice_left(), rng);
    if (apply(Move::Roll(roll))) {
      played.push_back({roll, std::nullopt});
      continue;
    }
    const std::vector<Face> legal = state.legal_takes();
    const Face face = legal[UniformBelow(rng, legal.size())];
    played.push_back({roll, face});
    if (apply(Move::Take(face))) continue;
    apply(UniformBelow(rng, 3) == 0 ? Move::Stop() : Move::RollOn());
  }
}

}  // namespace

TEST_CASE("game log reader: seeded games read back to the same turns and moves") {
  const std::vector<Rules> rules = {Rules{}, Rules{5, 3, 25}, Rules{7, 0, 13}};
  int games = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Rules& r = rules[seed % rules.size()];
    const int players = 2 + static_cast<int>(seed % 5);
    const int max_turns = seed % 4 == 0 ? static_cast<int>(seed % 7) : 1000;  // some stop early
    auto state = GameState::New(r, players);
    REQUIRE(state.ok());
    GameLog log;
    std::vector<Played> played;
    std::vector<TurnEnd> ends;
    std::vector<GameContext> starts;
    PlayRandomGame(seed, r, players, max_turns, log, played, ends, starts, *state);
    CAPTURE(seed);
    CAPTURE(log.text());
    // Whole games, and games stopped half way (their finished turns).
    const std::string text = state->over() ? log.text() : log.finished_text();
    GameLogReader reader(r);
    std::vector<LogStep> steps;
    REQUIRE(ReadAll(reader, text, &steps).ok());
    std::vector<Played> read;
    for (const LogStep& step : steps) {
      if (step.kind != LogStep::Kind::kRoll) continue;
      read.push_back({step.roll, step.take ? std::optional<Face>(step.take->face) : std::nullopt});
      if (step.take) CHECK(*step.take->count == step.roll.count(step.take->face));
    }
    const std::vector<LogTurn>& turns = reader.turns();
    REQUIRE(turns.size() == ends.size());
    REQUIRE(read.size() <= played.size());
    for (std::size_t i = 0; i < read.size(); ++i) {
      CHECK(read[i].roll == played[i].roll);
      CHECK(read[i].take == played[i].take);
    }
    for (std::size_t t = 0; t < turns.size(); ++t) {
      REQUIRE(turns[t].context.has_value());
      CHECK(turns[t].context->players == players);
      CHECK(turns[t].context->context.scores == starts[t].scores);
      CHECK(turns[t].context->context.seat == starts[t].seat);
      REQUIRE(turns[t].end.has_value());
      CHECK(turns[t].end->seat == ends[t].seat);
      CHECK(turns[t].end->score == ends[t].score);
      CHECK(turns[t].end->reason == ends[t].reason);
      CHECK(turns[t].end->aside == ends[t].aside);
      CHECK(turns[t].end->game_over == ends[t].game_over);
    }
    ++games;
  }
  CHECK(games == 60);
}

TEST_CASE("game log reader: the lines replayed with PlayMoves write the same log") {
  for (std::uint64_t seed = 100; seed < 120; ++seed) {
    auto state = GameState::New(Rules{}, 3);
    REQUIRE(state.ok());
    GameLog log;
    std::vector<Played> played;
    std::vector<TurnEnd> ends;
    std::vector<GameContext> starts;
    PlayRandomGame(seed, Rules{}, 3, 1000, log, played, ends, starts, *state);
    GameLogReader reader(Rules{});
    std::vector<LogStep> steps;
    REQUIRE(ReadAll(reader, log.text(), &steps).ok());
    auto replay = GameState::New(Rules{}, 3);
    GameLog again;
    for (const LogStep& step : steps) {
      LogMoves moves;
      if (step.kind == LogStep::Kind::kStop) moves.stop = true;
      if (step.kind == LogStep::Kind::kRoll) {
        moves.roll = step.roll;
        moves.take = step.take;
      }
      if (step.kind != LogStep::Kind::kScores) REQUIRE(PlayMoves(*replay, moves, &again).ok());
    }
    CHECK(again.text() == log.text());
    CHECK(replay->scores() == state->scores());
    CHECK(replay->over());
  }
}

TEST_CASE("game log reader: every error, word for word") {
  const std::string take_h = "roll 2T 3R 4H 3C 1K take H\n";
  struct Case {
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"jump 3", "line 1: expected 'roll', 'stop', 'scores' or 'rules', got 'jump'"},
      {"roll " + std::string(5000, 'T'), "line 1: longer than 4096 bytes"},
      {"roll take H", "line 1: roll: give the dice rolled before 'take'"},
      {"roll", "line 1: roll: give the dice rolled"},
      {"roll 2T 3R 4H 3C 1K take H stop",
       "line 1: expected 'roll DICE take FACE' (one face after 'take')"},
      {"roll 2T 3R 4H 3C 1K take",
       "line 1: expected 'roll DICE take FACE' (one face after 'take')"},
      {"roll 2X",
       "line 1: roll: bad dice \"2X\" at position 2: unknown face letter 'X' (use T tank, R ray, "
       "H human, C cow, K chicken)"},
      {"roll 2T 3R 4H 3C 1K take T",
       "line 1: tanks are set aside automatically; take R, H, C or K"},
      {"roll 2T 3R",
       "line 1: roll: roll 2T 3R shows 5 dice but 13 are left to roll: nothing is set aside"},
      {take_h + "roll 1T 2R 3C 2K take R",
       "line 2: roll: roll 1T 2R 3C 2K shows 8 dice but 7 are left to roll: 2T 4H are set aside"},
      {"roll 13T take R",
       "line 1: no take is legal from this roll (the turn is over and scores 0); drop 'take'"},
      {"roll 2T 3R 4H 3C 1K",
       "line 1: say what was taken: 'take FACE' (legal: 3 rays, 4 humans, 3 cows, 1 chicken)"},
      {take_h + "roll 1T 2R 3C 1K take H",
       "line 2: take human is not legal here (legal: 2 rays, 3 cows, 1 chicken)"},
      {"roll 2T 3R 4H 3C 1K take 3H",
       "line 1: take: the roll shows 4 humans, not 3 (every die of the face is taken)"},
      {"roll 2T 3R 4H 3C 1K take 1 rays",
       "line 1: take: the roll shows 3 rays, not 1 (every die of the face is taken)"},
      {"stop", "line 1: 'stop' before any roll (a turn starts with a roll)"},
      {take_h + "stop now", "line 2: 'stop' takes nothing after it"},
      {take_h + "stop\nstop", "line 3: 'stop' after the turn ended on line 2 (the player stopped)"},
      {"roll 13T\nstop", "line 2: 'stop' after the turn ended on line 1 (no take was legal)"},
      {"roll 12T 1R take R\nstop",
       "line 2: 'stop' after the turn ended on line 1 (no dice were left after the take)"},
      {take_h + "scores 1,2", "line 2: 'scores' inside a turn: end the turn with 'stop' first"},
      {"scores 1,2 seat",
       "line 1: expected 'scores S0,S1[,...] [seat I]', e.g. 'scores 12,20 seat 1'"},
      {"scores 1,2 at 1",
       "line 1: expected 'scores S0,S1[,...] [seat I]', e.g. 'scores 12,20 seat 1'"},
      {"scores 1,2 seat x", "line 1: seat: expected a number, got 'x'"},
      {"scores 1,2 seat +1", "line 1: seat: expected a number, got '+1'"},
      {"scores 7", "line 1: scores: a game has 2 to 6 players, not 1"},
      {"scores 1,2", "line 1: 'scores' is not followed by a turn"},
      {take_h + "# a comment\n\n",
       "line 3: the input ends in the middle of a turn: after the take on line 1, 'stop' or the "
       "next 'roll' is expected"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    CHECK(ReadError(c.text) == c.message);
  }
  // The scores' own errors come from ParseQuery, named "scores: " or "seat: ".
  CHECK(ReadError("scores 1,x").rfind("line 1: scores: ", 0) == 0);
  CHECK(ReadError("scores 1,40 seat 0").rfind("line 1: scores: ", 0) == 0);
  CHECK(ReadError("scores 1,2 seat 5") ==
        "line 1: seat: seat 5 is out of range for 2 players (0..1)");
}

// The first error stops the reader: a later line or Finish reads nothing
// (a turn the error left half started is never ended by them).
TEST_CASE("game log reader: nothing is read after an error") {
  GameLogReader reader(Rules{});
  REQUIRE_FALSE(reader.Read(1, "roll 5T").ok());
  for (const std::string_view line : {"stop", "roll 2T 3R 4H 3C 1K take H", "scores 1,2"}) {
    CAPTURE(line);
    const absl::StatusOr<LogStep> step = reader.Read(2, line);
    REQUIRE_FALSE(step.ok());
    CHECK(step.status().code() == absl::StatusCode::kFailedPrecondition);
    CHECK(step.status().message().rfind("line 2: not read: the log stopped at an error (line 1: ",
                                        0) == 0);
  }
  CHECK(reader.Finish(3).code() == absl::StatusCode::kFailedPrecondition);
}

// The caller's numbers and game are checked too: lines in order from 1, a
// last line no earlier than the last read, a first game that can be.
TEST_CASE("game log reader: line numbers out of order and a first game that cannot be") {
  {
    GameLogReader reader(Rules{});
    const absl::StatusOr<LogStep> zero = reader.Read(0, "roll 2T 3R 4H 3C 1K take H");
    REQUIRE_FALSE(zero.ok());
    CHECK(zero.status().message() == "line 0: lines are numbered from 1");
  }
  {
    GameLogReader reader(Rules{});
    REQUIRE(reader.Read(2, "roll 2T 3R 4H 3C 1K take H").ok());
    const absl::StatusOr<LogStep> again = reader.Read(2, "stop");
    REQUIRE_FALSE(again.ok());
    CHECK(again.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(again.status().message() ==
          "line 2: lines are numbered in order (the last read was line 2)");
  }
  {
    GameLogReader reader(Rules{});
    REQUIRE(reader.Read(1, "roll 2T 3R 4H 3C 1K take H").ok());
    REQUIRE(reader.Read(4, "stop").ok());
    CHECK(reader.Finish(3).message() ==
          "line 3: lines are numbered in order (the last read was line 4)");
    CHECK(reader.Finish(4).ok());
    GameLogReader empty(Rules{});
    CHECK(empty.Finish(0).message() == "line 0: lines are numbered from 1");
    CHECK(empty.Finish(1).ok());
  }
  // A first game already won: refused at the turn it would start, as the line's error.
  const std::string error = ReadError("# nothing yet\nroll 2T 3R 4H 3C 1K take H\n",
                                      LogContext{GameContext{{30, 0}, 0}, 2});
  CHECK(error.rfind("line 2: ", 0) == 0);
  CHECK(error.size() > std::string_view("line 2: ").size());
}

// A `rules` line: the reader's rules, else refused naming both.
TEST_CASE("game log reader: a rules line must give the reader's rules") {
  GameLogReader reader(Rules{13, 5, 20});
  std::vector<LogStep> steps;
  REQUIRE(
      ReadAll(reader, "RULES Dice 13 bonus 5 target 20\nroll 3R 4H 3C 3K take H\nstop\n", &steps)
          .ok());
  CHECK(steps[0].kind == LogStep::Kind::kRules);
  REQUIRE(reader.turns().size() == 1);
  CHECK(reader.turns()[0].end->score == 4);
  const auto error = [](std::string_view text) {
    GameLogReader official(Rules{});
    const absl::Status status = ReadAll(official, text);
    CHECK(status.code() == absl::StatusCode::kInvalidArgument);
    return std::string(status.message());
  };
  CHECK(error("rules dice 13 bonus 5 target 20\n") ==
        "line 1: the game was played under 13 dice, bonus 5, target 20; this log is read under 13 "
        "dice, bonus 3, target 25: give the game's rules");
  CHECK(error("rules dice 13 bonus 3\n") == "line 1: expected 'rules dice D bonus B target T'");
  CHECK(error("rules dice 13 bonus x target 25\n") ==
        "line 1: expected 'rules dice D bonus B target T'");
  CHECK(error("rules target 25 bonus 3 dice 13\n") ==
        "line 1: expected 'rules dice D bonus B target T'");
  CHECK(error("roll 2T 3R 4H 3C 1K take H\nrules dice 13 bonus 3 target 25\n") ==
        "line 2: 'rules' inside a turn: end the turn with 'stop' first");
  GameLogReader official(Rules{});
  CHECK(ReadAll(official, "rules dice 13 bonus 3 target 25\nroll 13T\n").ok());
}

TEST_CASE("game log reader: lines as people type them") {
  GameLogReader reader(Rules{});
  std::vector<LogStep> steps;
  // Keywords in any case, tabs, "\r" line ends, comments, counted takes.
  REQUIRE(ReadAll(reader,
                  "# the rulebook's sample turn\r\n"
                  "ROLL 2T 3R 4H 3C 1K\tTAKE 4 Humans\r\n"
                  "\n"
                  "roll 1T 2R 3C 1K take ray   # rolled on\n"
                  "Roll 2H 1C 1K take chickens\n"
                  "roll 1R 1H 1C take 1R\n"
                  "Stop\r\n",
                  &steps)
              .ok());
  REQUIRE(steps.size() == 7);
  CHECK(steps[0].kind == LogStep::Kind::kNone);
  CHECK(steps[2].kind == LogStep::Kind::kNone);
  CHECK(steps[1].kind == LogStep::Kind::kRoll);
  CHECK_FALSE(steps[1].rolled_on);
  CHECK(steps[1].aside.empty());
  CHECK(steps[1].take->face == Face::kHuman);
  CHECK(*steps[1].take->count == 4);
  CHECK(steps[3].rolled_on);
  CHECK(steps[3].aside == D("2T 4H"));
  CHECK(steps[4].aside == D("3T 2R 4H"));
  CHECK(steps[4].take->face == Face::kChicken);
  CHECK(*steps[4].take->count == 1);
  CHECK(steps[5].aside == D("3T 2R 4H 1K"));
  CHECK(steps[6].kind == LogStep::Kind::kStop);
  REQUIRE(reader.turns().size() == 1);
  const LogTurn& turn = reader.turns()[0];
  CHECK(turn.line == 2);
  CHECK_FALSE(turn.context.has_value());
  CHECK(turn.end->reason == TurnEndReason::kStopped);
  CHECK(turn.end->score == 5);  // 4 humans, 1 chicken; 3 rays against 3 tanks
  CHECK(turn.end_line == 7);
}

// A byte order mark before the first line (an editor's) is skipped; on a
// later line it is no keyword.
TEST_CASE("game log reader: a UTF-8 byte order mark before line 1 is skipped") {
  GameLogReader reader(Rules{});
  std::vector<LogStep> steps;
  REQUIRE(ReadAll(reader, "\xef\xbb\xbfroll 2T 3R 4H 3C 1K take H\nstop\n", &steps).ok());
  REQUIRE(reader.turns().size() == 1);
  CHECK(reader.turns()[0].end->reason == TurnEndReason::kStopped);
  CHECK(steps[0].take->face == Face::kHuman);
  GameLogReader later(Rules{});
  const absl::Status status = ReadAll(later, "# a comment\n\xef\xbb\xbfroll 2T 3R 4H 3C 1K\n");
  CHECK(status.message().find("line 2: expected 'roll', 'stop', 'scores' or 'rules'") == 0);
}

TEST_CASE("game log reader: turns alone, one after another, each from nothing set aside") {
  GameLogReader reader(Rules{});
  REQUIRE(ReadAll(reader,
                  "roll 13T\n"                 // turn 1: no take legal, over at once
                  "roll 12T 1R take R\n"       // turn 2: no dice left after the take
                  "roll 3R 4H 3C 3K take H\n"  // turn 3: stopped
                  "stop\n")
              .ok());
  const std::vector<LogTurn>& turns = reader.turns();
  REQUIRE(turns.size() == 3);
  CHECK(turns[0].end->reason == TurnEndReason::kNoLegalTake);
  CHECK(turns[0].end_line == 1);
  CHECK(turns[1].end->reason == TurnEndReason::kNoDiceLeft);
  CHECK(turns[1].end->score == 0);
  CHECK(turns[1].end_line == 2);
  CHECK(turns[2].line == 3);
  CHECK(turns[2].end->score == 4);
  CHECK(turns[2].end_line == 4);
  for (const LogTurn& turn : turns) CHECK_FALSE(turn.context.has_value());
}

TEST_CASE("game log reader: the game carried from turn to turn, until it is over") {
  // Seat 0 of 2 at 24 stops with 4: the final round; seat 1 scores 0 and the
  // game is over: the next turn has no game unless a `scores` line gives one.
  GameLogReader reader(Rules{}, LogContext{GameContext{{24, 3}, 0}, 2});
  const std::string turn = "roll 3R 4H 3C 3K take H\nstop\n";  // 4 points
  REQUIRE(ReadAll(reader, turn + "roll 13T\n" + turn + "scores 5,6 seat 1\n" + turn).ok());
  const std::vector<LogTurn>& turns = reader.turns();
  REQUIRE(turns.size() == 4);
  CHECK(turns[0].context->context.scores == std::vector<int>{24, 3});
  CHECK(turns[1].context->context.scores == std::vector<int>{28, 3});
  CHECK(turns[1].context->context.seat == 1);
  CHECK(turns[1].end->game_over);
  CHECK_FALSE(turns[2].context.has_value());
  CHECK(turns[3].context->context.scores == std::vector<int>{5, 6});
  CHECK(turns[3].context->context.seat == 1);
  CHECK(turns[3].context->players == 2);
  CHECK(turns[3].end->seat == 1);
}

TEST_CASE("game log reader: the turn-start hook runs once a turn, before the roll's checks") {
  GameLogReader reader(Rules{});
  std::vector<int> starts;
  const GameLogReader::TurnStart hook = [&](int line) {
    starts.push_back(line);
    CHECK(reader.turns().back().line == line);
    return absl::OkStatus();
  };
  REQUIRE(ReadAll(reader, "roll 2T 3R 4H 3C 1K take H\nroll 1T 2R 3C 1K take R\nstop\nroll 13T\n",
                  nullptr, hook)
              .ok());
  CHECK(starts == std::vector<int>{1, 4});
  // Its error is the line's, as returned, even where the roll is bad too.
  GameLogReader refused(Rules{});
  const absl::Status status = ReadAll(refused, "roll 2T 3R\n", nullptr, [](int) {
    return absl::FailedPreconditionError("no table");
  });
  CHECK(status.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(status.message() == "no table");
}

TEST_CASE("game log reader: an empty log is no error, a take's count of every die is") {
  GameLogReader empty(Rules{});
  CHECK(ReadAll(empty, "").ok());
  CHECK(empty.turns().empty());
  GameLogReader reader(Rules{5, 3, 25});
  CHECK(ReadAll(reader, "roll 5C take 5 cows\n").ok());
  CHECK(reader.turns()[0].end->reason == TurnEndReason::kNoDiceLeft);
}

TEST_CASE("PlayMoves: a roll after a take rolls on, errors change nothing") {
  auto state = GameState::New(Rules{}, 2);
  REQUIRE(state.ok());
  GameLog log;
  LogMoves first;
  first.roll = D("2T 3R 4H 3C 1K");
  first.take = TakeInput{Face::kHuman, 4};
  REQUIRE(PlayMoves(*state, first, &log).ok());
  CHECK(state->phase() == Phase::kStopOrRoll);
  const GameState at = *state;
  const std::string text = log.text();
  auto refused = [&](const LogMoves& moves, const std::string& message) {
    const absl::StatusOr<std::vector<TurnEnd>> ends = PlayMoves(*state, moves, &log);
    REQUIRE_FALSE(ends.ok());
    CHECK(ends.status().message() == message);
    CHECK(log.text() == text);
    CHECK(state->aside() == at.aside());
    CHECK(state->phase() == at.phase());
  };
  LogMoves counted;
  counted.roll = D("1T 2R 3C 1K");
  counted.take = TakeInput{Face::kCow, 2};
  refused(counted, "the roll shows 3 cows, not 2");
  LogMoves again;
  again.roll = D("1T 2R 1H 2C 1K");
  again.take = TakeInput{Face::kHuman, std::nullopt};
  refused(again, "humans are already set aside this turn (legal: ray, cow, chicken)");
  LogMoves tanks;
  tanks.roll = D("7T");
  tanks.take = TakeInput{Face::kRay, std::nullopt};
  refused(tanks, "the roll 7T allows no take: it ends the turn (enter it without the take)");
  LogMoves whole;
  whole.points = 3;
  refused(whole, "cannot enter a whole turn now: the game waits for seat 0 to stop or roll on");
  // Rolled on, taken, stopped: one entry.
  LogMoves rest;
  rest.roll = D("1T 2R 3C 1K");
  rest.take = TakeInput{Face::kCow, std::nullopt};
  rest.stop = true;
  const absl::StatusOr<std::vector<TurnEnd>> ends = PlayMoves(*state, rest, &log);
  REQUIRE(ends.ok());
  REQUIRE(ends->size() == 1);
  CHECK(ends->front().reason == TurnEndReason::kStopped);
  CHECK(ends->front().score == 0);  // 3 tanks, no ray
  CHECK(log.text() == text + "roll 1T 2R 3C 1K take C\nstop\n");
  // A whole turn, then rolling on when nothing waits for it.
  LogMoves seven;
  seven.points = 7;
  REQUIRE(PlayMoves(*state, seven).ok());
  CHECK(state->scores() == std::vector<int>{0, 7});
  LogMoves on;
  on.roll_on = true;
  CHECK_FALSE(PlayMoves(*state, on).ok());
}
