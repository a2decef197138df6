// A game of Martian Dice being played: every seat's total, the seat to move,
// the final round, the turn in progress and its phase, applied move by move
// with the rules of docs/RULES.md (tanks set aside at once, a compulsory
// take, the turn over when no take is legal, the final round, the tie for the
// win). Front ends (`martiandice play`, a coach, a web page) keep one
// GameState and show what it says; the advisor answers for its decisions
// (advisor.h: Advisor::Advise) and the bots choose its moves (policy.h).
// Also the seeded dice of `play` and `simulate`, and the points a seat still
// needs.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/rules.h"

namespace martiandice {

// What the game waits for.
enum class Phase {
  kRoll,        // the seat to move rolls: the start of a turn, or after rolling on
  kTake,        // a roll waits for its take
  kStopOrRoll,  // after a take with dice left: stop or roll on
  kOver,        // the game is over
};
// "roll", "take", "stop_or_roll", "over".
std::string_view PhaseName(Phase phase);

// Why a turn ended.
enum class TurnEndReason {
  kStopped,      // the player stopped
  kNoLegalTake,  // a roll allowed no take: scored at once (its tanks count)
  kNoDiceLeft,   // a take left no dice to roll: scored at once
  kEntered,      // the whole turn was entered as its points (GameState::EndTurn)
};
// "stop", "no_legal_take", "no_dice_left", "entered" (the names of review's JSON).
std::string_view TurnEndReasonName(TurnEndReason reason);

// A finished turn.
struct TurnEnd {
  int seat = 0;
  int score = 0;  // the points it added to the seat's total
  Dice aside;     // its final set-aside (empty for kEntered)
  TurnEndReason reason = TurnEndReason::kStopped;
  bool game_over = false;  // the game ended with this turn
};

// What a move did besides changing the state.
struct MoveResult {
  std::optional<TurnEnd> turn_end;  // set when the move ended a turn
};

// One move, for front ends that pass moves around (GameState::Apply).
struct Move {
  enum class Kind { kRoll, kTake, kStop, kRollOn, kEndTurn };
  Kind kind = Kind::kRoll;
  Dice dice;               // kRoll: the dice shown
  Face face = Face::kRay;  // kTake
  int points = 0;          // kEndTurn

  static Move Roll(const Dice& dice) { return {Kind::kRoll, dice, Face::kRay, 0}; }
  static Move Take(Face face) { return {Kind::kTake, Dice(), face, 0}; }
  static Move Stop() { return {Kind::kStop, Dice(), Face::kRay, 0}; }
  static Move RollOn() { return {Kind::kRollOn, Dice(), Face::kRay, 0}; }
  static Move EndTurn(int points) { return {Kind::kEndTurn, Dice(), Face::kRay, points}; }
};

// A game in progress. A value type: copy it to keep a position (an undo is
// the copy made before the move). Every move is checked first: on error the
// state is unchanged and the status (InvalidArgument) names the problem,
// e.g. "humans are already set aside this turn (legal: ray, cow)". Not
// synchronised: one thread at a time may move it; const members may be read
// from any number of threads.
class GameState {
 public:
  // A new game: every total 0, seat 0 to roll. Errors (InvalidArgument):
  // rules out of range, players out of kMinPlayers..kMaxPlayers.
  static absl::StatusOr<GameState> New(const Rules& rules, int players);
  // A game at the start of a turn: `context`'s totals, its seat to roll.
  // Errors: ValidateContext's (e.g. a game already over).
  static absl::StatusOr<GameState> AtTurnStart(const Rules& rules, int players,
                                               const GameContext& context);

  const Rules& rules() const { return rules_; }
  int players() const { return static_cast<int>(context_.scores.size()); }
  Phase phase() const { return phase_; }
  bool over() const { return phase_ == Phase::kOver; }
  // Every seat's total, seat 0 first; the turn in progress is not counted
  // until it ends.
  const std::vector<int>& scores() const { return context_.scores; }
  // The seat to move (once over: the seat that played the last turn).
  int seat() const { return context_.seat; }
  // The current turn's start: scores() and seat(), what win queries take.
  const GameContext& context() const { return context_; }
  // A seat before the mover has reached the target: the game ends after
  // the last seat's turn of this round.
  bool final_round() const;

  // The turn in progress. The set-aside (kTake: this roll's tanks included).
  const Dice& aside() const { return aside_; }
  // kTake: the set-aside before this roll, what a query about the roll takes
  // (Query::aside); otherwise aside().
  const Dice& aside_before_roll() const { return phase_ == Phase::kTake ? before_roll_ : aside_; }
  // kTake: the roll waiting for its take (tanks included); otherwise empty.
  const Dice& roll() const { return roll_; }
  // Dice not set aside: what the next roll rolls (kTake: the roll's dice
  // other than its tanks count as not set aside).
  int dice_left() const { return rules_.dice - aside_.total(); }
  // What the turn would score if it ended now: TurnScore(rules, aside()).
  int turn_score() const { return TurnScore(rules_, aside_); }
  // kTake: the faces that may be taken from roll(), in face order (ray,
  // human, cow, chicken); otherwise none.
  std::vector<Face> legal_takes() const;
  // kTake: whether `face` may be taken from roll(); otherwise false.
  bool can_take(Face face) const;

  // Once over: the seats with the highest total, in seat order. Tied seats
  // share the win (each wins the symmetric duel with chance 1/k). Empty
  // before the game is over.
  std::vector<int> winners() const;

  // The moves. Roll (kRoll): `roll` must show exactly dice_left() dice; its
  // tanks are set aside at once, and a roll that allows no take ends the
  // turn, scored. Take (kTake): a legal face (not a tank, an earthling not
  // set aside this turn, shown by the roll), every die of it set aside; a
  // take that leaves no dice ends the turn, scored. Stop (kStopOrRoll): the
  // turn ends, scored. RollOn (kStopOrRoll): the seat rolls next. EndTurn
  // (kRoll, nothing set aside): the seat's whole turn, played elsewhere,
  // scored `points` (0..MaxTurnScore, a score a turn can have). A turn's end
  // adds its score, moves to the next seat, and ends the game after the
  // final round (docs/RULES.md). Errors: InvalidArgument naming the problem
  // (the wrong phase says what the game waits for); the state is unchanged.
  absl::StatusOr<MoveResult> Roll(const Dice& roll);
  absl::StatusOr<MoveResult> Take(Face face);
  absl::StatusOr<MoveResult> Stop();
  absl::StatusOr<MoveResult> RollOn();
  absl::StatusOr<MoveResult> EndTurn(int points);
  // The move `move` stands for (Roll, Take, Stop, RollOn or EndTurn).
  absl::StatusOr<MoveResult> Apply(const Move& move);

 private:
  GameState(const Rules& rules, GameContext context)
      : rules_(rules), context_(std::move(context)) {}
  absl::Status Expect(Phase phase, std::string_view move) const;
  MoveResult FinishTurn(int score, TurnEndReason reason);

  Rules rules_;
  GameContext context_;  // the totals and the seat to move
  Phase phase_ = Phase::kRoll;
  Dice aside_;
  Dice before_roll_;  // kTake
  Dice roll_;         // kTake
};

// The random generator of `play` and `simulate`.
using DiceRng = std::mt19937_64;
// The random stream of game `game` (from 0) of a series seeded `seed`
// (SplitMix64's finaliser over both): `simulate`'s game g, `play`'s game 0.
DiceRng SeededRng(std::uint64_t seed, std::int64_t game = 0);
// A number drawn uniformly below `n` (n >= 1) from `rng`, without bias: a
// draw at or above the largest multiple of n is drawn again.
std::uint64_t UniformBelow(DiceRng& rng, std::uint64_t n);
// Rolls `dice` dice: each shows one of its six sides (a tank, two rays, a
// human, a cow, a chicken), UniformBelow(rng, 6).
Dice RollDice(int dice, DiceRng& rng);

// The points the mover of `context` still needs: to reach rules.target, or
// in the final round to overtake the leader (the highest total plus one,
// minus the mover's). At least 1 for a valid context (ValidateContext); for
// an invalid one, some number at least 1 (never a throw or a read out of
// bounds).
int PointsNeeded(const Rules& rules, const GameContext& context);

}  // namespace martiandice
