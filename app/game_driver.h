// One game of Martian Dice driven move by move, for `martiandice play` and the
// WebAssembly module's games (web/wasm/game.cpp): the setup (seats and their
// bots, seed, hints, table coverage) read from play's options, the game's
// state, its seeded dice, its log, the turn counter and the human decisions
// with their advice and review. It owns no I/O: what happens goes to a
// GameListener; JsonGameListener renders it as `play --json`'s objects.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/advisor.h"
#include "martiandice/dice.h"
#include "martiandice/game_log.h"
#include "martiandice/game_state.h"
#include "martiandice/policy.h"
#include "martiandice/turn_query.h"
#include "rating.h"

namespace martiandice::app {

struct GameSeat {
  std::optional<Bot> bot;  // unset: a human
  std::string name;        // "you", "human", "bot win"
};

struct GameSetup {
  Rules rules;
  std::vector<GameSeat> seats;
  std::uint64_t seed = 0;
  bool hints = false;
  // A human's take with one legal choice is made for them (Forced, then
  // Take), rather than prompted.
  bool forced_takes = false;
  std::optional<std::string> tables;  // the table named (--tables), else the search
  TableCoverage coverage;
  int humans = 0;
};

// A game as asked for (play's options, the module's arguments).
struct GameOptions {
  Rules rules;
  int players = 2;
  std::string humans = "none";      // "none", or seat numbers "0,2"
  std::string bots = "win";         // one policy for every bot, or one per bot seat
  std::optional<std::string> seed;  // unset: a random one
  bool hints = false;
  bool forced_takes = false;  // GameSetup::forced_takes
  std::optional<std::string> tables;
};

// The setup of `options`, checked. Errors name their input (InputError:
// "humans: ...", "bots: ...", "players: ...", "seed: ...").
absl::StatusOr<GameSetup> ReadGameSetup(const GameOptions& options, Advisor& advisor);

// A human decision at a roll, settled once its stop or roll on is known.
struct Decision {
  int turn = 0;
  int seat = 0;
  Dice aside;  // before the roll
  Dice roll;
  RollAdvice advice;
  std::string values;  // the advice's goal: "win", or the fallback's "capped:15", "final:3/1"
  bool chance = true;  // the values are chances (win, final:M/K), not points (capped:M)
  Face take = Face::kRay;
  Then then = Then::kStop;
  ChoiceReview review;
};

// A human seat's decisions at the end of the game.
struct SeatReview {
  int seat = 0;
  std::vector<const Decision*> decisions;
  int mistakes = 0;  // decisions not optimal
  // The losses, as review's totals: in chances to win with a table
  // (total_loss); without one, the fallback's points (capped:M, fallback_loss)
  // and its final round's chances (final:M/K, fallback_final_loss), never
  // added to each other.
  double total_loss = 0;
  double fallback_loss = 0;
  double fallback_final_loss = 0;
  // The decisions rated (app/rating.h): set where the values are chances to
  // win, from a table; unset under the fallback (its values are points).
  std::optional<RatingTally> rating;
};

// What happens in a game, event by event (play's events).
class GameListener {
 public:
  virtual ~GameListener() = default;
  virtual void Start(const GameSetup& setup, int players) = 0;
  // A turn starts: `state` before its first roll.
  virtual void Turn(int turn, int round, const GameState& state, bool bot) = 0;
  // `state` after the roll; `aside` the dice set aside after it.
  virtual void Roll(int seat, const Dice& rolled, const Dice& aside, const GameState& state) = 0;
  virtual void Take(int seat, Face face, int count, const Dice& aside, int dice_left,
                    int turn_score) = 0;
  virtual void RollOn(int seat) = 0;
  virtual void TurnEnd(const martiandice::TurnEnd& end, const std::vector<int>& scores) = 0;
  virtual void Hint(int seat, const GameAdvice& advice) = 0;
  // A human's only legal take, about to be made for them (forced_takes).
  virtual void Forced(int /*seat*/, Face /*face*/, int /*count*/) {}
  // A human's decision at `state`.
  virtual void Prompt(const GameState& state) = 0;
  virtual void GameOver(int turns, const std::vector<int>& scores,
                        const std::vector<int>& winners) = 0;
  virtual void Review(const SeatReview& review) = 0;
};

class GameDriver {
 public:
  GameDriver(GameSetup setup, Advisor& advisor, GameListener& listener);

  // The start event.
  void Start();

  // The moves. Each either is refused (the status says why; nothing changed)
  // or is made with its events; Announce then tells what comes next.
  // A roll: `dice` given (a coach's real dice), or rolled from the seed.
  absl::Status Roll(const std::optional<Dice>& dice);
  // A human's take; `count`, when given, must be the roll's count of the face.
  absl::Status Take(Face face, std::optional<int> count);
  absl::Status StopOrRollOn(bool stop);
  // The bot to move plays its next step: its roll, or its take (with its stop
  // or roll on).
  absl::Status BotStep();

  // After a move: the end of the game (game_over, each human's review), or a
  // human's decision (the hint when asked for, the prompt); with
  // forced_takes, a take with one legal choice is made first (Forced, Take).
  absl::Status Announce();

  // The advice at the current decision, computed once per decision.
  absl::StatusOr<GameAdvice> Advice();

  const GameSetup& setup() const { return setup_; }
  const GameState& state() const { return state_; }
  const GameLog& log() const { return log_; }
  int turn() const { return turn_; }
  bool bot_to_move() const { return setup_.seats[state_.seat()].bot.has_value(); }

 private:
  absl::Status Expect(Phase phase, std::string_view move) const;
  absl::Status HumanTurn() const;
  absl::StatusOr<MoveResult> Apply(const Move& move);
  void Say(const GameState& before, const Move& move, const MoveResult& result);
  void Decide(const GameState& before, const GameAdvice& advice, Face take);
  void Settle(Then then);
  void End();

  GameSetup setup_;
  Advisor& advisor_;
  GameListener& listener_;
  DiceRng rng_;
  GameState state_;
  GameLog log_;
  int turn_ = 0;
  bool ended_ = false;
  std::optional<GameAdvice> advice_;  // at the current decision, once asked for
  std::optional<Decision> pending_;
  std::vector<Decision> decisions_;
};

// The events as `play --json` writes them, one JSON object each, handed to
// `emit`.
class JsonGameListener : public GameListener {
 public:
  explicit JsonGameListener(std::function<void(std::string)> emit) : emit_(std::move(emit)) {}
  void Start(const GameSetup& setup, int players) override;
  void Turn(int turn, int round, const GameState& state, bool bot) override;
  void Roll(int seat, const Dice& rolled, const Dice& aside, const GameState& state) override;
  void Take(int seat, Face face, int count, const Dice& aside, int dice_left,
            int turn_score) override;
  void RollOn(int seat) override;
  void TurnEnd(const martiandice::TurnEnd& end, const std::vector<int>& scores) override;
  void Hint(int seat, const GameAdvice& advice) override;
  void Forced(int seat, Face face, int count) override;
  void Prompt(const GameState& state) override;
  void GameOver(int turns, const std::vector<int>& scores,
                const std::vector<int>& winners) override;
  void Review(const SeatReview& review) override;
  // The log event holding the log's lines.
  void LogLines(const std::string& text);

 private:
  std::function<void(std::string)> emit_;
};

}  // namespace martiandice::app
