// The command line in a hostile environment, in process or as the
// real `martiandice` executable: worker threads the system refuses to start
// and --threads' bound; --out naming a device, a FIFO, a symbolic link, the
// input table or a folder that cannot be written; standard output full
// (/dev/full) or closed. Each case says what the
// command must do: a clear error line and an exit status, never an abort, and
// nothing but a regular file or a new path written.
#include <doctest/doctest.h>

#ifdef MARTIANDICE_CLI_PATH

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "process_util.h"
#include "test_util.h"

namespace {

using process_util::ProcessOptions;
using process_util::ProcessRun;
using test_util::ReadFile;
using test_util::TempDir;

namespace fs = std::filesystem;

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

namespace {

const std::string kData = MARTIANDICE_DATA_DIR;

// `path`'s lstat mode and device number (st_rdev), without following a link.
struct stat Lstat(const std::string& path) {
  struct stat info {};
  REQUIRE(lstat(path.c_str(), &info) == 0);
  return info;
}

// An --out that must be refused and left as it was: exit 2, one line naming
// --out and `what`, no suggestion to write to a device.
void CheckOutRefused(const std::vector<std::string>& args, const std::string& out,
                     const std::string& what) {
  const struct stat before = Lstat(out);
  const std::string bytes = S_ISREG(before.st_mode) ? ReadFile(out) : "";
  cli_test::CheckUsageError(args, "--out: ");
  const cli_test::CliRun run = cli_test::Run(args);
  CHECK(run.err.find(what) != std::string::npos);
  CHECK(run.err.find("/dev/null") == std::string::npos);
  const struct stat after = Lstat(out);
  CHECK((after.st_mode & S_IFMT) == (before.st_mode & S_IFMT));
  CHECK(after.st_ino == before.st_ino);
  CHECK(after.st_rdev == before.st_rdev);
  if (S_ISREG(before.st_mode)) CHECK(ReadFile(out) == bytes);
}

std::vector<std::string> Export(const std::string& out) {
  return {"export", "--tables", kData, "--out", out};
}

// Runs `body` in a child process without root's right to write anywhere
// (as user nobody when run as root) and returns its exit status.
int RunUnprivileged(const std::function<int()>& body) {
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(100);
    _exit(body());
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

}  // namespace

TEST_CASE("environment: --out never replaces a character device") {
  // A device node of our own when allowed (root), so that a regression
  // replaces it and not the system's; /dev/null otherwise (no rights to replace it).
  TempDir dir;
  std::string device = "/dev/null";
  if (mknod(dir.File("null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
    device = dir.File("null");
  }
  CheckOutRefused(Export(device), device, "is a character device");
  CheckOutRefused({"plot", "heatmap", "--tables", kData, "--out", device}, device,
                  "is a character device");
  CheckOutRefused({"solve", "--dice", "2", "--target", "3", "--out", device}, device,
                  "is a character device");
  CHECK(S_ISCHR(Lstat("/dev/null").st_mode));
  CHECK(Lstat("/dev/null").st_rdev == makedev(1, 3));
}

TEST_CASE("environment: --out never replaces a FIFO or a symbolic link") {
  TempDir dir;
  const std::string fifo = dir.File("fifo");
  REQUIRE(mkfifo(fifo.c_str(), 0644) == 0);
  CheckOutRefused(Export(fifo), fifo, "is a FIFO");
  // A link to a regular file, to standard output, and a loop.
  const std::string target = dir.File("target.json");
  test_util::WriteFile(target, "kept");
  const std::string link = dir.File("link.json");
  fs::create_symlink(target, link);
  CheckOutRefused(Export(link), link, "is a symbolic link");
  CHECK(ReadFile(target) == "kept");
  const std::string to_stdout = dir.File("stdout");
  fs::create_symlink("/proc/self/fd/1", to_stdout);
  CheckOutRefused(Export(to_stdout), to_stdout, "is a symbolic link");
  const std::string loop = dir.File("loop");
  fs::create_symlink(loop, loop);
  CheckOutRefused(Export(loop), loop, "is a symbolic link");
  // A checkpoint is written the same way.
  cli_test::CheckUsageError({"solve", "--players", "3", "--dice", "2", "--target", "3", "--out",
                             dir.File("t.mdt"), "--checkpoint", fifo},
                            "--checkpoint: " + fifo + " is a FIFO");
  // The only files in the folder are the ones made here: nothing written.
  CHECK(dir.Files().size() == 5);
}

TEST_CASE("environment: a checkpoint naming the table by another path is refused") {
  TempDir dir;
  const std::string table = dir.File("t.mdt");
  fs::create_directory(dir.File("sub"));
  fs::create_directory_symlink(dir.str(), dir.File("here"));
  auto solve = [&](const std::string& checkpoint) {
    return std::vector<std::string>{"solve", "--players",    "3",       "--dice",
                                    "2",     "--target",     "3",       "--out",
                                    table,   "--checkpoint", checkpoint};
  };
  const std::string refused = "--checkpoint: the checkpoint cannot be the table itself";
  // Before the table exists: "./" relative, "." and ".." in an absolute path,
  // a folder reached through a symbolic link.
  const std::string relative = (fs::path(".") / fs::relative(table)).string();
  for (const std::string& alias : {relative, dir.str() + "/./t.mdt", dir.File("sub") + "/../t.mdt",
                                   dir.File("here") + "/t.mdt"}) {
    CAPTURE(alias);
    cli_test::CheckUsageError(solve(alias), refused);
    CHECK(!fs::exists(table));
  }
  // Once it exists: a hard link to it, and the same aliases.
  test_util::WriteFile(table, "the old table");
  const std::string hard_link = dir.File("h.mdt");
  fs::create_hard_link(table, hard_link);
  for (const std::string& alias : {hard_link, relative, dir.File("here") + "/t.mdt"}) {
    CAPTURE(alias);
    cli_test::CheckUsageError(solve(alias), refused);
    CHECK(ReadFile(table) == "the old table");
  }
  // A file of its own is fine: the solve runs, the table is written, the
  // checkpoint removed.
  const cli_test::CliRun run = cli_test::Run(solve(dir.File("own.checkpoint")));
  CHECK(run.code == 0);
  CHECK(ReadFile(table) != "the old table");
  CHECK(!fs::exists(dir.File("own.checkpoint")));
}

// An input that, read to its end, removes `folder`: a log's folder gone
// while the game was played.
class RemovingInput : public std::streambuf {
 public:
  RemovingInput(std::string text, std::string folder)
      : text_(std::move(text)), folder_(std::move(folder)) {}

 protected:
  int_type underflow() override {
    if (!served_) {
      served_ = true;
      setg(text_.data(), text_.data(), text_.data() + text_.size());
      return traits_type::to_int_type(text_[0]);
    }
    fs::remove_all(folder_);
    return traits_type::eof();
  }

 private:
  std::string text_, folder_;
  bool served_ = false;
};

TEST_CASE(
    "environment: a --log that cannot be written is refused first, one lost later is printed") {
  // Before the game: a folder where no file can be created (sysfs, even for
  // root; access() says it is writable).
  const int probe = open("/sys/martiandice-probe", O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (probe >= 0) {
    close(probe);
    unlink("/sys/martiandice-probe");
  } else {
    cli_test::CheckUsageError({"play", "--humans", "none", "--seed", "1", "--log", "/sys/x.log"},
                              "--log: cannot create a temporary file next to /sys/x.log");
    cli_test::CheckUsageError({"coach", "--log", "/sys/x.log"},
                              "--log: cannot create a temporary file next to /sys/x.log");
  }
  // After it: the folder removed as the input ends. The log is printed on
  // standard output, as without --log, and the error says why.
  for (const bool play : {false, true}) {
    CAPTURE(play);
    TempDir dir;
    const std::string folder = dir.File("logs");
    fs::create_directory(folder);
    const std::string log = folder + "/game.log";
    // A turn that ends, so that there is a log to lose.
    RemovingInput input(play ? "r\nstop\n" : "roll 2T 3R 4H 3C 1K take H\nstop\n", folder);
    std::istream in(&input);
    martiandice::CliEnvironment environment;
    environment.in = &in;
    const cli_test::CliRun run = cli_test::Run(
        play ? std::vector<std::string>{"play", "--humans", "0", "--seed", "1", "--log", log}
             : std::vector<std::string>{"coach", "--log", log},
        environment);
    INFO("stdout: " << run.out);
    INFO("stderr: " << run.err);
    CHECK(!fs::exists(folder));
    CHECK(run.code == 2);
    CHECK(run.out.find("Game log (martiandice review") != std::string::npos);
    CHECK(run.err.rfind("martiandice: error: --log: cannot write " + log + ": ", 0) == 0);
  }
}

// certify with ever more address space: until it has enough, every run ends
// with exit 1 and a message naming memory (never a crash: absl's hash maps
// are left broken by a failed grow), the certifier's own among them.
TEST_CASE("environment: certify out of memory is an error naming memory, never a crash") {
  if (process_util::kSanitized) {
    MESSAGE("skipped under a sanitizer: it needs far more address space than the limit");
    return;
  }
  TempDir dir;
  const std::string table = dir.File("t.mdt");
  REQUIRE(RunCliProcess({"solve", "--players", "3", "--target", "10", "--quiet", "--no-certify",
                         "--out", table})
              .Exited(0));
  bool certifier_said = false, certified = false;
  // From the least address space, 11 MiB or more, in which the CLI starts
  // at all (its libraries loaded in about 9.5 MiB and the C++ runtime's first
  // allocations made; a build with the CUDA runtime and its kernels needs
  // more), in half-MiB steps. (With too little the loader itself fails:
  // exit 127.)
  rlim_t start = 22;
  for (; start <= 80; ++start) {
    ProcessOptions limited;
    limited.limits = {{RLIMIT_AS, (start << 20) / 2}};
    limited.setup_may_fail = true;
    if (RunCliProcess({"--version"}, limited).Exited(0)) break;
  }
  MESSAGE("the CLI starts in " << start << " half-MiB of address space");
  for (rlim_t halves = start; halves <= 80 && !certified; ++halves) {
    CAPTURE(halves);
    ProcessOptions limited;
    limited.limits = {{RLIMIT_AS, (halves << 20) / 2}};
    const ProcessRun run = RunCliProcess({"certify", "--players", "3", "--target", "10", "--tables",
                                          table, "--threads", "1", "--quiet"},
                                         limited);
    INFO("stderr: " << run.err);
    REQUIRE((run.Exited(0) || run.Exited(1)));
    if (run.Exited(0)) {
      certified = true;
      continue;
    }
    CheckOneErrorLine(run, "out of memory");
    certifier_said |= run.err.find("out of memory while certifying") != std::string::npos;
  }
  CHECK(certified);
  CHECK(certifier_said);
}

// serve through every rules variant (dice 1..20 x bonus 0..100, an eval
// each): the turn models and solutions kept are bounded (docs/SERVE.md), so
// the peak resident memory stays under the documented bound.
TEST_CASE("environment: serve's memory stays bounded through every rules variant") {
  if (process_util::kSanitized) {
    MESSAGE("skipped under a sanitizer: its shadow memory and quarantine are resident too");
    return;
  }
  TempDir dir;
  const std::string requests = dir.File("requests.jsonl");
  {
    std::ofstream out(requests);
    for (int dice = 1; dice <= 20; ++dice) {
      for (int bonus = 0; bonus <= 100; ++bonus) {
        out << R"({"id":)" << dice * 1000 + bonus << R"(,"command":"eval","dice":)" << dice
            << R"(,"bonus":)" << bonus << "}\n";
      }
    }
  }
  ProcessOptions options;
  options.stdin_path = requests;
  const ProcessRun run = RunCliProcess({"serve"}, options);
  REQUIRE(run.Exited(0));
  CHECK(std::count(run.out.begin(), run.out.end(), '\n') == 2020);
  CHECK(run.out.find("error") == std::string::npos);
  MESSAGE("serve's peak resident memory: " << run.max_rss_kb / 1024 << " MiB");
  CHECK(run.max_rss_kb < 256 * 1024);  // docs/SERVE.md
}

// Missing folders of --out are created, and the outermost one is named (a
// typo in a path makes a folder the user should hear of).
TEST_CASE("environment: solve and plot name the folder they create") {
  TempDir dir;
  const std::string nested = (fs::path(dir.File("made")) / "deeper" / "t.mdt").string();
  const ProcessRun made = RunCliProcess(
      {"solve", "--dice", "3", "--target", "5", "--quiet", "--no-certify", "--out", nested});
  REQUIRE(made.Exited(0));
  CHECK(made.out.find("Created the folder " + dir.File("made") + ".\n") != std::string::npos);
  const ProcessRun again = RunCliProcess(
      {"solve", "--dice", "3", "--target", "5", "--quiet", "--no-certify", "--out", nested});
  REQUIRE(again.Exited(0));
  CHECK(again.out.find("Created") == std::string::npos);  // nothing was missing
  const ProcessRun json =
      RunCliProcess({"solve", "--dice", "3", "--target", "5", "--quiet", "--no-certify", "--json",
                     "--out", dir.File("other") + "/t.mdt"});
  REQUIRE(json.Exited(0));
  CHECK(json.out.find("\"created_folder\":\"" + dir.File("other") + "\"") != std::string::npos);
  const ProcessRun plotted = RunCliProcess(
      {"plot", "stop", "--out", (fs::path(dir.File("pictures")) / "stop.svg").string()});
  INFO("stderr: " << plotted.err);
  REQUIRE(plotted.Exited(0));
  CHECK(plotted.out.find("Created the folder " + dir.File("pictures") + ".\n") !=
        std::string::npos);
}

TEST_CASE("environment: --out never overwrites the input table") {
  TempDir dir;
  const std::string table = dir.File("martiandice-p2-d13-b3-t25.mdt");
  fs::copy_file(kData + "/martiandice-p2-d13-b3-t25.mdt", table);
  const std::string hard_link = dir.File("same.mdt");
  fs::create_hard_link(table, hard_link);
  for (const std::string& out : {table, hard_link, dir.str() + "/./same.mdt"}) {
    CheckOutRefused({"export", "--tables", table, "--out", out}, table, "is a martiandice table");
    CheckOutRefused({"plot", "stop", "--tables", table, "--out", out}, table,
                    "is a martiandice table");
  }
  CHECK(ReadFile(table) == ReadFile(kData + "/martiandice-p2-d13-b3-t25.mdt"));
  // The same folder, another name: written.
  const cli_test::CliRun run = cli_test::Run({"export", "--tables", table, "--out", dir.str()});
  INFO("stderr: " << run.err);
  CHECK(run.code == 0);
  CHECK(fs::is_regular_file(dir.File("martiandice-p2-d13-b3-t25.json")));
}

// A mistyped log or export path costs the hours a table or a checkpoint took:
// only a table replaces a table, and nothing replaces a checkpoint.
TEST_CASE("environment: a log, an export or a picture never replaces a table or a checkpoint") {
  TempDir dir;
  const std::string table = dir.File("martiandice-p2-d13-b3-t25.mdt");  // found in the folder
  fs::copy_file(kData + "/martiandice-p2-d13-b3-t25.mdt", table);
  const std::string checkpoint = dir.File("solve.ckpt");
  test_util::WriteFile(checkpoint, std::string("MDNCKPT\0", 8) + "the rest of a checkpoint");
  for (const auto& [out, what] : {std::pair{table, std::string("is a martiandice table")},
                                  std::pair{checkpoint, std::string("is a solve's checkpoint")}}) {
    const std::string bytes = ReadFile(out);
    for (const auto& [args, option] : std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"export", "--out", out}, "--out: "},
             {{"plot", "stop", "--out", out}, "--out: "},
             {{"play", "--seed", "1", "--log", out}, "--log: "},
             {{"coach", "--log", out}, "--log: "},
             // The table read is the file written, through a folder.
             {{"play", "--seed", "1", "--tables", dir.str(), "--log", out}, "--log: "}}) {
      cli_test::CheckUsageError(args, option + "'" + out + "' " + what);
      CHECK(ReadFile(out) == bytes);
    }
  }
  cli_test::CheckUsageError(
      {"solve", "--dice", "2", "--target", "3", "--quiet", "--out", checkpoint},
      "--out: '" + checkpoint + "' is a solve's checkpoint");
  // A table replaces a table.
  const cli_test::CliRun solved = cli_test::Run(
      {"solve", "--dice", "2", "--target", "3", "--quiet", "--no-certify", "--out", table});
  INFO("stderr: " << solved.err);
  CHECK(solved.code == 0);
  CHECK(ReadFile(table).rfind("MDPOLICY", 0) == 0);
  CHECK(ReadFile(table) != ReadFile(kData + "/martiandice-p2-d13-b3-t25.mdt"));
}

// A checkpoint of a solve by 2 processes, where a solve alone looks for its
// own: said (it resumes under mpirun -np 2 only), and left as it is.
TEST_CASE("environment: a checkpoint of another number of processes is said and left be") {
  test_util::TempDir dir;
  const std::string table = dir.File("t.mdt");
  const std::string other = table + ".checkpoint.rank-0-of-2";
  test_util::WriteFile(other, "two ranks' work");
  const cli_test::CliRun run =
      cli_test::Run({"solve", "--dice", "2", "--target", "3", "--no-certify", "--out", table});
  CHECK(run.code == 0);
  CHECK(run.err.find("martiandice: " + other +
                     " is the checkpoint of a solve by 2 processes (it resumes under `mpirun -np "
                     "2` only): this one starts over and leaves it be\n") != std::string::npos);
  CHECK(ReadFile(other) == "two ranks' work");
  const cli_test::CliRun quiet = cli_test::Run(
      {"solve", "--dice", "2", "--target", "3", "--no-certify", "--quiet", "--out", table});
  CHECK(quiet.err.empty());
}

TEST_CASE("environment: '-' and an empty path name no file to write") {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"export", "--out", "-"},
           {"solve", "--dice", "2", "--target", "3", "--out", "-"},
           {"plot", "stop", "--out", "-"}}) {
    cli_test::CheckUsageError(args, "--out: '-' would be a file named '-', not standard output");
  }
  cli_test::CheckUsageError({"play", "--seed", "1", "--log", "-"}, "--log: '-' would be a file");
  cli_test::CheckUsageError({"coach", "--log", "-"}, "--log: '-' would be a file");
  cli_test::CheckUsageError({"play", "--seed", "1", "--log", ""}, "--log: give the file to write");
  cli_test::CheckUsageError({"coach", "--log", ""}, "--log: give the file to write");
  CHECK(!fs::exists("-"));
}

TEST_CASE("environment: a folder that cannot be written is --out's error, for 2 and 3 players") {
  TempDir dir;
  const std::string folder = dir.File("read-only");
  fs::create_directory(folder);
  fs::permissions(dir.path(),
                  fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
  fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::others_read |
                              fs::perms::others_exec);
  for (const char* players : {"2", "3"}) {
    CAPTURE(players);
    const int status = RunUnprivileged([&] {
      const cli_test::CliRun run = cli_test::Run({"solve", "--players", players, "--dice", "2",
                                                  "--target", "3", "--quiet", "--out", folder});
      if (run.code != 2) return 1;
      if (run.err.rfind("martiandice: error: --out: ", 0) != 0) return 2;
      if (run.err.find("Permission denied") == std::string::npos) return 3;
      return 0;
    });
    CHECK(status == 0);
  }
  CHECK(dir.Files().size() == 1);
  CHECK(fs::is_empty(folder));
}

// Every subcommand's results, to a full disk (/dev/full) or a closed
// standard output: exit 1 and one line, never a silent truncation.
TEST_CASE("environment: results that cannot be written to standard output are an error") {
  TempDir dir;
  const std::string review = dir.File("turn.txt");
  test_util::WriteFile(review, "roll 2T 3R 4H 3C 1K take H\nstop\n");
  struct Case {
    std::vector<std::string> args;
    std::string input;  // standard input
  };
  const std::vector<Case> commands = {
      {{"eval"}, ""},
      {{"eval", "--objective", "win", "--scores", "0,0", "--tables", kData}, ""},
      {{"best", "--json", "--roll", "2T 3R 4H 3C 1K"}, ""},
      {{"stats", "--dice", "20"}, ""},
      {{"review", review}, ""},
      {{"simulate", "--games", "200", "--policies", "ev,ev"}, ""},
      {{"certify", "--quiet", "--dice", "2", "--target", "3", "--tables", dir.str()}, ""},
      {{"export", "--tables", kData}, ""},
      {{"solve", "--dice", "2", "--target", "3", "--quiet", "--out", dir.File("s.mdt")}, ""},
      {{"plot", "stop", "--tables", kData, "--out", dir.File("stop.svg")}, ""},
      {{"--help"}, ""},
      // The commands that write as they go: a game, a coached game, serve.
      {{"play", "--humans", "none", "--seed", "5", "--tables", kData}, ""},
      {{"play", "--humans", "none", "--seed", "5", "--json", "--tables", kData}, ""},
      {{"coach", "--tables", kData}, "score 7\n"},
      {{"coach", "--json", "--tables", kData}, "score 7\n"},
      {{"serve"}, "{\"command\":\"eval\"}\n"},
  };
  // A table for certify, written by solve.
  REQUIRE(cli_test::Run({"solve", "--dice", "2", "--target", "3", "--quiet", "--no-certify",
                         "--out", dir.str()})
              .code == 0);
  for (const Case& row : commands) {
    const auto& args = row.args;  // named: clang 14 captures no binding
    const auto& input = row.input;
    CAPTURE(args.front());
    CAPTURE(args.back());
    ProcessOptions plain;
    plain.input = input;
    const ProcessRun fine = RunCliProcess(args, plain);
    INFO("stderr: " << fine.err);
    REQUIRE(fine.Exited(0));
    REQUIRE(!fine.out.empty());
    ProcessOptions full = plain;
    full.stdout_path = "/dev/full";
    const ProcessRun on_full = RunCliProcess(args, full);
    CHECK(on_full.Exited(1));
    CheckOneErrorLine(on_full, "cannot write the results to standard output: No space left");
    ProcessOptions closed = plain;
    closed.stdout_closed = true;
    const ProcessRun on_closed = RunCliProcess(args, closed);
    CHECK(on_closed.Exited(1));
    CheckOneErrorLine(on_closed, "cannot write the results to standard output: Bad file");
  }
  // A game a person quits exits 4, saying so on standard output: where that fails, the
  // failure is said instead.
  ProcessOptions quit;
  quit.input = "quit\n";
  const std::vector<std::string> play = {"play", "--seed", "5", "--tables", kData};
  CHECK(RunCliProcess(play, quit).Exited(4));
  quit.stdout_path = "/dev/full";
  const ProcessRun quit_on_full = RunCliProcess(play, quit);
  CHECK(quit_on_full.Exited(1));
  CheckOneErrorLine(quit_on_full, "cannot write the results to standard output: No space left");
  // In process: a stream that fails.
  std::ostringstream failing;
  failing.setstate(std::ios::badbit);
  std::ostringstream err;
  CHECK(martiandice::RunCli({"eval"}, failing, err) == 1);
  CHECK(err.str().rfind("martiandice: error: cannot write the results to standard output", 0) == 0);
}

#endif  // MARTIANDICE_CLI_PATH
