// An in-process SolveCluster for the tests: R ranks as threads of one
// process, each its own solve, meeting at a board (a generation barrier) for
// every exchange. It shares no code with the MPI transport, so the tests of
// the clustered solve run on every machine, MPI or not, and under TSan.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "solve_cluster.h"

using martiandice::solver::SolveCluster;

namespace test_util {

class ClusterBoard {
 public:
  ClusterBoard(int ranks, double wait_seconds)
      : ranks_(ranks), wait_seconds_(wait_seconds), pending_(ranks) {}

  // Rank `rank`'s part of an exchange: to_each[d] for rank d; returns the
  // message each rank gave this one, in rank order.
  absl::StatusOr<std::vector<std::string>> Exchange(int rank, std::vector<std::string> to_each) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (broken_) return absl::AbortedError("the board is broken");
    const long long generation = generation_;
    pending_[rank] = std::move(to_each);
    if (++arrived_ == ranks_) {
      done_ = std::move(pending_);
      pending_.assign(ranks_, {});
      arrived_ = 0;
      ++generation_;
      joined_.notify_all();
      return Column(rank);
    }
    const bool met = joined_.wait_for(lock, std::chrono::duration<double>(wait_seconds_),
                                      [&] { return generation_ != generation || broken_; });
    if (!met || broken_) {
      broken_ = true;
      joined_.notify_all();
      return absl::DeadlineExceededError(absl::StrFormat(
          "rank %d: the other ranks did not join within %g s", rank, wait_seconds_));
    }
    return Column(rank);  // done_ is kept until every rank arrives again, this one included
  }

 private:
  const int ranks_;
  const double wait_seconds_;
  std::mutex mutex_;
  std::condition_variable joined_;
  // What rank `rank` receives: every rank's message to it.
  std::vector<std::string> Column(int rank) const {
    std::vector<std::string> column;
    for (const std::vector<std::string>& to_each : done_) column.push_back(to_each[rank]);
    return column;
  }

  std::vector<std::vector<std::string>> pending_, done_;  // by sender, then receiver
  int arrived_ = 0;
  long long generation_ = 0;
  bool broken_ = false;
};

class ThreadCluster : public SolveCluster {
 public:
  ThreadCluster(ClusterBoard& board, int rank, int ranks)
      : board_(board), rank_(rank), ranks_(ranks) {}
  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }

 private:
  absl::StatusOr<std::vector<std::string>> Swap(std::vector<std::string> to_each) override {
    return board_.Exchange(rank_, std::move(to_each));
  }

  ClusterBoard& board_;
  const int rank_, ranks_;
};

// Runs body(rank, cluster) on `ranks` threads, one rank each, and joins them.
inline void RunRanks(int ranks, double wait_seconds,
                     const std::function<void(int, SolveCluster&)>& body) {
  ClusterBoard board(ranks, wait_seconds);
  std::vector<ThreadCluster> clusters;
  for (int r = 0; r < ranks; ++r) clusters.emplace_back(board, r, ranks);
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) threads.emplace_back([&, r] { body(r, clusters[r]); });
  for (std::thread& t : threads) t.join();
}

}  // namespace test_util
