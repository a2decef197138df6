// The module's review of played turns: `martiandice review --json -`'s object
// for lines given as text, made by the command's own code (app/review.h's
// ReviewText), review's fields in the request slots (binding.h's
// ReadRequest). Calling convention: binding.cpp's.
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE
#endif

#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "binding.h"
#include "review.h"

extern "C" {

// Reviews `lines` (review's line format: `roll DICE take FACE`, `stop`,
// `scores S0,S1 seat I`) for the request slots' review fields (objective,
// exact, scores, seat, players, tables, dice, bonus, target).
EMSCRIPTEN_KEEPALIVE int mdw_review(const char* lines) {
  using namespace martiandice;  // NOLINT: this function's names
  absl::StatusOr<const app::Request*> fields = web::ReadRequest(app::kReviewRequest, "review");
  if (!fields.ok()) return web::Fail(fields.status());
  absl::StatusOr<app::ReviewQuery> query = app::ParseReviewQuery((*fields)->query);
  if (!query.ok()) return web::Fail(query.status());
  absl::StatusOr<std::string> answer = app::ReviewText(
      web::TheAdvisor(), *std::move(query), lines != nullptr ? lines : "", "stdin", true);
  if (!answer.ok()) return web::Fail(answer.status());
  return web::Succeed(*std::move(answer));
}

}  // extern "C"
