// Long jobs of the CLI (`solve`, `certify`): stopping them cleanly on
// Ctrl-C / SIGTERM, and their progress on stderr with the estimated time left.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>

namespace martiandice::cli {

// While alive, SIGINT and SIGTERM set a flag instead of killing the process:
// the job polls flag() (e.g. GameSolveOptions::stop), saves its work and
// returns. A second signal (either) terminates at once, as if no handler had
// been installed. The destructor restores the previous handlers. One
// instance at a time (the handlers share process-wide state); construct and
// destroy it from one thread.
class InterruptFlag {
 public:
  // What the first signal does to a read or write in flight: carries on
  // (a job polling the flag), or fails with EINTR (an interactive program
  // waiting for its next line: the read ends as at the end of the input).
  enum class Blocked { kRestart, kInterrupt };
  // `notice`, if not empty, is written to stderr (fd 2) by the first
  // signal, e.g. "stopping after the current work, saving the checkpoint
  // (Ctrl-C again to quit at once)".
  explicit InterruptFlag(const std::string& notice = "", Blocked blocked = Blocked::kRestart);
  ~InterruptFlag();
  InterruptFlag(const InterruptFlag&) = delete;
  InterruptFlag& operator=(const InterruptFlag&) = delete;

  // The flag: set by the first signal (or by Set()).
  const std::atomic<bool>* flag() const;
  bool interrupted() const { return flag()->load(); }
  // The signal that set the flag (SIGINT, SIGTERM), 0 if none.
  int signal() const;
  // Sets the flag as a signal would (tests, other stop reasons).
  void Set();
};

// What the first Ctrl-C of a checkpointed solve prints (InterruptFlag's notice).
inline constexpr char kSolveInterruptNotice[] =
    "martiandice: stopping: finishing the work in flight (a solve saves its checkpoint; "
    "Ctrl-C again to quit at once)\n";

// What the first Ctrl-C of a simulation prints.
inline constexpr char kSimulateInterruptNotice[] =
    "martiandice: stopping: finishing the games in flight, then the result of those played "
    "(Ctrl-C again to quit at once)\n";

// The notice for InterruptFlag: none when quiet; on a terminal it starts a
// line of its own (the progress bar holds the current one).
inline std::string InterruptNotice(const char* notice, bool quiet, bool terminal) {
  if (quiet) return "";
  return terminal ? std::string("\n") + notice : std::string(notice);
}

// The checkpoint file of a solve writing `out`: `option` (--checkpoint) if
// not empty, else "<out>.checkpoint" (next to the output: same file system,
// so the atomic rename works, and found again by the same command).
std::string CheckpointPath(const std::string& option, const std::string& out);

// "42s", "1m10s", "2h05m": a duration for people (negative: "?").
std::string FormatDuration(double seconds);

// "WHAT: 42% (1m10s elapsed, about 1m30s left)"; without the estimate while
// it is unknown (seconds_left < 0) or at 100%: "WHAT: 3% (3s elapsed)".
std::string ProgressText(std::string_view what, double fraction, double seconds,
                         double seconds_left);
// What a solve's progress says it does: "solving N players".
std::string SolveProgressLabel(int players);

// A long job's progress on stderr, as ProgressText lines prefixed with
// "martiandice: ": a bar redrawn in place on a terminal (at every percent, or
// every second), else a line at every tenth of the work and every minute;
// nothing when quiet.
// Update may be called from any thread.
class Progress {
 public:
  Progress(std::ostream& err, bool terminal, bool quiet, std::string what);

  // `fraction` of the work done after `seconds`; `seconds_left` < 0 if unknown.
  void Update(double fraction, double seconds, double seconds_left);
  // Update with the seconds since construction and, after 5% of the work, a
  // linear estimate of the time left.
  void Update(double fraction);
  // Shows 100% and ends the bar's line.
  void Finish();
  // `line` on a line of its own ("martiandice: " first; the bar, if drawn,
  // ended and drawn again at the next Update). Nothing when quiet.
  void Note(const std::string& line);
  // Seconds since construction.
  double Seconds() const;

 private:
  std::mutex mutex_;
  std::ostream& err_;
  const bool terminal_;
  const bool quiet_;
  const std::string what_;
  const std::chrono::steady_clock::time_point start_;
  int shown_ = -1;    // last percent (bar) or tenth (lines) shown
  double drawn_ = 0;  // seconds, at the last redraw
  std::size_t last_width_ = 0;
};

}  // namespace martiandice::cli
