// The module's games: `martiandice play` move by move for the JavaScript
// package's Game class (web/src/game.js). A thin layer: the rules are the
// library's GameState, the bots its Bot (policy.h), the dice SeededRng's
// stream (the same seed rolls the same dice as `play --seed`), the hints
// Advisor::Advise, the log a GameLog, the review ReviewChoice. Every move
// answers with the events `martiandice play --json` writes for it (the same
// objects, in the same order: start, turn, roll, take, roll_on, turn_end,
// hint, prompt, game_over, review, log) and the state after it, so a game
// played here and the same game played by the command line print the same
// lines (tested in web/test/game.test.mjs).
//
// Calling convention: binding.cpp's. A move's result is
// {"events":[...],"state":{...}}; mdw_game_new's adds "game" (the id the
// other calls take). Bad moves fail with GameState's message and change
// nothing.
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE
#endif

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "answers.h"
#include "binding.h"
#include "json.h"
#include "martiandice/advisor.h"
#include "martiandice/dice.h"
#include "martiandice/game_log.h"
#include "martiandice/game_state.h"
#include "martiandice/policy.h"
#include "martiandice/query.h"

namespace martiandice::web {
namespace {

using cli::RulesJson;

std::string Str(absl::string_view text) { return std::string(text.data(), text.size()); }

std::string FaceNamesJson(const std::vector<Face>& faces) {
  std::vector<std::string> names;
  for (Face face : faces) names.push_back(JsonString(FaceName(face)));
  return JsonArray(names);
}

// A human decision at a roll, settled once its stop or roll on is known
// (play's Decision).
struct Decision {
  int turn = 0;
  int seat = 0;
  Dice aside;
  Dice roll;
  RollAdvice advice;
  std::string values;
  Face take = Face::kRay;
  Then then = Then::kStop;
  ChoiceReview review;
};

struct Seat {
  std::optional<Bot> bot;  // unset: a human
};

class Game {
 public:
  Game(const Rules& rules, std::vector<Seat> seats, std::uint64_t seed, bool hints,
       TableCoverage coverage, GameState state)
      : rules_(rules),
        seats_(std::move(seats)),
        seed_(seed),
        hints_(hints),
        coverage_(std::move(coverage)),
        rng_(SeededRng(seed)),
        state_(std::move(state)) {}

  // play's start event.
  std::string StartEvent() const {
    std::vector<std::string> seats;
    for (const Seat& seat : seats_) {
      JsonObject s;
      s.Str("player", seat.bot ? "bot" : "human");
      if (seat.bot) s.Str("policy", seat.bot->policy().name).Bool("fallback", seat.bot->fallback());
      seats.push_back(std::move(s).Build());
    }
    JsonObject fields;
    fields.Raw("rules", RulesJson(rules_))
        .Int("players", state_.players())
        .Raw("seed", absl::StrCat(seed_))
        .Raw("seats", JsonArray(seats))
        .Bool("hints", hints_);
    if (coverage_.table) {
      fields.Str("table", coverage_.table->path).Null("no_table");
    } else {
      fields.Null("table").Str("no_table", coverage_.reason);
    }
    return JsonEvent("start", std::move(fields));
  }

  // The state for a front end to show.
  std::string StateJson() const {
    const bool take = state_.phase() == Phase::kTake;
    JsonObject object;
    object.Str("phase", PhaseName(state_.phase()))
        .Bool("over", state_.over())
        .Int("seat", state_.seat())
        .Str("player", Mover().bot ? "bot" : "human")
        .Raw("scores", JsonIntArray(state_.scores()))
        .Bool("final_round", state_.final_round())
        .Int("turn", turn_)
        .Str("aside", FormatDice(state_.aside()))
        .Str("aside_before_roll", FormatDice(state_.aside_before_roll()))
        .Str("roll", take ? FormatDice(state_.roll()) : "-")
        .Raw("legal", FaceNamesJson(state_.legal_takes()))
        .Int("dice_left", state_.dice_left())
        .Int("turn_score", state_.turn_score())
        .Raw("winners", JsonIntArray(state_.winners()));
    return std::move(object).Build();
  }

  // {"events":[...],"state":{...}} for the moves made since the last answer.
  std::string Answer(std::string_view extra = {}) {
    JsonObject object;
    if (!extra.empty()) object.Raw("game", extra);
    object.Raw("events", JsonArray(events_)).Raw("state", StateJson());
    events_.clear();
    return std::move(object).Build();
  }

  void Emit(std::string event) { events_.push_back(std::move(event)); }

  // A roll: `dice` given (a coach's real dice), or rolled from the seed.
  absl::Status Roll(const std::optional<std::string>& dice) {
    if (absl::Status status = Expect(Phase::kRoll, "roll"); !status.ok()) return status;
    Dice roll;
    if (dice) {
      absl::StatusOr<Dice> parsed = ParseDice(*dice);
      if (!parsed.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("roll: ", parsed.status().message()));
      }
      if (parsed->total() != state_.dice_left()) {
        return absl::InvalidArgumentError(absl::StrCat("roll: ", FormatDice(*parsed), " shows ",
                                                       parsed->total(), " dice, not the ",
                                                       state_.dice_left(), " left to roll"));
      }
      roll = *parsed;
    } else {
      roll = RollDice(state_.dice_left(), rng_);
    }
    return ApplyRoll(roll);
  }

  absl::Status Take(const std::string& text) {
    if (absl::Status status = HumanTurn(); !status.ok()) return status;
    absl::StatusOr<TakeInput> take = ParseTake(text);
    if (!take.ok()) return take.status();
    if (state_.phase() == Phase::kTake && take->count &&
        state_.roll().count(take->face) != *take->count) {
      return absl::InvalidArgumentError(
          absl::StrCat("the roll shows ", state_.roll().count(take->face), " ",
                       std::string(FaceName(take->face)), "s, not ", *take->count,
                       " (every die of the face is taken)"));
    }
    std::optional<GameAdvice> advice;
    if (state_.phase() == Phase::kTake) {
      absl::StatusOr<GameAdvice> advised = TheAdvisor().Advise(state_);
      if (!advised.ok()) return advised.status();
      advice = *std::move(advised);
    }
    const GameState before = state_;
    absl::StatusOr<MoveResult> result = Apply(Move::Take(take->face));
    if (!result.ok()) return result.status();
    Decide(before, *advice, take->face);
    if (result->turn_end) Settle(Then::kStop);
    return After();
  }

  absl::Status StopOrRollOn(bool stop) {
    if (absl::Status status = HumanTurn(); !status.ok()) return status;
    absl::StatusOr<MoveResult> result = Apply(stop ? Move::Stop() : Move::RollOn());
    if (!result.ok()) return result.status();
    Settle(stop ? Then::kStop : Then::kRoll);
    return After();
  }

  // The bot's next step: its roll, or its take (with its stop or roll on).
  absl::Status BotStep() {
    if (state_.over()) return absl::InvalidArgumentError("the game is over");
    if (!Mover().bot) {
      return absl::InvalidArgumentError(
          absl::StrCat("seat ", state_.seat(), " is a human's: no bot moves for it"));
    }
    if (state_.phase() == Phase::kRoll) return ApplyRoll(RollDice(state_.dice_left(), rng_));
    absl::StatusOr<Bot::Step> step = Mover().bot->NextStep(state_, rng_);
    if (!step.ok()) return step.status();
    if (absl::Status status = Apply(step->move).status(); !status.ok()) return status;
    if (step->then) {
      if (absl::Status status = Apply(*step->then).status(); !status.ok()) return status;
    }
    return After();
  }

  // The advice at the current decision: play's hint event.
  absl::StatusOr<std::string> Hint() {
    absl::StatusOr<GameAdvice> advice = TheAdvisor().Advise(state_);
    if (!advice.ok()) return advice.status();
    JsonObject fields;
    fields.Int("seat", state_.seat());
    cli::AddGameAdviceJson(fields, *advice);
    return JsonEvent("hint", std::move(fields));
  }

  std::string LogJson() const {
    JsonObject object;
    object.Str("text", log_.text()).Str("finished_text", log_.finished_text());
    return std::move(object).Build();
  }

 private:
  const Seat& Mover() const { return seats_[state_.seat()]; }

  absl::Status Expect(Phase phase, std::string_view move) const {
    if (state_.over()) return absl::InvalidArgumentError("the game is over");
    if (state_.phase() != phase) {
      return absl::InvalidArgumentError(absl::StrCat("cannot ", std::string(move),
                                                     " now: the game waits for ",
                                                     std::string(PhaseName(state_.phase()))));
    }
    return absl::OkStatus();
  }

  absl::Status HumanTurn() const {
    if (state_.over()) return absl::InvalidArgumentError("the game is over");
    if (Mover().bot) {
      return absl::InvalidArgumentError(
          absl::StrCat("seat ", state_.seat(), " is a bot's: its moves are the bot's"));
    }
    return absl::OkStatus();
  }

  absl::Status ApplyRoll(const Dice& roll) {
    const bool starts = state_.aside().empty();
    if (starts) TurnStart();
    absl::StatusOr<MoveResult> result = Apply(Move::Roll(roll));
    if (!result.ok()) {
      if (starts) {
        --turn_;
        events_.pop_back();
      }
      return result.status();
    }
    return After();
  }

  void TurnStart() {
    ++turn_;
    const int round = (turn_ - 1) / state_.players() + 1;
    JsonObject fields;
    fields.Int("turn", turn_)
        .Int("round", round)
        .Int("seat", state_.seat())
        .Str("player", Mover().bot ? "bot" : "human")
        .Raw("scores", JsonIntArray(state_.scores()))
        .Bool("final_round", state_.final_round());
    Emit(JsonEvent("turn", std::move(fields)));
  }

  // After a move: the end of the game (its events), or a human's decision
  // (the hint when asked for, the prompt), as play writes them.
  absl::Status After() {
    if (state_.over()) {
      End();
      return absl::OkStatus();
    }
    if (Mover().bot || state_.phase() == Phase::kRoll) return absl::OkStatus();
    if (hints_) {
      absl::StatusOr<std::string> hint = Hint();
      if (!hint.ok()) return hint.status();
      Emit(*std::move(hint));
    }
    JsonObject fields;
    fields.Int("seat", state_.seat()).Str("decision", PhaseName(state_.phase()));
    if (state_.phase() == Phase::kTake) fields.Raw("legal", FaceNamesJson(state_.legal_takes()));
    Emit(JsonEvent("prompt", std::move(fields)));
    return absl::OkStatus();
  }

  absl::StatusOr<MoveResult> Apply(const Move& move) {
    const GameState before = state_;
    absl::StatusOr<MoveResult> result = state_.Apply(move);
    if (!result.ok()) return result;
    log_.Record(before, move, *result);
    Say(before, move, *result);
    return result;
  }

  void Say(const GameState& before, const Move& move, const MoveResult& result) {
    const int seat = before.seat();
    const Dice& aside = result.turn_end ? result.turn_end->aside : state_.aside();
    switch (move.kind) {
      case Move::Kind::kRoll: {
        JsonObject fields;
        fields.Int("seat", seat)
            .Str("rolled", FormatDice(move.dice))
            .Str("aside", FormatDice(aside));
        fields.Raw("legal", FaceNamesJson(state_.legal_takes()));
        Emit(JsonEvent("roll", std::move(fields)));
        break;
      }
      case Move::Kind::kTake: {
        JsonObject fields;
        fields.Int("seat", seat)
            .Str("take", FaceName(move.face))
            .Int("count", before.roll().count(move.face))
            .Str("aside", FormatDice(aside))
            .Int("dice_left", rules_.dice - aside.total())
            .Int("turn_score", TurnScore(rules_, aside));
        Emit(JsonEvent("take", std::move(fields)));
        break;
      }
      case Move::Kind::kRollOn:
        Emit(JsonEvent("roll_on", std::move(JsonObject().Int("seat", seat))));
        break;
      case Move::Kind::kStop:
      case Move::Kind::kEndTurn:
        break;
    }
    if (result.turn_end) {
      const TurnEnd& end = *result.turn_end;
      JsonObject fields;
      fields.Int("seat", end.seat)
          .Int("score", end.score)
          .Str("reason", TurnEndReasonName(end.reason))
          .Str("aside", FormatDice(end.aside))
          .Raw("scores", JsonIntArray(state_.scores()))
          .Bool("game_over", end.game_over);
      Emit(JsonEvent("turn_end", std::move(fields)));
    }
  }

  void Decide(const GameState& before, const GameAdvice& advice, Face take) {
    Decision decision;
    decision.turn = turn_;
    decision.seat = before.seat();
    decision.aside = before.aside_before_roll();
    decision.roll = before.roll();
    decision.advice = *advice.takes;
    decision.values = advice.goal.name();
    decision.take = take;
    pending_ = std::move(decision);
  }

  void Settle(Then then) {
    if (!pending_) return;
    pending_->then = then;
    // The take was legal, and `then` what the game allowed after it.
    pending_->review = *ReviewChoice(pending_->advice, pending_->take, then);
    decisions_.push_back(*std::move(pending_));
    pending_.reset();
  }

  // play's game_over, review (each human seat) and log events.
  void End() {
    JsonObject over;
    over.Int("turns", turn_)
        .Raw("scores", JsonIntArray(state_.scores()))
        .Raw("winners", JsonIntArray(state_.winners()));
    Emit(JsonEvent("game_over", std::move(over)));
    for (int seat = 0; seat < state_.players(); ++seat) {
      if (!seats_[seat].bot) Review(seat);
    }
    std::vector<std::string> lines;
    for (absl::string_view line : absl::StrSplit(log_.text(), '\n', absl::SkipEmpty())) {
      lines.push_back(JsonString(Str(line)));
    }
    Emit(JsonEvent("log", std::move(JsonObject().Raw("lines", JsonArray(lines)))));
  }

  void Review(int seat) {
    int mistakes = 0;
    double loss = 0;
    std::vector<std::string> items;
    for (const Decision& d : decisions_) {
      if (d.seat != seat) continue;
      const ChoiceReview& r = d.review;
      mistakes += r.optimal ? 0 : 1;
      loss += r.loss.approx;
      const TakeOption& best = d.advice.options.at(*d.advice.best);
      JsonObject item;
      item.Int("turn", d.turn)
          .Str("aside", FormatDice(d.aside))
          .Str("rolled", FormatDice(d.roll))
          .Str("take", FaceName(d.take))
          .Int("count", d.roll.count(d.take))
          .Str("then", ThenName(d.then))
          .Str("values", d.values)
          .Double("value", r.value.approx)
          .Double("best_value", r.best.approx)
          .Double("loss", r.loss.approx)
          .Bool("optimal", r.optimal)
          .Raw("best", JsonObject()
                           .Str("take", FaceName(best.take))
                           .Int("count", best.count)
                           .Str("then", ThenName(best.then))
                           .Build());
      items.push_back(std::move(item).Build());
    }
    JsonObject fields;
    fields.Int("seat", seat)
        .Raw("decisions", JsonArray(items))
        .Int("mistakes", mistakes)
        .Double("total_loss", loss);
    Emit(JsonEvent("review", std::move(fields)));
  }

  Rules rules_;
  std::vector<Seat> seats_;
  std::uint64_t seed_;
  bool hints_;
  TableCoverage coverage_;
  DiceRng rng_;
  GameState state_;
  GameLog log_;
  int turn_ = 0;
  std::vector<std::string> events_;
  std::optional<Decision> pending_;
  std::vector<Decision> decisions_;
};

std::map<int, Game> games;
int next_game = 1;

// `humans`: "none" or seat numbers "0,2" (play's --humans).
absl::StatusOr<std::vector<bool>> ReadHumans(const std::string& text, int players) {
  std::vector<bool> human(players, false);
  if (text == "none" || text.empty()) return human;
  for (absl::string_view piece : absl::StrSplit(text, ',')) {
    int seat = 0;
    if (!absl::SimpleAtoi(piece, &seat) || Str(piece).find('+') != std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("humans: expected seat numbers such as '0,2', or 'none'; got '", text, "'"));
    }
    if (seat < 0 || seat >= players) {
      return absl::InvalidArgumentError(absl::StrCat("humans: seat ", seat, " is out of range for ",
                                                     players, " players (0..", players - 1, ")"));
    }
    if (human[seat]) {
      return absl::InvalidArgumentError(absl::StrCat("humans: seat ", seat, " is given twice"));
    }
    human[seat] = true;
  }
  return human;
}

absl::StatusOr<Game> NewGame(const Rules& rules, int players, const std::string& humans_text,
                             const std::string& bots_text, const std::string& seed_text,
                             bool hints) {
  absl::StatusOr<GameState> state = GameState::New(rules, players);
  if (!state.ok()) return state.status();
  absl::StatusOr<std::vector<bool>> human = ReadHumans(humans_text, players);
  if (!human.ok()) return human.status();
  const int humans = static_cast<int>(std::count(human->begin(), human->end(), true));
  absl::StatusOr<std::vector<PolicySpec>> policies = ParsePolicies(bots_text);
  if (!policies.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("bots: ", policies.status().message()));
  }
  const int bots = players - humans;
  if (policies->size() != 1 && static_cast<int>(policies->size()) != bots) {
    return absl::InvalidArgumentError(
        absl::StrCat("bots: ", policies->size(), " policies for ", bots,
                     " bot seats: give one for every bot, or one per bot seat"));
  }
  std::uint64_t seed = 0;
  if (!absl::SimpleAtoi(seed_text, &seed) || seed_text.find('-') != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("seed: expected an integer in 0..2^64-1, got '", seed_text, "'"));
  }
  Advisor& advisor = TheAdvisor();
  absl::StatusOr<TableCoverage> coverage = advisor.Coverage(rules, players);
  if (!coverage.ok()) return coverage.status();
  BotOptions options;
  options.fallback = true;
  std::vector<Seat> seats;
  int bot = 0;
  for (int seat = 0; seat < players; ++seat) {
    Seat& s = seats.emplace_back();
    if ((*human)[seat]) continue;
    const PolicySpec& spec = (*policies)[policies->size() == 1 ? 0 : bot++];
    absl::StatusOr<Bot> made = Bot::Create(spec, advisor, rules, players, options);
    if (!made.ok()) return made.status();
    s.bot = *std::move(made);
  }
  return Game(rules, std::move(seats), seed, hints, *std::move(coverage), *std::move(state));
}

Game* Find(int id) {
  auto it = games.find(id);
  if (it == games.end()) {
    Fail(absl::NotFoundError(absl::StrCat("no game ", id, " (ended with free(), or never made)")));
    return nullptr;
  }
  return &it->second;
}

int Moved(Game& game, const absl::Status& status) {
  if (!status.ok()) return Fail(status);
  return Succeed(game.Answer());
}

}  // namespace
}  // namespace martiandice::web

using martiandice::web::Fail;
using martiandice::web::Find;
using martiandice::web::Game;
using martiandice::web::Moved;
using martiandice::web::Succeed;

extern "C" {

// A new game of `players` seats (play's options): `humans` the human seats
// ("none", "0,2"), `bots` one policy for every bot or one per bot seat,
// `seed` a decimal 64-bit integer, `hints` whether human decisions carry
// the hint event. Rules: the official ones, but for the bits of `present`
// (binding.cpp's kHasDice 8, kHasBonus 16, kHasTarget 32). Result: {"game":
// ID, "events":[start], "state":{...}}.
EMSCRIPTEN_KEEPALIVE int mdw_game_new(int players, const char* humans, const char* bots,
                                      const char* seed, int hints, unsigned present, int dice,
                                      int bonus, int target) {
  martiandice::Rules rules;
  if (present & 8) rules.dice = dice;
  if (present & 16) rules.bonus = bonus;
  if (present & 32) rules.target = target;
  absl::StatusOr<Game> game = martiandice::web::NewGame(
      rules, players, humans != nullptr ? humans : "none", bots != nullptr ? bots : "win",
      seed != nullptr ? seed : "", hints != 0);
  if (!game.ok()) return Fail(game.status());
  const int id = martiandice::web::next_game++;
  Game& made = martiandice::web::games.emplace(id, *std::move(game)).first->second;
  made.Emit(made.StartEvent());
  return Succeed(made.Answer(absl::StrCat(id)));
}

// The mover rolls: `dice` (notation, the dice left) when given, else the
// seed's dice.
EMSCRIPTEN_KEEPALIVE int mdw_game_roll(int id, const char* dice) {
  Game* game = Find(id);
  if (game == nullptr) return 1;
  std::optional<std::string> given;
  if (dice != nullptr) given = dice;
  return Moved(*game, game->Roll(given));
}

// A human's take: a face as people type it (play's "take FACE").
EMSCRIPTEN_KEEPALIVE int mdw_game_take(int id, const char* face) {
  Game* game = Find(id);
  if (game == nullptr) return 1;
  return Moved(*game, game->Take(face != nullptr ? face : ""));
}

// A human stops (stop != 0) or rolls on.
EMSCRIPTEN_KEEPALIVE int mdw_game_stop_or_roll_on(int id, int stop) {
  Game* game = Find(id);
  if (game == nullptr) return 1;
  return Moved(*game, game->StopOrRollOn(stop != 0));
}

// The bot to move plays its next step.
EMSCRIPTEN_KEEPALIVE int mdw_game_bot_step(int id) {
  Game* game = Find(id);
  if (game == nullptr) return 1;
  return Moved(*game, game->BotStep());
}

// The advice at the decision: play's hint event.
EMSCRIPTEN_KEEPALIVE int mdw_game_advice(int id) {
  Game* game = Find(id);
  if (game == nullptr) return 1;
  absl::StatusOr<std::string> hint = game->Hint();
  if (!hint.ok()) return Fail(hint.status());
  return Succeed(*std::move(hint));
}

EMSCRIPTEN_KEEPALIVE int mdw_game_state(int id) {
  Game* game = Find(id);
  if (game == nullptr) return 1;
  return Succeed(game->StateJson());
}

// {"text": the log's lines, "finished_text": those of the turns that ended}.
EMSCRIPTEN_KEEPALIVE int mdw_game_log(int id) {
  Game* game = Find(id);
  if (game == nullptr) return 1;
  return Succeed(game->LogJson());
}

EMSCRIPTEN_KEEPALIVE void mdw_game_free(int id) { martiandice::web::games.erase(id); }

}  // extern "C"
