// The module's review of played turns: `martiandice review --json`'s object
// for lines given as text, made by the command's own code (tools/review.cpp's
// RunReview, reading the text as `review -` reads stdin), with the query's
// options as mdw_query takes them. Calling convention: binding.cpp's.
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE
#endif

#include <sstream>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "binding.h"
#include "commands.h"

extern "C" {

// Reviews `lines` (review's line format: `roll DICE take FACE`, `stop`,
// `scores S0,S1 seat I`) for `objective` (null: ev, or win with scores),
// exactly when `exact`; the other inputs as mdw_query's.
EMSCRIPTEN_KEEPALIVE int mdw_review(const char* lines, const char* objective, int exact,
                                    const char* scores, unsigned present, int seat, int players,
                                    int dice, int bonus, int target) {
  using namespace martiandice;  // NOLINT: this function's names
  cli::CommandOptions options;
  options.query = web::ReadInputs(scores, present, seat, players, dice, bonus, target);
  if (objective != nullptr) options.query.objective = objective;
  options.query.exact = exact != 0;
  options.input = "-";
  options.json = true;
  std::istringstream in(lines != nullptr ? lines : "");
  std::ostringstream progress;  // review writes none
  const cli::CommandContext context{web::TheAdvisor(), progress, false, &in};
  absl::StatusOr<std::string> answer = cli::RunReview(options, context);
  if (!answer.ok()) return web::Fail(answer.status());
  return web::Succeed(*std::move(answer));
}

}  // extern "C"
