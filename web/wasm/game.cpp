// The module's games: `martiandice play` move by move for the JavaScript
// package's Game class (web/src/game.js). A thin binding over play's game
// driver (app/game_driver.h: the same setup, moves, seeded dice, hints,
// review and log); its JSON listener writes every move's events as
// `martiandice play --json` does (start, turn, roll, take, roll_on, turn_end,
// hint, prompt, game_over, review, log), so a game played here and the same
// game played by the command line print the same lines (tested in
// web/test/game.test.mjs).
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

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "answers.h"
#include "binding.h"
#include "game_driver.h"
#include "json.h"
#include "martiandice/dice.h"
#include "martiandice/query.h"

namespace martiandice::web {
namespace {

using app::FaceNamesJson;
using app::GameDriver;
using app::JsonGameListener;

// A driven game with its events since the last answer.
class Game {
 public:
  explicit Game(app::GameSetup setup)
      : advisor_(SharedAdvisor()),
        events_listener_([this](std::string event) { events_.push_back(std::move(event)); }),
        driver_(std::move(setup), *advisor_, events_listener_) {
    driver_.Start();
  }

  GameDriver& driver() { return driver_; }

  // The state for a front end to show.
  std::string StateJson() const {
    const GameState& state = driver_.state();
    const bool take = state.phase() == Phase::kTake;
    JsonObject object;
    object.Str("phase", PhaseName(state.phase()))
        .Bool("over", state.over())
        .Int("seat", state.seat())
        .Str("player", driver_.bot_to_move() ? "bot" : "human")
        .Raw("scores", JsonIntArray(state.scores()))
        .Bool("final_round", state.final_round())
        .Int("turn", driver_.turn())
        .Str("aside", FormatDice(state.aside()))
        .Str("aside_before_roll", FormatDice(state.aside_before_roll()))
        .Str("roll", take ? FormatDice(state.roll()) : "-")
        .Raw("legal", FaceNamesJson(state.legal_takes()))
        .Int("dice_left", state.dice_left())
        .Int("turn_score", state.turn_score())
        .Raw("winners", JsonIntArray(state.winners()));
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

  // After a move made: what comes next, and at the end the log's lines.
  absl::Status Announce() {
    if (absl::Status status = driver_.Announce(); !status.ok()) return status;
    if (driver_.state().over()) events_listener_.LogLines(driver_.log().text());
    return absl::OkStatus();
  }

  // The advice at the decision: play's hint event.
  absl::StatusOr<std::string> Hint() {
    absl::StatusOr<GameAdvice> advice = driver_.Advice();
    if (!advice.ok()) return advice.status();
    std::string hint;
    JsonGameListener([&hint](std::string event) {
      hint = std::move(event);
    }).Hint(driver_.state().seat(), *advice);
    return hint;
  }

  std::string LogJson() const {
    JsonObject object;
    object.Str("text", driver_.log().text()).Str("finished_text", driver_.log().finished_text());
    return std::move(object).Build();
  }

 private:
  // The advisor the game started with, kept while it lasts (clearCaches and a
  // replaced table give later calls a new one).
  std::shared_ptr<Advisor> advisor_;
  std::vector<std::string> events_;
  JsonGameListener events_listener_;
  GameDriver driver_;
};

// Games live at a fixed address: the listener holds `this`.
std::map<int, std::unique_ptr<Game>> games;
int next_game = 1;

Game* Find(int id) {
  auto it = games.find(id);
  if (it == games.end()) {
    Fail(absl::NotFoundError(absl::StrCat("no game ", id, " (ended with free(), or never made)")));
    return nullptr;
  }
  return it->second.get();
}

int Moved(Game& game, const absl::Status& status) {
  if (!status.ok()) return Fail(status);
  if (absl::Status after = game.Announce(); !after.ok()) return Fail(after);
  return Succeed(game.Answer());
}

absl::StatusOr<std::optional<Dice>> ReadRoll(const char* dice) {
  if (dice == nullptr) return std::nullopt;
  absl::StatusOr<Dice> parsed = ParseDice(dice);
  if (!parsed.ok()) {
    return InputError("roll", parsed.status());
  }
  return *parsed;
}

}  // namespace
}  // namespace martiandice::web

using martiandice::web::Fail;
using martiandice::web::Find;
using martiandice::web::Game;
using martiandice::web::Moved;
using martiandice::web::Succeed;

extern "C" {

// A new game (play's options): the request slots hold play's fields:
// players (default 2), humans (the human seats, "none" or "0,2"; empty:
// none), bots (one policy for every bot or one per bot seat), seed (a
// decimal 64-bit integer), hints (whether human decisions carry the hint
// event), dice, bonus, target (default: the official rules). Result:
// {"game": ID, "events":[start], "state":{...}}.
EMSCRIPTEN_KEEPALIVE int mdw_game_new() {
  absl::StatusOr<const martiandice::app::Request*> request =
      martiandice::web::ReadRequest(martiandice::app::kPlayRequest, "play");
  if (!request.ok()) return Fail(request.status());
  const martiandice::app::Request& fields = **request;
  martiandice::app::GameOptions options;
  options.rules = fields.query.rules;
  options.players = fields.query.players.value_or(2);
  options.humans = fields.humans.value_or("").empty() ? "none" : *fields.humans;
  options.bots = fields.bots.value_or("win");
  options.seed = fields.seed.value_or("");
  options.hints = fields.hints;
  absl::StatusOr<martiandice::app::GameSetup> setup =
      martiandice::app::ReadGameSetup(options, martiandice::web::TheAdvisor());
  if (!setup.ok()) return Fail(setup.status());
  const int id = martiandice::web::next_game++;
  Game& made =
      *martiandice::web::games.emplace(id, std::make_unique<Game>(*std::move(setup))).first->second;
  return Succeed(made.Answer(absl::StrCat(id)));
}

// The mover rolls: `dice` (notation, the dice left) when given, else the
// seed's dice.
EMSCRIPTEN_KEEPALIVE int mdw_game_roll(int id, const char* dice) {
  Game* game = Find(id);
  if (game == nullptr) return 1;
  absl::StatusOr<std::optional<martiandice::Dice>> roll = martiandice::web::ReadRoll(dice);
  if (!roll.ok()) return Fail(roll.status());
  return Moved(*game, game->driver().Roll(*roll));
}

// A human's take: a face as people type it (play's "take FACE").
EMSCRIPTEN_KEEPALIVE int mdw_game_take(int id, const char* face) {
  Game* game = Find(id);
  if (game == nullptr) return 1;
  absl::StatusOr<martiandice::TakeInput> take = martiandice::ParseTake(face != nullptr ? face : "");
  if (!take.ok()) {
    // Every refusal of ParseTake is the take's: named so, its "take: " once.
    absl::string_view why = take.status().message();
    absl::ConsumePrefix(&why, "take: ");
    return Fail(martiandice::InputError("take", std::string_view(why.data(), why.size())));
  }
  return Moved(*game, game->driver().Take(take->face, take->count));
}

// A human stops (stop != 0) or rolls on.
EMSCRIPTEN_KEEPALIVE int mdw_game_stop_or_roll_on(int id, int stop) {
  Game* game = Find(id);
  if (game == nullptr) return 1;
  return Moved(*game, game->driver().StopOrRollOn(stop != 0));
}

// The bot to move plays its next step.
EMSCRIPTEN_KEEPALIVE int mdw_game_bot_step(int id) {
  Game* game = Find(id);
  if (game == nullptr) return 1;
  return Moved(*game, game->driver().BotStep());
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
