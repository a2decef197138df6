// A zero-score cycle's policy iteration as a resumable step (a C++20
// coroutine): each round it posts its turn requests (TurnPosts, turn_batch.h)
// and suspends; the level's schedule (cycle_rounds.h) solves them, alone or
// with every live cycle's in one batch, and resumes it with its results.
// Internal to the solver.
#pragma once

#if __has_include(<coroutine>)
#include <coroutine>
#else  // emscripten 3.1.6's libc++ (the WebAssembly module): the TS's header
#include <experimental/coroutine>
#endif
#include <cstddef>
#include <exception>
#include <utility>

namespace martiandice::solver {

#if __has_include(<coroutine>)
namespace coro = std;
#else
namespace coro = std::experimental;
#endif

class CycleTask {
 public:
  struct promise_type {
    CycleTask get_return_object() {
      return CycleTask(coro::coroutine_handle<promise_type>::from_promise(*this));
    }
    coro::suspend_always initial_suspend() noexcept { return {}; }
    coro::suspend_always final_suspend() noexcept { return {}; }
    void return_void() {}
    // std::bad_alloc: kept for Step to rethrow on the thread that resumed it.
    void unhandled_exception() { thrown = std::current_exception(); }
    std::exception_ptr thrown;
  };

  CycleTask() = default;
  CycleTask(CycleTask&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
  CycleTask& operator=(CycleTask&& other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  ~CycleTask() {
    if (handle_) handle_.destroy();
  }

  // Runs the cycle on to its next round's requests (posted, the results of
  // the last round read) or to its end (its vectors stored); true at the end.
  // Rethrows what the cycle threw (it is then at its end, its work undone).
  bool Step() {
    handle_.resume();
    if (handle_.promise().thrown) std::rethrow_exception(handle_.promise().thrown);
    return handle_.done();
  }

 private:
  explicit CycleTask(coro::coroutine_handle<promise_type> handle) : handle_(handle) {}
  coro::coroutine_handle<promise_type> handle_;
};

// `co_await AwaitTurns{posts.count, waits}`: suspends for the batch unless
// nothing was posted and nothing `waits` for it.
struct AwaitTurns {
  std::size_t posted;
  bool waits = false;
  bool await_ready() const noexcept { return posted == 0 && !waits; }
  void await_suspend(coro::coroutine_handle<>) const noexcept {}
  void await_resume() const noexcept {}
};

}  // namespace martiandice::solver
