// `martiandice solve --players N` for N >= 3: the N-player solve
// (solver/nplayer_solver.h) written as a format version 2 table, and its
// summary as text or JSON.
#pragma once

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/rules.h"

namespace martiandice::cli {

struct NPlayerSolveRequest {
  Rules rules;
  int players = 3;
  int threads = 1;   // worker threads, >= 1
  std::string path;  // the table file to write
  bool json = false;
  std::function<void(double)> progress;  // fraction done, from the calling thread
  std::function<void()> finish;          // the solve is done (before writing)
  // Writes the bytes to the path atomically (errors as the CLI reports them).
  std::function<absl::Status(const std::string& path, const std::string& bytes)> write;
};

// Solves, writes the table and returns the summary (text, or one JSON object
// and a newline). Errors: the solver's (rules, players, threads) or the write's.
absl::StatusOr<std::string> RunNPlayerSolve(const NPlayerSolveRequest& request);

}  // namespace martiandice::cli
