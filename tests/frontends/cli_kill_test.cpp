// Killing the real `martiandice` executable while it writes its --out file
// (issue 4): `solve` and `export` write to a temporary file next to the target
// and rename it into place (WriteFileAtomically), so whenever the process dies
// the target holds either its old bytes or the complete new file, never a
// mix. The child is killed at points chosen deterministically: after progress
// lines of the solve (its stderr pipe blocks the next one), by the file size limit
// (RLIMIT_FSIZE: SIGXFSZ kills it after exactly N bytes of the temporary
// file), and with SIGKILL as soon as the temporary file appears (inotify).
// Then an uninterrupted run must replace the target correctly.
#include <doctest/doctest.h>

#ifdef MARTIANDICE_CLI_PATH

#include <fcntl.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "game_solver.h"
#include "martiandice/table.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;

using test_util::ReadFile;
using test_util::TempDir;
using test_util::WriteFile;

// A started child: stdout goes to /dev/null (or a file), stderr to `err` (a pipe).
struct Child {
  pid_t pid = -1;
  int err = -1;
  int filler = 0;  // bytes put in the stderr pipe before the start
};

// Starts the CLI with `args`; with `file_size_limit`, the child may write at
// most that many bytes to any file (RLIMIT_FSIZE), then dies of SIGXFSZ.
// With `stderr_room`, the stderr pipe is shrunk to one page and filled so that
// only that many bytes fit: a write that does not fit blocks the child there.
Child Start(const std::vector<std::string>& args, std::optional<rlim_t> file_size_limit,
            std::optional<int> stderr_room = std::nullopt,
            std::optional<std::string> stdout_path = std::nullopt,
            std::optional<int> stdin_fd = std::nullopt) {
  std::vector<std::string> storage = {MARTIANDICE_CLI_PATH};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : storage) argv.push_back(arg.data());
  argv.push_back(nullptr);
  Child child;
  int err_pipe[2];
  REQUIRE(pipe2(err_pipe, O_CLOEXEC) == 0);
  if (stderr_room) {
    const int capacity = fcntl(err_pipe[1], F_SETPIPE_SZ, 4096);
    REQUIRE(capacity >= *stderr_room);
    const std::string filler(capacity - *stderr_room, 'x');
    REQUIRE(write(err_pipe[1], filler.data(), filler.size()) ==
            static_cast<ssize_t>(filler.size()));
    child.filler = static_cast<int>(filler.size());
  }
  child.pid = fork();
  REQUIRE(child.pid >= 0);
  if (child.pid == 0) {  // child: only async-signal-safe calls
    const int null_fd = open("/dev/null", O_RDWR);
    if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(null_fd, 1) < 0 || dup2(err_pipe[1], 2) < 0) {
      _exit(127);
    }
    if (stdin_fd && dup2(*stdin_fd, 0) < 0) _exit(127);
    if (stdout_path) {
      const int out_fd = open(stdout_path->c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (out_fd < 0 || dup2(out_fd, 1) < 0) _exit(127);
    }
    if (file_size_limit) {
      const rlimit limit = {*file_size_limit, *file_size_limit};
      if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(127);
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(err_pipe[1]);
  child.err = err_pipe[0];
  return child;
}

// Reaps the child (draining stderr so it never blocks) and returns its
// status; `err` gets what was in the stderr pipe.
int Finish(Child& child, std::string* err = nullptr) {
  char buffer[4096];
  for (ssize_t n; (n = read(child.err, buffer, sizeof buffer)) > 0;) {
    if (err) err->append(buffer, n);
  }
  close(child.err);
  int status = 0;
  REQUIRE(waitpid(child.pid, &status, 0) == child.pid);
  return status;
}

// SIGKILLs the child and reaps it before reading its stderr: reading first
// would make room in the pipe for a write it is blocked in.
int Kill(Child& child, std::string* err = nullptr) {
  kill(child.pid, SIGKILL);
  int status = 0;
  REQUIRE(waitpid(child.pid, &status, 0) == child.pid);
  char buffer[4096];
  for (ssize_t n; (n = read(child.err, buffer, sizeof buffer)) > 0;) {
    if (err) err->append(buffer, n);
  }
  close(child.err);
  return status;
}

int Run(const std::vector<std::string>& args) {
  Child child = Start(args, std::nullopt);
  return Finish(child);
}

// Files in `dir` other than `keep`, by name.
std::vector<std::string> Others(const fs::path& dir, const std::vector<std::string>& keep) {
  std::vector<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    bool kept = false;
    for (const std::string& k : keep) kept = kept || name == k;
    if (!kept) names.push_back(name);
  }
  return names;
}

// A leftover temporary file: "<target name>.tmp.XXXXXX" (six characters).
bool IsTemporaryOf(const std::string& name, const std::string& target) {
  const std::string prefix = target + ".tmp.";
  return name.size() == prefix.size() + 6 && name.compare(0, prefix.size(), prefix) == 0;
}

bool KilledBy(int status, int signal) { return WIFSIGNALED(status) && WTERMSIG(status) == signal; }

// The solve under test: small rules whose table (302608 bytes) takes a
// noticeable time to write and sync.
const std::vector<std::string> kSolve = {"solve", "--dice", "6", "--target", "95", "--no-certify"};

std::vector<std::string> SolveTo(const fs::path& out) {
  std::vector<std::string> args = kSolve;
  args.push_back("--out");
  args.push_back(out.string());
  return args;
}

struct Fixture {
  TempDir dir;
  fs::path target = dir.path() / "table.mdt";
  std::string old_bytes;  // the target's contents before the runs under test
  std::string new_bytes;  // the complete table of kSolve, from an uninterrupted run

  Fixture() {
    // The old contents: a real table of other rules.
    REQUIRE(WIFEXITED(
        Run({"solve", "--quiet", "--dice", "2", "--target", "3", "--out", target.string()})));
    old_bytes = ReadFile(target);
    REQUIRE(old_bytes.size() > 128);
    TempDir fresh;
    const fs::path reference = fresh.path() / "reference.mdt";
    const int status = Run(SolveTo(reference));
    REQUIRE((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    new_bytes = ReadFile(reference);
    REQUIRE(new_bytes.size() > 100000);
    REQUIRE(new_bytes != old_bytes);
  }

  // The target is intact or complete, and any leftover is a temporary file
  // holding part of the new table (never taken for a table: see README).
  void CheckTargetAndLeftovers(bool must_be_old) const {
    const std::string now = ReadFile(target);
    if (must_be_old) {
      CHECK(now == old_bytes);
    } else {
      CHECK((now == old_bytes || now == new_bytes));
    }
    // The checkpoint (the solve resumes from it) and its temporary are left too.
    for (const std::string& name : Others(dir.path(), {"table.mdt", "table.mdt.checkpoint"})) {
      if (IsTemporaryOf(name, "table.mdt.checkpoint")) continue;
      CHECK_MESSAGE(IsTemporaryOf(name, "table.mdt"), name);
      // The table is streamed: its header's room first (zeros), then its blocks and checksums,
      // then the header over its room; so a temporary is zeros then a prefix of the rest, or,
      // complete, the new table.
      const std::string partial = ReadFile(dir.path() / name);
      REQUIRE(partial.size() <= new_bytes.size());
      const size_t head = std::min<size_t>(partial.size(), 128);
      if (partial.size() < new_bytes.size() || partial != new_bytes) {
        CHECK(partial.substr(0, head) == std::string(head, '\0'));
      }
      CHECK(new_bytes.compare(head, partial.size() - head, partial, head) == 0);
      // Cut short, it is refused; complete (killed before the rename), it is the new table.
      if (partial.size() < new_bytes.size()) {
        CHECK_FALSE(martiandice::GameTable::Open((dir.path() / name).string()).ok());
      }
    }
  }

  // An uninterrupted solve replaces the target with the complete table.
  void CheckReplaced() const {
    const int status = Run(SolveTo(target));
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    CHECK(ReadFile(target) == new_bytes);
    auto table = martiandice::GameTable::Open(target.string());
    REQUIRE(table.ok());
    CHECK(table->rules().dice == 6);
  }
};

}  // namespace

// Progress lines go to stderr before the table is written. The child's
// stderr pipe has room for exactly `line` of them, so it blocks writing the
// next one; once the pipe shows `line` lines, SIGKILL lands after that line
// and before the next, whatever the scheduling.
TEST_CASE("cli kill: SIGKILL at progress lines of the solve leaves the old --out file intact") {
  Fixture f;
  const int length =
      std::string("martiandice: solving 2 players: 10% (0s elapsed, about 0s left)\n").size();
  for (int line : {1, 2, 5, 9}) {
    CAPTURE(line);
    // Lines are `length` bytes, a few more if the solve takes 10 s: half a line to spare.
    const int room = line * length + length / 2;
    Child child = Start(SolveTo(f.target), std::nullopt, room);
    int queued = 0;
    for (int wait = 0; wait < 60000 && queued < child.filler + line * length; ++wait) {
      REQUIRE(ioctl(child.err, FIONREAD, &queued) == 0);
      usleep(1000);
    }
    CHECK(queued >= child.filler + line * length);
    std::string err;
    CHECK(KilledBy(Kill(child, &err), SIGKILL));
    // Exactly `line` lines got out: the next one was blocked.
    CHECK(std::count(err.begin() + child.filler, err.end(), '\n') == line);
    // Nothing is written before the last line: old bytes, no temporary file.
    f.CheckTargetAndLeftovers(true);
    CHECK(Others(f.dir.path(), {"table.mdt", "table.mdt.checkpoint"}).empty());
  }
  f.CheckReplaced();
}

// The file size limit would stop the solve's checkpoint first (written at its
// start, and whole before the table): the solve is given its checkpoint of
// the whole work, so that the table is the one file written.
TEST_CASE("cli kill: dying after N bytes of the temporary file leaves the old --out file intact") {
  Fixture f;
  const fs::path checkpoint = f.dir.path() / "table.mdt.checkpoint";
  martiandice::solver::GameSolveOptions whole;  // kSolve's solve, its checkpoint kept
  whole.rules = martiandice::Rules{6, 3, 95};
  whole.players = 2;
  whole.checkpoint = checkpoint.string();
  whole.keep_checkpoint = true;
  REQUIRE(martiandice::solver::SolveGameValues(whole, nullptr).ok());
  const std::string complete = ReadFile(checkpoint);
  const rlim_t size = f.new_bytes.size();
  for (rlim_t limit : {rlim_t{1}, rlim_t{128}, rlim_t{4096}, size / 2, size - 1}) {
    CAPTURE(limit);
    for (const std::string& name : Others(f.dir.path(), {"table.mdt"})) {
      fs::remove(f.dir.path() / name);
    }
    WriteFile(checkpoint, complete);
    Child child = Start(SolveTo(f.target), limit);
    std::string err;
    const int status = Finish(child, &err);
    CAPTURE(err);
    CHECK(KilledBy(status, SIGXFSZ));
    CHECK(ReadFile(f.target) == f.old_bytes);
    // The temporary file is left behind, cut at exactly `limit` bytes.
    const std::vector<std::string> left =
        Others(f.dir.path(), {"table.mdt", "table.mdt.checkpoint"});
    REQUIRE(left.size() == 1);
    CHECK(IsTemporaryOf(left[0], "table.mdt"));
    CHECK(fs::file_size(f.dir.path() / left[0]) == limit);
    f.CheckTargetAndLeftovers(true);
  }
  f.CheckReplaced();
}

TEST_CASE("cli kill: SIGKILL as soon as the temporary file appears leaves the old file intact") {
  Fixture f;
  const int watch = inotify_init1(IN_CLOEXEC);
  REQUIRE(watch >= 0);
  REQUIRE(inotify_add_watch(watch, f.dir.path().c_str(), IN_CREATE) >= 0);
  int landed = 0;  // kills that hit between the temporary's creation and the rename
  constexpr int kAttempts = 5;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    CAPTURE(attempt);
    fs::remove(f.target);
    WriteFile(f.target, f.old_bytes);
    Child child = Start(SolveTo(f.target), std::nullopt);
    bool seen = false;
    alignas(inotify_event) char buffer[sizeof(inotify_event) + NAME_MAX + 1];
    while (!seen) {
      const ssize_t n = read(watch, buffer, sizeof buffer);
      REQUIRE(n > 0);
      for (ssize_t at = 0; at < n;) {
        const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
        if (event->len > 0 && IsTemporaryOf(event->name, "table.mdt")) seen = true;
        at += sizeof(inotify_event) + event->len;
      }
    }
    const int status = Kill(child);
    // On a busy machine the child may finish before the kill arrives.
    CHECK((KilledBy(status, SIGKILL) || (WIFEXITED(status) && WEXITSTATUS(status) == 0)));
    if (ReadFile(f.target) == f.old_bytes) ++landed;
    f.CheckTargetAndLeftovers(false);
  }
  close(watch);
  // The write and fsync of ~300 KB take far longer than the kill: it lands.
  CHECK_MESSAGE(landed >= 1, "no kill landed before the rename in " << kAttempts << " attempts");
  MESSAGE(landed << " of " << kAttempts << " kills landed before the rename");
  f.CheckReplaced();
}

TEST_CASE("cli kill: export --out dying mid-write leaves the old file intact") {
  TempDir dir;
  const fs::path table = dir.path() / "t.mdt";
  REQUIRE(Run({"solve", "--quiet", "--dice", "3", "--target", "5", "--out", table.string()}) == 0);
  const std::vector<std::string> base = {"export", "--dice",   "3",           "--target",
                                         "5",      "--tables", table.string()};
  std::vector<std::string> reference_args = base;
  reference_args.insert(reference_args.end(), {"--out", (dir.path() / "reference.json").string()});
  REQUIRE(Run(reference_args) == 0);
  const std::string json = ReadFile(dir.path() / "reference.json");
  REQUIRE(json.size() > 1000);
  const fs::path target = dir.path() / "export.json";
  WriteFile(target, "{\"old\": true}\n");
  std::vector<std::string> args = base;
  args.insert(args.end(), {"--out", target.string()});
  for (rlim_t limit : {rlim_t{1}, rlim_t{json.size() / 2}}) {
    CAPTURE(limit);
    Child child = Start(args, limit);
    CHECK(KilledBy(Finish(child), SIGXFSZ));
    CHECK(ReadFile(target) == "{\"old\": true}\n");
  }
  int leftovers = 0;
  for (const std::string& name : Others(dir.path(), {"t.mdt", "reference.json", "export.json"})) {
    CHECK_MESSAGE(IsTemporaryOf(name, "export.json"), name);
    ++leftovers;
  }
  CHECK(leftovers == 2);
  CHECK(Run(args) == 0);
  CHECK(ReadFile(target) == json);
}

#endif  // MARTIANDICE_CLI_PATH

// A 3-player solve stopped with SIGTERM (as Ctrl-C) once its first progress
// line is out: it saves its finished work in the checkpoint and exits with
// 130; the same command resumes from it and writes the table an
// uninterrupted solve writes, byte for byte, and removes the checkpoint.
TEST_CASE(
    "cli kill: SIGTERM stops a 2- or 3-player solve, the same command resumes it bit for bit") {
  for (const std::string players : {"2", "3"}) {
    CAPTURE(players);
    TempDir dir;
    const fs::path table = dir.path() / "p3.mdt";
    const fs::path checkpoint = dir.path() / "p3.mdt.checkpoint";
    // Rules whose solve takes a second or more (the 2-player solve is the faster).
    const std::vector<std::string> args = {"solve",
                                           "--players",
                                           players,
                                           "--dice",
                                           "13",
                                           "--target",
                                           players == "2" ? "120" : "8",
                                           "--threads",
                                           "2",
                                           "--no-certify",
                                           "--out",
                                           table.string()};
    Child child = Start(args, std::nullopt);
    int queued = 0;  // the first progress line (10% of the work) is out
    for (int wait = 0; wait < 600000 && queued == 0; ++wait) {
      REQUIRE(ioctl(child.err, FIONREAD, &queued) == 0);
      usleep(100);
    }
    REQUIRE(queued > 0);
    kill(child.pid, SIGTERM);
    std::string err;
    const int status = Finish(child, &err);
    CAPTURE(err);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 130);
    CHECK(err.find("martiandice: stopping:") != std::string::npos);
    CHECK(err.find("run the same command again to resume") != std::string::npos);
    CHECK(fs::exists(checkpoint));
    CHECK(!fs::exists(table));

    Child resumed = Start(args, std::nullopt);
    std::string resumed_err;
    const int resumed_status = Finish(resumed, &resumed_err);
    CAPTURE(resumed_err);
    REQUIRE(WIFEXITED(resumed_status));
    CHECK(WEXITSTATUS(resumed_status) == 0);
    CHECK(!fs::exists(checkpoint));
    CHECK(resumed_err.find("martiandice: resumed from the checkpoint " + checkpoint.string() +
                           ": ") != std::string::npos);
    CHECK(resumed_err.find("% of the work was done\n") != std::string::npos);

    const fs::path fresh = dir.path() / "fresh.mdt";
    std::vector<std::string> fresh_args = args;
    fresh_args.back() = fresh.string();
    CHECK(Run(fresh_args) == 0);
    CHECK(ReadFile(table) == ReadFile(fresh));
    CHECK(ReadFile(table).size() > 128);
  }
}

// A simulation far too long to finish, stopped by SIGINT once running: the
// result of the games played (games 0..n-1) on stdout, exit 130; and it is the
// result of --games n.
TEST_CASE("cli kill: SIGINT stops simulate with the result of the games played") {
  TempDir dir;
  const std::string out = (dir.path() / "out.json").string();
  const std::vector<std::string> args = {"simulate",    "--games",   "1000000000", "--policies",
                                         "ev,cautious", "--threads", "2",          "--json"};
  Child child = Start(args, std::nullopt, std::nullopt, out);
  usleep(2000 * 1000);  // started and playing (its handler set), far from done
  kill(child.pid, SIGINT);
  std::string err;
  const int status = Finish(child, &err);
  CAPTURE(err);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  CHECK(err.find("martiandice: stopping: finishing the games in flight") != std::string::npos);
  CHECK(err.find("martiandice: error: simulation interrupted after ") != std::string::npos);
  const std::string json = ReadFile(out);
  const std::size_t at = json.find("\"games\":");
  REQUIRE(at != std::string::npos);
  const long long games = std::stoll(json.substr(at + 8));
  CHECK(games > 0);
  CHECK(games < 1000000000);
  CHECK(json.find("\"interrupted\":true") != std::string::npos);
  CHECK(json.find("\"games_asked\":1000000000") != std::string::npos);
  // The same games asked for outright: the same answer but for the two fields.
  const std::string again = (dir.path() / "again.json").string();
  std::vector<std::string> prefix = args;
  prefix[2] = std::to_string(games);
  Child whole = Start(prefix, std::nullopt, std::nullopt, again);
  REQUIRE(Finish(whole) == 0);
  std::string expected = ReadFile(again);
  const std::string asked = "\"games_asked\":" + std::to_string(games) + ",\"interrupted\":false";
  REQUIRE(expected.find(asked) != std::string::npos);
  expected.replace(expected.find(asked), asked.size(),
                   "\"games_asked\":1000000000,\"interrupted\":true");
  CHECK(expected == json);
}

// Ctrl-C at the prompt of `coach` or `play`, the input still open (a person
// at the table): the log of the finished turns is written, exit 130. The C++
// library retries a read a signal interrupts, so this needs the poll.
// A started child reading the pipe's other end (`*input`: written by the
// test, closed after Finish), its stdout to the file `out`.
Child StartReading(const std::vector<std::string>& args, const std::string& out, int* input) {
  int in[2];
  REQUIRE(pipe2(in, O_CLOEXEC) == 0);
  Child child = Start(args, std::nullopt, std::nullopt, out, in[0]);
  close(in[0]);
  *input = in[1];
  return child;
}

void WriteAll(int fd, const std::string& text) {
  REQUIRE(write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
}

// Sends `signal`, reaps the child and closes its input: it must exit with 130.
void ExpectInterrupted(Child& child, int input, int signal) {
  kill(child.pid, signal);
  std::string err;
  const int status = Finish(child, &err);
  close(input);
  CAPTURE(err);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
}

// Waits (at most 60 s) until the file `out` holds `text`.
void WaitFor(const std::string& out, const std::string& text) {
  for (int i = 0; i < 600 && ReadFile(out).find(text) == std::string::npos; ++i) {
    usleep(100 * 1000);
  }
  REQUIRE(ReadFile(out).find(text) != std::string::npos);
}

TEST_CASE("cli kill: SIGINT while coach and play wait for a line keeps the game's log") {
  struct Row {
    std::vector<std::string> args;
    std::string entries;    // written, the pipe then left open
    std::string waits_for;  // on stdout once the entries are answered
    std::string log;        // the log's first lines
  };
  const Row rows[] = {{{"coach"},
                       "roll 2T 3R 4H 3C 1K take H\nstop\n",
                       "Seat 1 to roll",
                       "scores 0,0 seat 0\nroll 2T 3R 4H 3C 1K take H\nstop\n"},
                      // Seed 3: seat 0 rolls 1T 5R 3H 4K first; the bot's turn comes next.
                      {{"play", "--seed", "3"},
                       "h\nstop\n",
                       "(round 2)",
                       "scores 0,0 seat 0\nroll 1T 5R 3H 4K take H\nstop\n"}};
  for (const Row& row : rows) {
    CAPTURE(row.args[0]);
    TempDir dir;
    const std::string log = (dir.path() / "game.log").string();
    const std::string out = (dir.path() / "out.txt").string();
    std::vector<std::string> args = row.args;
    args.insert(args.end(), {"--log", log});
    int input = -1;
    Child child = StartReading(args, out, &input);
    WriteAll(input, row.entries);
    WaitFor(out, row.waits_for);  // the answers, then a little for the next read
    usleep(300 * 1000);
    ExpectInterrupted(child, input, SIGINT);
    const std::string text = ReadFile(out);
    CHECK(text.find("Interrupted") != std::string::npos);
    CHECK(text.find("Game log written to " + log) != std::string::npos);
    CHECK(ReadFile(log).rfind(row.log, 0) == 0);
  }
}

// serve stops on SIGTERM or SIGINT with every request it read answered (the
// one in flight: a slow open, 6 players, 20 dice, target 200), and while it
// waits for a line, the wait ends. Exit 130.
TEST_CASE("cli kill: SIGTERM and SIGINT stop serve with every request read answered") {
  for (const int signal : {SIGTERM, SIGINT}) {
    CAPTURE(signal);
    TempDir dir;
    const std::string out = (dir.path() / "out.jsonl").string();
    int input = -1;
    Child child = StartReading({"serve"}, out, &input);
    std::string requests;
    for (int id = 0; id < 5; ++id) {
      requests += "{\"id\":" + std::to_string(id) + ",\"command\":\"eval\"}\n";
    }
    WriteAll(input, requests);
    WaitFor(out, "{\"id\":4,");  // serve runs, its handlers set; then the slow request
    WriteAll(input,
             "{\"id\":5,\"command\":\"open\",\"players\":6,\"dice\":20,\"bonus\":100,"
             "\"target\":200}\n");
    usleep(300 * 1000);  // read by now, most likely still in flight (about 1 s)
    ExpectInterrupted(child, input, signal);
    const std::string text = ReadFile(out);
    for (int id = 0; id <= 5; ++id) {
      CHECK(text.find("{\"id\":" + std::to_string(id) + ",") != std::string::npos);
    }
    CHECK(std::count(text.begin(), text.end(), '\n') == 6);
  }
  // Waiting for a line: the signal ends the wait.
  TempDir dir;
  const std::string out = (dir.path() / "out.jsonl").string();
  int input = -1;
  Child child = StartReading({"serve"}, out, &input);
  WriteAll(input, "{\"id\":7,\"command\":\"eval\"}\n");
  WaitFor(out, "{\"id\":7,");
  ExpectInterrupted(child, input, SIGINT);
}
