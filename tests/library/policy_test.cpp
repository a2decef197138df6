// The bots (martiandice/policy.h): the specs, the heuristic styles' choices
// worked out by hand, the solved policies' choices against the advisor's,
// the stop chosen at a take equal to the one chosen after it, the fallback
// where no table covers the game, and optimal self-play winning as often as
// the shipped tables say (2 and 3 players, within 4 standard deviations).
#include "martiandice/policy.h"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "martiandice/advisor.h"
#include "martiandice/context.h"
#include "martiandice/game_state.h"
#include "martiandice/turn_query.h"

#ifndef MARTIANDICE_DATA_DIR
#error "MARTIANDICE_DATA_DIR must point at the source tree's data/"
#endif

using namespace martiandice;

namespace {

const std::string kData = MARTIANDICE_DATA_DIR;

Dice D(const std::string& text) {
  auto dice = ParseDice(text);
  REQUIRE_MESSAGE(dice.ok(), text);
  return *dice;
}

PolicySpec Spec(const std::string& text) {
  auto spec = ParsePolicy(text);
  REQUIRE_MESSAGE(spec.ok(), spec.status().message());
  return *spec;
}

Bot MakeBot(Advisor& advisor, const std::string& spec, int players = 2,
            const Rules& rules = Rules{}, bool fallback = false) {
  BotOptions options;
  options.tables = kData;
  options.fallback = fallback;
  auto bot = Bot::Create(Spec(spec), advisor, rules, players, options);
  REQUIRE_MESSAGE(bot.ok(), bot.status().message());
  return *std::move(bot);
}

// A game of `players` at `context`, after the roll `roll` (and earlier moves).
GameState Rolled(int players, const GameContext& context, const std::vector<Move>& moves) {
  auto state = GameState::AtTurnStart(Rules{}, players, context);
  REQUIRE(state.ok());
  for (const Move& move : moves) REQUIRE(state->Apply(move).ok());
  return *std::move(state);
}

Bot::Choice Choose(const Bot& bot, const GameState& state) {
  DiceRng rng = SeededRng(1);
  auto choice = bot.ChooseTake(state, rng);
  REQUIRE_MESSAGE(choice.ok(), choice.status().message());
  return *choice;
}

}  // namespace

TEST_CASE("policy: the specs, old and new") {
  using Kind = PolicySpec::Kind;
  CHECK(Spec("capped").kind == Kind::kCappedNeeded);
  CHECK(Spec("capped:7").kind == Kind::kObjective);
  CHECK(Spec("capped:7").objective->name() == "capped:7");
  CHECK(Spec("cautious").kind == Kind::kCautious);
  CHECK(Spec("bold").kind == Kind::kBold);
  CHECK(Spec("stop:9").param == 9);
  CHECK(Spec("bold").name == "bold");
  auto bad = ParsePolicy("brave");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(bad.status().message()).find("cautious or bold") != std::string::npos);
  CHECK(ParsePolicies("win,capped,cautious,bold")->size() == 4);
}

TEST_CASE("policy: bots are made for a game, and say what they cannot play") {
  Advisor advisor;
  PolicySpec hand_made;
  hand_made.kind = PolicySpec::Kind::kObjective;
  hand_made.name = "mine";
  CHECK(Bot::Create(hand_made, advisor, Rules{}, 2).status().code() ==
        absl::StatusCode::kInvalidArgument);
  CHECK(Bot::Create(Spec("ev"), advisor, Rules{}, 7).status().code() ==
        absl::StatusCode::kInvalidArgument);
  CHECK(Bot::Create(Spec("ev"), advisor, Rules{0, 3, 25}, 2).status().code() ==
        absl::StatusCode::kInvalidArgument);
  // win: the table, or why there is none; with the fallback, `capped`.
  const Bot two = MakeBot(advisor, "win");
  CHECK_FALSE(two.fallback());
  CHECK(two.table_path().find("martiandice-p2-d13-b3-t25.mdt") != std::string::npos);
  const absl::Status six = Bot::Create(Spec("win"), advisor, Rules{}, 6).status();
  CHECK(six.code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(six.message()).find("no policy table martiandice-p6-d13-b3-t25.mdt") !=
        std::string::npos);
  const Bot fallback = MakeBot(advisor, "win", 6, Rules{}, true);
  CHECK(fallback.fallback());
  CHECK(fallback.fallback_reason().find("`mpirun -np 5 martiandice solve --players 6") !=
        std::string::npos);
  // A bot plays the game it was made for.
  GameState three = Rolled(3, GameContext{{0, 0, 0}, 0}, {Move::Roll(D("2T 3R 4H 3C 1K"))});
  DiceRng rng = SeededRng(1);
  CHECK(two.ChooseTake(three, rng).status().code() == absl::StatusCode::kInvalidArgument);
  GameState fresh = Rolled(2, GameContext{{0, 0}, 0}, {});
  CHECK(two.ChooseTake(fresh, rng).status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(two.ChooseStop(fresh, rng).status().code() == absl::StatusCode::kInvalidArgument);
  // In every phase, a roll too: another game's state is refused and left as it was.
  const Bot ev = MakeBot(advisor, "ev");
  GameState other = *GameState::New(Rules{5, 3, 25}, 2);
  for (const absl::Status& refused :
       {ev.NextStep(other, rng).status(), ev.PlayStep(other, rng).status(),
        ev.NextStep(*GameState::New(Rules{}, 3), rng).status()}) {
    CHECK(refused.code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(refused.message()).find("was made for another game") != std::string::npos);
  }
  CHECK(other.phase() == Phase::kRoll);
  CHECK(other.dice_left() == 5);
  // A kind that is none of PolicySpec::Kind's.
  PolicySpec unknown = Spec("ev");
  unknown.kind = static_cast<PolicySpec::Kind>(42);
  const absl::Status made = Bot::Create(unknown, advisor, Rules{}, 2).status();
  CHECK(made.code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(made.message()).find("kind 42 is none of PolicySpec::Kind's") !=
        std::string::npos);
}

TEST_CASE("policy: the human-like styles, by hand") {
  Advisor advisor;
  const Bot cautious = MakeBot(advisor, "cautious");
  const Bot bold = MakeBot(advisor, "bold");
  const Bot stop8 = MakeBot(advisor, "stop:8");
  // 2T 3R 4H 3C 1K: the tanks lead (2 to 0). cautious takes the rays (2T 3R:
  // 0 points, no earthling) and rolls on; bold takes the 4 humans (2T 4H: 0
  // points, the tanks lead) and rolls on; stop:8 takes the biggest group,
  // the humans.
  const GameState first = Rolled(2, GameContext{{0, 0}, 0}, {Move::Roll(D("2T 3R 4H 3C 1K"))});
  CHECK(Choose(cautious, first).take == Face::kRay);
  CHECK_FALSE(Choose(cautious, first).stop);
  CHECK(Choose(bold, first).take == Face::kHuman);
  CHECK_FALSE(Choose(bold, first).stop);
  CHECK(Choose(stop8, first).take == Face::kHuman);
  // No tank: cautious takes the biggest earthling group too. 3R 4H 3C 3K:
  // the 4 humans, 4 points: below 5, it rolls on.
  const GameState calm = Rolled(2, GameContext{{0, 0}, 0}, {Move::Roll(D("3R 4H 3C 3K"))});
  CHECK(Choose(cautious, calm).take == Face::kHuman);
  CHECK_FALSE(Choose(cautious, calm).stop);
  // Equal earthling groups: human, cow, chicken in that order.
  const GameState tied = Rolled(2, GameContext{{0, 0}, 0}, {Move::Roll(D("1T 3R 3H 3C 3K"))});
  CHECK(Choose(bold, tied).take == Face::kHuman);
  // 5H set aside, then 1T 1R 2C 4K rolled (1T 5H after the tank). cautious:
  // the tanks ahead, the ray (1T 1R 5H: 5 points, it stops). bold: the 4
  // chickens (1T 5H 4K: 0 points, the tank ahead; it rolls on); stop:8 the
  // biggest group, the chickens too, and rolls on at 0 points.
  const GameState level = Rolled(2, GameContext{{0, 0}, 0},
                                 {Move::Roll(D("1R 5H 4C 3K")), Move::Take(Face::kHuman),
                                  Move::RollOn(), Move::Roll(D("1T 1R 2C 4K"))});
  CHECK(Choose(cautious, level).take == Face::kRay);
  CHECK(Choose(cautious, level).stop);
  CHECK(Choose(bold, level).take == Face::kChicken);
  CHECK_FALSE(Choose(bold, level).stop);
  CHECK(Choose(stop8, level).take == Face::kChicken);
  CHECK_FALSE(Choose(stop8, level).stop);
  // After a take: cautious stops at 5, bold at 10.
  GameState after = level;
  REQUIRE(after.Take(Face::kChicken).ok());  // 1T 5H 4K: 0 points (1 tank, no ray)
  DiceRng rng = SeededRng(2);
  CHECK_FALSE(*cautious.ChooseStop(after, rng));
  CHECK_FALSE(*bold.ChooseStop(after, rng));
}

TEST_CASE("policy: the solved policies play the advisor's first optimal take") {
  Advisor advisor;
  const GameState behind =
      Rolled(2, GameContext{{18, 22}, 0},
             {Move::Roll(D("2T 3R 4H 3C 1K")), Move::Take(Face::kHuman), Move::RollOn(),
              Move::Roll(D("1T 2R 3C 1K")), Move::Take(Face::kRay), Move::RollOn(),
              Move::Roll(D("2H 1C 1K")), Move::Take(Face::kChicken), Move::RollOn(),
              Move::Roll(D("1R 1H 1C"))});
  // The README: behind 18 to 22, win takes the cow and rolls on; ev the ray.
  CHECK(Choose(MakeBot(advisor, "win"), behind).take == Face::kCow);
  CHECK_FALSE(Choose(MakeBot(advisor, "win"), behind).stop);
  CHECK(Choose(MakeBot(advisor, "ev"), behind).take == Face::kRay);
  // capped: seat 0 needs 7, as capped:7 plays.
  const Bot capped = MakeBot(advisor, "capped");
  const Bot capped7 = MakeBot(advisor, "capped:7");
  for (const GameContext& context : {GameContext{{18, 22}, 0}, GameContext{{1, 22}, 0}}) {
    const GameState state = Rolled(2, context, {Move::Roll(D("2T 3R 4H 3C 1K"))});
    const Bot::Choice choice = Choose(capped, state);
    auto solution = advisor.Turn(
        Rules{}, Objective::Capped(std::min(PointsNeeded(Rules{}, context), MaxTurnScore(Rules{}))),
        Precision::kDouble);
    REQUIRE(solution.ok());
    auto advice = AdviseRoll(*solution, Dice(), D("2T 3R 4H 3C 1K"));
    REQUIRE(advice.ok());
    CHECK(choice.take == advice->options[*advice->best].take);
    CHECK(choice.stop == (advice->options[*advice->best].then != Then::kRoll));
    if (PointsNeeded(Rules{}, context) == 7) CHECK(choice.take == Choose(capped7, state).take);
  }
}

TEST_CASE("policy: the stop chosen at the take is the stop chosen after it") {
  Advisor advisor;
  for (const std::string& spec : {"win", "ev", "capped", "stop:6", "cautious", "bold"}) {
    CAPTURE(spec);
    const Bot bot = MakeBot(advisor, spec);
    DiceRng rng = SeededRng(11);
    int checked = 0;
    for (int game = 0; game < 30; ++game) {
      auto state = GameState::New(Rules{}, 2);
      REQUIRE(state.ok());
      while (!state->over()) {
        if (state->phase() == Phase::kTake) {
          auto choice = bot.ChooseTake(*state, rng);
          REQUIRE(choice.ok());
          REQUIRE(state->Take(choice->take).ok());
          if (state->phase() == Phase::kStopOrRoll) {
            auto stop = bot.ChooseStop(*state, rng);
            REQUIRE(stop.ok());
            CHECK(*stop == choice->stop);
            ++checked;
            REQUIRE((choice->stop ? state->Stop() : state->RollOn()).ok());
          }
          continue;
        }
        REQUIRE(bot.PlayStep(*state, rng).ok());
      }
    }
    CHECK(checked > 30);
  }
}

TEST_CASE("policy: a bot's steps and turns, reproducible for a seed") {
  Advisor advisor;
  const Bot random = MakeBot(advisor, "random", 3);
  auto play = [&](std::uint64_t seed) {
    DiceRng rng = SeededRng(seed);
    auto state = GameState::New(Rules{}, 3);
    REQUIRE(state.ok());
    std::vector<int> scores;
    for (int turn = 0; turn < 12 && !state->over(); ++turn) {
      auto end = random.PlayTurn(*state, rng);
      REQUIRE(end.ok());
      CHECK(end->seat == turn % 3);
      scores.push_back(end->score);
    }
    return scores;
  };
  CHECK(play(5) == play(5));
  CHECK(play(5) != play(6));
  // A step: a roll, then a take with its stop or roll on; NextStep applies nothing.
  const Bot ev = MakeBot(advisor, "ev");
  DiceRng rng = SeededRng(3);
  GameState state = Rolled(2, GameContext{{0, 0}, 0}, {});
  auto roll = ev.NextStep(state, rng);
  REQUIRE(roll.ok());
  CHECK(roll->move.kind == Move::Kind::kRoll);
  CHECK(roll->move.dice.total() == 13);
  CHECK_FALSE(roll->then.has_value());
  CHECK(state.phase() == Phase::kRoll);
  REQUIRE(state.Apply(roll->move).ok());
  if (state.phase() == Phase::kTake) {
    const GameState before = state;
    auto take = ev.NextStep(state, rng);
    REQUIRE(take.ok());
    CHECK(take->move.kind == Move::Kind::kTake);
    CHECK(take->then.has_value());  // a first take never takes all 13 dice
    CHECK(state.aside() == before.aside());
    // PlayStep plays the same step: the take, then its stop or roll on.
    DiceRng again = SeededRng(3);
    GameState played = Rolled(2, GameContext{{0, 0}, 0}, {});
    REQUIRE(ev.PlayStep(played, again).ok());
    REQUIRE(ev.PlayStep(played, again).ok());
    REQUIRE(state.Apply(take->move).ok());
    REQUIRE(state.Apply(*take->then).ok());
    CHECK(played.aside() == state.aside());
    CHECK(played.phase() == state.phase());
    CHECK(played.scores() == state.scores());
  }
  // A take that leaves no dice has no `then`: 5 dice, all cows.
  const Bot bold = MakeBot(advisor, "bold", 2, Rules{5, 3, 25});
  auto last = GameState::New(Rules{5, 3, 25}, 2);
  REQUIRE(last.ok());
  REQUIRE(last->Roll(D("5C")).ok());
  auto all = bold.NextStep(*last, rng);
  REQUIRE(all.ok());
  CHECK(all->move.face == Face::kCow);
  CHECK_FALSE(all->then.has_value());
}

// Where no table covers a game, win plays the fallback: the advisor's advice
// at every decision (Advisor::Advise), as the `fallback` policy does; `capped`
// plays alike until the final round, where it still counts the points.
TEST_CASE("policy: the fallback plays the advisor's fallback where no table covers the game") {
  Advisor advisor;
  const Bot win = MakeBot(advisor, "win", 5, Rules{}, true);
  const Bot fallback = MakeBot(advisor, "fallback", 5);
  const Bot capped = MakeBot(advisor, "capped", 5);
  CHECK(win.fallback());
  CHECK_FALSE(fallback.fallback());
  int decisions = 0;
  int final_round = 0;
  int capped_differs = 0;
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    DiceRng rng = SeededRng(seed);
    auto state = GameState::New(Rules{}, 5);
    REQUIRE(state.ok());
    while (!state->over()) {
      if (state->phase() == Phase::kRoll) {
        REQUIRE(win.PlayStep(*state, rng).ok());
        continue;
      }
      const absl::StatusOr<GameAdvice> advice = advisor.Advise(*state, kData);
      REQUIRE_MESSAGE(advice.ok(), advice.status());
      REQUIRE(advice->fallback);
      bool stop = false;
      Face take = Face::kRay;
      if (state->phase() == Phase::kTake) {
        const TakeOption& best = advice->takes->options[*advice->takes->best];
        take = best.take;
        stop = best.then != Then::kRoll;
      } else {
        stop = advice->position->action != Then::kRoll;
      }
      std::array<absl::StatusOr<Bot::Step>, 3> steps{
          win.NextStep(*state, rng), fallback.NextStep(*state, rng), capped.NextStep(*state, rng)};
      const auto same = [&](const absl::StatusOr<Bot::Step>& step) {
        REQUIRE(step.ok());
        const Move& last = step->then ? *step->then : step->move;
        const bool take_same = state->phase() != Phase::kTake || step->move.face == take;
        const bool stop_same = !step->then && state->phase() == Phase::kTake
                                   ? true
                                   : (last.kind == Move::Kind::kStop) == stop;
        return take_same && stop_same;
      };
      CHECK(same(steps[0]));
      CHECK(same(steps[1]));
      const bool in_final = FinalRoundBegun(Rules{}, state->scores(), state->seat());
      if (!in_final) CHECK(same(steps[2]));
      capped_differs += in_final && !same(steps[2]);
      final_round += in_final;
      ++decisions;
      REQUIRE(state->Apply(steps[0]->move).ok());
      if (steps[0]->then) REQUIRE(state->Apply(*steps[0]->then).ok());
    }
  }
  MESSAGE(decisions << " decisions, " << final_round << " in the final round, where capped played "
                    << capped_differs << " otherwise");
  CHECK(final_round > 0);
}

TEST_CASE("policy: optimal self-play wins as often as the shipped tables say (4 sigma)") {
  Advisor advisor;
  for (const auto& row : {std::pair{2, 4000}, std::pair{3, 3000}}) {
    const auto& players = row.first;  // named: clang 14 captures no binding
    const auto& games = row.second;
    CAPTURE(players);
    const Bot bot = MakeBot(advisor, "win", players);
    auto table = advisor.Table(Rules{}, players, kData);
    REQUIRE(table.ok());
    auto predicted = (*table)->table.WinProbabilities(GameContext{std::vector<int>(players, 0), 0});
    REQUIRE(predicted.ok());
    std::vector<double> share(players, 0), square(players, 0);
    for (int game = 0; game < games; ++game) {
      DiceRng rng = SeededRng(2024, game);
      auto state = GameState::New(Rules{}, players);
      REQUIRE(state.ok());
      while (!state->over()) REQUIRE(bot.PlayTurn(*state, rng).ok());
      const std::vector<int> winners = state->winners();
      for (int seat : winners) {
        const double s = 1.0 / static_cast<double>(winners.size());
        share[seat] += s;
        square[seat] += s * s;
      }
    }
    for (int seat = 0; seat < players; ++seat) {
      const double mean = share[seat] / games;
      const double variance = (square[seat] / games - mean * mean) * games / (games - 1);
      const double sigma = std::sqrt(variance / games);
      MESSAGE(players << " players, seat " << seat << ": predicted " << (*predicted)[seat]
                      << ", played " << mean << " +- " << sigma);
      CHECK(sigma > 0);
      CHECK(std::fabs(mean - (*predicted)[seat]) <= 4 * sigma);
    }
  }
}
