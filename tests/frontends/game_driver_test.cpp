// The game driver (app/game_driver.h), in process, its events recorded by a
// listener: a seeded bots-only game whose turns follow the seats in order,
// every seat's total the sum of its turn scores, the game ended by rules.h's
// GameEndsAfterTurn and won by WinShare; the same seed the same game, its
// dice SeededRng's; human moves refused out of turn or phase with nothing
// changed; hints that are Advisor::Advise's and a review that is
// ReviewChoice's; the setup read from play's options, its errors naming the
// option; and `play --json`'s events read back.
#include "game_driver.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "answer_equality.h"
#include "cli_test_util.h"
#include "martiandice/advisor.h"
#include "martiandice/dice.h"
#include "martiandice/game_state.h"
#include "martiandice/query.h"
#include "martiandice/rules.h"
#include "martiandice/turn_query.h"
#include "rating.h"
#include "test_util.h"

#ifndef MARTIANDICE_DATA_DIR
#error "MARTIANDICE_DATA_DIR must point at the source tree's data/"
#endif

using namespace martiandice;
using answer_equality::Same;
using app::GameDriver;
using app::GameOptions;
using app::GameSetup;
using cli_test::Json;

namespace {

const std::string kData = MARTIANDICE_DATA_DIR;

using test_util::D;

// Every event, as the driver gave it (a review's decisions copied).
class Recorder : public app::GameListener {
 public:
  struct TurnEvent {
    int turn, round, seat;
    std::vector<int> scores;
    bool bot;
  };
  struct RollEvent {
    int seat;
    Dice rolled, aside;
    int aside_before;
  };
  struct TakeEvent {
    int seat;
    Face face;
    int count;
    Dice aside;
    int dice_left, turn_score;
    Dice roll, roll_aside;  // the last roll event's
  };
  struct EndEvent {
    martiandice::TurnEnd end;
    std::vector<int> scores;
  };
  struct HintEvent {
    int seat;
    GameAdvice advice;
  };
  struct OverEvent {
    int turns;
    std::vector<int> scores, winners;
  };
  struct ReviewEvent {
    int seat;
    std::vector<app::Decision> decisions;
    int mistakes;
    double total_loss;
  };

  std::vector<std::string> names;
  int players = 0;
  std::vector<TurnEvent> turns;
  std::vector<RollEvent> rolls;
  std::vector<TakeEvent> takes;
  std::vector<int> roll_ons;
  std::vector<EndEvent> ends;
  std::vector<HintEvent> hints;
  std::vector<GameState> prompts;
  std::vector<OverEvent> overs;
  std::vector<ReviewEvent> reviews;

  void Start(const GameSetup&, int n) override {
    names.push_back("start");
    players = n;
  }
  void Turn(int turn, int round, const GameState& state, bool bot) override {
    names.push_back("turn");
    turns.push_back({turn, round, state.seat(), state.scores(), bot});
  }
  void Roll(int seat, const Dice& rolled, const Dice& aside, const GameState&) override {
    names.push_back("roll");
    // The dice set aside before the roll: the roll's tanks not yet among them.
    const int before = aside.total() - rolled.count(Face::kTank);
    rolls.push_back({seat, rolled, aside, before});
  }
  void Take(int seat, Face face, int count, const Dice& aside, int dice_left,
            int turn_score) override {
    names.push_back("take");
    REQUIRE(!rolls.empty());
    takes.push_back(
        {seat, face, count, aside, dice_left, turn_score, rolls.back().rolled, rolls.back().aside});
  }
  void RollOn(int seat) override {
    names.push_back("roll_on");
    roll_ons.push_back(seat);
  }
  void TurnEnd(const martiandice::TurnEnd& end, const std::vector<int>& scores) override {
    names.push_back("turn_end");
    ends.push_back({end, scores});
  }
  void Hint(int seat, const GameAdvice& advice) override {
    names.push_back("hint");
    hints.push_back({seat, advice});
  }
  void Prompt(const GameState& state) override {
    names.push_back("prompt");
    prompts.push_back(state);
  }
  void GameOver(int n, const std::vector<int>& scores, const std::vector<int>& winners) override {
    names.push_back("game_over");
    overs.push_back({n, scores, winners});
  }
  void Review(const app::SeatReview& review) override {
    names.push_back("review");
    ReviewEvent event{review.seat, {}, review.mistakes, review.total_loss};
    for (const app::Decision* d : review.decisions) event.decisions.push_back(*d);
    reviews.push_back(std::move(event));
  }
};

// Hands every event to two listeners.
class Tee : public app::GameListener {
 public:
  Tee(app::GameListener& a, app::GameListener& b) : a_(a), b_(b) {}
  void Start(const GameSetup& s, int p) override {
    a_.Start(s, p);
    b_.Start(s, p);
  }
  void Turn(int t, int r, const GameState& s, bool bot) override {
    a_.Turn(t, r, s, bot);
    b_.Turn(t, r, s, bot);
  }
  void Roll(int seat, const Dice& r, const Dice& a, const GameState& s) override {
    a_.Roll(seat, r, a, s);
    b_.Roll(seat, r, a, s);
  }
  void Take(int seat, Face f, int c, const Dice& a, int l, int t) override {
    a_.Take(seat, f, c, a, l, t);
    b_.Take(seat, f, c, a, l, t);
  }
  void RollOn(int seat) override {
    a_.RollOn(seat);
    b_.RollOn(seat);
  }
  void TurnEnd(const martiandice::TurnEnd& e, const std::vector<int>& s) override {
    a_.TurnEnd(e, s);
    b_.TurnEnd(e, s);
  }
  void Hint(int seat, const GameAdvice& advice) override {
    a_.Hint(seat, advice);
    b_.Hint(seat, advice);
  }
  void Prompt(const GameState& s) override {
    a_.Prompt(s);
    b_.Prompt(s);
  }
  void GameOver(int t, const std::vector<int>& s, const std::vector<int>& w) override {
    a_.GameOver(t, s, w);
    b_.GameOver(t, s, w);
  }
  void Review(const app::SeatReview& r) override {
    a_.Review(r);
    b_.Review(r);
  }

 private:
  app::GameListener& a_;
  app::GameListener& b_;
};

GameOptions Options(int players, const std::string& humans, const std::string& seed) {
  GameOptions options;
  options.players = players;
  options.humans = humans;
  options.seed = seed;
  options.tables = kData;
  return options;
}

GameSetup Setup(Advisor& advisor, const GameOptions& options) {
  absl::StatusOr<GameSetup> setup = app::ReadGameSetup(options, advisor);
  REQUIRE_MESSAGE(setup.ok(), setup.status());
  return *std::move(setup);
}

// The message of `options`' refusal, which names the input `input` (none: no name).
std::string SetupError(const GameOptions& options, std::optional<std::string> input) {
  Advisor advisor;
  absl::StatusOr<GameSetup> setup = app::ReadGameSetup(options, advisor);
  REQUIRE_FALSE(setup.ok());
  CHECK(setup.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(InputName(setup.status()) == input);
  return std::string(setup.status().message());
}

// The bots play until the game is over, each step announced as play does.
void PlayBots(GameDriver& driver) {
  for (int steps = 0; !driver.state().over(); ++steps) {
    REQUIRE(steps < 10000);
    REQUIRE(driver.bot_to_move());
    const absl::Status status = driver.BotStep();
    REQUIRE_MESSAGE(status.ok(), status);
    REQUIRE(driver.Announce().ok());
  }
}

void CheckOk(const absl::Status& status) { REQUIRE_MESSAGE(status.ok(), status); }

// `status` refuses a move with `message`; no event, and the game and its log
// are as they were.
void CheckRefused(const absl::Status& status, const std::string& message, const GameDriver& driver,
                  const Recorder& events, const GameState& before, const std::string& log,
                  std::size_t count) {
  CHECK(status.code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(status.message()) == message);
  CHECK(events.names.size() == count);
  CHECK(driver.state().phase() == before.phase());
  CHECK(driver.state().seat() == before.seat());
  CHECK(driver.state().scores() == before.scores());
  CHECK(driver.state().aside() == before.aside());
  CHECK(driver.state().roll() == before.roll());
  CHECK(driver.log().text() == log);
}

}  // namespace

TEST_CASE("game driver: a seeded bots-only game, its totals, its end and its winners") {
  for (const int players : {2, 3}) {
    CAPTURE(players);
    Advisor advisor;
    Recorder events;
    GameDriver driver(Setup(advisor, Options(players, "none", "7")), advisor, events);
    driver.Start();
    PlayBots(driver);
    const Rules rules;
    REQUIRE(!events.names.empty());
    CHECK(events.names.front() == "start");
    CHECK(events.names.back() == "game_over");
    CHECK(events.players == players);
    // Turns follow the seats in order, round by round, each one turn end.
    const int n = static_cast<int>(events.turns.size());
    REQUIRE(n >= players);
    REQUIRE(events.ends.size() == events.turns.size());
    CHECK(driver.turn() == n);
    std::vector<int> totals(players, 0);
    for (int i = 0; i < n; ++i) {
      CAPTURE(i);
      const auto& turn = events.turns[i];
      CHECK(turn.turn == i + 1);
      CHECK(turn.seat == i % players);
      CHECK(turn.round == i / players + 1);
      CHECK(turn.bot);
      CHECK(turn.scores == totals);
      const auto& end = events.ends[i];
      CHECK(end.end.seat == turn.seat);
      totals[turn.seat] += end.end.score;
      CHECK(end.scores == totals);
      CHECK(end.end.reason != TurnEndReason::kEntered);
      CHECK(end.end.score == TurnScore(rules, end.end.aside));
      CHECK(end.end.game_over == GameEndsAfterTurn(rules, totals, turn.seat));
      CHECK(end.end.game_over == (i == n - 1));
    }
    // Each roll shows the dice left; each take every die of its face.
    for (const auto& roll : events.rolls) CHECK(roll.rolled.total() == 13 - roll.aside_before);
    for (const auto& take : events.takes) {
      CHECK(take.count == take.roll.count(take.face));
      Dice aside = take.roll_aside;
      aside.add(take.face, take.count);
      CHECK(take.aside == aside);
      CHECK(take.dice_left == 13 - take.aside.total());
      CHECK(take.turn_score == TurnScore(rules, take.aside));
    }
    CHECK(events.rolls.size() == events.turns.size() + events.roll_ons.size());
    // The end: once, with the totals; the winners by WinShare.
    REQUIRE(events.overs.size() == 1);
    CHECK(events.overs[0].turns == n);
    CHECK(events.overs[0].scores == totals);
    CHECK(driver.state().scores() == totals);
    std::vector<int> winners;
    for (int seat = 0; seat < players; ++seat) {
      if (WinShare(totals, seat) > 0) winners.push_back(seat);
    }
    CHECK(events.overs[0].winners == winners);
    CHECK_FALSE(winners.empty());
    // No human: no hint, prompt or review; the log has a scores line a turn.
    CHECK(events.hints.empty());
    CHECK(events.prompts.empty());
    CHECK(events.reviews.empty());
    const std::string& log = driver.log().text();
    int scores_lines = 0;
    for (std::size_t at = 0; (at = log.find("scores ", at)) != std::string::npos; ++at) {
      if (at == 0 || log[at - 1] == '\n') ++scores_lines;
    }
    CHECK(scores_lines == n);
    // Announcing again ends nothing twice; no move is allowed.
    CheckOk(driver.Announce());
    CHECK(events.overs.size() == 1);
    CHECK(driver.BotStep().message() == "the game is over");
    CHECK(driver.Roll(std::nullopt).message() == "the game is over");
  }
}

TEST_CASE("game driver: the same seed plays the same game, with SeededRng's dice") {
  const auto play = [](const std::string& seed) {
    Advisor advisor;
    std::vector<std::string> lines;
    app::JsonGameListener json([&lines](std::string line) { lines.push_back(std::move(line)); });
    Recorder events;
    Tee tee(json, events);
    GameDriver driver(Setup(advisor, Options(2, "none", seed)), advisor, tee);
    driver.Start();
    PlayBots(driver);
    REQUIRE(!events.rolls.empty());
    return std::make_pair(lines, events.rolls[0].rolled);
  };
  const auto [seven, first] = play("7");
  CHECK(play("7").first == seven);
  CHECK(play("8").first != seven);
  DiceRng rng = SeededRng(7);
  CHECK(first == RollDice(13, rng));
}

TEST_CASE("game driver: a human's moves are refused out of turn or phase, nothing changed") {
  Advisor advisor;
  Recorder events;
  GameDriver driver(Setup(advisor, Options(2, "0", "1")), advisor, events);
  driver.Start();
  // `move` is refused with `message`, changing nothing.
  const auto refused = [&](const std::function<absl::Status()>& move, const std::string& message) {
    const GameState before = driver.state();
    const std::string log = driver.log().text();
    const std::size_t count = events.names.size();
    const absl::Status status = move();
    INFO("message: " << status.message());
    CheckRefused(status, message, driver, events, before, log, count);
  };
  CHECK_FALSE(driver.bot_to_move());
  refused([&] { return driver.BotStep(); }, "seat 0 is a human's: no bot moves for it");
  refused([&] { return driver.Take(Face::kHuman, std::nullopt); },
          "cannot take now: the game waits for seat 0 to roll (a turn starts with a roll)");
  refused([&] { return driver.StopOrRollOn(true); },
          "cannot stop now: the game waits for seat 0 to roll (a turn starts with a roll)");
  refused([&] { return driver.Roll(D("2T 3R")); },
          "roll: 2T 3R shows 5 dice, not the 13 left to roll");
  CHECK(InputName(driver.Roll(D("2T 3R"))) == std::optional<std::string>("roll"));
  CheckOk(driver.Roll(D("2T 3R 4H 3C 1K")));
  CHECK(events.names == std::vector<std::string>{"start", "turn", "roll"});
  refused([&] { return driver.Roll(std::nullopt); }, "cannot roll now: the game waits for take");
  refused([&] { return driver.Take(Face::kHuman, 3); },
          "the roll shows 4 humans, not 3 (every die of the face is taken)");
  refused([&] { return driver.Take(Face::kTank, std::nullopt); },
          "tanks are set aside automatically; take a ray, human, cow or chicken (legal: ray, "
          "human, cow, chicken)");
  refused([&] { return driver.StopOrRollOn(false); },
          "cannot roll on now: the game waits for seat 0 to take from the roll 2T 3R 4H 3C 1K "
          "(legal: ray, human, cow, chicken)");
  CheckOk(driver.Take(Face::kHuman, 4));
  REQUIRE(events.takes.size() == 1);
  CHECK(events.takes[0].count == 4);
  CHECK(events.takes[0].aside == D("2T 4H"));
  CHECK(events.takes[0].dice_left == 7);
  CHECK(events.takes[0].turn_score == 0);
  refused([&] { return driver.Take(Face::kCow, std::nullopt); },
          "cannot take now: the game waits for seat 0 to stop or roll on");
  CheckOk(driver.StopOrRollOn(true));
  REQUIRE(events.ends.size() == 1);
  CHECK(events.ends[0].end.reason == TurnEndReason::kStopped);
  CHECK(events.ends[0].end.score == 0);  // 2 tanks, no ray
  // Seat 1 is a bot's.
  CHECK(driver.bot_to_move());
  CheckOk(driver.Roll(std::nullopt));  // the roll (play rolls for every seat)
  REQUIRE(driver.state().seat() == 1);
  REQUIRE(driver.state().phase() == Phase::kTake);
  refused([&] { return driver.Take(driver.state().legal_takes()[0], std::nullopt); },
          "seat 1 is a bot's: its moves are the bot's");
  refused([&] { return driver.StopOrRollOn(true); }, "seat 1 is a bot's: its moves are the bot's");
  CheckOk(driver.BotStep());
  CHECK(driver.log().text().rfind("scores 0,0 seat 0\nroll 2T 3R 4H 3C 1K take H\nstop\n", 0) == 0);
}

TEST_CASE(
    "game driver: hints are Advise's, prompts the human's decisions, the review ReviewChoice's") {
  Advisor advisor;
  Recorder events;
  GameOptions options = Options(2, "0", "3");
  options.hints = true;
  GameDriver driver(Setup(advisor, options), advisor, events);
  driver.Start();
  std::vector<GameAdvice> takes;  // the advice at each of the human's decisions at a take
  int no_choice = 0;              // takes with nothing to choose: not reviewed
  bool first = true;
  for (int steps = 0; !driver.state().over(); ++steps) {
    REQUIRE(steps < 10000);
    const std::size_t hints = events.hints.size();
    const std::size_t prompts = events.prompts.size();
    if (driver.state().phase() == Phase::kRoll) {
      CheckOk(driver.Roll(first ? std::optional<Dice>(D("2T 3R 4H 3C 1K")) : std::nullopt));
    } else if (driver.bot_to_move()) {
      CheckOk(driver.BotStep());
    } else {
      // The hint and the prompt of this decision came with the last Announce.
      REQUIRE(hints > 0);
      REQUIRE(prompts > 0);
      const GameState& state = driver.state();
      const absl::StatusOr<GameAdvice> advice = advisor.Advise(state, kData);
      REQUIRE(advice.ok());
      const GameAdvice& hint = events.hints.back().advice;
      CHECK(events.hints.back().seat == 0);
      CHECK(events.prompts.back().phase() == state.phase());
      CHECK(hint.phase == state.phase());
      CHECK(Same(hint.win_probabilities, advice->win_probabilities));
      if (state.phase() == Phase::kTake) {
        REQUIRE(hint.takes.has_value());
        CHECK(Same(*hint.takes, *advice->takes));
        if (app::IsDecision(*advice->takes)) {
          takes.push_back(*advice);
        } else {
          ++no_choice;
        }
        // The first take is a blunder: the chicken, then stop.
        const Face face =
            first ? Face::kChicken : advice->takes->options[*advice->takes->best].take;
        CheckOk(driver.Take(face, std::nullopt));
      } else {
        REQUIRE(hint.position.has_value());
        CHECK(Same(*hint.position, *advice->position));
        CheckOk(driver.StopOrRollOn(first || advice->position->action != Then::kRoll));
        first = false;
      }
    }
    CheckOk(driver.Announce());
    // A human's decision is announced once: a hint, then a prompt.
    const bool human =
        !driver.state().over() && !driver.bot_to_move() && driver.state().phase() != Phase::kRoll;
    CHECK(events.hints.size() == hints + (human ? 1 : 0));
    CHECK(events.prompts.size() == prompts + (human ? 1 : 0));
  }
  // The review: seat 0's decisions, one a take, each ReviewChoice's.
  REQUIRE(events.reviews.size() == 1);
  const Recorder::ReviewEvent& review = events.reviews[0];
  CHECK(review.seat == 0);
  REQUIRE(review.decisions.size() == takes.size());
  REQUIRE(takes.size() >= 2);
  CHECK(no_choice >= 1);  // this seed's game has one: its last dice, one face they could be
  int mistakes = 0;
  double loss = 0;
  for (std::size_t i = 0; i < takes.size(); ++i) {
    CAPTURE(i);
    const app::Decision& d = review.decisions[i];
    CHECK(d.seat == 0);
    CHECK(Same(d.advice, *takes[i].takes));
    CHECK(d.values == "win");
    const absl::StatusOr<ChoiceReview> expected = ReviewChoice(*takes[i].takes, d.take, d.then);
    REQUIRE(expected.ok());
    CHECK(Same(d.review.value, expected->value));
    CHECK(Same(d.review.loss, expected->loss));
    CHECK(d.review.optimal == expected->optimal);
    mistakes += expected->optimal ? 0 : 1;
    loss += expected->loss.approx;
  }
  const app::Decision& blunder = review.decisions[0];
  CHECK(blunder.turn == 1);
  CHECK(blunder.aside == Dice());
  CHECK(blunder.roll == D("2T 3R 4H 3C 1K"));
  CHECK(blunder.take == Face::kChicken);
  CHECK(blunder.then == Then::kStop);
  CHECK_FALSE(blunder.review.optimal);
  CHECK(blunder.review.loss.approx > 0);
  // Following the advice afterwards costs nothing.
  for (std::size_t i = 1; i < takes.size(); ++i) CHECK(review.decisions[i].review.optimal);
  CHECK(review.mistakes == mistakes);
  CHECK(review.mistakes == 1);
  CHECK(Same(review.total_loss, loss));
}

TEST_CASE("game driver: the setup from play's options") {
  Advisor advisor;
  const GameSetup bots = Setup(advisor, Options(2, "none", "42"));
  CHECK(bots.seed == 42);
  CHECK(bots.humans == 0);
  CHECK_FALSE(bots.hints);
  REQUIRE(bots.seats.size() == 2);
  for (const app::GameSeat& seat : bots.seats) {
    REQUIRE(seat.bot.has_value());
    CHECK(seat.name == "bot win");
    CHECK_FALSE(seat.bot->fallback());
  }
  REQUIRE(bots.coverage.table != nullptr);
  CHECK(bots.coverage.table->path == kData + "/martiandice-p2-d13-b3-t25.mdt");

  const GameSetup you = Setup(advisor, Options(2, "1", "0"));
  CHECK(you.humans == 1);
  CHECK(you.seats[0].name == "bot win");
  CHECK(you.seats[1].name == "you");
  CHECK_FALSE(you.seats[1].bot.has_value());

  GameOptions mixed = Options(4, "0,2", "18446744073709551615");
  mixed.bots = "ev,random";
  // A folder named (--tables) must hold the game's table; unnamed, the
  // search finds none and the game plays the fallback.
  CHECK(SetupError(mixed, std::nullopt).find("no martiandice-p4-d13-b3-t25.mdt there") !=
        std::string::npos);
  mixed.tables.reset();
  const GameSetup four = Setup(advisor, mixed);
  CHECK(four.seed == UINT64_MAX);
  std::vector<std::string> names;
  for (const app::GameSeat& seat : four.seats) names.push_back(seat.name);
  CHECK(names == std::vector<std::string>{"human", "bot ev", "human", "bot random"});
  // No 4-player table in data/: the coverage says how to make one.
  CHECK(four.coverage.table == nullptr);
  CHECK(four.coverage.reason.find("martiandice solve --players 4") != std::string::npos);

  // 6 players: no table (one takes a cluster), the win bots play the fallback.
  GameOptions six_options = Options(6, "none", "1");
  six_options.tables.reset();
  const GameSetup six = Setup(advisor, six_options);
  CHECK(six.coverage.table == nullptr);
  CHECK(six.coverage.reason.find("mpirun -np 5 martiandice solve --players 6") !=
        std::string::npos);
  for (const app::GameSeat& seat : six.seats) CHECK(seat.bot->fallback());
}

TEST_CASE("game driver: setup errors name their input, in the message and the status") {
  GameOptions options = Options(2, "x", "1");
  CHECK(SetupError(options, "humans") ==
        "humans: expected seat numbers such as '0,2', or 'none'; got 'x'");
  options.humans = "+1";
  CHECK(SetupError(options, "humans") ==
        "humans: expected seat numbers such as '0,2', or 'none'; got '+1'");
  options.humans = "2";
  CHECK(SetupError(options, "humans") == "humans: seat 2 is out of range for 2 players (0..1)");
  options.humans = "0,0";
  CHECK(SetupError(options, "humans") == "humans: seat 0 is given twice");
  options.humans = "none";
  options.bots = "win,ev,ev";
  CHECK(SetupError(options, "bots") ==
        "bots: 3 policies for 2 bot seats: give one for every bot, or one per bot seat");
  options.humans = "0";
  options.bots = "ev,ev";
  CHECK(SetupError(options, "bots") ==
        "bots: 2 policies for 1 bot seat: give one for every bot, or one per bot seat");
  options.humans = "none";
  options.bots = "nonsense";
  CHECK(SetupError(options, "bots").rfind("bots: ", 0) == 0);
  options.bots = "win";
  options.players = 7;
  CHECK(SetupError(options, "players") == "players: a game has 2 to 6 players, not 7");
  options.players = 2;
  options.seed = "-1";
  CHECK(SetupError(options, "seed") == "seed: expected an integer in 0..2^64-1, got '-1'");
  options.seed = "1";
  options.rules = Rules{13, 3, 0};
  CHECK(SetupError(options, std::nullopt).rfind("invalid rules: ", 0) == 0);
}

TEST_CASE("game driver: play --json's events read back") {
  Advisor advisor;
  std::vector<std::string> lines;
  app::JsonGameListener json([&lines](std::string line) { lines.push_back(std::move(line)); });
  Recorder events;
  Tee tee(json, events);
  GameOptions options = Options(3, "none", "11");
  options.bots = "win,ev,random";
  GameDriver driver(Setup(advisor, options), advisor, tee);
  driver.Start();
  PlayBots(driver);
  json.LogLines(driver.log().text());
  REQUIRE(lines.size() == events.names.size() + 1);
  std::vector<Json> parsed;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    CAPTURE(lines[i]);
    CHECK(lines[i].find('\n') == std::string::npos);
    parsed.push_back(cli_test::ParseJsonOrFail(lines[i]));
    CHECK(parsed[i].keys.at(0) == "event");
    CHECK(parsed[i]["event"].text == (i < events.names.size() ? events.names[i] : "log"));
  }
  const Json& start = parsed.front();
  CHECK(start["seed"].text == "11");  // text: exact past 2^53
  CHECK(start["players"].number == 3);
  REQUIRE(start["seats"].items.size() == 3);
  const std::vector<std::string> policies = {"win", "ev", "random"};
  for (std::size_t seat = 0; seat < 3; ++seat) {
    CHECK(start["seats"].items[seat]["player"].text == "bot");
    CHECK(start["seats"].items[seat]["policy"].text == policies[seat]);
  }
  CHECK(start["table"].text == kData + "/martiandice-p3-d13-b3-t25.mdt");
  CHECK(start["no_table"].is_null());
  // The turn ends and the end, as the driver said them.
  std::size_t end = 0;
  for (const Json& event : parsed) {
    if (event["event"].text != "turn_end") continue;
    REQUIRE(end < events.ends.size());
    CHECK(event["seat"].number == events.ends[end].end.seat);
    CHECK(event["score"].number == events.ends[end].end.score);
    CHECK(event["reason"].text == TurnEndReasonName(events.ends[end].end.reason));
    // tanks_won: earthlings set aside, and more tanks than rays (counted here from the aside).
    const Dice& aside = events.ends[end].end.aside;
    CHECK(event["tanks_won"].boolean ==
          (aside.earthlings() > 0 && aside.count(Face::kTank) > aside.count(Face::kRay)));
    std::vector<double> scores;
    for (const Json& s : event["scores"].items) scores.push_back(s.number);
    CHECK(scores ==
          std::vector<double>(events.ends[end].scores.begin(), events.ends[end].scores.end()));
    ++end;
  }
  CHECK(end == events.ends.size());
  const Json& over = parsed[parsed.size() - 2];
  CHECK(over["turns"].number == driver.turn());
  std::vector<double> winners;
  for (const Json& w : over["winners"].items) winners.push_back(w.number);
  const std::vector<int> expected = driver.state().winners();
  CHECK(winners == std::vector<double>(expected.begin(), expected.end()));
  // The log event: the log's lines.
  std::string log;
  for (const Json& line : parsed.back()["lines"].items) log += line.text + "\n";
  CHECK(log == driver.log().text());
}

// A JSON number past 2^53 is rounded by most parsers (JavaScript's): the seed is text.
TEST_CASE("game driver: the start event gives the seed exactly, as text") {
  Advisor advisor;
  std::vector<std::string> lines;
  app::JsonGameListener json([&lines](std::string line) { lines.push_back(std::move(line)); });
  GameDriver driver(Setup(advisor, Options(2, "none", "18446744073709551615")), advisor, json);
  driver.Start();
  REQUIRE_FALSE(lines.empty());
  const Json start = cli_test::ParseJsonOrFail(lines.front());
  CHECK(start["event"].text == "start");
  CHECK(start["seed"].text == "18446744073709551615");
}
