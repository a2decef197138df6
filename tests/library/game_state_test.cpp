// A game being played (martiandice/game_state.h): the rulebook's sample turn
// move by move, the end of a turn (stop, no legal take, no dice left, a whole
// turn entered), the final round and the tie computed by hand, every kind of
// bad move refused with the state unchanged, the seeded dice and the points
// still needed.
#include "martiandice/game_state.h"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/game_log.h"
#include "martiandice/rules.h"

namespace {

using martiandice::Dice;
using martiandice::Face;
using martiandice::GameContext;
using martiandice::GameState;
using martiandice::IsFace;
using martiandice::LogMoves;
using martiandice::Move;
using martiandice::MoveResult;
using martiandice::Phase;
using martiandice::PointsNeeded;
using martiandice::Rules;
using martiandice::TakeInput;
using martiandice::TurnEnd;
using martiandice::TurnEndReason;

Dice D(const std::string& text) {
  auto dice = martiandice::ParseDice(text);
  REQUIRE_MESSAGE(dice.ok(), text);
  return *dice;
}

GameState NewGame(int players, const Rules& rules = Rules{}) {
  auto state = GameState::New(rules, players);
  REQUIRE_MESSAGE(state.ok(), state.status().message());
  return *state;
}

MoveResult Ok(absl::StatusOr<MoveResult> result) {
  REQUIRE_MESSAGE(result.ok(), result.status().message());
  return *result;
}

// Everything a GameState shows.
struct Snapshot {
  Phase phase;
  std::vector<int> scores;
  int seat;
  bool final_round;
  Dice aside, before_roll, roll;
  int dice_left, turn_score;
  std::vector<Face> legal;
  std::vector<int> winners;
  bool operator==(const Snapshot&) const = default;
};

Snapshot Snap(const GameState& s) {
  return {
      s.phase(), s.scores(),    s.seat(),       s.final_round(), s.aside(),  s.aside_before_roll(),
      s.roll(),  s.dice_left(), s.turn_score(), s.legal_takes(), s.winners()};
}

// `move` is refused with a message containing `text`, and changes nothing.
void CheckRefused(GameState& state, const Move& move, const std::string& text) {
  const Snapshot before = Snap(state);
  const absl::StatusOr<MoveResult> result = state.Apply(move);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == absl::StatusCode::kInvalidArgument);
  const std::string message(result.status().message());
  CHECK_MESSAGE(message.find(text) != std::string::npos, message);
  CHECK(Snap(state) == before);
}

// Enters a whole turn of `points` for the seat to move.
MoveResult Enter(GameState& state, int points) { return Ok(state.EndTurn(points)); }

}  // namespace

TEST_CASE("game state: a new game waits for seat 0's first roll") {
  GameState state = NewGame(3);
  CHECK(state.players() == 3);
  CHECK(state.phase() == Phase::kRoll);
  CHECK(state.scores() == std::vector<int>{0, 0, 0});
  CHECK(state.seat() == 0);
  CHECK_FALSE(state.final_round());
  CHECK_FALSE(state.over());
  CHECK(state.aside().empty());
  CHECK(state.dice_left() == 13);
  CHECK(state.turn_score() == 0);
  CHECK(state.legal_takes().empty());
  CHECK(state.winners().empty());
  CHECK(GameState::New(Rules{}, 1).status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(GameState::New(Rules{}, 7).status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(GameState::New(Rules{0, 3, 25}, 2).status().code() == absl::StatusCode::kInvalidArgument);
}

TEST_CASE("game state: the rulebook's sample turn, move by move") {
  GameState state = NewGame(2);
  CHECK_FALSE(Ok(state.Roll(D("2T 3R 4H 3C 1K"))).turn_end.has_value());
  CHECK(state.phase() == Phase::kTake);
  CHECK(state.aside() == D("2T"));  // the tanks at once
  CHECK(state.aside_before_roll().empty());
  CHECK(state.roll() == D("2T 3R 4H 3C 1K"));
  CHECK(state.dice_left() == 11);
  CHECK(state.legal_takes() ==
        std::vector<Face>{Face::kRay, Face::kHuman, Face::kCow, Face::kChicken});
  Ok(state.Take(Face::kHuman));
  CHECK(state.phase() == Phase::kStopOrRoll);
  CHECK(state.aside() == D("2T 4H"));
  CHECK(state.roll().empty());
  CHECK(state.dice_left() == 7);
  CHECK(state.turn_score() == 0);  // 2 tanks, no ray
  Ok(state.RollOn());
  CHECK(state.phase() == Phase::kRoll);
  Ok(state.Roll(D("1T 2R 3C 1K")));
  CHECK(state.aside() == D("3T 4H"));
  CHECK(state.aside_before_roll() == D("2T 4H"));
  Ok(state.Take(Face::kRay));
  Ok(state.RollOn());
  Ok(state.Roll(D("2H 1C 1K")));
  CHECK(state.legal_takes() == std::vector<Face>{Face::kCow, Face::kChicken});  // humans taken
  CHECK(state.can_take(Face::kCow));
  CHECK_FALSE(state.can_take(Face::kHuman));
  CHECK_FALSE(state.can_take(Face::kRay));  // none rolled
  CHECK_FALSE(state.can_take(Face::kTank));
  Ok(state.Take(Face::kChicken));
  Ok(state.RollOn());
  Ok(state.Roll(D("1R 1H 1C")));
  Ok(state.Take(Face::kRay));
  CHECK(state.aside() == D("3T 3R 4H 1K"));
  CHECK(state.dice_left() == 2);
  CHECK(state.turn_score() == 5);  // 4 humans and a chicken, no bonus
  const MoveResult stop = Ok(state.Stop());
  REQUIRE(stop.turn_end.has_value());
  CHECK(stop.turn_end->seat == 0);
  CHECK(stop.turn_end->score == 5);
  CHECK(stop.turn_end->aside == D("3T 3R 4H 1K"));
  CHECK(stop.turn_end->reason == TurnEndReason::kStopped);
  CHECK_FALSE(stop.turn_end->game_over);
  CHECK(state.scores() == std::vector<int>{5, 0});
  CHECK(state.seat() == 1);
  CHECK(state.phase() == Phase::kRoll);
  CHECK(state.aside().empty());
}

// A Face cast from another number (a front end passing moves around) is refused, never read.
TEST_CASE("game state: a take of no face is refused, the state unchanged") {
  GameState state = *GameState::New(Rules{}, 2);
  Ok(state.Apply(Move::Roll(D("2T 3R 4H 3C 1K"))));
  for (const int face : {5, 6, 7, 8, 100, 255}) {
    CAPTURE(face);
    CHECK_FALSE(IsFace(static_cast<Face>(face)));
    CHECK_FALSE(state.can_take(static_cast<Face>(face)));
    CheckRefused(state, Move::Take(static_cast<Face>(face)),
                 "take: " + std::to_string(face) + " is not a face (0 to 4");
  }
  // PlayMoves, as the game log's lines give it.
  for (const std::optional<int> count : {std::optional<int>(), std::optional<int>(3)}) {
    LogMoves moves;
    moves.take = TakeInput{static_cast<Face>(7), count};
    const absl::StatusOr<std::vector<TurnEnd>> played = PlayMoves(state, moves);
    CHECK(played.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(played.status().message()).find("take: 7 is not a face") !=
          std::string::npos);
  }
  CHECK(state.phase() == Phase::kTake);
  CHECK(state.roll() == D("2T 3R 4H 3C 1K"));
}

TEST_CASE("game state: the points needed are defined for any context") {
  const Rules rules;
  CHECK(PointsNeeded(rules, GameContext{{10, 20}, 0}) == 15);
  CHECK(PointsNeeded(rules, GameContext{{26, 20}, 1}) == 7);  // the final round: overtake
  // Invalid contexts: some number of at least 1, never a throw.
  CHECK(PointsNeeded(rules, GameContext{{0, 0}, 5}) >= 1);
  CHECK(PointsNeeded(rules, GameContext{{}, 0}) >= 1);
  CHECK(PointsNeeded(rules, GameContext{{3}, -1}) >= 1);
}

TEST_CASE("game state: a roll with no legal take ends the turn, its tanks counted") {
  // 5 dice: 2 cows; then 1 ray (1R 2C, 2 points); then 2 cows: no take.
  GameState state = NewGame(2, Rules{5, 3, 25});
  Ok(state.Roll(D("1R 2H 2C")));
  Ok(state.Take(Face::kCow));
  Ok(state.RollOn());
  Ok(state.Roll(D("1R 2C")));
  Ok(state.Take(Face::kRay));
  Ok(state.RollOn());
  const MoveResult over = Ok(state.Roll(D("2C")));
  REQUIRE(over.turn_end.has_value());
  CHECK(over.turn_end->reason == TurnEndReason::kNoLegalTake);
  CHECK(over.turn_end->score == 2);
  CHECK(state.scores() == std::vector<int>{2, 0});
  CHECK(state.seat() == 1);
  // Seat 1: 2 humans, then a tank and 2 humans: 1T 2H, tanks ahead, 0 points.
  Ok(state.Roll(D("2H 1R 2K")));
  Ok(state.Take(Face::kHuman));
  Ok(state.RollOn());
  const MoveResult tank = Ok(state.Roll(D("1T 2H")));
  REQUIRE(tank.turn_end.has_value());
  CHECK(tank.turn_end->aside == D("1T 2H"));
  CHECK(tank.turn_end->score == 0);
  CHECK(state.scores() == std::vector<int>{2, 0});
  // A first roll of tanks alone: no take, 0 points.
  const MoveResult tanks = Ok(state.Roll(D("5T")));
  REQUIRE(tanks.turn_end.has_value());
  CHECK(tanks.turn_end->reason == TurnEndReason::kNoLegalTake);
}

TEST_CASE("game state: a take that leaves no dice ends the turn") {
  GameState state = NewGame(2, Rules{5, 3, 25});
  Ok(state.Roll(D("1R 2H 2C")));
  Ok(state.Take(Face::kHuman));
  Ok(state.RollOn());
  Ok(state.Roll(D("1R 1C 1K")));
  Ok(state.Take(Face::kChicken));
  Ok(state.RollOn());
  const MoveResult last = Ok(state.Roll(D("2C")));
  CHECK_FALSE(last.turn_end.has_value());
  const MoveResult take = Ok(state.Take(Face::kCow));
  REQUIRE(take.turn_end.has_value());
  CHECK(take.turn_end->reason == TurnEndReason::kNoDiceLeft);
  CHECK(take.turn_end->score == 2 + 2 + 1 + 3);  // 2H 2C 1K and the bonus
  CHECK(state.scores() == std::vector<int>{8, 0});
}

TEST_CASE("game state: the final round, by hand") {
  // 3 players. Round 1: 10, 12, 8. Round 2: seat 0 reaches 26; seats 1 and 2
  // still play (the final round): 12 + 16 = 28 overtakes, seat 2 scores 0.
  // The game ends after seat 2's turn; seat 1 wins alone.
  GameState state = NewGame(3);
  Enter(state, 10);
  Enter(state, 12);
  Enter(state, 8);
  CHECK_FALSE(state.final_round());
  const MoveResult reach = Enter(state, 16);
  CHECK_FALSE(reach.turn_end->game_over);
  CHECK(state.seat() == 1);
  CHECK(state.final_round());
  Enter(state, 16);
  CHECK(state.seat() == 2);
  CHECK(state.final_round());
  CHECK_FALSE(state.over());
  const MoveResult last = Enter(state, 0);
  CHECK(last.turn_end->game_over);
  CHECK(state.over());
  CHECK(state.phase() == Phase::kOver);
  CHECK(state.scores() == std::vector<int>{26, 28, 8});
  CHECK(state.winners() == std::vector<int>{1});
  CheckRefused(state, Move::Roll(D("13R")), "the game is over");
  CheckRefused(state, Move::EndTurn(3), "the game is over");
}

TEST_CASE("game state: the last seat reaching the target ends the game at once") {
  // 2 players: seat 1 reaches 25 (13 then 12); seat 0 gets no other turn.
  GameState state = NewGame(2);
  Enter(state, 10);
  Enter(state, 13);
  Enter(state, 0);
  const MoveResult reach = Enter(state, 12);
  CHECK(reach.turn_end->game_over);
  CHECK(state.scores() == std::vector<int>{10, 25});
  CHECK(state.winners() == std::vector<int>{1});
}

TEST_CASE("game state: a tie for the highest total shares the win") {
  // Seat 0 reaches 25 (10 + 15); seat 1, at 10, scores 15 too: 25 to 25.
  GameState state = NewGame(2);
  Enter(state, 10);
  Enter(state, 10);
  Enter(state, 15);
  CHECK(state.final_round());
  Enter(state, 15);
  CHECK(state.over());
  CHECK(state.winners() == std::vector<int>{0, 1});
  // 3 players: the two leaders tie, the third is left out.
  GameState three = NewGame(3);
  for (int points : {13, 13, 2, 13, 13, 16}) Enter(three, points);
  CHECK(three.over());
  CHECK(three.scores() == std::vector<int>{26, 26, 18});
  CHECK(three.winners() == std::vector<int>{0, 1});
}

TEST_CASE("game state: a game from a turn-start context") {
  auto state = GameState::AtTurnStart(Rules{}, 2, GameContext{{25, 21}, 1});
  REQUIRE(state.ok());
  CHECK(state->final_round());
  CHECK(state->seat() == 1);
  Ok(state->EndTurn(5));
  CHECK(state->over());
  CHECK(state->winners() == std::vector<int>{1});  // 26 against 25
  CHECK(GameState::AtTurnStart(Rules{}, 2, GameContext{{1, 25}, 0}).status().code() ==
        absl::StatusCode::kInvalidArgument);
  CHECK(GameState::AtTurnStart(Rules{}, 3, GameContext{{1, 2}, 0}).status().code() ==
        absl::StatusCode::kInvalidArgument);
}

TEST_CASE("game state: every kind of bad move is refused and changes nothing") {
  GameState state = NewGame(2);
  // At a turn's start: only a roll or a whole turn.
  CheckRefused(state, Move::Take(Face::kRay), "cannot take now: the game waits for seat 0 to roll");
  CheckRefused(state, Move::Stop(), "a turn starts with a roll");
  CheckRefused(state, Move::RollOn(), "cannot roll on now");
  CheckRefused(state, Move::Roll(D("12R")), "shows 12 dice but 13 are left");
  CheckRefused(state, Move::Roll(D("14R")), "14");
  CheckRefused(state, Move::EndTurn(17),
               "17 points is not a score a turn can have (0 to 13, or "
               "6 to 16 with the bonus)");
  CheckRefused(state, Move::EndTurn(-1), "-1 points");
  // A roll waiting for its take.
  Ok(state.Roll(D("2T 3R 4H 3C 1K")));
  CheckRefused(state, Move::Roll(D("11R")),
               "cannot roll now: the game waits for seat 0 to take "
               "from the roll 2T 3R 4H 3C 1K (legal: ray, human, "
               "cow, chicken)");
  CheckRefused(state, Move::Stop(), "cannot stop now");
  CheckRefused(state, Move::RollOn(), "cannot roll on now");
  CheckRefused(state, Move::EndTurn(5), "cannot enter a whole turn now");
  CheckRefused(state, Move::Take(Face::kTank), "tanks are set aside automatically");
  Ok(state.Take(Face::kHuman));
  // After the take: stop or roll on.
  CheckRefused(state, Move::Take(Face::kCow), "the game waits for seat 0 to stop or roll on");
  CheckRefused(state, Move::Roll(D("7R")), "cannot roll now");
  CheckRefused(state, Move::EndTurn(5), "cannot enter a whole turn now");
  Ok(state.RollOn());
  // Rolled on: the roll, not a whole turn.
  CheckRefused(state, Move::EndTurn(4), "seat 0's turn is in progress (set aside 2T 4H)");
  CheckRefused(state, Move::Stop(), "the game waits for seat 0 to roll the 7 dice left");
  CheckRefused(state, Move::Roll(D("13R")), "shows 13 dice but 7 are left");
  Ok(state.Roll(D("1T 2R 3H 1K")));
  CheckRefused(state, Move::Take(Face::kHuman),
               "humans are already set aside this turn (legal: "
               "ray, chicken)");
  CheckRefused(state, Move::Take(Face::kCow), "the roll 1T 2R 3H 1K shows no cows");
  // A rule variant's scores: with bonus 20, 14 to 22 cannot be a turn's.
  GameState bonus = NewGame(2, Rules{13, 20, 40});
  CheckRefused(bonus, Move::EndTurn(17), "0 to 13, or 23 to 33 with the bonus");
  Ok(bonus.EndTurn(23));
  Ok(bonus.EndTurn(13));
  CHECK(bonus.scores() == std::vector<int>{23, 13});
  // Two dice never show three earthlings: no bonus range is named.
  GameState two = NewGame(2, Rules{2, 3, 5});
  CheckRefused(two, Move::EndTurn(3), "3 points is not a score a turn can have (0 to 2)");
  // Three dice: the bonus makes one score only.
  GameState three = NewGame(2, Rules{3, 1, 5});
  CheckRefused(three, Move::EndTurn(5),
               "5 points is not a score a turn can have (0 to 3, or 4 with the bonus)");
  Ok(three.EndTurn(4));
}

TEST_CASE("game state: Apply plays the move it stands for") {
  GameState direct = NewGame(2);
  GameState applied = NewGame(2);
  Ok(direct.Roll(D("2T 3R 4H 3C 1K")));
  Ok(applied.Apply(Move::Roll(D("2T 3R 4H 3C 1K"))));
  Ok(direct.Take(Face::kRay));
  Ok(applied.Apply(Move::Take(Face::kRay)));
  CHECK(Snap(direct) == Snap(applied));
  Ok(direct.RollOn());
  Ok(applied.Apply(Move::RollOn()));
  CHECK(Snap(direct) == Snap(applied));
  Ok(applied.Apply(Move::Roll(D("7H 1C"))));
  Ok(applied.Apply(Move::Take(Face::kHuman)));
  CHECK(Ok(applied.Apply(Move::Stop())).turn_end->score == 7);  // 2T 3R 7H
  CHECK(Ok(applied.Apply(Move::EndTurn(3))).turn_end->reason == TurnEndReason::kEntered);
  CHECK(applied.scores() == std::vector<int>{7, 3});
  // A copy keeps its position: an undo.
  const GameState saved = applied;
  Enter(applied, 4);
  CHECK(applied.scores() != saved.scores());
  CHECK(saved.scores() == std::vector<int>{7, 3});
}

TEST_CASE("game state: the points still needed") {
  using martiandice::PointsNeeded;
  CHECK(PointsNeeded(Rules{}, GameContext{{10, 20}, 0}) == 15);
  CHECK(PointsNeeded(Rules{}, GameContext{{10, 20}, 1}) == 5);
  CHECK(PointsNeeded(Rules{}, GameContext{{0, 0, 0}, 2}) == 25);
  // The final round: overtake the leader.
  CHECK(PointsNeeded(Rules{}, GameContext{{26, 20}, 1}) == 7);
  CHECK(PointsNeeded(Rules{}, GameContext{{26, 28, 8}, 2}) == 21);
  CHECK(PointsNeeded(Rules{}, GameContext{{27, 24, 3}, 1}) == 4);
}

TEST_CASE("game state: seeded dice are reproducible and fair") {
  martiandice::DiceRng a = martiandice::SeededRng(42, 3);
  martiandice::DiceRng b = martiandice::SeededRng(42, 3);
  martiandice::DiceRng c = martiandice::SeededRng(42, 4);
  bool differ = false;
  for (int i = 0; i < 20; ++i) {
    const Dice x = martiandice::RollDice(13, a);
    CHECK(x == martiandice::RollDice(13, b));
    CHECK(x.total() == 13);
    differ = differ || !(x == martiandice::RollDice(13, c));
  }
  CHECK(differ);
  // 60000 dice: each face near its share (4 standard deviations).
  martiandice::DiceRng rng = martiandice::SeededRng(7);
  std::array<int, martiandice::kFaceCount> counts{};
  for (int i = 0; i < 6000; ++i) {
    const Dice roll = martiandice::RollDice(10, rng);
    for (Face face : martiandice::kAllFaces) counts[static_cast<int>(face)] += roll.count(face);
  }
  for (Face face : martiandice::kAllFaces) {
    const double p = martiandice::SidesShowing(face) / 6.0;
    const double sd = std::sqrt(60000 * p * (1 - p));
    CHECK(std::fabs(counts[static_cast<int>(face)] - 60000 * p) <= 4 * sd);
  }
}
