// The real `martiandice` executable in a hostile environment (issue 21):
// worker threads the system refuses to start, and --threads' bound.
// Each case says what the process must do: a clear error line and an exit
// status, never an abort.
#include <doctest/doctest.h>

#ifdef MARTIANDICE_CLI_PATH

#include <sys/resource.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "process_util.h"
#include "test_util.h"

namespace {

using process_util::ProcessOptions;
using process_util::ProcessRun;
using test_util::TempDir;

ProcessRun RunCliProcess(const std::vector<std::string>& args, const ProcessOptions& options = {}) {
  return process_util::RunProcess(MARTIANDICE_CLI_PATH, args, options);
}

// One error line, "martiandice: error: ...", holding `text`.
void CheckOneErrorLine(const ProcessRun& run, const std::string& text) {
  INFO("stderr: " << run.err);
  CHECK(run.err.rfind("martiandice: error: ", 0) == 0);
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK(run.err.find(text) != std::string::npos);
}

// 1 GiB of address space and 64 MiB thread stacks (a thread's default stack
// is RLIMIT_STACK's size): about a dozen threads fit, 64 do not.
ProcessOptions FewThreads() {
  ProcessOptions options;
  options.limits = {{RLIMIT_STACK, rlim_t{64} << 20}, {RLIMIT_AS, rlim_t{1} << 30}};
  return options;
}

// A 3-player solve of small rules whose levels have dozens of score vectors.
const std::vector<std::string> kThreePlayers = {"--players", "3",  "--dice", "6",
                                                "--target",  "15", "--quiet"};

}  // namespace

TEST_CASE("environment: threads that cannot start are an error, not an abort (simulate)") {
  if (process_util::kSanitized) {
    MESSAGE("skipped under a sanitizer: it needs far more address space than the limit");
    return;
  }
  const ProcessRun run = RunCliProcess(
      {"simulate", "--games", "100000", "--policies", "ev,ev", "--threads", "64"}, FewThreads());
  CHECK(run.Exited(1));
  CHECK(run.out.empty());
  CheckOneErrorLine(run, "worker thread");
  CheckOneErrorLine(run, "use fewer threads (--threads ");
}

TEST_CASE("environment: threads that cannot start are an error, not an abort (solve, certify)") {
  if (process_util::kSanitized) {
    MESSAGE("skipped under a sanitizer: it needs far more address space than the limit");
    return;
  }
  TempDir dir;
  std::vector<std::string> solve = {"solve", "--threads", "64", "--out", dir.str()};
  solve.insert(solve.end(), kThreePlayers.begin(), kThreePlayers.end());
  const ProcessRun failed = RunCliProcess(solve, FewThreads());
  CHECK(failed.Exited(1));
  CheckOneErrorLine(failed, "use fewer threads (--threads ");
  // The work finished before is saved, and the same command with threads that
  // can start resumes it.
  CheckOneErrorLine(failed, "the finished work is saved in ");
  solve[2] = "2";
  const ProcessRun solved = RunCliProcess(solve);
  INFO("stderr: " << solved.err);
  REQUIRE(solved.Exited(0));
  CHECK(solved.out.find("Certification: every decision and value is certified.") !=
        std::string::npos);
  std::vector<std::string> certify = {"certify", "--threads", "64", "--tables", dir.str()};
  certify.insert(certify.end(), kThreePlayers.begin(), kThreePlayers.end());
  const ProcessRun refused = RunCliProcess(certify, FewThreads());
  CHECK(refused.Exited(1));
  CHECK(refused.out.empty());
  CheckOneErrorLine(refused, "use fewer threads (--threads ");
}

TEST_CASE("environment: --threads is at most 256") {
  for (const char* command : {"simulate", "solve", "certify"}) {
    CAPTURE(command);
    std::vector<std::string> args = {command, "--threads", "257"};
    if (std::string(command) == "simulate") {
      args.insert(args.end(), {"--games", "10", "--policies", "ev,ev"});
    } else {
      args.insert(args.end(), {"--players", "3", "--dice", "2", "--target", "3"});
      if (std::string(command) == "solve") args.insert(args.end(), {"--out", "x.mdt"});
    }
    cli_test::CheckUsageError(args, "--threads must be 0 (all) or more, and at most 256; got 257");
  }
  // The bound itself is accepted.
  const cli_test::CliRun run =
      cli_test::Run({"simulate", "--games", "10", "--policies", "ev,ev", "--threads", "256"});
  INFO("stderr: " << run.err);
  CHECK(run.code == 0);
}

#endif  // MARTIANDICE_CLI_PATH
