// The answers of a followed game (app/session_answers.h).
#include "session_answers.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "answers.h"
#include "front_end.h"
#include "json.h"
#include "martiandice/context.h"
#include "martiandice/query.h"
#include "martiandice/rules.h"

namespace martiandice::app {
namespace {

// The game's state and the advice at its decision (null once over).
absl::Status AddGame(JsonObject& object, Advisor& advisor, const GameSession& session,
                     const std::optional<std::string>& tables) {
  const GameState& state = session.state();
  object.Raw("state", session.StateJson());
  if (state.over()) {
    object.Null("advice");
    return absl::OkStatus();
  }
  absl::StatusOr<GameAdvice> advice = advisor.Advise(state, tables);
  // A table damaged since open: the error as eval's (TableError).
  if (!advice.ok()) return TableError(state.rules(), state.players(), advice.status());
  JsonObject a;
  AddGameAdviceJson(a, *advice);
  object.Raw("advice", std::move(a).Build());
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<GameState> SessionStart(const QueryInput& in) {
  if (absl::Status status = CheckRules(in.rules); !status.ok()) return status;
  GameContext context;
  if (in.scores) {
    absl::StatusOr<std::vector<int>> scores = ParseScores(*in.scores);
    if (!scores.ok()) return InputError("scores", scores.status());
    context.scores = *std::move(scores);
  }
  const int players =
      in.players.value_or(context.scores.empty() ? 2 : static_cast<int>(context.scores.size()));
  if (absl::Status status = CheckPlayers(players, "players"); !status.ok()) return status;
  if (context.scores.empty()) context.scores.assign(players, 0);
  if (static_cast<int>(context.scores.size()) != players) {
    return InputError("scores",
                      absl::StrCat(context.scores.size(), " totals for ", players, " players"));
  }
  context.seat = in.seat.value_or(0);
  absl::StatusOr<GameState> start = GameState::AtTurnStart(in.rules, players, context);
  if (!start.ok()) {
    // A seat out of range is the seat's error; every other is about the totals.
    const bool bad_seat = context.seat < 0 || context.seat >= players;
    return InputError(bad_seat ? "seat" : "scores", start.status());
  }
  return start;
}

absl::StatusOr<std::string> SessionOpenJson(Advisor& advisor, int id, const TableCoverage& coverage,
                                            const GameSession& session,
                                            const std::optional<std::string>& tables) {
  JsonObject object;
  object.Int("game", id);
  if (coverage.table) {
    object.Str("table", coverage.table->path).Null("no_table");
  } else {
    object.Null("table").Str("no_table", coverage.reason);
  }
  if (absl::Status status = AddGame(object, advisor, session, tables); !status.ok()) {
    return status;
  }
  return std::move(object).Build();
}

absl::StatusOr<std::string> SessionEnterJson(Advisor& advisor, int id, GameSession& session,
                                             std::string_view entry,
                                             const std::optional<std::string>& tables) {
  if (entry.find('\n') != std::string_view::npos) {
    return InputError("entry", "one line, without a newline");
  }
  GameSession before = session;  // put back if the advice fails: an error changes nothing
  absl::StatusOr<SessionStep> step = session.Enter(entry);
  if (!step.ok()) return InputError("entry", step.status());
  JsonObject object;
  object.Int("game", id);
  if (step->kind == SessionStep::Kind::kHelp) {
    object.Str("step", "help")
        .Str("message",
             absl::StrCat("entries now: ", session.EntriesNow(), "; always: undo, state"));
    return std::move(object).Build();
  }
  const char* name = step->kind == SessionStep::Kind::kApplied  ? "applied"
                     : step->kind == SessionStep::Kind::kUndone ? "undone"
                                                                : "state";
  object.Str("step", name)
      .Str("entry", step->entry)
      .Raw("turn_ends", GameSession::TurnEndsJson(step->turn_ends));
  if (absl::Status status = AddGame(object, advisor, session, tables); !status.ok()) {
    session = std::move(before);
    return status;
  }
  return std::move(object).Build();
}

std::string SessionCloseJson(int id, const GameSession& session) {
  const GameState& state = session.state();
  return JsonObject()
      .Int("game", id)
      .Bool("closed", true)
      .Bool("over", state.over())
      .Raw("scores", JsonIntArray(state.scores()))
      .Raw("winners", JsonIntArray(state.winners()))
      .Str("log", session.review_text())
      .Build();
}

}  // namespace martiandice::app
