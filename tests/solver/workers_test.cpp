// solver/workers.h: every worker runs once, all started before any works, and
// a thread the system refuses to start is a ResourceExhausted status (no work
// done, the started threads joined), never an abort; the same of the worker
// pool, round after round.
#include "workers.h"

#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "process_util.h"

namespace {

using martiandice::solver::RunWorkers;
using martiandice::solver::WorkerPool;

// This process's address space in bytes (VmSize of /proc/self/status).
rlim_t AddressSpace() {
  std::ifstream status("/proc/self/status");
  std::string key;
  for (rlim_t kilobytes = 0; status >> key;) {
    if (key == "VmSize:" && status >> kilobytes) return kilobytes * 1024;
  }
  FAIL("no VmSize in /proc/self/status");
  return 0;
}

}  // namespace

TEST_CASE("workers: each index runs once, on as many threads") {
  for (int threads : {1, 2, 7}) {
    std::vector<std::atomic<int>> runs(threads);
    std::atomic<int> running{0}, most{0};
    const absl::Status status = RunWorkers(threads, [&](int t) {
      ++runs[t];
      const int now = ++running;
      for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
      }
      // Every worker waits for the others: they all run at once.
      while (most.load() < threads) std::this_thread::yield();
      --running;
    });
    CHECK(status.ok());
    for (const std::atomic<int>& count : runs) CHECK(count.load() == 1);
    CHECK(most.load() == threads);
  }
}

TEST_CASE("workers: fewer than one thread is refused") {
  int calls = 0;
  for (int threads : {0, -1}) {
    const absl::Status status = RunWorkers(threads, [&](int) { ++calls; });
    CHECK(absl::IsInvalidArgument(status));
  }
  CHECK(calls == 0);
}

TEST_CASE("worker pool: each round runs min(threads, limit) workers at once, each index once") {
  WorkerPool pool(3);
  // Rounds of every size, many of them: a worker that misses a round or runs
  // one twice shows in the counts.
  for (int round = 0; round < 300; ++round) {
    const int limit = round % 5;  // 0 and 1: the caller alone
    const int active = std::max(1, std::min(3, limit));
    std::vector<std::atomic<int>> runs(3);
    std::atomic<int> arrived{0};
    REQUIRE(pool.Run(limit,
                     [&](int t) {
                       ++runs[t];
                       ++arrived;
                       // Every worker of the round waits for the others: all at once.
                       while (arrived.load() < active) std::this_thread::yield();
                     })
                .ok());
    for (int t = 0; t < 3; ++t) CHECK(runs[t].load() == (t < active ? 1 : 0));
  }
}

TEST_CASE("worker pool: ForEach calls each item once, on a worker of the pool") {
  WorkerPool pool(3);
  for (std::size_t n : {0u, 1u, 2u, 3u, 10u, 1000u}) {
    std::vector<std::atomic<int>> calls(n);
    std::vector<int> by(n, -1);  // the worker of each item (each written once)
    REQUIRE(pool.ForEach(n,
                         [&](int worker, std::size_t i) {
                           ++calls[i];
                           by[i] = worker;
                         })
                .ok());
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(calls[i].load() == 1);
      CHECK(by[i] >= 0);
      CHECK(by[i] < 3);
    }
  }
}

TEST_CASE("worker pool: fewer than one thread is refused") {
  int calls = 0;
  WorkerPool pool(0);
  CHECK(absl::IsInvalidArgument(pool.Run(4, [&](int) { ++calls; })));
  CHECK(absl::IsInvalidArgument(pool.Run(4, [&](int) { ++calls; })));
  CHECK(calls == 0);
}

// In a child process limited to 64 MiB more address space than it has, the
// threads' stacks (RLIMIT_STACK's size, megabytes each) run out after a few.
TEST_CASE("workers: threads the system refuses are an error, and no work starts") {
  if (process_util::kSanitized) {
    MESSAGE("skipped under a sanitizer: it needs far more address space than the limit");
    return;
  }
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // Read once: a second read can see less (the first read's buffer returned), and a soft
    // limit above the hard one is refused.
    const rlim_t space = AddressSpace() + (64u << 20);
    const rlimit limit = {space, space};
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(10);
    std::atomic<int> calls{0};
    const absl::Status status = RunWorkers(64, [&](int) { ++calls; });
    if (status.ok()) _exit(11);
    if (!absl::IsResourceExhausted(status)) _exit(12);
    if (calls.load() != 0) _exit(13);
    const std::string message(status.message());
    if (message.find("of 64") == std::string::npos) _exit(14);
    if (message.find("use fewer threads (--threads ") == std::string::npos) _exit(15);
    // The pool: the same error, on every round, with no work done.
    WorkerPool pool(64);
    for (int round = 0; round < 2; ++round) {
      const absl::Status refused = pool.Run(64, [&](int) { ++calls; });
      if (!absl::IsResourceExhausted(refused)) _exit(16);
      if (std::string(refused.message()).find("of 64") == std::string::npos) _exit(17);
    }
    if (calls.load() != 0) _exit(18);
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
