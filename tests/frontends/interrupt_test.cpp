// tools/interrupt.h: SIGINT/SIGTERM set the flag (the process lives on), a
// second signal terminates, the previous handlers come back; the progress
// text, durations and lines or bar; a solve stopped by the flag.
#include "interrupt.h"

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "game_solver.h"

using namespace martiandice;

namespace {

extern "C" void CountingHandler(int) {}

bool HandlerIs(int sig, void (*handler)(int)) {
  struct sigaction current {};
  sigaction(sig, nullptr, &current);
  return current.sa_handler == handler;
}

}  // namespace

TEST_CASE("interrupt: the first signal sets the flag, the old handlers come back") {
  struct sigaction mine {
  }, old_int{}, old_term{};
  mine.sa_handler = CountingHandler;
  sigemptyset(&mine.sa_mask);
  sigaction(SIGINT, &mine, &old_int);
  sigaction(SIGTERM, &mine, &old_term);
  for (int sig : {SIGINT, SIGTERM}) {
    CAPTURE(sig);
    {
      cli::InterruptFlag interrupt;
      CHECK(!interrupt.interrupted());
      CHECK(interrupt.signal() == 0);
      CHECK(!HandlerIs(SIGINT, CountingHandler));
      REQUIRE(raise(sig) == 0);  // handled: the test goes on
      CHECK(interrupt.interrupted());
      CHECK(interrupt.flag()->load());
      CHECK(interrupt.signal() == sig);
    }
    CHECK(HandlerIs(SIGINT, CountingHandler));
    CHECK(HandlerIs(SIGTERM, CountingHandler));
    cli::InterruptFlag fresh;  // a new instance starts clear
    CHECK(!fresh.interrupted());
    fresh.Set();
    CHECK(fresh.interrupted());
    CHECK(fresh.signal() == 0);
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
}

TEST_CASE("interrupt: a second signal terminates at once, the notice is written once") {
  for (int second : {SIGINT, SIGTERM}) {
    CAPTURE(second);
    int pipe_fds[2];
    REQUIRE(pipe(pipe_fds) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      dup2(pipe_fds[1], STDERR_FILENO);
      close(pipe_fds[0]);
      cli::InterruptFlag interrupt("stopping\n");
      raise(SIGINT);
      if (!interrupt.interrupted()) _exit(3);
      raise(second);  // terminates here
      _exit(4);
    }
    close(pipe_fds[1]);
    std::string notice;
    char buffer[64];
    for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) notice.append(buffer, n);
    close(pipe_fds[0]);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == second);
    CHECK(notice == "stopping\n");
  }
}

TEST_CASE("interrupt: the flag stops an N-player solve with a clear status") {
  cli::InterruptFlag interrupt;
  solver::GameSolveOptions options;
  options.rules = Rules{4, 2, 6};
  options.players = 3;
  options.stop = interrupt.flag();
  int calls = 0;
  options.progress = [&](const solver::GameSolveProgress& p) {
    if (++calls == 20) raise(SIGINT);
    CHECK(p.fraction < 1);  // stopped before the end
  };
  absl::Status status = solver::SolveGameValues(options, nullptr).status();
  CHECK(absl::IsCancelled(status));
  CHECK(interrupt.signal() == SIGINT);
  CHECK(std::string(status.message()).find("no checkpoint file") != std::string::npos);
}

TEST_CASE("interrupt: durations, the progress text, the checkpoint path") {
  CHECK(cli::CheckpointPath("", "out/three.mdpolicy") == "out/three.mdpolicy.checkpoint");
  CHECK(cli::CheckpointPath("c.ckpt", "out/three.mdpolicy") == "c.ckpt");
  CHECK(std::string(cli::kSolveInterruptNotice).back() == '\n');
  CHECK(cli::FormatDuration(0) == "0s");
  CHECK(cli::FormatDuration(42.4) == "42s");
  CHECK(cli::FormatDuration(59.6) == "1m00s");
  CHECK(cli::FormatDuration(70) == "1m10s");
  CHECK(cli::FormatDuration(3599) == "59m59s");
  CHECK(cli::FormatDuration(3600) == "1h00m");
  CHECK(cli::FormatDuration(2 * 3600 + 5 * 60 + 10) == "2h05m");
  CHECK(cli::FormatDuration(-1) == "?");
  CHECK(cli::FormatDuration(1.0 / 0.0) == "?");
  CHECK(cli::ProgressText(cli::SolveProgressLabel(3), 0.42, 70, 90) ==
        "solving 3 players: 42% (1m10s elapsed, about 1m30s left)");
  CHECK(cli::ProgressText(cli::SolveProgressLabel(4), 0.0, 3, -1) ==
        "solving 4 players: 0% (3s elapsed)");
  CHECK(cli::ProgressText(cli::SolveProgressLabel(3), 1.0, 95, 0) ==
        "solving 3 players: 100% (1m35s elapsed)");
  CHECK(cli::ProgressText(cli::SolveProgressLabel(3), 0.999, 95, 0.1) ==
        "solving 3 players: 99% (1m35s elapsed, about 0s left)");
}

TEST_CASE("interrupt: the progress text of any job") {
  CHECK(cli::ProgressText("certifying", 0.5, 61, 59) ==
        "certifying: 50% (1m01s elapsed, about 59s left)");
  CHECK(cli::ProgressText("certifying", 0.05, 1, -1) == "certifying: 5% (1s elapsed)");
  CHECK(cli::ProgressText("certifying", 1.0, 3, 0) == "certifying: 100% (3s elapsed)");
  CHECK(cli::ProgressText("x", 1.5, 3, 0) == "x: 100% (3s elapsed)");  // clamped
  CHECK(cli::ProgressText("x", -1, 3, 1) == "x: 0% (3s elapsed, about 1s left)");
  CHECK(cli::SolveProgressLabel(3) == "solving 3 players");
}

TEST_CASE("interrupt: progress as a line per tenth, a bar on a terminal, or nothing") {
  const std::vector<double> fractions = {0.0, 0.05, 0.1, 0.15, 0.34, 0.341, 0.35, 0.99, 1.0};
  {
    std::ostringstream err;
    cli::Progress progress(err, false, false, "certifying");
    for (double f : fractions) progress.Update(f, 2, 3);
    progress.Finish();
    CHECK(err.str() ==
          "martiandice: certifying: 10% (2s elapsed, about 3s left)\n"
          "martiandice: certifying: 34% (2s elapsed, about 3s left)\n"
          "martiandice: certifying: 99% (2s elapsed, about 3s left)\n"
          "martiandice: certifying: 100% (2s elapsed)\n");
  }
  {
    std::ostringstream err;
    cli::Progress progress(err, true, false, "certifying");
    for (double f : fractions) progress.Update(f, 2, 3);
    progress.Finish();
    const std::string bar = err.str();
    // Redrawn in place at each new percent (34% once), the line ended at the end.
    CHECK(std::count(bar.begin(), bar.end(), '\r') == 8);
    CHECK(bar.rfind("\rmartiandice: certifying: 0% (2s elapsed, about 3s left)", 0) == 0);
    const std::string last = "\rmartiandice: certifying: 100% (2s elapsed)";
    const std::size_t at = bar.rfind('\r');
    CHECK(bar.compare(at, last.size(), last) == 0);
    // Padded over the longer text before it, then the newline.
    CHECK(
        bar.substr(at + last.size()) ==
        std::string(std::string("martiandice: certifying: 99% (2s elapsed, about 3s left)").size() -
                        last.size() + 1,
                    ' ') +
            "\n");
  }
  {
    std::ostringstream err;
    cli::Progress progress(err, true, true, "certifying");
    for (double f : fractions) progress.Update(f, 2, 3);
    progress.Finish();
    CHECK(err.str().empty());
  }
  {
    // Its own clock: no estimate before 5% of the work, then one.
    std::ostringstream err;
    cli::Progress progress(err, false, false, "job");
    progress.Update(0.12);
    CHECK(err.str().rfind("martiandice: job: 12% (", 0) == 0);
    CHECK(err.str().find("left)") != std::string::npos);
    std::ostringstream early;
    cli::Progress first(early, true, false, "job");
    first.Update(0.01);
    CHECK(early.str().rfind("\rmartiandice: job: 1% (", 0) == 0);
    CHECK(early.str().find("left") == std::string::npos);
    CHECK(first.Seconds() >= 0);
  }
}
