// What the ranks of a clustered solve (solve_cluster.h) tell each other:
// after each level, to each rank the values it reads of the others' score
// vectors (every context's chances and error bound, and with 2 players the
// pair kernel's slope) with their statuses and wishes (stop, checkpoint);
// statuses, and at the end each rank's counters. Messages hold host-order doubles: the ranks run
// the same build on machines of one kind. Internal to the solver.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "level_schedule.h"
#include "solve_cluster.h"
#include "solve_report.h"
#include "solve_state.h"

namespace martiandice::solver {

class LevelShare {
 public:
  // `cluster` may be null (alone: nothing to share). Keeps references.
  LevelShare(SolveState& state, const LevelSchedule& schedule, SolveCluster* cluster);

  bool enabled() const { return cluster_ != nullptr; }

  // What the ranks agreed after a level: to stop (any rank asked), to write
  // a checkpoint (one was due at any rank).
  struct Agreed {
    bool stop = false;
    bool checkpoint = false;
  };
  // Collective, after level `level`: each rank gets the records it reads of
  // this rank's vectors of it (SolveState::Reads; or, if `status` failed, its
  // error), and keeps those it gets in the window, where the levels no level
  // left reads are dropped. A read of a record not held during the
  // level fails it (Internal).
  // Errors: the first failed rank's status ("rank R of N: ..."); a message
  // of the wrong size (DataLoss); the transport's (DeadlineExceeded,
  // Aborted: IsTransportError).
  absl::StatusOr<Agreed> AfterLevel(int level, const absl::Status& status, bool stop, bool due);

  // Collective: ok if every rank's `status` is, else the first failed
  // rank's ("rank R of N: ..."), or the transport's error.
  absl::Status Agree(const absl::Status& status);

  // Collective: every rank's `mine`, in rank order.
  absl::StatusOr<std::vector<std::string>> Gather(std::string mine);

  // Collective, at the end: each rank's counters (`all`, MergeCounters's) and
  // this run's figures (`threads`), one SolveStats per rank with its merged
  // counters, in rank order. Errors: the transport's; DataLoss.
  absl::StatusOr<std::vector<SolveStats>> GatherStats(const CheckpointCounters& all,
                                                      std::span<const SolveStats* const> threads);

 private:
  SolveState& state_;
  const LevelSchedule& schedule_;
  SolveCluster* const cluster_;
};

// Collective over `cluster`: to_each[d] to rank d; the messages to this rank,
// in rank order. Errors: the transport's; DataLoss when it returns another
// count of messages.
absl::StatusOr<std::vector<std::string>> ExchangeAll(SolveCluster& cluster,
                                                     std::vector<std::string> to_each);

// Collective over `cluster`: every rank's `mine`, in rank order (small
// messages: a copy goes to each rank). Errors: ExchangeAll's.
absl::StatusOr<std::vector<std::string>> GatherAll(SolveCluster& cluster, std::string mine);

// Collective over `cluster`: ok if every rank's `status` is, else the first
// failed rank's ("rank R of N: ..."), or the transport's error.
absl::Status AgreeStatus(SolveCluster& cluster, const absl::Status& status);

// Whether `status` is the transport's (solve_cluster.h): no collective is
// possible after it.
bool IsTransportError(const absl::Status& status);

}  // namespace martiandice::solver
