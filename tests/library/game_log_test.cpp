// A game's moves as review's lines (martiandice/game_log.h): the rulebook's
// sample turn, a turn over without a take, a whole turn entered, and the
// finished turns of a game stopped half way; a checkpoint restored.
#include "martiandice/game_log.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "martiandice/dice.h"
#include "martiandice/game_state.h"

using namespace martiandice;

namespace {

// Plays `moves` on `state`, recording each in `log`.
void Play(GameState& state, GameLog& log, const std::vector<Move>& moves) {
  for (const Move& move : moves) {
    const GameState before = state;
    const absl::StatusOr<MoveResult> result = state.Apply(move);
    REQUIRE_MESSAGE(result.ok(), result.status().message());
    log.Record(before, move, *result);
  }
}

Dice D(const std::string& text) { return *ParseDice(text); }

}  // namespace

TEST_CASE("game log: the rulebook's sample turn, then a turn over and a turn entered") {
  auto state = GameState::New(Rules{}, 2);
  REQUIRE(state.ok());
  GameLog log;
  Play(*state, log,
       {Move::Roll(D("2T 3R 4H 3C 1K")), Move::Take(Face::kHuman), Move::RollOn(),
        Move::Roll(D("1T 2R 3C 1K")), Move::Take(Face::kRay), Move::RollOn(),
        Move::Roll(D("2H 1C 1K")), Move::Take(Face::kChicken), Move::RollOn(),
        Move::Roll(D("1R 1H 1C")), Move::Take(Face::kRay), Move::Stop()});
  const std::string sample =
      "scores 0,0 seat 0\n"
      "roll 2T 3R 4H 3C 1K take H\n"
      "roll 1T 2R 3C 1K take R\n"
      "roll 2H 1C 1K take K\n"
      "roll 1R 1H 1C take R\n"
      "stop\n";
  CHECK(log.text() == sample);
  CHECK(log.finished_text() == sample);
  // Seat 1: tanks alone, no take. Seat 0: a whole turn of 7 entered.
  Play(*state, log, {Move::Roll(D("13T")), Move::EndTurn(7)});
  const std::string more = sample + "scores 5,0 seat 1\nroll 13T\n";
  CHECK(log.text() == more);
  // Seat 1 again, half way through a turn: not finished.
  Play(*state, log, {Move::Roll(D("12R 1H")), Move::Take(Face::kRay)});
  const std::string taken = more + "scores 12,0 seat 1\nroll 12R 1H take R\n";
  CHECK(log.text() == taken);
  CHECK(log.finished_text() == more);
  Play(*state, log, {Move::RollOn()});
  CHECK(log.text() == taken);  // rolling on writes nothing
  Play(*state, log, {Move::Roll(D("1T"))});
  CHECK(log.text() == taken + "roll 1T\n");  // no take: the turn is over
  CHECK(log.finished_text() == log.text());
}

TEST_CASE("game log: a take that leaves no dice ends the turn's lines") {
  auto state = GameState::New(Rules{5, 3, 25}, 2);
  REQUIRE(state.ok());
  GameLog log;
  Play(*state, log, {Move::Roll(D("5C")), Move::Take(Face::kCow)});
  CHECK(log.text() == "rules dice 5 bonus 3 target 25\nscores 0,0 seat 0\nroll 5C take C\n");
  CHECK(log.finished_text() == log.text());
}

TEST_CASE("game log: a checkpoint restored undoes the records after it") {
  auto state = GameState::New(Rules{}, 2);
  REQUIRE(state.ok());
  GameLog log;
  Play(*state, log, {Move::Roll(D("2T 3R 4H 3C 1K"))});
  const GameLog::Checkpoint point = log.checkpoint();
  const GameState at = *state;
  const std::string text = log.text();
  Play(*state, log, {Move::Take(Face::kHuman), Move::Stop()});
  CHECK(log.text() != text);
  log.Restore(point);
  *state = at;
  CHECK(log.text() == text);
  CHECK(log.finished_text().empty());
  // The roll waiting for its take is restored too.
  Play(*state, log, {Move::Take(Face::kCow), Move::Stop()});
  CHECK(log.text() == "scores 0,0 seat 0\nroll 2T 3R 4H 3C 1K take C\nstop\n");
}

// House rules head the log, finished from the start (a review of the turns
// so far reads them); undone to nothing, the next record writes them again.
TEST_CASE("game log: a game under house rules says them first") {
  auto state = GameState::New(Rules{13, 5, 20}, 2);
  REQUIRE(state.ok());
  GameLog log;
  const GameLog::Checkpoint start = log.checkpoint();
  Play(*state, log, {Move::Roll(D("2T 3R 4H 3C 1K")), Move::Take(Face::kHuman)});
  const std::string rules = "rules dice 13 bonus 5 target 20\n";
  CHECK(log.text() == rules + "scores 0,0 seat 0\nroll 2T 3R 4H 3C 1K take H\n");
  CHECK(log.finished_text() == rules);
  log.Restore(start);
  CHECK(log.text().empty());
  Play(*state, log, {Move::Stop()});
  CHECK(log.text() == rules + "stop\n");
}
