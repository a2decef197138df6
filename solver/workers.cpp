// Worker threads started in one place (workers.h): a gate holds every new
// thread until all are started, then lets them work, or lets them go without
// working if one could not be started.
#include "workers.h"

#include <condition_variable>
#include <mutex>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"

namespace martiandice::solver {
namespace {

// Opened once: to the work, or to leave without it.
class Gate {
 public:
  // Waits until the gate opens; true to work.
  bool Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    opened_.wait(lock, [this] { return state_ != State::kClosed; });
    return state_ == State::kWork;
  }
  void Open(bool work) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      state_ = work ? State::kWork : State::kLeave;
    }
    opened_.notify_all();
  }

 private:
  enum class State { kClosed, kWork, kLeave };
  std::mutex mutex_;
  std::condition_variable opened_;
  State state_ = State::kClosed;
};

}  // namespace

absl::Status RunWorkers(int threads, const std::function<void(int)>& work) {
  if (threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrFormat("worker threads must be at least 1, got %d", threads));
  }
  Gate gate;
  std::vector<std::thread> pool;
  std::string failure;
  try {
    pool.reserve(static_cast<std::size_t>(threads - 1));
    for (int t = 1; t < threads; ++t) {
      pool.emplace_back([&gate, &work, t] {
        if (gate.Wait()) work(t);
      });
    }
  } catch (const std::system_error& e) {
    failure = e.what();
  } catch (const std::bad_alloc& e) {
    failure = e.what();
  }
  gate.Open(failure.empty());
  if (failure.empty()) work(0);
  for (std::thread& thread : pool) thread.join();
  if (failure.empty()) return absl::OkStatus();
  const int running = static_cast<int>(pool.size()) + 1;  // the caller's included
  return absl::ResourceExhaustedError(absl::StrFormat(
      "the system refused to start worker thread %d of %d (%s): only %d could run; use fewer "
      "threads (--threads %d or less)",
      running + 1, threads, failure, running, running));
}

}  // namespace martiandice::solver
