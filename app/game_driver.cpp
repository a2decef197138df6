// The game driver shared by `martiandice play` and the WebAssembly module's
// games: the setup read from play's options, the moves applied to the
// library's GameState (bots: Bot, dice: SeededRng's stream, hints:
// Advisor::Advise, review: ReviewChoice, log: GameLog), and `play --json`'s
// objects for what happens.
#include "game_driver.h"

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "answers.h"
#include "front_end.h"
#include "json.h"
#include "martiandice/query.h"
#include "rating.h"

namespace martiandice::app {
namespace {

std::string Str(absl::string_view text) { return std::string(text.data(), text.size()); }

// `text`: "none", or seat numbers such as "0,2".
absl::StatusOr<std::vector<bool>> ReadHumans(const std::string& text, int players) {
  std::vector<bool> human(players, false);
  if (text == "none") return human;
  for (absl::string_view piece : absl::StrSplit(text, ',')) {
    int seat = 0;
    if (!absl::SimpleAtoi(piece, &seat) || Str(piece).find('+') != std::string::npos) {
      return InputError(
          "humans",
          absl::StrCat("expected seat numbers such as '0,2', or 'none'; got '", text, "'"));
    }
    if (seat < 0 || seat >= players) {
      return InputError("humans", absl::StrCat("seat ", seat, " is out of range for ", players,
                                               " players (0..", players - 1, ")"));
    }
    if (human[seat]) {
      return InputError("humans", absl::StrCat("seat ", seat, " is given twice"));
    }
    human[seat] = true;
  }
  return human;
}

// The bots' policies: one for every bot, or one per bot seat.
absl::StatusOr<std::vector<PolicySpec>> ReadBots(const std::string& text, int bots) {
  absl::StatusOr<std::vector<PolicySpec>> policies = ParsePolicies(text);
  if (!policies.ok()) return InputError("bots", policies.status());
  if (policies->size() != 1 && static_cast<int>(policies->size()) != bots) {
    return InputError("bots", absl::StrCat(policies->size(), " policies for ", bots,
                                           bots == 1 ? " bot seat" : " bot seats",
                                           ": give one for every bot, or one per bot seat"));
  }
  return policies;
}

std::uint64_t RandomSeed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) | device();
}

}  // namespace

absl::StatusOr<GameSetup> ReadGameSetup(const GameOptions& options, Advisor& advisor) {
  GameSetup setup;
  setup.rules = options.rules;
  if (absl::Status status = CheckRules(setup.rules); !status.ok()) return status;
  const int players = options.players;
  if (absl::Status status = CheckPlayers(players, "players"); !status.ok()) return status;
  absl::StatusOr<std::vector<bool>> human = ReadHumans(options.humans, players);
  if (!human.ok()) return human.status();
  setup.humans = static_cast<int>(std::count(human->begin(), human->end(), true));
  absl::StatusOr<std::vector<PolicySpec>> policies = ReadBots(options.bots, players - setup.humans);
  if (!policies.ok()) return policies.status();
  if (options.seed) {
    absl::StatusOr<std::uint64_t> seed = ReadSeed(*options.seed, "seed");
    if (!seed.ok()) return seed.status();
    setup.seed = *seed;
  } else {
    setup.seed = RandomSeed();
  }
  setup.hints = options.hints;
  setup.forced_takes = options.forced_takes;
  setup.tables = options.tables;
  absl::StatusOr<TableCoverage> coverage =
      GameCoverage(advisor, setup.rules, players, setup.tables);
  if (!coverage.ok()) return coverage.status();
  setup.coverage = *std::move(coverage);
  BotOptions bot_options;
  bot_options.tables = setup.tables;
  bot_options.fallback = true;
  int bot = 0;
  for (int seat = 0; seat < players; ++seat) {
    GameSeat& s = setup.seats.emplace_back();
    if ((*human)[seat]) {
      s.name = setup.humans == 1 ? "you" : "human";
      continue;
    }
    const PolicySpec& spec = (*policies)[policies->size() == 1 ? 0 : bot++];
    absl::StatusOr<Bot> made = Bot::Create(spec, advisor, setup.rules, players, bot_options);
    if (!made.ok()) return made.status();
    s.bot = *std::move(made);
    s.name = absl::StrCat("bot ", spec.name);
  }
  return setup;
}

// ---------------------------------------------------------------------------
// The driver.

GameDriver::GameDriver(GameSetup setup, Advisor& advisor, GameListener& listener)
    : setup_(std::move(setup)),
      advisor_(advisor),
      listener_(listener),
      rng_(SeededRng(setup_.seed)),
      state_(*GameState::New(setup_.rules, static_cast<int>(setup_.seats.size()))) {}

void GameDriver::Start() { listener_.Start(setup_, state_.players()); }

absl::Status GameDriver::Roll(const std::optional<Dice>& dice) {
  if (absl::Status status = Expect(Phase::kRoll, "roll"); !status.ok()) return status;
  if (dice && dice->total() != state_.dice_left()) {
    return InputError("roll", absl::StrCat(FormatDice(*dice), " shows ", DiceCount(dice->total()),
                                           ", not the ", state_.dice_left(), " left to roll"));
  }
  return Apply(Move::Roll(dice ? *dice : RollDice(state_.dice_left(), rng_))).status();
}

absl::Status GameDriver::Take(Face face, std::optional<int> count) {
  if (absl::Status status = HumanTurn(); !status.ok()) return status;
  const bool take = state_.phase() == Phase::kTake;
  // A face that may not be taken is refused for that (by Apply), whatever the count.
  if (take && count && state_.can_take(face) && state_.roll().count(face) != *count) {
    return absl::InvalidArgumentError(
        absl::StrCat("the roll shows ", FaceCountText(face, state_.roll().count(face)), ", not ",
                     *count, " (every die of the face is taken)"));
  }
  std::optional<GameAdvice> advice;
  if (take) {
    absl::StatusOr<GameAdvice> advised = Advice();
    if (!advised.ok()) return advised.status();
    advice = *std::move(advised);
  }
  const GameState before = state_;
  absl::StatusOr<MoveResult> result = Apply(Move::Take(face));
  if (!result.ok()) return result.status();
  Decide(before, *advice, face);
  if (result->turn_end) Settle(Then::kStop);  // no dice left
  return absl::OkStatus();
}

absl::Status GameDriver::StopOrRollOn(bool stop) {
  if (absl::Status status = HumanTurn(); !status.ok()) return status;
  absl::StatusOr<MoveResult> result = Apply(stop ? Move::Stop() : Move::RollOn());
  if (!result.ok()) return result.status();
  Settle(stop ? Then::kStop : Then::kRoll);
  return absl::OkStatus();
}

absl::Status GameDriver::BotStep() {
  if (state_.over()) return absl::InvalidArgumentError("the game is over");
  if (!bot_to_move()) {
    return absl::InvalidArgumentError(
        absl::StrCat("seat ", state_.seat(), " is a human's: no bot moves for it"));
  }
  if (state_.phase() == Phase::kRoll) return Roll(std::nullopt);
  absl::StatusOr<Bot::Step> step = setup_.seats[state_.seat()].bot->NextStep(state_, rng_);
  if (!step.ok()) return step.status();
  if (absl::Status status = Apply(step->move).status(); !status.ok()) return status;
  return step->then ? Apply(*step->then).status() : absl::OkStatus();
}

absl::Status GameDriver::Announce() {
  if (state_.over()) {
    End();
    return absl::OkStatus();
  }
  if (bot_to_move() || state_.phase() == Phase::kRoll) return absl::OkStatus();
  if (state_.phase() == Phase::kTake && setup_.forced_takes && state_.legal_takes().size() == 1) {
    const Face face = state_.legal_takes().front();
    listener_.Forced(state_.seat(), face, state_.roll().count(face));
    if (absl::Status status = Take(face, std::nullopt); !status.ok()) return status;
    return Announce();  // the stop-or-roll decision, or what follows the turn
  }
  if (state_.phase() == Phase::kTake || setup_.hints) {
    absl::StatusOr<GameAdvice> advice = Advice();  // the hint's, and the review's
    if (!advice.ok()) return advice.status();
    if (setup_.hints) listener_.Hint(state_.seat(), *advice);
  }
  listener_.Prompt(state_);
  return absl::OkStatus();
}

absl::StatusOr<GameAdvice> GameDriver::Advice() {
  if (!advice_) {
    absl::StatusOr<GameAdvice> advice = advisor_.Advise(state_, setup_.tables);
    if (!advice.ok()) return advice.status();
    advice_ = *std::move(advice);
  }
  return *advice_;
}

absl::Status GameDriver::Expect(Phase phase, std::string_view move) const {
  if (state_.over()) return absl::InvalidArgumentError("the game is over");
  if (state_.phase() != phase) {
    return absl::InvalidArgumentError(absl::StrCat("cannot ", std::string(move),
                                                   " now: the game waits for ",
                                                   std::string(PhaseName(state_.phase()))));
  }
  return absl::OkStatus();
}

absl::Status GameDriver::HumanTurn() const {
  if (state_.over()) return absl::InvalidArgumentError("the game is over");
  if (bot_to_move()) {
    return absl::InvalidArgumentError(
        absl::StrCat("seat ", state_.seat(), " is a bot's: its moves are the bot's"));
  }
  return absl::OkStatus();
}

// Applies `move` (nothing changes when the game refuses it), logs it and says
// what happened: a turn's first roll starts the turn.
absl::StatusOr<MoveResult> GameDriver::Apply(const Move& move) {
  GameState after = state_;
  absl::StatusOr<MoveResult> result = after.Apply(move);
  if (!result.ok()) return result;
  if (move.kind == Move::Kind::kRoll && state_.aside().empty()) {
    ++turn_;
    listener_.Turn(turn_, (turn_ - 1) / state_.players() + 1, state_, bot_to_move());
  }
  const GameState before = std::exchange(state_, std::move(after));
  advice_.reset();
  log_.Record(before, move, *result);
  Say(before, move, *result);
  return result;
}

void GameDriver::Say(const GameState& before, const Move& move, const MoveResult& result) {
  const int seat = before.seat();
  const Dice& aside = result.turn_end ? result.turn_end->aside : state_.aside();
  switch (move.kind) {
    case Move::Kind::kRoll:
      listener_.Roll(seat, move.dice, aside, state_);
      break;
    case Move::Kind::kTake:
      listener_.Take(seat, move.face, before.roll().count(move.face), aside,
                     setup_.rules.dice - aside.total(), TurnScore(setup_.rules, aside));
      break;
    case Move::Kind::kRollOn:
      listener_.RollOn(seat);
      break;
    case Move::Kind::kStop:
    case Move::Kind::kEndTurn:
      break;
  }
  if (result.turn_end) listener_.TurnEnd(*result.turn_end, state_.scores());
}

void GameDriver::Decide(const GameState& before, const GameAdvice& advice, Face take) {
  if (!IsDecision(*advice.takes)) return;  // nothing to choose: not reviewed nor rated
  Decision decision;
  decision.turn = turn_;
  decision.seat = before.seat();
  decision.aside = before.aside_before_roll();
  decision.roll = before.roll();
  decision.advice = *advice.takes;
  decision.values = advice.goal.name();
  decision.chance = IsChance(advice.goal);
  decision.take = take;
  pending_ = std::move(decision);
}

void GameDriver::Settle(Then then) {
  if (!pending_) return;
  pending_->then = then;
  // The take was legal, and `then` what the game allowed after it.
  pending_->review = *ReviewChoice(pending_->advice, pending_->take, then);
  decisions_.push_back(*std::move(pending_));
  pending_.reset();
}

void GameDriver::End() {
  if (ended_) return;
  ended_ = true;
  listener_.GameOver(turn_, state_.scores(), state_.winners());
  for (int seat = 0; seat < state_.players(); ++seat) {
    if (setup_.seats[seat].bot) continue;
    SeatReview review;
    review.seat = seat;
    if (setup_.coverage.table) review.rating.emplace();
    for (const Decision& d : decisions_) {
      if (d.seat != seat) continue;
      review.decisions.push_back(&d);
      review.mistakes += d.review.optimal ? 0 : 1;
      (setup_.coverage.table ? review.total_loss
       : d.chance            ? review.fallback_final_loss
                             : review.fallback_loss) += d.review.loss.approx;
      if (review.rating) review.rating->Add(d.review.optimal, d.review.loss.approx);
    }
    listener_.Review(review);
  }
}

// ---------------------------------------------------------------------------
// The JSON events.

void JsonGameListener::Start(const GameSetup& setup, int players) {
  std::vector<std::string> seats;
  for (const GameSeat& seat : setup.seats) {
    JsonObject s;
    s.Str("player", seat.bot ? "bot" : "human");
    if (seat.bot) s.Str("policy", seat.bot->policy().name).Bool("fallback", seat.bot->fallback());
    seats.push_back(std::move(s).Build());
  }
  JsonObject fields;
  fields.Raw("rules", RulesJson(setup.rules))
      .Int("players", players)
      .Str("seed", absl::StrCat(setup.seed))  // text: exact in JSON parsers past 2^53
      .Raw("seats", JsonArray(seats))
      .Bool("hints", setup.hints);
  if (setup.coverage.table) {
    fields.Str("table", setup.coverage.table->path).Null("no_table");
  } else {
    fields.Null("table").Str("no_table", setup.coverage.reason);
  }
  emit_(JsonEvent("start", std::move(fields)));
}

void JsonGameListener::Turn(int turn, int round, const GameState& state, bool bot) {
  JsonObject fields;
  fields.Int("turn", turn)
      .Int("round", round)
      .Int("seat", state.seat())
      .Str("player", bot ? "bot" : "human")
      .Raw("scores", JsonIntArray(state.scores()))
      .Bool("final_round", state.final_round());
  emit_(JsonEvent("turn", std::move(fields)));
}

void JsonGameListener::Roll(int seat, const Dice& rolled, const Dice& aside,
                            const GameState& state) {
  JsonObject fields;
  fields.Int("seat", seat).Str("rolled", FormatDice(rolled)).Str("aside", FormatDice(aside));
  fields.Raw("legal", FaceNamesJson(state.legal_takes()));
  emit_(JsonEvent("roll", std::move(fields)));
}

void JsonGameListener::Take(int seat, Face face, int count, const Dice& aside, int dice_left,
                            int turn_score) {
  JsonObject fields;
  fields.Int("seat", seat)
      .Str("take", FaceName(face))
      .Int("count", count)
      .Str("aside", FormatDice(aside))
      .Int("dice_left", dice_left)
      .Int("turn_score", turn_score);
  emit_(JsonEvent("take", std::move(fields)));
}

void JsonGameListener::RollOn(int seat) {
  emit_(JsonEvent("roll_on", std::move(JsonObject().Int("seat", seat))));
}

void JsonGameListener::TurnEnd(const martiandice::TurnEnd& end, const std::vector<int>& scores) {
  JsonObject fields;
  fields.Int("seat", end.seat)
      .Int("score", end.score)
      .Str("reason", TurnEndReasonName(end.reason))
      .Str("aside", FormatDice(end.aside))
      .Bool("tanks_won", LostToTanks(end.aside))
      .Raw("scores", JsonIntArray(scores))
      .Bool("game_over", end.game_over);
  emit_(JsonEvent("turn_end", std::move(fields)));
}

void JsonGameListener::Hint(int seat, const GameAdvice& advice) {
  JsonObject fields;
  fields.Int("seat", seat);
  AddGameAdviceJson(fields, advice);
  emit_(JsonEvent("hint", std::move(fields)));
}

void JsonGameListener::Forced(int seat, Face face, int count) {
  JsonObject fields;
  fields.Int("seat", seat).Str("take", FaceName(face)).Int("count", count);
  emit_(JsonEvent("forced", std::move(fields)));
}

void JsonGameListener::Prompt(const GameState& state) {
  JsonObject fields;
  fields.Int("seat", state.seat()).Str("decision", PhaseName(state.phase()));
  if (state.phase() == Phase::kTake) fields.Raw("legal", FaceNamesJson(state.legal_takes()));
  emit_(JsonEvent("prompt", std::move(fields)));
}

void JsonGameListener::GameOver(int turns, const std::vector<int>& scores,
                                const std::vector<int>& winners) {
  JsonObject fields;
  fields.Int("turns", turns)
      .Raw("scores", JsonIntArray(scores))
      .Raw("winners", JsonIntArray(winners));
  emit_(JsonEvent("game_over", std::move(fields)));
}

void JsonGameListener::Review(const SeatReview& review) {
  std::vector<std::string> items;
  for (const Decision* d : review.decisions) {
    const ChoiceReview& r = d->review;
    const TakeOption& best = d->advice.options.at(*d->advice.best);
    JsonObject item;
    item.Int("turn", d->turn)
        .Str("aside", FormatDice(d->aside))
        .Str("rolled", FormatDice(d->roll))
        .Str("take", FaceName(d->take))
        .Int("count", d->roll.count(d->take))
        .Str("then", ThenName(d->then))
        .Str("values", d->values)
        .Double("value", r.value.approx)
        .Double("best_value", r.best.approx)
        .Double("loss", r.loss.approx)
        .Bool("optimal", r.optimal)
        .Raw("class", d->values == Goal::Win().name()
                          ? JsonString(ClassName(ClassOf(r.optimal, r.loss.approx)))
                          : "null")
        .Raw("best", JsonObject()
                         .Str("take", FaceName(best.take))
                         .Int("count", best.count)
                         .Str("then", ThenName(best.then))
                         .Build());
    items.push_back(std::move(item).Build());
  }
  JsonObject fields;
  fields.Int("seat", review.seat)
      .Raw("decisions", JsonArray(items))
      .Int("mistakes", review.mistakes)
      .Double("total_loss", review.total_loss)
      .Double("fallback_loss", review.fallback_loss)
      .Double("fallback_final_loss", review.fallback_final_loss)
      .Raw("rating", review.rating ? RatingJson(*review.rating) : "null");
  emit_(JsonEvent("review", std::move(fields)));
}

void JsonGameListener::LogLines(const std::string& text) {
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    lines.push_back(JsonString(Str(line)));
  }
  emit_(JsonEvent("log", std::move(JsonObject().Raw("lines", JsonArray(lines)))));
}

}  // namespace martiandice::app
