// The ranks of a game solve spread over processes (docs/SCALING.md, "On a
// cluster"): the transport the solve needs from them, one collective. The
// MPI transport is mpi_cluster.h's; the tests have an in-process one. Which
// rank solves which score vectors and what a level shares are
// level_schedule.h's and level_share.h's.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace martiandice::solver {

class SolveCluster {
 public:
  virtual ~SolveCluster() = default;

  // This process's rank, 0..ranks()-1, and how many take part (>= 1).
  virtual int rank() const = 0;
  virtual int ranks() const = 0;

  // Collective: every rank calls it, in the same order, with its bytes; each
  // gets every rank's bytes in rank order (its own included). Errors:
  // DeadlineExceeded when a rank has not joined within the transport's wait
  // limit (it died, hangs or failed before joining), Aborted when the
  // transport fails; the cluster is unusable after an error. Called from one
  // thread at a time.
  virtual absl::StatusOr<std::vector<std::string>> AllGather(std::string mine) = 0;
};

}  // namespace martiandice::solver
