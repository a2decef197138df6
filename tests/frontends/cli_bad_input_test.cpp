// The bad-input table (issue 4 item 5): the REAL `martiandice` executable,
// started with fork/execv (no shell: every argument reaches it byte for byte),
// over a table of malformed inputs. For each row: exit status 2, exactly one
// line on stderr starting with "martiandice: error:" and containing the row's
// expected text, nothing on stdout, and done within one second of wall time.
#include <doctest/doctest.h>

#ifdef MARTIANDICE_CLI_PATH

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using test_util::TempDir;

constexpr auto kTimeLimit = std::chrono::milliseconds(1000);
constexpr std::size_t kMaxCapture = 1 << 20;  // bytes kept per stream

struct Row {
  std::vector<std::string> args;  // after the program name
  std::string expect;             // a substring of the error line
};

struct Outcome {
  bool started = false;
  bool timed_out = false;  // killed at the time limit
  int status = 0;          // from waitpid
  std::string out, err;
  std::chrono::duration<double> elapsed{};
};

// Appends what is available on `fd` to `sink`; false at end of file.
bool Drain(int fd, std::string& sink) {
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      if (sink.size() < kMaxCapture) {
        sink.append(buffer, std::min<std::size_t>(n, kMaxCapture - sink.size()));
      }
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;
  }
}

Outcome RunReal(const std::vector<std::string>& args) {
  Outcome outcome;
  std::vector<std::string> storage;
  storage.push_back(MARTIANDICE_CLI_PATH);
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : storage) argv.push_back(arg.data());
  argv.push_back(nullptr);

  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return outcome;
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return outcome;
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    return outcome;
  }
  if (pid == 0) {  // child: only async-signal-safe calls
    const int null_in = open("/dev/null", O_RDONLY);
    if (null_in < 0 || dup2(null_in, 0) < 0 || dup2(out_pipe[1], 1) < 0 ||
        dup2(err_pipe[1], 2) < 0) {
      _exit(127);
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  outcome.started = true;
  close(out_pipe[1]);
  close(err_pipe[1]);
  for (int fd : {out_pipe[0], err_pipe[0]}) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);

  bool out_open = true, err_open = true, reaped = false;
  while (!reaped || out_open || err_open) {
    if (!reaped) {
      const pid_t done = waitpid(pid, &outcome.status, WNOHANG);
      if (done == pid) {
        reaped = true;
        outcome.elapsed = std::chrono::steady_clock::now() - start;
      } else if (std::chrono::steady_clock::now() - start > kTimeLimit) {
        outcome.timed_out = true;
        kill(pid, SIGKILL);
        waitpid(pid, &outcome.status, 0);
        reaped = true;
        outcome.elapsed = std::chrono::steady_clock::now() - start;
      }
    }
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    poll(fds, 2, reaped ? 100 : 10);
    if (out_open) out_open = Drain(out_pipe[0], outcome.out);
    if (err_open) err_open = Drain(err_pipe[0], outcome.err);
    // A grandchild holding the pipes open must not hang the test.
    if (reaped && std::chrono::steady_clock::now() - start > 2 * kTimeLimit) break;
  }
  close(out_pipe[0]);
  close(err_pipe[0]);
  return outcome;
}

std::string Describe(const std::vector<std::string>& args) {
  std::ostringstream text;
  text << "martiandice";
  for (const std::string& arg : args) {
    text << " '";
    for (unsigned char c : arg.substr(0, 80)) {
      if (c == '\n') {
        text << "\\n";
      } else if (c < 0x20 || c >= 0x7f) {
        text << "\\x"
             << "0123456789abcdef"[c >> 4] << "0123456789abcdef"[c & 15];
      } else {
        text << c;
      }
    }
    if (arg.size() > 80) text << "...(" << arg.size() << " bytes)";
    text << "'";
  }
  return text.str();
}

void CheckRow(const Row& row) {
  INFO("command: " << Describe(row.args));
  const Outcome run = RunReal(row.args);
  REQUIRE_MESSAGE(run.started, "could not start " << MARTIANDICE_CLI_PATH);
  INFO("stdout: " << run.out.substr(0, 2000));
  INFO("stderr: " << run.err.substr(0, 2000));
  if (run.timed_out) {
    FAIL_CHECK("did not finish within 1 s (killed)");
    return;
  }
  CHECK_MESSAGE(run.elapsed < kTimeLimit, "took " << run.elapsed.count() << " s");
  CHECK_MESSAGE(WIFEXITED(run.status), "did not exit normally (signal "
                                           << (WIFSIGNALED(run.status) ? WTERMSIG(run.status) : 0)
                                           << ")");
  if (WIFEXITED(run.status)) CHECK(WEXITSTATUS(run.status) == 2);
  CHECK_MESSAGE(run.out.empty(), "stdout is not empty");
  // Exactly one line: one '\n', at the very end, with text before it.
  const std::string prefix = "martiandice: error:";
  CHECK_MESSAGE(run.err.size() > prefix.size() + 1, "stderr is empty or has no message");
  CHECK_MESSAGE(run.err.find('\n') == run.err.size() - 1,
                "stderr is not exactly one newline-terminated line");
  CHECK_MESSAGE(run.err.rfind(prefix, 0) == 0, "stderr does not start with '" << prefix << "'");
  const std::string message = run.err.size() > prefix.size() ? run.err.substr(prefix.size()) : "";
  CHECK_MESSAGE(message.find_first_not_of(" \n") != std::string::npos, "empty message");
  CHECK_MESSAGE(run.err.find(row.expect) != std::string::npos,
                "stderr lacks the expected text: " << row.expect);
}

void CheckRows(const std::vector<Row>& rows) {
  for (const Row& row : rows) CheckRow(row);
}

const std::vector<std::string> kWin = {"--objective", "win"};

std::vector<std::string> Win(std::vector<std::string> args, const std::string& scores) {
  args.insert(args.end(), kWin.begin(), kWin.end());
  args.push_back("--scores");
  args.push_back(scores);
  return args;
}

std::vector<std::string> With(std::vector<std::string> args,
                              std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}

}  // namespace

// The harness itself: it sees stdout, stderr and the exit status of a good run.
TEST_CASE("cli bad input table: harness control") {
  const Outcome good = RunReal({"eval", "--aside", "2T 4H"});
  REQUIRE(good.started);
  CHECK_FALSE(good.timed_out);
  CHECK(WIFEXITED(good.status));
  CHECK(WEXITSTATUS(good.status) == 0);
  CHECK(good.out.find("2T 4H") != std::string::npos);
  CHECK(good.err.empty());
  const Outcome bad = RunReal({"eval", "--aside", "2Q"});
  CHECK(WEXITSTATUS(bad.status) == 2);
  CHECK(bad.out.empty());
  CHECK(bad.err.rfind("martiandice: error:", 0) == 0);
}

TEST_CASE("cli bad input table: dice notation") {
  CheckRows({
      {{"best", "--roll", "X"}, "unknown face letter 'X'"},
      {{"eval", "--aside", "2Q"}, "unknown face letter 'Q'"},
      {{"best", "--roll", "2T 3R 4H 3C 1Z"}, "unknown face letter 'Z'"},
      {{"eval", "--aside", "\xff\xfe"}, "unknown face letter"},
      {{"eval", "--aside", "14H"}, "14 dice but the rules have 13"},
      {{"best", "--roll", "21R"}, "count is larger than 20"},
      {{"eval", "--aside", "-3T"}, "unexpected sign '-'"},
      {{"eval", "--aside", "+3T"}, "unexpected sign '+'"},
      {{"eval", "--aside", "99999999999999999999T"}, "count is larger than 20"},
      {{"eval", "--aside", "0T"}, "a count must be at least 1"},
      {{"eval", "--aside", "3"}, "count is not followed by a face letter"},
      {{"eval", "--aside", std::string(100000, 'Z')}, "longer than 256 characters"},
      // A newline inside an argument must not split the error into two lines.
      {{"best", "--roll", "X\nY"}, "unknown face letter 'X'"},
      {{"eval", "--aside", "2T\n4Q"}, "--aside: bad dice"},
  });
}

TEST_CASE("cli bad input table: impossible positions") {
  CheckRows({
      {{"eval", "--aside", "2T"}, "set-aside 2T is impossible"},
      {{"best", "--roll", "2T 3R"}, "shows 5 dice but 13 are left to roll"},
      {{"best", "--roll", ""}, "shows 0 dice but 13 are left to roll"},
      {{"best", "--aside", "2T 4H", "--roll", "1T 2R"}, "but 7 are left to roll"},
      {{"best", "--aside", "3T 5R 5H", "--roll", "T"}, "no dice are left to roll"},
  });
}

TEST_CASE("cli bad input table: game scores and seats") {
  CheckRows({
      {With(Win({"eval"}, "30,30"), {"--seat", "0"}), "the game is already over"},
      {With(Win({"eval"}, "10,25"), {"--seat", "0"}), "the game is already over"},
      {Win({"eval"}, "-1,3"), "field 1 (\"-1\") is not a non-negative whole number"},
      {Win({"eval"}, "1,x"), "field 2 (\"x\") is not a non-negative whole number"},
      {Win({"eval"}, "1,99999999999999999999"),
       "field 2 (\"99999999999999999999\") is too large for a game's total"},
      {Win({"eval"}, "1,\nx"), "is not a non-negative whole number"},
      {Win({"eval"}, "5"), "a game has 2 to 6 players, not 1"},
      {Win({"eval"}, "1,2,3,4,5,6,7"), "a game has 2 to 6 players, not 7"},
      {With(Win({"eval"}, "1,2"), {"--seat", "2"}), "seat 2 is out of range"},
      {With(Win({"eval"}, "1,2"), {"--seat", "-1"}), "seat -1 is out of range"},
      {With(Win({"eval"}, "1,2"), {"--seat", "abc"}), "--seat"},
      {With(Win({"eval"}, "1,2"), {"--seat", "99999999999999999999"}), "--seat"},
      {With(Win({"eval"}, "1,2"), {"--players", "3"}),
       "--players: 3 does not match the 2 totals of scores"},
      {{"eval", "--objective", "ev", "--scores", "1,2"}, "--scores: goes with the win objective"},
      {{"eval", "--seat", "1"}, "--seat: goes with the win objective"},
      {{"eval", "--tables", "/nonexistent"}, "--tables: goes with the win objective"},
  });
}

TEST_CASE("cli bad input table: objectives") {
  CheckRows({
      {{"eval", "--objective", "win2"}, "unknown objective \"win2\""},
      {{"eval", "--objective", "reach:"}, "missing its number"},
      {{"eval", "--objective", "reach:abc"}, "\"abc\" is not a whole number"},
      {{"eval", "--objective", "capped:-1"}, "\"-1\" is not a whole number"},
      {{"eval", "--objective", "reach:1001"}, "\"1001\" is not a whole number in 0..1000"},
      {{"eval", "--objective", "capped:99999999999999999999"}, "is not a whole number"},
      {{"eval", "--objective", "win\n2"}, "unknown objective"},
      {With(Win({"eval"}, "1,2"), {"--exact"}), "--exact"},
  });
}

TEST_CASE("cli bad input table: missing values, unknown subcommands and options") {
  CheckRows({
      {{"eval", "--aside"}, "--aside"},
      {{"best"}, "--roll is required"},
      {{"best", "--roll"}, "--roll"},
      {{"eval", "--objective", "win"},
       "--scores: the win objective needs scores, every seat's total"},
      {{"eval", "--objective"}, "--objective"},
      {{}, "no subcommand given"},
      {{"frobnicate"}, "unknown subcommand 'frobnicate'"},
      {{""}, "unknown subcommand ''"},
      {{"frob\nnicate"}, "unknown subcommand"},
      {{"eval", "--frob"}, "--frob"},
      {{"eval", "--json", "extra"}, "extra"},
      {{"--json"}, "options go after the subcommand"},
      {{"stats", "--aside", "2T"}, "--aside"},
      {{"eval", "--roll", "2T"}, "--roll"},
      {{"eval", "--aside", "2T", "--aside", "3T"}, "--aside"},
      // Listed in command-line order (CLI11 2.1 reversed them).
      {{"eval", "extra1", "extra2", "extra3"}, "not expected: extra1 extra2 extra3"},
      {{"--json", "a", "b"}, "not expected: --json a b (options go after the subcommand"},
      // Said before a missing option, with the option meant.
      {{"best", "2T3R4H3C1K"},
       "not expected: 2T3R4H3C1K (dice go after an option: --roll '2T3R4H3C1K' for a roll, "
       "--aside '2T3R4H3C1K' for the dice set aside)"},
      {{"eval", "2T 4H"},
       "not expected: 2T 4H (dice go after an option: --aside '2T 4H' for the dice set aside)"},
      {{"play", "--hint"}, "not expected: --hint (did you mean --hints?)"},
      {{"eval", "--jsno"}, "not expected: --jsno (did you mean --json?)"},
      {{"eval", "--frobnicate"}, "not expected: --frobnicate\n"},
      {{"best", "--aside", "2T", "whatever"}, "not expected: whatever\n"},
      // A flag takes no value: the option after it is read as given.
      {{"eval", "--json", "--dice", "abc"}, "--dice: expected a decimal whole number, got 'abc'"},
      {{"eval", "--exact", "--aside", "2T", "--dice", "30x"},
       "--dice: expected a decimal whole number, got '30x'"},
      {{"best", "--json", "--roll", "2T 3R 4H 3C 1K", "--hint"}, "not expected: --hint\n"},
  });
}

TEST_CASE("cli bad input table: rules") {
  CheckRows({
      {{"eval", "--dice", "0"}, "dice count 0 is out of the supported range"},
      {{"eval", "--dice", "21"}, "dice count 21 is out of the supported range"},
      {{"eval", "--dice", "abc"}, "--dice"},
      // Past an int: the number and the range, not CLI11's "Could not convert".
      {{"eval", "--dice", "99999999999999999999"},
       "--dice: '99999999999999999999' is out of range (beyond any value the option takes)"},
      {{"solve", "--players", "2", "--players", "3", "--out", "x.mdt"},
       "--players: given 2 times; give it once"},
      {{"simulate", "--games", "5", "--players", "7", "--policies", "ev"},
       "--players 7 does not match the 1 entry of --policies"},
      {{"eval", "--dice", "2147483648"}, "--dice: '2147483648' is out of range"},
      {{"eval", "--bonus", "-2147483649"}, "--bonus: '-2147483649' is out of range"},
      {{"eval", "--dice", "2147483647"}, "dice count 2147483647 is out of the supported range"},
      {{"eval", "--bonus", "-1"}, "bonus -1 is out of the supported range"},
      {{"eval", "--target", "0"}, "target 0 is out of the supported range"},
      {{"stats", "--dice", "21"}, "dice count 21 is out of the supported range"},
      // Integers are decimal: no octal, hexadecimal or binary prefixes (CLI11 reads
      // "010" as 8 and "0x10" as 16); leading zeros are decimal ("010" is ten dice).
      {{"eval", "--dice", "010", "--aside", "11H"}, "11 dice but the rules have 10"},
      {{"eval", "--dice", "0x10"}, "--dice: expected a decimal whole number, got '0x10'"},
      {{"eval", "--dice", "0b101"}, "--dice: expected a decimal whole number, got '0b101'"},
      {{"eval", "--bonus", "0X3"}, "--bonus: expected a decimal whole number, got '0X3'"},
      {{"eval", "--target", "1e2"}, "--target: expected a decimal whole number, got '1e2'"},
      {{"eval", "--dice", " 5"}, "--dice: expected a decimal whole number"},
      {{"eval", "--dice", ""}, "--dice: expected a decimal whole number, got ''"},
      {{"eval", "--dice", "-"}, "--dice: expected a decimal whole number, got '-'"},
      {{"stats", "--dice", "00"}, "dice count 0 is out of the supported range"},
      {With(Win({"eval"}, "1,2"), {"--seat", "0x1"}), "--seat: expected a decimal whole number"},
      {With(Win({"eval"}, "1,2"), {"--players", "0x2"}), "--players: expected a decimal"},
      {{"solve", "--players", "02", "--dice", "021", "--out", "x.mdt"},
       "dice count 21 is out of the supported range"},
      {{"simulate", "--games", "1", "--policies", "ev,ev", "--threads", "0x1"},
       "--threads: expected a decimal whole number, got '0x1'"},
  });
}

TEST_CASE("cli bad input table: policy tables and files") {
  TempDir empty;
  const std::string dir = empty.str();
  CheckRows({
      {Win({"eval", "--tables", "/nonexistent/x.mdt"}, "1,2"), "no such file"},
      {Win({"eval", "--tables", "/etc/passwd"}, "1,2"), "not a martiandice policy table"},
      {Win({"eval", "--tables", dir}, "1,2"), "no martiandice-p2-d13-b3-t25.mdt there"},
      {Win({"best", "--roll", "2T 3R 4H 3C 1K", "--tables", "/etc/passwd"}, "1,2"),
       "not a martiandice policy table"},
      {{"export", "--tables", "/nonexistent"}, "no such file"},
      // A game's table named by --tables must be there too (not the fallback).
      {{"coach", "--target", "15", "--tables", "/nonexistent"}, "no such file"},
      {{"play", "--players", "5", "--tables", dir}, "no martiandice-p5-d13-b3-t25.mdt there"},
      {{"export", "--tables", "/etc/passwd"}, "not a martiandice policy table"},
      {{"export", "--tables", dir}, "no martiandice-p2-d13-b3-t25.mdt there"},
      {Win({"eval", "--tables", ""}, "1,2"),
       "--tables: expected a table file or a directory, got an empty path"},
      {{"export", "--tables", ""}, "--tables: expected a table file or a directory"},
      {{"simulate", "--games", "1", "--policies", "win,ev", "--tables", ""}, "--tables: expected"},
      {{"solve", "--players", "3", "--threads", "-1", "--out", dir + "/x.mdt"},
       "--threads must be 0 (all) or more"},
      {{"solve", "--players", "6", "--out", dir + "/x.mdt"},
       "more than the 64 GiB one machine solves"},
      {{"solve", "--players", "7", "--out", dir + "/x.mdt"}, "2 to 6 players, not 7"},
      // Missing folders are created, but not under a file.
      {{"solve", "--out", "/etc/passwd/sub/x.mdt"}, "--out: '/etc/passwd' is not a directory"},
      {{"solve", "--out", "/etc/passwd/x.mdt"}, "--out"},
      {{"solve"}, "--out is required"},
  });
  // Nothing was written by the refused solves.
  CHECK(std::filesystem::is_empty(empty.path()));
}

TEST_CASE("cli bad input table: simulate") {
  CheckRows({
      {{"simulate", "--games", "0", "--policies", "ev,ev"},
       "--games: expected a whole number of games in 1..1000000000"},
      {{"simulate", "--games", "-1", "--policies", "ev,ev"},
       "--games: expected a whole number of games in 1..1000000000"},
      {{"simulate", "--games", "10", "--policies", "nope,ev"}, "unknown policy 'nope'"},
      {{"simulate", "--games", "10", "--policies", "ev"}, "2 to 6 players, not 1"},
      {{"simulate", "--games", "10", "--policies", "ev,ev,ev", "--players", "2"},
       "does not match the 3 entries of --policies"},
      {{"simulate", "--games", "10", "--policies", "ev,ev", "--threads", "-1"}, "--threads"},
      {{"simulate", "--games", "10", "--policies", "ev,ev", "--seed", "-1"}, "--seed"},
      // Digits only, as every integer option (no sign, no spaces).
      {{"simulate", "--games", "+5", "--policies", "ev,ev"},
       "--games: expected a whole number of games in 1..1000000000, got '+5'"},
      {{"simulate", "--games", " 5", "--policies", "ev,ev"}, "--games: expected"},
      {{"simulate", "--games", "5", "--policies", "ev,ev", "--seed", "+3"},
       "--seed: expected an integer in 0..2^64-1, got '+3'"},
      {{"simulate", "--games", "10"}, "--policies"},
      // An option given no value names itself, in words.
      {{"simulate", "--policies", "ev,ev", "--games"}, "--games: expected a value after it"},
      {{"eval", "--aside"}, "--aside: expected a value after it"},
      {{"review"}, "give the file of played turns to read (or - for standard input)"},
  });
}

// Control characters of arguments and input files are shown escaped in the
// error line, never sent raw to a terminal: ESC, BEL, DEL, a C1 control
// (U+009B, a CSI) and a byte that is not UTF-8; UTF-8 text stays as it is.
TEST_CASE("cli bad input table: control characters are escaped in error lines") {
  CheckRows({
      {{"eval", "--aside", "\x1b[2J\a"}, "bad dice \"\\x1b[2J\\x07\""},
      {{"eval", "--objective", "reach:\x7f"}, "\\x7f"},
      {{"eval", "--aside",
        "\xc2\x9b"
        "2J\xff"},
       "\"\\xc2\\x9b2J\\xff\""},
      {{"eval", "--aside", "2T \xe2\x80\x93 \t"}, "\"2T \xe2\x80\x93 \\x09\""},
      {{"eval", "--objective", "win", "--scores", "1,\x1b]0;title\a"}, "\\x1b]0;title\\x07"},
  });
  TempDir dir;
  const std::string file = dir.str() + "/turn.txt";
  test_util::WriteFile(file, std::string("roll 2T 3R 4H 3C 1K take \x1b[31m\0\n", 32));
  CheckRows({{{"review", file}, "\\x1b[31m\\x00"}});
  // Nothing below 0x20 but the final newline, in any of them.
  const Outcome run = RunReal({"eval", "--aside", "\x1b\x07\x08\x0b\x0c\x7f"});
  for (std::size_t i = 0; i + 1 < run.err.size(); ++i) {
    const auto byte = static_cast<unsigned char>(run.err[i]);
    CHECK_MESSAGE((byte >= 0x20 && byte != 0x7f), "raw byte " << int(byte) << " at " << i);
  }
}

// An overflowing count must be refused, not clamped to a huge number of games.
TEST_CASE("cli bad input table: overflowing --games") {
  CheckRows({
      {{"simulate", "--games", "99999999999999999999999", "--policies", "ev,ev"}, "--games"},
      {{"simulate", "--games", "1000000001", "--policies", "ev,ev"}, "1..1000000000"},
  });
}

#endif  // MARTIANDICE_CLI_PATH
