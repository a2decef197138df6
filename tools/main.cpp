// The `martiandice` executable: hands argv to RunCli (tools/cli.h), which owns
// every subcommand, and returns its exit code.
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return martiandice::RunCli(args, std::cout, std::cerr, {isatty(STDERR_FILENO) != 0});
}
