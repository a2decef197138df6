// The turn batches: one request solved alone, and the worker threads' batch.
#include "turn_batch.h"

#include <algorithm>

#include "absl/strings/str_format.h"

namespace martiandice::solver {

void SolveTurn(const internal::TurnModel& model, const TurnRequest& request,
               internal::TurnValues plain[2], TurnResult* out) {
  const int start = model.Id(0, 0, 0, 0, 0);
  switch (request.kind) {
    case TurnRequest::Kind::kConvention:
      if (request.record_policy) out->policy.zero_lane = request.policy_zero_lane;
      internal::SolveConvention(model, request.utility, request.Carried(), request.watched,
                                request.arithmetic, out,
                                request.record_policy ? &out->policy : nullptr);
      return;
    case TurnRequest::Kind::kPlain:
      internal::SolveDouble(model, request.utility, &plain[0]);
      out->value = plain[0].value[start];
      out->wide_value = out->value;
      return;
    case TurnRequest::Kind::kPair: {
      const std::vector<double>* pair[2] = {&request.utility, &request.carried[0]};
      out->pair_slope[0] = out->pair_slope[1] = 0;
      internal::SolveDoublePair(model, pair, request.lanes == 2 ? &request.carried[1] : nullptr,
                                out->pair_slope, plain);
      for (int i = 0; i < 2; ++i) out->pair_value[i] = plain[i].value[start];
      return;
    }
    case TurnRequest::Kind::kScoreLaw:
      internal::PolicyScoreLaw(model, *request.policy, &out->score_law);
      return;
  }
}

absl::Status ThreadedTurnBatch::Solve(const internal::TurnModel& model,
                                      std::span<const TurnRequest> requests,
                                      std::span<TurnResult> results) {
  if (requests.size() != results.size()) {
    return absl::InvalidArgumentError(absl::StrFormat("a turn batch of %d requests got %d results",
                                                      requests.size(), results.size()));
  }
  if (requests.empty()) return absl::OkStatus();
  const std::size_t workers = static_cast<std::size_t>(std::max(pool_.threads(), 1));
  if (plain_.size() < workers) plain_.resize(workers);
  return pool_.ForEach(requests.size(), [&](int worker, std::size_t i) {
    SolveTurn(model, requests[i], plain_[worker].data(), &results[i]);
  });
}

}  // namespace martiandice::solver
