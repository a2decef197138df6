// `martiandice solve --players N` for N >= 3: the N-player solve
// (solver/game_solver.h) written as a format version 2 table, and its
// summary as text or JSON; and `martiandice certify` for any table.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "certify.h"
#include "martiandice/game.h"
#include "martiandice/rules.h"
#include "game_solver.h"

namespace martiandice::cli {

struct NPlayerSolveRequest {
  Rules rules;
  int players = 3;
  int threads = 1;   // worker threads, >= 1
  std::string path;  // the table file to write
  bool json = false;
  bool certify = true;  // certify every decision a reader derives (certify.h)
  // Where finished work is saved and resumed from ("" for none); deleted
  // once the table is written.
  std::string checkpoint;
  const std::atomic<bool>* stop = nullptr;  // set to interrupt (Ctrl-C)
  // Progress (fraction of the work, seconds elapsed, seconds left or < 0),
  // from the calling thread.
  std::function<void(const solver::GameSolveProgress&)> progress;
  std::function<void()> finish;  // the solve is done (before writing)
  // Writes the bytes to the path atomically (errors as the CLI reports them).
  std::function<absl::Status(const std::string& path, const std::string& bytes)> write;
};

// A certification report as the `solve` output's "certification" JSON
// object, and as text lines (2-player tables and N-player values alike; the
// N-player fields only when `values_only`).
std::string CertificationJson(const solver::CertificationReport& report);
std::string CertificationText(const solver::CertificationReport& report);

// Solves (resuming from the checkpoint if it holds this solve's work), writes
// the table, removes the checkpoint, certifies the table as read back
// (unless !certify) and returns the summary (text, or one
// JSON object and a newline). Errors: the solver's (rules, players, threads,
// a checkpoint of another solve or damaged), Cancelled when stopped (the
// message says where the work was saved), or the write's.
absl::StatusOr<std::string> RunNPlayerSolve(const NPlayerSolveRequest& request);

// `martiandice certify`: a table file certified as `solve` certifies what it
// writes (format version 1: the stored roll values; version 2: every
// decision a reader derives from the stored vectors).
struct CertifyRequest {
  const GameTable* table = nullptr;  // the table, read (not null)
  std::string path;                  // its file, for the report
  int threads = 1;                   // version 2: worker threads, >= 1
  bool json = false;
  const std::atomic<bool>* stop = nullptr;  // version 2: set to interrupt
};
struct CertifyOutcome {
  std::string text;  // the report (text, or one JSON object and a newline)
  bool certified = false;
};
// Errors: the reader's, for a record it refuses; Cancelled when stopped.
absl::StatusOr<CertifyOutcome> RunCertify(const CertifyRequest& request);

}  // namespace martiandice::cli
