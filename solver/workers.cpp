// Worker threads started in one place (workers.h): a pool's threads all
// start before its first round, each waiting for its rounds; if one cannot
// be started no round runs, and the pool's destructor lets the others go.
#include "workers.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"

namespace martiandice::solver {
namespace {

// Thread `running + 1` of `threads` could not be started.
absl::Status StartError(int threads, int running, const std::string& failure) {
  return absl::ResourceExhaustedError(absl::StrFormat(
      "the system refused to start worker thread %d of %d (%s): only %d could run; use fewer "
      "threads (--threads %d or less)",
      running + 1, threads, failure, running, running));
}

}  // namespace

// One round of a pool: its threads all start (or the error) before any work.
absl::Status RunWorkers(int threads, const std::function<void(int)>& work) {
  WorkerPool pool(threads);
  return pool.Run(threads, work);
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    ++round_;
  }
  wake_.notify_all();
  for (std::thread& thread : pool_) thread.join();
}

absl::Status WorkerPool::Start() {
  started_ = true;
  if (threads_ < 1) {
    return start_status_ = absl::InvalidArgumentError(
               absl::StrFormat("worker threads must be at least 1, got %d", threads_));
  }
  std::string failure;
  try {
    pool_.reserve(static_cast<std::size_t>(threads_ - 1));
    for (int t = 1; t < threads_; ++t) pool_.emplace_back([this, t] { Serve(t); });
  } catch (const std::system_error& e) {
    failure = e.what();
  } catch (const std::bad_alloc&) {
    failure = "out of memory";
  }
  if (failure.empty()) return absl::OkStatus();
  start_status_ = StartError(threads_, static_cast<int>(pool_.size()) + 1, failure);
  return start_status_;
}

// A pool thread: each round, its share of the work if the round has room
// for it; until the pool stops.
void WorkerPool::Serve(int index) {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(int)>* work;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return round_ != seen; });
      seen = round_;
      if (stop_) return;
      if (index >= active_) continue;
      work = work_;
    }
    std::exception_ptr thrown;
    try {
      (*work)(index);
    } catch (...) {  // kept for Run to rethrow on the caller's thread
      thrown = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (thrown && !thrown_) thrown_ = thrown;
    if (--running_ == 0) finished_.notify_one();
  }
}

absl::Status WorkerPool::Run(int limit, const std::function<void(int)>& work) {
  if (!started_) {
    if (absl::Status s = Start(); !s.ok()) return s;
  }
  if (!start_status_.ok()) return start_status_;
  const int active = std::max(1, std::min(threads_, limit));
  if (active > 1) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      work_ = &work;
      active_ = active;
      running_ = active - 1;
      ++round_;
    }
    wake_.notify_all();
  }
  // What work(0) throws waits for the round's end: the others use the caller's stack.
  std::exception_ptr thrown;
  try {
    work(0);
  } catch (...) {
    thrown = std::current_exception();
  }
  if (active > 1) {
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, [this] { return running_ == 0; });
    if (!thrown) thrown = std::exchange(thrown_, nullptr);
    thrown_ = nullptr;
  }
  if (thrown) std::rethrow_exception(thrown);
  return absl::OkStatus();
}

absl::Status WorkerPool::ForEach(std::size_t n,
                                 const std::function<void(int, std::size_t)>& each) {
  if (n == 0) return absl::OkStatus();
  std::atomic<std::size_t> next{0};
  return Run(static_cast<int>(std::min<std::size_t>(std::max(threads_, 1), n)), [&](int t) {
    for (std::size_t i; (i = next++) < n;) each(t, i);
  });
}

}  // namespace martiandice::solver
