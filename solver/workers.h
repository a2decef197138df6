// Worker threads, started in one place: the game solve's rounds and turn
// batches (a WorkerPool), the certifier (certify.cpp) and `martiandice
// simulate` (RunWorkers), so that a thread the system refuses to start is an
// error status, never an abort.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"

namespace martiandice::solver {

// Runs work(0), ..., work(threads - 1) at once: work(0) on the calling
// thread, the others on threads - 1 new threads, and returns once every call
// has returned. Every new thread is started before any call begins: if one
// cannot be started (the system's thread or memory limits), no call runs, the
// threads already started are joined, and the error is ResourceExhausted,
// saying how many threads could run and to use fewer (--threads).
// InvalidArgument if threads < 1. An exception from a call is rethrown here
// once every call has returned (WorkerPool::Run).
absl::Status RunWorkers(int threads, const std::function<void(int)>& work);

// RunWorkers for many short rounds (the game solve's final-round waves and
// a level's cycles, each a round or more): the threads are started once, on the first Run, and wait
// between rounds, instead of a start and a join per round. Not thread-safe:
// one caller runs its rounds one after another.
class WorkerPool {
 public:
  // At most `threads` workers a round, the caller's thread included.
  explicit WorkerPool(int threads) : threads_(threads) {}
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs work(0), ..., work(k - 1) at once, k = min(threads, limit) (at least
  // 1): work(0) on the calling thread. Returns once every call has returned.
  // Errors: RunWorkers's (threads < 1; a thread the system refused to start,
  // then on every later Run too, with no call run). An exception from a call
  // (std::bad_alloc) is rethrown here once every call has returned, the
  // caller's own first, else the first of the others.
  absl::Status Run(int limit, const std::function<void(int)>& work);

  int threads() const { return threads_; }

  // each(t, 0), ..., each(t, n - 1), once each, on min(threads, n) workers,
  // each taking the next item left (t: the worker calling, 0 the caller, for
  // per-worker buffers). Errors: Run's.
  absl::Status ForEach(std::size_t n, const std::function<void(int, std::size_t)>& each);

 private:
  absl::Status Start();
  void Serve(int index);

  const int threads_;
  bool started_ = false;
  absl::Status start_status_;
  std::vector<std::thread> pool_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  const std::function<void(int)>* work_ = nullptr;
  std::exception_ptr thrown_;  // the round's first exception from a pool worker
  int active_ = 0;             // this round's workers, the caller's included
  int running_ = 0;            // this round's pool workers not finished
  std::uint64_t round_ = 0;    // bumped each round (and to stop)
  bool stop_ = false;
};

}  // namespace martiandice::solver
