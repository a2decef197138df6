// The module's coached games: a real game followed entry by entry for the
// JavaScript package's Coach class (web/src/coach.js), as `martiandice
// serve`'s game sessions follow it: the same GameSession (app/game_session.h)
// and the same answers, written by the same code (app/session_answers.h),
// so the package and serve cannot differ. The advice uses the module's
// registered tables (binding.h's advisor).
//
// Calling convention: binding.cpp's. mdw_coach_open answers serve's `open`
// object (its "game" is the id the other calls take), mdw_coach_enter its
// `enter` object, mdw_coach_close its `close` object (and frees the game).
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE
#endif

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "binding.h"
#include "game_session.h"
#include "json.h"
#include "session_answers.h"

namespace martiandice::web {
namespace {

std::map<int, app::GameSession> coached;
int last_coached = 0;

// The tables: the advisor's own folder (TableFolder()), as serve's default.
const std::optional<std::string> kTables;

app::GameSession* FindCoached(int id) {
  auto it = coached.find(id);
  if (it == coached.end()) {
    Fail(absl::InvalidArgumentError(
        absl::StrCat("game: no open game ", id, " (never opened, or closed)")));
    return nullptr;
  }
  return &it->second;
}

int Answer(const absl::StatusOr<std::string>& answer) {
  if (!answer.ok()) return Fail(answer.status());
  return Succeed(*answer);
}

}  // namespace
}  // namespace martiandice::web

using martiandice::web::Fail;
using martiandice::web::FindCoached;
using martiandice::web::Succeed;

extern "C" {

// Opens a game (serve's `open`): the request slots hold open's fields
// (scores, seat, players, dice, bonus, target; the tables are the registered ones).
EMSCRIPTEN_KEEPALIVE int mdw_coach_open() {
  namespace web = martiandice::web;
  absl::StatusOr<const martiandice::app::Request*> fields =
      web::ReadRequest(martiandice::app::kOpenRequest, "open");
  if (!fields.ok()) return Fail(fields.status());
  const martiandice::QueryInput& in = (*fields)->query;
  absl::StatusOr<martiandice::GameState> start = martiandice::app::SessionStart(in);
  if (!start.ok()) return Fail(start.status());
  absl::StatusOr<martiandice::TableCoverage> coverage =
      web::TheAdvisor().Coverage(in.rules, start->players(), web::kTables);
  if (!coverage.ok()) return Fail(coverage.status());
  const int id = ++web::last_coached;
  martiandice::app::GameSession& session =
      web::coached
          .emplace(id, martiandice::app::GameSession(*std::move(start), 10000, /*quit=*/false))
          .first->second;
  absl::StatusOr<std::string> answer =
      martiandice::app::SessionOpenJson(web::TheAdvisor(), id, *coverage, session, web::kTables);
  if (!answer.ok()) web::coached.erase(id);
  return web::Answer(answer);
}

// One entry (serve's `enter`: one of coach's lines); a bad one fails and
// changes nothing.
EMSCRIPTEN_KEEPALIVE int mdw_coach_enter(int id, const char* entry) {
  martiandice::app::GameSession* session = FindCoached(id);
  if (session == nullptr) return 1;
  return martiandice::web::Answer(
      martiandice::app::SessionEnterJson(martiandice::web::TheAdvisor(), id, *session,
                                         entry != nullptr ? entry : "", martiandice::web::kTables));
}

// {"text": the log's lines, "finished_text": those of the turns that ended}.
EMSCRIPTEN_KEEPALIVE int mdw_coach_log(int id) {
  martiandice::app::GameSession* session = FindCoached(id);
  if (session == nullptr) return 1;
  return Succeed(martiandice::JsonObject()
                     .Str("text", session->log().text())
                     .Str("finished_text", session->log().finished_text())
                     .Build());
}

// Closes the game (serve's `close`): its final scores and log; then frees it.
EMSCRIPTEN_KEEPALIVE int mdw_coach_close(int id) {
  martiandice::app::GameSession* session = FindCoached(id);
  if (session == nullptr) return 1;
  std::string answer = martiandice::app::SessionCloseJson(id, *session);
  martiandice::web::coached.erase(id);
  return Succeed(std::move(answer));
}

}  // extern "C"
