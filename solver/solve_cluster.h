// The ranks of a game solve spread over processes (docs/SCALING.md, "On a
// cluster"): the transport the solve needs from them, one collective (an
// exchange, all to all). The MPI transport is mpi_cluster.h's; the tests
// have an in-process one. Which rank solves which score vectors and what a
// level shares are level_schedule.h's and level_share.h's.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"

namespace martiandice::solver {

class SolveCluster {
 public:
  virtual ~SolveCluster() = default;

  // This process's rank, 0..ranks()-1, and how many take part (>= 1).
  virtual int rank() const = 0;
  virtual int ranks() const = 0;

  // Collective: every rank calls it, in the same order, with one message for
  // each rank (`to_each[d]` for rank d, its own included); each gets the
  // message every rank gave it, in rank order (its own included), so that a
  // rank receives only what it reads. Errors: InvalidArgument when
  // `to_each` does not hold ranks() messages (no collective then);
  // DeadlineExceeded when a rank has not joined within the transport's wait
  // limit (it died, hangs or failed before joining), Aborted when the
  // transport fails; the cluster is unusable after either. Called from one
  // thread at a time.
  absl::StatusOr<std::vector<std::string>> Exchange(std::vector<std::string> to_each) {
    if (static_cast<int>(to_each.size()) != ranks()) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "an exchange needs one message for each of %d ranks, got %d", ranks(), to_each.size()));
    }
    return Swap(std::move(to_each));
  }

 private:
  // The transport's Exchange, given ranks() messages.
  virtual absl::StatusOr<std::vector<std::string>> Swap(std::vector<std::string> to_each) = 0;
};

}  // namespace martiandice::solver
