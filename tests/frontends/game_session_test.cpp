// A game followed entry by entry (app/game_session.h) and its answers
// (app/session_answers.h), in process: each entry's state and log equal
// those of a GameState and GameLog driven directly with the entry's moves; a
// game to its end by whole turns, ended by rules.h's GameEndsAfterTurn and won
// by WinShare; undo restoring each earlier state and log; every kind of bad
// entry refused with its problem and nothing changed; `scores`; the state's
// JSON read back; the entries allowed at each phase; SessionStart's defaults
// and errors; open, enter and close answered with Advisor::Advise's advice.
#include "game_session.h"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "answer_equality.h"
#include "cli_test_util.h"
#include "martiandice/advisor.h"
#include "martiandice/dice.h"
#include "martiandice/game_log.h"
#include "martiandice/game_state.h"
#include "martiandice/query.h"
#include "martiandice/rules.h"
#include "session_answers.h"
#include "test_util.h"

#ifndef MARTIANDICE_DATA_DIR
#error "MARTIANDICE_DATA_DIR must point at the source tree's data/"
#endif

using namespace martiandice;
using app::GameSession;
using app::SessionStep;
using cli_test::Json;

namespace {

const std::string kData = MARTIANDICE_DATA_DIR;

using test_util::D;

GameState NewGame(int players = 2) {
  absl::StatusOr<GameState> state = GameState::New(Rules{}, players);
  REQUIRE(state.ok());
  return *std::move(state);
}

// Everything a GameState shows.
void CheckSameGame(const GameState& a, const GameState& b) {
  CHECK(a.phase() == b.phase());
  CHECK(a.players() == b.players());
  CHECK(a.seat() == b.seat());
  CHECK(a.scores() == b.scores());
  CHECK(a.final_round() == b.final_round());
  CHECK(a.aside() == b.aside());
  CHECK(a.aside_before_roll() == b.aside_before_roll());
  CHECK(a.roll() == b.roll());
  CHECK(a.dice_left() == b.dice_left());
  CHECK(a.turn_score() == b.turn_score());
  CHECK(a.legal_takes() == b.legal_takes());
  CHECK(a.winners() == b.winners());
}

bool SameEnd(const TurnEnd& a, const TurnEnd& b) {
  return a.seat == b.seat && a.score == b.score && a.aside == b.aside && a.reason == b.reason &&
         a.game_over == b.game_over;
}

SessionStep Entered(GameSession& session, const std::string& line) {
  INFO("entry: " << line);
  absl::StatusOr<SessionStep> step = session.Enter(line);
  REQUIRE_MESSAGE(step.ok(), step.status());
  return *std::move(step);
}

// An entry and the moves it stands for.
struct Entry {
  std::string line;
  std::vector<Move> moves;
};

// The rulebook's sample turn as people type it (every form of roll and
// take), a whole turn entered as its points, a roll with no legal take, a
// take that leaves no dice, and a comment.
std::vector<Entry> Entries() {
  return {
      {"roll 2T 3R 4H 3C 1K", {Move::Roll(D("2T 3R 4H 3C 1K"))}},
      {"4 humans", {Move::Take(Face::kHuman)}},  // the bare face, as play takes it
      {"roll 1T 2R 3C 1K take R",
       {Move::RollOn(), Move::Roll(D("1T 2R 3C 1K")), Move::Take(Face::kRay)}},
      {"roll", {Move::RollOn()}},
      {"ROLL 2h 1c 1k", {Move::Roll(D("2H 1C 1K"))}},
      {"Take K", {Move::Take(Face::kChicken)}},
      {"roll on", {Move::RollOn()}},
      {"roll 1R 1H 1C take 1R", {Move::Roll(D("1R 1H 1C")), Move::Take(Face::kRay)}},
      {"stop", {Move::Stop()}},  // seat 0: 5
      {"score 7", {Move::EndTurn(7)}},
      {"roll 13T", {Move::Roll(D("13T"))}},  // seat 0: no legal take, 0
      {"roll 13H take h", {Move::Roll(D("13H")), Move::Take(Face::kHuman)}},  // seat 1: 13
      {"roll 4T 3R 6C take cows  # six cows", {Move::Roll(D("4T 3R 6C")), Move::Take(Face::kCow)}},
  };
}

// What the state and log were before each entry, and what it left.
struct Snapshot {
  GameState state;
  std::string log;
};

std::string Message(const absl::Status& status) { return std::string(status.message()); }

// `line` is refused (InvalidArgument) with `message` (or a message starting
// with it, `prefix`), and the game, its log and its undo are unchanged.
void CheckRefused(GameSession& session, const std::string& line, const std::string& message,
                  bool prefix = false) {
  INFO("entry: " << line);
  const GameState before = session.state();
  const std::string log = session.log().text();
  const std::size_t undo = session.undo_depth();
  const absl::StatusOr<SessionStep> step = session.Enter(line);
  REQUIRE_FALSE(step.ok());
  CHECK(step.status().code() == absl::StatusCode::kInvalidArgument);
  if (prefix) {
    CHECK_MESSAGE(Message(step.status()).rfind(message, 0) == 0, step.status());
  } else {
    CHECK(Message(step.status()) == message);
  }
  CHECK(Message(step.status()).find('\n') == std::string::npos);
  CheckSameGame(session.state(), before);
  CHECK(session.log().text() == log);
  CHECK(session.undo_depth() == undo);
}

Json Parse(const std::string& text) { return cli_test::ParseJsonOrFail(text); }

std::vector<double> Numbers(const std::vector<int>& values) {
  return std::vector<double>(values.begin(), values.end());
}
std::vector<double> Numbers(const Json& array) {
  std::vector<double> numbers;
  for (const Json& item : array.items) numbers.push_back(item.number);
  return numbers;
}

}  // namespace

TEST_CASE("game session: each entry plays its moves as GameState and GameLog do") {
  GameSession session(NewGame());
  GameState direct = NewGame();
  GameLog log;
  for (const Entry& entry : Entries()) {
    CAPTURE(entry.line);
    std::vector<TurnEnd> ends;
    for (const Move& move : entry.moves) {
      const GameState before = direct;
      const absl::StatusOr<MoveResult> result = direct.Apply(move);
      REQUIRE(result.ok());
      log.Record(before, move, *result);
      if (result->turn_end) ends.push_back(*result->turn_end);
    }
    const SessionStep step = Entered(session, entry.line);
    CHECK(step.kind == SessionStep::Kind::kApplied);
    CHECK(step.entry == entry.line);
    const Move& first =
        entry.moves[entry.moves[0].kind == Move::Kind::kRollOn && entry.moves.size() > 1 ? 1 : 0];
    CHECK(step.roll.has_value() == (first.kind == Move::Kind::kRoll));
    if (step.roll) CHECK(*step.roll == first.dice);
    REQUIRE(step.turn_ends.size() == ends.size());
    for (std::size_t i = 0; i < ends.size(); ++i) CHECK(SameEnd(step.turn_ends[i], ends[i]));
    CheckSameGame(session.state(), direct);
    CHECK(session.log().text() == log.text());
    CHECK(session.log().finished_text() == log.finished_text());
    CHECK(session.review_text() == log.finished_text());  // the game is not over
  }
  // By hand: seat 0 kept 5 then rolled 13 tanks; seat 1 entered 7, then 13 humans.
  CHECK(session.state().scores() == std::vector<int>{5, 20});
  CHECK(session.state().aside() == D("4T 6C"));
  CHECK(session.log().text() ==
        "scores 0,0 seat 0\nroll 2T 3R 4H 3C 1K take H\nroll 1T 2R 3C 1K take R\n"
        "roll 2H 1C 1K take K\nroll 1R 1H 1C take R\nstop\n"
        "scores 5,7 seat 0\nroll 13T\n"
        "scores 5,7 seat 1\nroll 13H take H\n"
        "scores 5,20 seat 0\nroll 4T 3R 6C take C\n");
}

TEST_CASE("game session: a game to its end by GameEndsAfterTurn, won by WinShare") {
  // 3 players: 16 each, then seat 0 reaches 26 (the final round), seats 1
  // and 2 both overtake it to 28: a tie for the win.
  const Rules rules;
  GameSession session(NewGame(3));
  std::vector<int> totals(3, 0);
  const std::vector<int> points = {16, 16, 16, 10, 12, 12};
  for (std::size_t turn = 0; turn < points.size(); ++turn) {
    CAPTURE(turn);
    const int seat = static_cast<int>(turn % 3);
    CHECK(session.state().seat() == seat);
    CHECK(session.state().final_round() == FinalRoundBegun(rules, totals, seat));
    const SessionStep step = Entered(session, "score " + std::to_string(points[turn]));
    totals[seat] += points[turn];
    REQUIRE(step.turn_ends.size() == 1);
    const TurnEnd& end = step.turn_ends[0];
    CHECK(end.seat == seat);
    CHECK(end.score == points[turn]);
    CHECK(end.reason == TurnEndReason::kEntered);
    CHECK(end.game_over == GameEndsAfterTurn(rules, totals, seat));
    CHECK(session.state().over() == end.game_over);
    CHECK(session.state().scores() == totals);
  }
  REQUIRE(session.state().over());
  std::vector<int> winners;
  for (int seat = 0; seat < 3; ++seat) {
    if (WinShare(totals, seat) > 0) winners.push_back(seat);
  }
  CHECK(winners == std::vector<int>{1, 2});
  CHECK(session.state().winners() == winners);
  // Once over, review reads the whole log; entries are refused, naming undo.
  CHECK(session.review_text() == session.log().text());
  CheckRefused(session, "score 3",
               "cannot enter a whole turn: the game is over (undo takes back the last entry)");
  CheckRefused(session, "roll 13R",
               "cannot roll: the game is over (undo takes back the last entry)");
  CheckRefused(session, "scores 0,0,0", "the game is over (undo takes back the last entry)");
  CHECK(session.EntriesNow() == "none: the game is over (undo takes back the last entry)");
  // Undo reopens it.
  CHECK(Entered(session, "undo").kind == SessionStep::Kind::kUndone);
  CHECK_FALSE(session.state().over());
  CHECK(session.state().seat() == 2);
}

TEST_CASE("game session: undo restores each earlier state and log, back to the start") {
  GameSession session(NewGame());
  std::vector<Snapshot> before;
  for (const Entry& entry : Entries()) {
    before.push_back({session.state(), session.log().text()});
    Entered(session, entry.line);
  }
  const Snapshot end{session.state(), session.log().text()};
  const std::vector<Entry> entries = Entries();
  CHECK(session.undo_depth() == entries.size());
  for (std::size_t i = entries.size(); i-- > 0;) {
    CAPTURE(entries[i].line);
    const SessionStep step = Entered(session, "undo");
    CHECK(step.kind == SessionStep::Kind::kUndone);
    CHECK(step.entry == entries[i].line);
    CHECK(step.turn_ends.empty());
    CheckSameGame(session.state(), before[i].state);
    CHECK(session.log().text() == before[i].log);
    CHECK(session.undo_depth() == i);
  }
  CheckRefused(session, "undo", "nothing to undo");
  // The same entries again lead to the same game.
  for (const Entry& entry : entries) Entered(session, entry.line);
  CheckSameGame(session.state(), end.state);
  CHECK(session.log().text() == end.log);

  SUBCASE("at most max_undo entries are kept") {
    GameSession two(NewGame(), 2);
    for (std::size_t i = 0; i < 3; ++i) Entered(two, entries[i].line);
    CHECK(two.undo_depth() == 2);
    CHECK(Entered(two, "undo").entry == entries[2].line);
    CHECK(Entered(two, "undo").entry == entries[1].line);
    CheckSameGame(two.state(), before[1].state);
    CheckRefused(two, "undo", "nothing to undo");
    GameSession none(NewGame(), 0);
    Entered(none, entries[0].line);
    CHECK(none.undo_depth() == 0);
    CheckRefused(none, "undo", "nothing to undo");
  }
}

TEST_CASE("game session: bad entries name the problem in one line and change nothing") {
  GameSession session(NewGame());
  SUBCASE("at a turn's start") {
    CheckRefused(
        session, "jump 3",
        "unknown entry 'jump 3'; the entries: " + std::string(app::kSessionEntries) + ", quit");
    // A session closed instead (serve's, the page's): quit is no entry.
    GameSession closed(NewGame(), 10000, /*quit=*/false);
    CheckRefused(closed, "jump 3",
                 "unknown entry 'jump 3'; the entries: " + std::string(app::kSessionEntries));
    CheckRefused(closed, "quit", "quit is not an entry here: close the game");
    CheckRefused(session, "score", "score: expected the whole turn's points, e.g. 'score 7'");
    CheckRefused(session, "score +3", "score: expected the whole turn's points, e.g. 'score 7'");
    CheckRefused(session, "score 17",
                 "17 points is not a score a turn can have (0 to 13, or 6 to 16 with the bonus)");
    CheckRefused(session, "scores 1,2,3", "scores: 3 totals for 2 players");
    CheckRefused(session, "scores 1,2 seat x", "seat: expected a number, got 'x'");
    CheckRefused(session, "scores 1,2 at 1",
                 "expected 'scores S0,S1[,...] [seat I]', e.g. 'scores 12,20 seat 1'");
    CheckRefused(session, "scores 30,30", "scores: ", true);
    CheckRefused(session, "roll take H", "roll: give the dice rolled before 'take'");
    CheckRefused(session, "roll 2Z", "roll: bad dice \"2Z\"", true);  // quoted as typed
    CheckRefused(session, "ROLL 3t 2x", "roll: bad dice \"3t 2x\"", true);
    CheckRefused(session, "roll 12R", "", true);  // 12 of the 13 dice
    CheckRefused(session, "take", "take: name the face, e.g. 'take humans' or 'take H'");
    CheckRefused(session, "stop now", "'stop' takes nothing after it");
    CheckRefused(session, "stop",
                 "cannot stop now: the game waits for seat 0 to roll (a turn starts with a roll)");
    // A bare roll where the dice rolled are awaited says to enter them.
    CheckRefused(session, "roll",
                 "enter the dice rolled: roll DICE (the 13 dice rolled), or score N (the whole "
                 "turn), or scores S0,S1 seat I");
  }
  SUBCASE("mid turn: a failing entry's first moves are not kept either") {
    Entered(session, "roll 2T 3R 4H 3C 1K");
    // A roll entered again: the first may be mistyped, and undo takes it back.
    CheckRefused(session, "roll 2T 3R 4H 2C 2K",
                 "cannot roll now: the game waits for seat 0 to take from the roll 2T 3R 4H 3C 1K "
                 "(legal: ray, human, cow, chicken); undo takes back the roll entered");
    CheckRefused(session, "take tanks", "tanks are set aside automatically; take R, H, C or K");
    CheckRefused(session, "take 3H", "the roll shows 4 humans, not 3");
    CheckRefused(session, "take H C", "take one face (R, H, C or K), not 'h c'");
    CheckRefused(session, "3 humans",
                 "the roll shows 4 humans, not 3");  // a bare face, checked alike
    Entered(session, "take H");
    CheckRefused(session, "take R",
                 "cannot take now: the game waits for seat 0 to stop or roll on");
    Entered(session, "roll");  // rolled on
    CheckRefused(session, "roll on", "enter the dice rolled: roll DICE (the 7 dice rolled)");
    Entered(session, "undo");
    CheckRefused(session, "R", "cannot take now: the game waits for seat 0 to stop or roll on");
    CheckRefused(session, "scores 1,2",
                 "scores: only at a turn's start; seat 0's turn is in progress");
    CheckRefused(session, "score 7",
                 "cannot enter a whole turn now: the game waits for seat 0 to stop or roll on");
    // Rolling on is applied, then the roll or the take fails: neither is kept.
    CheckRefused(session, "roll 2T", "", true);
    CheckRefused(session, "roll 7T take R",
                 "the roll 7T allows no take: it ends the turn (enter it without the take)");
    CheckRefused(session, "roll 3R 4T take 2R", "the roll shows 3 rays, not 2");
    CheckRefused(session, "roll 1R 3H 3T take H",
                 "humans are already set aside this turn (legal: ray)");
    CHECK(session.state().phase() == Phase::kStopOrRoll);
  }
}

TEST_CASE("game session: blank lines, comments and case, state, help and quit change nothing") {
  GameSession session(NewGame());
  Entered(session, "roll 2T 3R 4H 3C 1K");
  const GameState before = session.state();
  const std::string log = session.log().text();
  struct Case {
    std::string line;
    SessionStep::Kind kind;
  };
  for (const Case& c :
       {Case{"", SessionStep::Kind::kNone}, Case{"   \t", SessionStep::Kind::kNone},
        Case{"# roll 13R", SessionStep::Kind::kNone}, Case{"STATE", SessionStep::Kind::kState},
        Case{"help", SessionStep::Kind::kHelp}, Case{"?", SessionStep::Kind::kHelp},
        Case{"quit # done", SessionStep::Kind::kQuit}}) {
    CAPTURE(c.line);
    const SessionStep step = Entered(session, c.line);
    CHECK(step.kind == c.kind);
    CHECK(step.entry.empty());
    CHECK(step.turn_ends.empty());
    CheckSameGame(session.state(), before);
    CHECK(session.log().text() == log);
    CHECK(session.undo_depth() == 1);
  }
  // Keywords with something after them are not these.
  CheckRefused(session, "state now", "unknown entry 'state now'; the entries: ", true);
  // Case and spacing do not matter in a game entry.
  CHECK(Entered(session, "  TAKE   Humans ").kind == SessionStep::Kind::kApplied);
  CHECK(session.state().aside() == D("2T 4H"));
}

TEST_CASE("game session: scores sets the totals and the seat at a turn's start") {
  GameSession session(NewGame());
  const SessionStep step = Entered(session, "scores 12,20 seat 1");
  CHECK(step.kind == SessionStep::Kind::kApplied);
  CHECK(step.entry == "scores 12,20 seat 1");
  CHECK_FALSE(step.roll.has_value());
  const absl::StatusOr<GameState> expected =
      GameState::AtTurnStart(Rules{}, 2, GameContext{{12, 20}, 1});
  REQUIRE(expected.ok());
  CheckSameGame(session.state(), *expected);
  CHECK(session.log().text().empty());  // the next turn's lines carry the totals
  Entered(session, "roll 13T");
  CHECK(session.log().text() == "scores 12,20 seat 1\nroll 13T\n");
  // Without `seat`, seat 0; the same totals change nothing (a log replays).
  Entered(session, "scores 12,20");
  CHECK(session.state().seat() == 0);
  Entered(session, "scores 12,20 seat 0");
  CheckSameGame(session.state(), *GameState::AtTurnStart(Rules{}, 2, GameContext{{12, 20}, 0}));
  Entered(session, "undo");
  Entered(session, "undo");
  CHECK(session.state().seat() == 0);  // after seat 1's turn of tanks
  CHECK(session.state().scores() == std::vector<int>{12, 20});
  Entered(session, "undo");
  CheckSameGame(session.state(), *expected);
  // The final round: seat 0 reached the target, seat 1 to move.
  Entered(session, "scores 25,21 seat 1");
  CHECK(session.state().final_round());
}

TEST_CASE("game session: the state and the turn ends as JSON, read back") {
  GameSession session(NewGame());
  const auto check_state = [&](const GameState& state) {
    const Json json = Parse(session.StateJson());
    CHECK(json.keys == std::vector<std::string>{"phase", "seat", "scores", "final_round", "aside",
                                                "dice_left", "turn_score", "roll", "legal",
                                                "winners", "undo"});
    CHECK(json["phase"].text == PhaseName(state.phase()));
    CHECK(json["seat"].number == state.seat());
    CHECK(Numbers(json["scores"]) == Numbers(state.scores()));
    CHECK(json["final_round"].boolean == state.final_round());
    CHECK(json["aside"].text == FormatDice(state.aside()));
    CHECK(json["dice_left"].number == state.dice_left());
    CHECK(json["turn_score"].number == state.turn_score());
    if (state.phase() == Phase::kTake) {
      CHECK(json["roll"].text == FormatDice(state.roll()));
    } else {
      CHECK(json["roll"].is_null());
    }
    std::vector<std::string> legal;
    for (const Json& face : json["legal"].items) legal.push_back(face.text);
    std::vector<std::string> expected;
    for (const Face face : state.legal_takes()) expected.emplace_back(FaceName(face));
    CHECK(legal == expected);
    CHECK(Numbers(json["winners"]) == Numbers(state.winners()));
    CHECK(json["undo"].number == session.undo_depth());
  };
  check_state(session.state());
  Entered(session, "roll 2T 3R 4H 3C 1K");
  check_state(session.state());
  CHECK(Parse(session.StateJson())["legal"].items.size() == 4);
  CHECK(Parse(session.StateJson())["aside"].text == "2T");
  Entered(session, "take humans");
  check_state(session.state());
  CHECK(Parse(session.StateJson())["legal"].items.empty());
  // The turn ends: each as the game's TurnEnd says.
  const SessionStep stop = Entered(session, "stop");
  REQUIRE(stop.turn_ends.size() == 1);
  const Json ends =
      cli_test::JsonParser(GameSession::TurnEndsJson(stop.turn_ends)).ParseDocument().value();
  REQUIRE(ends.items.size() == 1);
  CHECK(ends.items[0].keys ==
        std::vector<std::string>{"seat", "score", "reason", "aside", "tanks_won", "game_over"});
  CHECK(ends.items[0]["seat"].number == 0);
  CHECK(ends.items[0]["score"].number == 0);  // 2 tanks, no ray
  CHECK(ends.items[0]["reason"].text == "stop");
  CHECK(ends.items[0]["aside"].text == "2T 4H");
  CHECK(ends.items[0]["tanks_won"].boolean);  // the 4 humans lost to them
  CHECK_FALSE(ends.items[0]["game_over"].boolean);
  CHECK(GameSession::TurnEndsJson({}) == "[]");
  // To the end: seat 1 reaches 25, seat 0 falls short.
  Entered(session, "score 16");
  Entered(session, "score 16");
  const SessionStep last = Entered(session, "score 9");
  const Json over =
      cli_test::JsonParser(GameSession::TurnEndsJson(last.turn_ends)).ParseDocument().value();
  CHECK(over.items.at(0)["reason"].text == "entered");
  CHECK(over.items.at(0)["aside"].text == "-");  // nothing set aside
  CHECK_FALSE(over.items.at(0)["tanks_won"].boolean);
  CHECK(over.items.at(0)["game_over"].boolean);
  check_state(session.state());
  CHECK(Parse(session.StateJson())["phase"].text == "over");
  CHECK(Numbers(Parse(session.StateJson())["winners"]) == std::vector<double>{1});
}

TEST_CASE("game session: the entries allowed at each phase") {
  GameSession session(NewGame());
  CHECK(session.EntriesNow() ==
        "roll DICE (the 13 dice rolled), or score N (the whole turn), or scores S0,S1 seat I");
  Entered(session, "roll 2T 3R 4H 3C 1K");
  CHECK(session.EntriesNow() == "take FACE (ray, human, cow, chicken, or R, H, C, K)");
  Entered(session, "take H");
  CHECK(session.EntriesNow() == "stop, or roll DICE (the 7 dice rolled on)");
  Entered(session, "roll");
  CHECK(session.EntriesNow() == "roll DICE (the 7 dice rolled)");
}

TEST_CASE("session answers: SessionStart's game, its defaults, its errors naming the input") {
  const auto start = [](const QueryInput& in) {
    absl::StatusOr<GameState> state = app::SessionStart(in);
    REQUIRE_MESSAGE(state.ok(), state.status());
    return *std::move(state);
  };
  const auto error = [](const QueryInput& in) {
    absl::StatusOr<GameState> state = app::SessionStart(in);
    REQUIRE_FALSE(state.ok());
    CHECK(state.status().code() == absl::StatusCode::kInvalidArgument);
    // The input the message starts with is the status's too (none for the rules).
    const std::string message = Message(state.status());
    const bool rules = message.rfind("invalid rules: ", 0) == 0;
    CHECK(InputName(state.status()) ==
          (rules ? std::nullopt : std::optional(message.substr(0, message.find(':')))));
    return message;
  };
  QueryInput in;
  CheckSameGame(start(in), NewGame(2));  // 2 players, every total 0, seat 0
  in.players = 4;
  CheckSameGame(start(in), NewGame(4));
  in.players.reset();
  in.scores = "3,4,5";
  in.seat = 2;
  CheckSameGame(start(in), *GameState::AtTurnStart(Rules{}, 3, GameContext{{3, 4, 5}, 2}));
  in.rules = Rules{6, 0, 15};
  CHECK(start(in).rules().dice == 6);
  CHECK(start(in).dice_left() == 6);

  QueryInput bad;
  bad.players = 7;
  CHECK(error(bad) == "players: a game has 2 to 6 players, not 7");
  bad.players = 1;
  CHECK(error(bad) == "players: a game has 2 to 6 players, not 1");
  bad.players = 3;
  bad.scores = "1,2";
  CHECK(error(bad) == "scores: 2 totals for 3 players");
  bad.players.reset();
  bad.scores = "1,x";
  CHECK(error(bad).rfind("scores: ", 0) == 0);
  bad.scores = "30,30";
  CHECK(error(bad).rfind("scores: the game is already over", 0) == 0);
  bad.scores = "1,2";
  bad.seat = 5;
  CHECK(error(bad) == "seat: seat 5 is out of range: seats are numbered 0..1");
  bad.seat = -1;
  CHECK(error(bad) == "seat: seat -1 is out of range: seats are numbered 0..1");
  QueryInput rules;
  rules.rules = Rules{0, 3, 25};
  CHECK(error(rules) ==
        "invalid rules: dice count 0 is out of the supported range 1..20");  // as eval's
}

TEST_CASE("session answers: open, enter and close: the session's state, Advise's advice") {
  Advisor advisor;
  const absl::StatusOr<TableCoverage> coverage = advisor.Coverage(Rules{}, 2, kData);
  REQUIRE(coverage.ok());
  REQUIRE(coverage->table != nullptr);
  GameSession session(NewGame(), 10000, /*quit=*/false);  // as serve's
  const auto enter = [&](const std::string& entry) {
    INFO("entry: " << entry);
    absl::StatusOr<std::string> answer = app::SessionEnterJson(advisor, 4, session, entry, kData);
    REQUIRE_MESSAGE(answer.ok(), answer.status());
    CHECK(answer->find('\n') == std::string::npos);
    return Parse(*answer);
  };
  const auto refused = [&](const std::string& entry, const std::string& message) {
    INFO("entry: " << entry);
    const std::size_t undo = session.undo_depth();
    const absl::StatusOr<std::string> answer =
        app::SessionEnterJson(advisor, 4, session, entry, kData);
    REQUIRE_FALSE(answer.ok());
    CHECK(answer.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(Message(answer.status()) == message);
    CHECK(session.undo_depth() == undo);
  };
  // The advice object: Advise's, its values bit for bit.
  const auto check_advice = [&](const Json& advice) {
    const absl::StatusOr<GameAdvice> direct = advisor.Advise(session.state(), kData);
    REQUIRE(direct.ok());
    CHECK(advice["decision"].text == PhaseName(direct->phase));
    CHECK(advice["values"].text == "win");
    CHECK(answer_equality::Same(Numbers(advice["win_probabilities"]), direct->win_probabilities));
    const Value& value = direct->takes ? direct->takes->value : direct->position->value;
    CHECK(answer_equality::Same(advice["value"].number, value.approx));
  };

  const absl::StatusOr<std::string> open =
      app::SessionOpenJson(advisor, 4, *coverage, session, kData);
  REQUIRE(open.ok());
  const Json opened = Parse(*open);
  CHECK(opened.keys == std::vector<std::string>{"game", "table", "no_table", "state", "advice"});
  CHECK(opened["game"].number == 4);
  CHECK(opened["table"].text == coverage->table->path);
  CHECK(opened["no_table"].is_null());
  CHECK(open->find("\"state\":" + session.StateJson() + ",") != std::string::npos);
  check_advice(opened["advice"]);

  const Json rolled = enter("roll 2T 3R 4H 3C 1K");
  CHECK(rolled.keys ==
        std::vector<std::string>{"game", "step", "entry", "turn_ends", "state", "advice"});
  CHECK(rolled["step"].text == "applied");
  CHECK(rolled["entry"].text == "roll 2T 3R 4H 3C 1K");
  CHECK(rolled["turn_ends"].items.empty());
  CHECK(rolled["state"]["phase"].text == "take");
  check_advice(rolled["advice"]);
  const absl::StatusOr<GameAdvice> take = advisor.Advise(session.state(), kData);
  REQUIRE(take.ok());
  CHECK(rolled["advice"]["best"]["take"].text ==
        FaceName(take->takes->options[*take->takes->best].take));

  refused("take\nH", "entry: one line, without a newline");
  refused("take tanks", "entry: tanks are set aside automatically; take R, H, C or K");
  refused("quit", "entry: quit is not an entry here: close the game");
  const Json help = enter("help");
  CHECK(help.keys == std::vector<std::string>{"game", "step", "message"});
  CHECK(help["message"].text ==
        "entries now: take FACE (ray, human, cow, chicken, or R, H, C, K); always: undo, state");
  CHECK(enter("state")["step"].text == "state");
  const Json undone = enter("undo");
  CHECK(undone["step"].text == "undone");
  CHECK(undone["entry"].text == "roll 2T 3R 4H 3C 1K");
  CHECK(undone["state"]["phase"].text == "roll");

  // To the end: the last answer has no advice; close gives the log review reads.
  enter("roll 2T 3R 4H 3C 1K take H");
  enter("roll 3R 4K take R");  // rolling on: 2T 3R 4H set aside
  CHECK(enter("stop")["turn_ends"].items.at(0)["score"].number == 4);
  enter("score 16");
  enter("score 16");
  const Json last = enter("score 9");
  CHECK(last["turn_ends"].items.at(0)["game_over"].boolean);
  CHECK(last["advice"].is_null());
  CHECK(last["state"]["phase"].text == "over");
  const Json closed = Parse(app::SessionCloseJson(4, session));
  CHECK(closed.keys ==
        std::vector<std::string>{"game", "closed", "over", "scores", "winners", "log"});
  CHECK(closed["closed"].boolean);
  CHECK(closed["over"].boolean);
  CHECK(Numbers(closed["scores"]) == std::vector<double>{20, 25});
  CHECK(Numbers(closed["winners"]) == std::vector<double>{1});
  CHECK(closed["log"].text == session.log().text());
  CHECK(closed["log"].text ==
        "scores 0,0 seat 0\nroll 2T 3R 4H 3C 1K take H\nroll 3R 4K take R\nstop\n");

  SUBCASE("where no table covers the game: no_table says why") {
    const absl::StatusOr<TableCoverage> none = advisor.Coverage(Rules{}, 6);
    REQUIRE(none.ok());
    GameSession six(NewGame(6));
    const absl::StatusOr<std::string> answer =
        app::SessionOpenJson(advisor, 1, *none, six, std::nullopt);
    REQUIRE(answer.ok());
    const Json json = Parse(*answer);
    CHECK(json["table"].is_null());
    CHECK(json["no_table"].text == none->reason);
    CHECK(json["advice"]["fallback"].boolean);
    CHECK(json["advice"]["values"].text == "capped:25");
  }
}

// An entry is kept only with its answer: where the advice fails after the
// moves are played (the game's table damaged since it was loaded, then
// dropped from the advisor's cache), the session is as it was.
TEST_CASE("session answers: an entry whose advice fails changes nothing") {
  test_util::TempDir dir;
  const std::string name = "martiandice-p2-d13-b3-t25.mdt";
  const std::string table = dir.File(name);
  const std::string good = test_util::ReadFile(kData + "/" + name);
  test_util::WriteFile(table, good);
  Advisor advisor(Advisor::Options{std::nullopt, 64, /*max_tables=*/1});
  GameSession session(NewGame(), 10000, /*quit=*/false);  // as serve's
  const absl::StatusOr<TableCoverage> coverage = advisor.Coverage(Rules{}, 2, table);
  REQUIRE(coverage.ok());
  REQUIRE(app::SessionOpenJson(advisor, 1, *coverage, session, table).ok());
  REQUIRE(app::SessionEnterJson(advisor, 1, session, "roll 2T 3R 4H 3C 1K take H", table).ok());
  std::string damaged = good;
  damaged[damaged.size() / 2] ^= 1;  // a checksum now fails
  test_util::WriteFile(table, damaged);
  REQUIRE(advisor.Coverage(Rules{}, 3, kData).ok());  // the game's table leaves the cache
  const std::string state = session.StateJson();
  const std::string log = session.log().text();
  const std::size_t undo = session.undo_depth();
  for (const std::string entry : {"roll 3R 4K take R", "undo"}) {
    INFO("entry: " << entry);
    const absl::StatusOr<std::string> answer =
        app::SessionEnterJson(advisor, 1, session, entry, table);
    REQUIRE_FALSE(answer.ok());
    CHECK(Message(answer.status()).find("checksum") != std::string::npos);
    CHECK(session.StateJson() == state);
    CHECK(session.log().text() == log);
    CHECK(session.undo_depth() == undo);
  }
  // Repaired: the same entry is taken as the next one.
  test_util::WriteFile(table, good);
  const absl::StatusOr<std::string> answer =
      app::SessionEnterJson(advisor, 1, session, "roll 3R 4K take R", table);
  REQUIRE_MESSAGE(answer.ok(), answer.status());
  CHECK(Parse(*answer)["step"].text == "applied");
  CHECK(session.undo_depth() == undo + 1);
}
