// The `martiandice` executable: hands argv to RunCli (tools/cli.h), which owns
// every subcommand, and returns its exit code.
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <string>
#include <vector>

#include "cli.h"
#include "table_cache.h"

namespace {

// A standard stream the caller closed (`>&-`) is held by /dev/null opened
// read-only: no file the program opens takes its number, and writing the
// results there fails as it would on the closed stream (RunCli reports it).
void HoldClosedStandardStreams() {
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int held = open("/dev/null", O_RDONLY);
    if (held >= 0 && held != fd) {
      dup2(held, fd);
      close(held);
    }
  }
}

// `play`'s and `coach`'s text width: a terminal's narrower than 80 columns
// (40 at least; the advice's table stays 58 wide), else 80 (longer lines read
// badly; a pipe gets 80).
int TextColumns() {
  winsize size{};
  if (isatty(STDOUT_FILENO) == 0 || ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 ||
      size.ws_col == 0) {
    return 80;
  }
  return size.ws_col < 40 ? 40 : size.ws_col > 80 ? 80 : size.ws_col;
}

}  // namespace

int main(int argc, char** argv) {
  HoldClosedStandardStreams();
  const std::vector<std::string> args(argv + 1, argv + argc);
  // Streams unsynchronised from C stdio: buffered reads and writes (`serve`
  // answers many requests per system call; RunCli flushes what it must).
  std::ios::sync_with_stdio(false);
  martiandice::CliEnvironment environment;
  environment.stderr_is_terminal = isatty(STDERR_FILENO) != 0;
  environment.columns = TextColumns();
  environment.in = &std::cin;
  environment.table_cache = martiandice::cli::TableCacheFolder();
  return martiandice::RunCli(args, std::cout, std::cerr, environment);
}
