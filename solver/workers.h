// Worker threads, started in one place: the game solve's levels
// (level_schedule.cpp), the certifier (certify.cpp) and `martiandice simulate`
// run their work through RunWorkers, so that a thread the system refuses to
// start is an error status, never an abort.
#pragma once

#include <functional>

#include "absl/status/status.h"

namespace martiandice::solver {

// Runs work(0), ..., work(threads - 1) at once: work(0) on the calling
// thread, the others on threads - 1 new threads, and returns once every call
// has returned. Every new thread is started before any call begins: if one
// cannot be started (the system's thread or memory limits), no call runs, the
// threads already started are joined, and the error is ResourceExhausted,
// saying how many threads could run and to use fewer (--threads).
// InvalidArgument if threads < 1.
absl::Status RunWorkers(int threads, const std::function<void(int)>& work);

}  // namespace martiandice::solver
