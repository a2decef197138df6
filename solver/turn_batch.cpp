// The turn batches: one request solved alone, and the worker threads' batch.
#include "turn_batch.h"

#include <algorithm>
#include <atomic>

#include "absl/strings/str_format.h"
#include "workers.h"

namespace martiandice::solver {

void SolveTurn(const internal::TurnModel& model, const TurnRequest& request,
               internal::TurnValues* plain, TurnResult* out) {
  if (request.kind == TurnRequest::Kind::kConvention) {
    internal::SolveConvention(model, request.utility, request.Carried(), request.watched,
                              request.arithmetic, out);
    return;
  }
  internal::SolveDouble(model, request.utility, plain);
  out->value = plain->value[model.Id(0, 0, 0, 0, 0)];
  out->wide_value = out->value;
}

absl::Status ThreadedTurnBatch::Solve(const internal::TurnModel& model,
                                      std::span<const TurnRequest> requests,
                                      std::span<TurnResult> results) {
  if (requests.size() != results.size()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "a turn batch of %d requests got %d results", requests.size(), results.size()));
  }
  if (requests.empty()) return absl::OkStatus();
  std::atomic<std::size_t> next{0};
  auto work = [&](int) {
    internal::TurnValues plain;
    for (std::size_t i; (i = next++) < requests.size();) {
      SolveTurn(model, requests[i], &plain, &results[i]);
    }
  };
  return RunWorkers(static_cast<int>(std::min<std::size_t>(threads_, requests.size())), work);
}

}  // namespace martiandice::solver
