// Running the real `martiandice` executable in a hostile environment, for the
// tests of what a process sees and an in-process RunCli does not: resource
// limits (setrlimit in the child before exec), standard output closed or sent
// to a given file such as /dev/full. Failures are doctest REQUIREs in the
// calling test case.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace process_util {

// Sanitizers reserve terabytes of address space and start threads of their
// own: an address-space limit cannot be tested under them.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

struct ProcessOptions {
  // Standard output: captured (default), closed, or this file opened for writing.
  bool stdout_closed = false;
  std::optional<std::string> stdout_path;
  // Resource limits set in the child (soft and hard) before exec.
  std::vector<std::pair<int, rlim_t>> limits;
  // Standard input (empty: at its end at once), or this file's contents.
  std::string input;
  std::optional<std::string> stdin_path;
  // Whether exit 127 (the child could not be set up: exec or the loader
  // failed, as under a tight RLIMIT_AS) is a result, not a test failure.
  bool setup_may_fail = false;
};

struct ProcessRun {
  int status = -1;      // waitpid's
  std::string out;      // captured standard output
  std::string err;      // standard error
  long max_rss_kb = 0;  // the child's peak resident memory (getrusage's ru_maxrss)

  bool Exited(int code) const { return WIFEXITED(status) && WEXITSTATUS(status) == code; }
};

// Runs `program` with `args`, feeding `options.input`, and waits for it.
inline ProcessRun RunProcess(const std::string& program, const std::vector<std::string>& args,
                             const ProcessOptions& options = {}) {
  std::vector<std::string> storage = {program};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : storage) argv.push_back(arg.data());
  argv.push_back(nullptr);
  int in_pipe[2], out_pipe[2], err_pipe[2];
  REQUIRE(pipe2(in_pipe, O_CLOEXEC) == 0);
  REQUIRE(pipe2(out_pipe, O_CLOEXEC) == 0);
  REQUIRE(pipe2(err_pipe, O_CLOEXEC) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {  // the child: only async-signal-safe calls
    if (dup2(in_pipe[0], 0) < 0 || dup2(err_pipe[1], 2) < 0) _exit(127);
    if (options.stdin_path) {
      const int fd = open(options.stdin_path->c_str(), O_RDONLY);
      if (fd < 0 || dup2(fd, 0) < 0) _exit(127);
    }
    if (options.stdout_closed) {
      close(1);
    } else if (options.stdout_path) {
      const int fd = open(options.stdout_path->c_str(), O_WRONLY);
      if (fd < 0 || dup2(fd, 1) < 0) _exit(127);
    } else if (dup2(out_pipe[1], 1) < 0) {
      _exit(127);
    }
    for (const auto& [resource, value] : options.limits) {
      const rlimit limit = {value, value};
      if (setrlimit(resource, &limit) != 0) _exit(127);
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  // The input is small: it fits the pipe, so writing it first cannot block.
  REQUIRE(options.input.size() < 4096);
  REQUIRE(write(in_pipe[1], options.input.data(), options.input.size()) ==
          static_cast<ssize_t>(options.input.size()));
  close(in_pipe[1]);
  ProcessRun run;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&run.out, &run.err};
  for (int open_pipes = 2; open_pipes > 0;) {
    REQUIRE(poll(fds, 2, -1) > 0);
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[4096];
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_pipes;
      }
    }
  }
  rusage usage{};
  REQUIRE(wait4(pid, &run.status, 0, &usage) == pid);
  run.max_rss_kb = usage.ru_maxrss;
  if (!options.setup_may_fail) REQUIRE(!run.Exited(127));  // the child could not be set up
  return run;
}

}  // namespace process_util
