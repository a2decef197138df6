// The module's review of played turns: `martiandice review --json -`'s object
// for lines given as text, made by the command's own code (tools/review.h's
// ReviewText), with the query's options as mdw_query takes them. Calling
// convention: binding.cpp's.
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
// `scores S0,S1 seat I`) for `objective` (null: ev, or win with scores),
// exactly when `exact`; the other inputs as mdw_query's.
EMSCRIPTEN_KEEPALIVE int mdw_review(const char* lines, const char* objective, int exact,
                                    const char* scores, unsigned present, int seat, int players,
                                    int dice, int bonus, int target) {
  using namespace martiandice;  // NOLINT: this function's names
  QueryInput input = web::ReadInputs(scores, present, seat, players, dice, bonus, target);
  if (objective != nullptr) input.objective = objective;
  input.exact = exact != 0;
  absl::StatusOr<cli::ReviewQuery> query = cli::ParseReviewQuery(input);
  if (!query.ok()) return web::Fail(query.status());
  absl::StatusOr<std::string> answer = cli::ReviewText(
      web::TheAdvisor(), *std::move(query), lines != nullptr ? lines : "", "stdin", true);
  if (!answer.ok()) return web::Fail(answer.status());
  return web::Succeed(*std::move(answer));
}

}  // extern "C"
