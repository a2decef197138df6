// The `martiandice` executable: hands argv to RunCli (tools/cli.h), which owns
// every subcommand, and returns its exit code.
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  // Streams unsynchronised from C stdio: buffered reads and writes (`serve`
  // answers many requests per system call; RunCli flushes what it must).
  std::ios::sync_with_stdio(false);
  martiandice::CliEnvironment environment;
  environment.stderr_is_terminal = isatty(STDERR_FILENO) != 0;
  environment.in = &std::cin;
  return martiandice::RunCli(args, std::cout, std::cerr, environment);
}
