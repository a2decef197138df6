// N-player solve checkpoints (solver/checkpoint.h): interrupted at
// many points through the stop flag and resumed, the values are bit for bit
// those of an uninterrupted solve; checkpoints of other solves, damaged or
// truncated ones are refused with clear errors; progress and its estimate.
#include "checkpoint.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>

#include "checksum.h"
#include "cli_test_util.h"
#include "game_solver.h"
#include "test_util.h"
#include "turn_batch.h"

using namespace martiandice;
namespace fs = std::filesystem;

namespace {

using test_util::ReadFile;
using test_util::TempDir;
using test_util::WriteFile;

const Rules kRules{4, 2, 6};

solver::GameSolveOptions Options(int players, int threads = 1) {
  solver::GameSolveOptions options;
  options.rules = kRules;
  options.players = players;
  options.threads = threads;
  options.progress_interval = 0;  // a callback after every score vector: deterministic stop points
  return options;
}

// Bit for bit: the doubles' bytes, not their values.
void CheckIdentical(const solver::GameValues& a, const solver::GameValues& b) {
  REQUIRE(a.win.size() == b.win.size());
  CHECK(std::memcmp(a.win.data(), b.win.data(), a.win.size() * sizeof(double)) == 0);
  CHECK(std::memcmp(&a.error_bound, &b.error_bound, sizeof(double)) == 0);
}

// Every counter but turn_solves (reused final-round solves are redone after
// a resume) is the same; turn_solves can only grow.
void CheckSameCounters(const solver::GameSolveReport& a, const solver::GameSolveReport& b) {
  CHECK(a.contexts == b.contexts);
  CHECK(a.cycles == b.cycles);
  CHECK(a.max_rounds == b.max_rounds);
  CHECK(std::memcmp(&a.mean_rounds, &b.mean_rounds, sizeof(double)) == 0);
  CHECK(std::memcmp(&a.max_residual, &b.max_residual, sizeof(double)) == 0);
  CHECK(std::memcmp(&a.error_bound, &b.error_bound, sizeof(double)) == 0);
  CHECK(a.tied_decisions == b.tied_decisions);
  CHECK(a.kingmaking == b.kingmaking);
  CHECK(a.kingmaking_contexts == b.kingmaking_contexts);
  CHECK(a.start == b.start);
  CHECK(b.turn_solves >= a.turn_solves);
}

// Runs the solve, setting the stop flag at the `stop_at`-th progress call
// (0: never). Returns the status; values in *out when finished.
absl::Status RunStopping(solver::GameSolveOptions options, int stop_at, solver::GameValues* out,
                         solver::GameSolveReport* report,
                         std::vector<solver::GameSolveProgress>* calls = nullptr) {
  std::atomic<bool> stop{false};
  int count = 0;
  options.stop = &stop;
  options.progress = [&](const solver::GameSolveProgress& p) {
    if (calls) calls->push_back(p);
    if (++count == stop_at) stop = true;
  };
  absl::StatusOr<solver::GameValues> values = solver::SolveGameValues(options, report);
  if (values.ok()) *out = *std::move(values);
  return values.status();
}

// Offsets in the file (docs/PLAYERS.md, "Checkpoints"): the solve's levels
// and the context count K.
constexpr size_t kLevelsAt = 37, kContextsAt = 73;

// The little-endian bytes of `v` written over `bytes` at `at`.
void PutLittleEndian(std::string& bytes, size_t at, std::uint64_t v, int size) {
  for (int i = 0; i < size; ++i) bytes[at + i] = static_cast<char>(v >> (8 * i) & 0xff);
}

// `bytes` with the context count set to `contexts` and the checksum made
// valid again: only the count is wrong.
std::string WithContexts(std::string bytes, std::uint64_t contexts) {
  PutLittleEndian(bytes, kContextsAt, contexts, 8);
  const std::uint32_t crc = internal::Crc32(std::string_view(bytes).substr(0, bytes.size() - 4));
  PutLittleEndian(bytes, bytes.size() - 4, crc, 4);
  return bytes;
}

// The identity of the 3-player test solve, its levels read back from the file itself.
solver::CheckpointIdentity IdentityOf(const std::string& bytes) {
  solver::CheckpointIdentity id{kRules, 3, true, solver::kSolverVersion, 0};
  for (int i = 3; i >= 0; --i) {
    id.levels = id.levels << 8 | static_cast<std::uint8_t>(bytes[kLevelsAt + i]);
  }
  return id;
}

// The options of a 3-player solve with its checkpoint at `path`, stopped at
// its 30th progress call: the checkpoint the refusal cases start from.
solver::GameSolveOptions StoppedSolve(const std::string& path) {
  solver::GameSolveOptions options = Options(3);
  options.checkpoint = path;
  solver::GameValues values;
  solver::GameSolveReport report;
  REQUIRE(absl::IsCancelled(RunStopping(options, 30, &values, &report)));
  return options;
}

// The game solve's schedules of its cycles (cycle_rounds.h); kGpu: two
// groups beside the steps, the settling passes' laws posted (as the GPU
// backend has them).
enum class Schedule { kStreams, kOneGroup, kBeside, kGpu };

// The worker threads' batches (two threads of its own) for a lockstep
// schedule: one group of cycles, or two taking turns beside the steps. With
// `fail_after` >= 0, solves that many batches, then fails every one.
class ScheduleBatch final : public solver::TurnBatchSolver {
 public:
  explicit ScheduleBatch(Schedule schedule, int fail_after = -1)
      : beside_(schedule == Schedule::kBeside || schedule == Schedule::kGpu),
        laws_(schedule == Schedule::kGpu),
        fail_after_(fail_after) {}
  bool SolvesBesideSteps() const override { return beside_; }
  bool SolvesScoreLaws() const override { return laws_; }
  absl::Status Solve(const internal::TurnModel& model,
                     std::span<const solver::TurnRequest> requests,
                     std::span<solver::TurnResult> results) override {
    if (fail_after_ >= 0 && fail_after_-- == 0) {
      fail_after_ = 0;
      return absl::ResourceExhaustedError("no device");
    }
    return threads_.Solve(model, requests, results);
  }

 private:
  const bool beside_, laws_;
  int fail_after_;
  solver::ThreadedTurnBatch threads_{2};
};

}  // namespace

TEST_CASE(
    "n-player checkpoint: a batch solver's failure keeps the work done, resumed bit for bit") {
  // The failure comes with cycles finished and others in flight: the
  // checkpoint keeps what is done, and the solve resumed from it (another
  // batch solver) gives the uninterrupted values and counters.
  solver::GameValues reference;
  solver::GameSolveReport reference_report;
  REQUIRE(RunStopping(Options(3, 2), 0, &reference, &reference_report).ok());
  TempDir dir;
  for (const Schedule schedule : {Schedule::kOneGroup, Schedule::kBeside, Schedule::kGpu}) {
    for (const int fail_after : {40, 120}) {
      CAPTURE(static_cast<int>(schedule));
      CAPTURE(fail_after);
      solver::GameSolveOptions options = Options(3, 2);
      options.checkpoint = dir.File("failed.checkpoint");
      options.cycles_in_flight = 3;
      ScheduleBatch failing(schedule, fail_after);
      options.turn_batch = &failing;
      solver::GameValues values;
      solver::GameSolveReport report;
      const absl::Status status = RunStopping(options, 0, &values, &report);
      REQUIRE(absl::IsResourceExhausted(status));
      CHECK(fs::exists(options.checkpoint));
      ScheduleBatch good(schedule);
      options.turn_batch = &good;
      solver::GameSolveReport resumed;
      REQUIRE(RunStopping(options, 0, &values, &resumed).ok());
      CHECK(resumed.resumed_fraction > 0);
      CheckIdentical(reference, values);
      CheckSameCounters(reference_report, resumed);
    }
  }
}

TEST_CASE("n-player checkpoint: progress is monotone, reaches 1, estimates are sane") {
  solver::GameValues values;
  solver::GameSolveReport report;
  std::vector<solver::GameSolveProgress> calls;
  REQUIRE(RunStopping(Options(3), 0, &values, &report, &calls).ok());
  REQUIRE(calls.size() > 10);
  double last = 0, last_seconds = 0;
  for (const solver::GameSolveProgress& p : calls) {
    CHECK(p.fraction >= last);
    CHECK(p.fraction <= 1.0);
    CHECK(p.seconds >= last_seconds);
    CHECK(std::isfinite(p.seconds_left));
    CHECK((p.seconds_left >= 0 || p.seconds_left == -1));
    last = p.fraction;
    last_seconds = p.seconds;
  }
  CHECK(calls.back().fraction == 1.0);
  CHECK(calls.back().seconds_left == 0.0);
  // Small steps (the top levels may be empty: no context has those totals).
  auto first = std::find_if(calls.begin(), calls.end(),
                            [](const solver::GameSolveProgress& p) { return p.fraction > 0; });
  REQUIRE(first != calls.end());
  CHECK(first->fraction < 0.05);
  CHECK(first->seconds_left > 0);
  CHECK(report.checkpoints_written == 0);
  CHECK(report.resumed_fraction == 0);
}

TEST_CASE("n-player checkpoint: interrupted and resumed, values are bit for bit the same") {
  // 2 players: the pair kernel, whose first guesses (each cycle's slope) are
  // kept in the checkpoint too.
  for (int players : {2, 3, 4}) {
    CAPTURE(players);
    solver::GameValues reference;
    solver::GameSolveReport reference_report;
    std::vector<solver::GameSolveProgress> calls;
    REQUIRE(RunStopping(Options(players), 0, &reference, &reference_report, &calls).ok());
    const int n = static_cast<int>(calls.size());
    TempDir dir;
    // Early, in the middle of levels (a callback after every vector), near the end.
    for (int stop_at : {1, 2, n / 5, n / 3, n / 2, 2 * n / 3, n - 2}) {
      CAPTURE(stop_at);
      const std::string path = dir.File("solve.checkpoint");
      solver::GameSolveOptions options = Options(players);
      options.checkpoint = path;
      // The message ends with the caller's resume hint (the default for some).
      const std::string hint = stop_at % 2 == 1
                                   ? "call SolveGameValues again to resume"
                                   : "run the same solve with that checkpoint to resume";
      if (stop_at % 2 == 1) options.resume_hint = hint;
      solver::GameValues values;
      solver::GameSolveReport report;
      absl::Status status = RunStopping(options, stop_at, &values, &report);
      REQUIRE(absl::IsCancelled(status));
      CHECK(std::string(status.message()).find("saved in " + path) != std::string::npos);
      CHECK(std::string(status.message()).find("to resume") != std::string::npos);
      CHECK(std::string(status.message()).ends_with("saved in " + path + ": " + hint));
      REQUIRE(fs::exists(path));
      CHECK(report.checkpoints_written == 2);  // at the start and when stopped
      // Resumed (on two threads for some: the split of the work does not matter).
      options.threads = stop_at % 2 == 0 ? 2 : 1;
      solver::GameSolveReport resumed;
      std::vector<solver::GameSolveProgress> resumed_calls;
      absl::Status finished = RunStopping(options, 0, &values, &resumed, &resumed_calls);
      REQUIRE_MESSAGE(finished.ok(), finished.ToString());
      CHECK(resumed.resumed_fraction >= 0);
      if (stop_at >= n / 5) CHECK(resumed.resumed_fraction > 0);
      CHECK(resumed.resumed_fraction < 1);
      REQUIRE(!resumed_calls.empty());
      CHECK(resumed_calls.front().fraction >= resumed.resumed_fraction);
      CHECK(resumed_calls.back().fraction == 1.0);
      CheckIdentical(reference, values);
      CheckSameCounters(reference_report, resumed);
      CHECK(!fs::exists(path));  // deleted after the finished solve
    }
  }
}

TEST_CASE("n-player checkpoint: interrupted several times in a row, then finished") {
  solver::GameValues reference;
  solver::GameSolveReport reference_report;
  std::vector<solver::GameSolveProgress> calls;
  REQUIRE(RunStopping(Options(3), 0, &reference, &reference_report, &calls).ok());
  TempDir dir;
  solver::GameSolveOptions options = Options(3);
  options.checkpoint = dir.File("chain");
  solver::GameValues values;
  solver::GameSolveReport report;
  double resumed = 0;
  for (int stop_at : {3, 40, 1, 25}) {
    REQUIRE(absl::IsCancelled(RunStopping(options, stop_at, &values, &report)));
    CHECK(report.resumed_fraction >= resumed);
    resumed = report.resumed_fraction;
  }
  options.keep_checkpoint = true;
  REQUIRE(RunStopping(options, 0, &values, &report).ok());
  CheckIdentical(reference, values);
  CheckSameCounters(reference_report, report);
  CHECK(report.earlier_seconds > 0);
  // Kept: a finished checkpoint is all the work, nothing is solved again.
  REQUIRE(fs::exists(options.checkpoint));
  solver::GameSolveReport again;
  std::vector<solver::GameSolveProgress> again_calls;
  REQUIRE(RunStopping(options, 0, &values, &again, &again_calls).ok());
  CHECK(again.resumed_fraction == 1.0);
  CHECK(again.turn_solves == report.turn_solves);
  REQUIRE(again_calls.size() == 1);
  CHECK(again_calls[0].fraction == 1.0);
  CHECK(again_calls[0].seconds_left == 0.0);
  CheckIdentical(reference, values);
}

TEST_CASE("concurrency: a solve stopped on two threads (streams, lockstep) resumes bit for bit") {
  // Streams (the threads' own schedule) and lockstep (a caller's batch
  // solver: one group of cycles, or two taking turns beside the steps, the
  // settling passes' laws posted or not): the
  // cycles taken when the stop comes are finished, and the resumed solve is
  // the uninterrupted one.
  for (const Schedule schedule :
       {Schedule::kStreams, Schedule::kOneGroup, Schedule::kBeside, Schedule::kGpu}) {
    CAPTURE(static_cast<int>(schedule));
    ScheduleBatch batch(schedule);
    solver::GameSolveOptions options = Options(3, 2);
    if (schedule != Schedule::kStreams) options.turn_batch = &batch;
    options.cycles_in_flight = 4;
    solver::GameValues reference;
    solver::GameSolveReport reference_report;
    std::vector<solver::GameSolveProgress> calls;
    REQUIRE(RunStopping(options, 0, &reference, &reference_report, &calls).ok());
    const int n = static_cast<int>(calls.size());
    REQUIRE(n > 20);
    TempDir dir;
    // Up to half way: on two threads the count of callbacks varies (they come
    // between the calling thread's own vectors: a loaded machine may give it
    // few), so a late stop may find the solve finished: then it is the
    // uninterrupted one. The early stops always come in time.
    int stopped = 0;
    for (int stop_at : {2, n / 8, n / 4, n / 3, n / 2}) {
      CAPTURE(stop_at);
      options.checkpoint = dir.File("two.checkpoint");
      solver::GameValues values;
      solver::GameSolveReport report;
      const absl::Status status = RunStopping(options, stop_at, &values, &report);
      if (status.ok()) {
        CHECK(stop_at > 2);
        CheckIdentical(reference, values);
        CheckSameCounters(reference_report, report);
        continue;
      }
      REQUIRE(absl::IsCancelled(status));
      ++stopped;
      solver::GameSolveReport resumed;
      REQUIRE(RunStopping(options, 0, &values, &resumed).ok());
      if (stop_at >= n / 4) CHECK(resumed.resumed_fraction > 0);
      CheckIdentical(reference, values);
      CheckSameCounters(reference_report, resumed);
    }
    CHECK(stopped >= 2);
  }
}

TEST_CASE("n-player checkpoint: stopped without a checkpoint file, the message says so") {
  solver::GameValues values;
  solver::GameSolveReport report;
  absl::Status status = RunStopping(Options(3), 5, &values, &report);
  REQUIRE(absl::IsCancelled(status));
  CHECK(std::string(status.message()).find("solve interrupted at ") == 0);
  CHECK(std::string(status.message()).find("no checkpoint file") != std::string::npos);
  // A flag set before the solve: stopped before any work.
  std::atomic<bool> stop{true};
  solver::GameSolveOptions options = Options(3);
  options.stop = &stop;
  status = solver::SolveGameValues(options, &report).status();
  CHECK(absl::IsCancelled(status));
  CHECK(std::string(status.message()).find("at 0.0% done (level 1 of ") != std::string::npos);
}

TEST_CASE("n-player checkpoint: another solve's checkpoint is refused and left alone") {
  TempDir dir;
  const std::string path = dir.File("other");
  StoppedSolve(path);
  const std::string bytes = ReadFile(path);
  auto refused = [&](solver::GameSolveOptions other, const char* what) {
    CAPTURE(what);
    other.checkpoint = path;
    absl::Status status = solver::SolveGameValues(other, nullptr).status();
    CHECK(absl::IsFailedPrecondition(status));
    const std::string message(status.message());
    CHECK(message.find("belongs to another solve") != std::string::npos);
    CHECK(message.find(what) != std::string::npos);
    CHECK(ReadFile(path) == bytes);  // untouched
  };
  const std::string version = "solver=v" + std::to_string(solver::kSolverVersion);
  refused(Options(4), ("players=3 arithmetic=extended " + version + " levels=").c_str());
  solver::GameSolveOptions other_rules = Options(3);
  other_rules.rules.target = 7;
  refused(other_rules, "target=6");
  solver::GameSolveOptions other_arithmetic = Options(3);
  other_arithmetic.arithmetic = solver::SolveArithmetic::kDouble;
  refused(other_arithmetic, "arithmetic=double");
  // Another rank's file (the parser, given the expected identity): a file
  // swapped between ranks never lends one rank's vectors to another.
  solver::CheckpointIdentity rank_one = IdentityOf(bytes);
  rank_one.rank = 1;
  rank_one.ranks = 2;
  auto other_rank = solver::ReadCheckpoint(path, rank_one, 1 << 30);
  CHECK(absl::IsFailedPrecondition(other_rank.status()));
  CHECK(std::string(other_rank.status().message())
            .find("than this one (" + solver::CheckpointIdentityString(rank_one) + ")") !=
        std::string::npos);
  CHECK(solver::CheckpointIdentityString(rank_one).find(" rank=1/2") != std::string::npos);
  // Another solver version (the parser, given the expected identity).
  solver::CheckpointIdentity future{kRules, 3, true, solver::kSolverVersion + 1, 0};
  auto parsed = solver::ReadCheckpoint(path, future, 1 << 30);
  CHECK(absl::IsFailedPrecondition(parsed.status()));
  CHECK(std::string(parsed.status().message()).find(version) != std::string::npos);
  // Larger than this solve's checkpoint can be: another solve's is named as
  // such (not "unusable"), this solve's is unusable.
  parsed = solver::ReadCheckpoint(path, future, 200);
  CHECK(absl::IsFailedPrecondition(parsed.status()));
  CHECK(std::string(parsed.status().message()).find("belongs to another solve") !=
        std::string::npos);
  parsed = solver::ReadCheckpoint(path, IdentityOf(bytes), 200);
  CHECK(absl::IsDataLoss(parsed.status()));
  CHECK(std::string(parsed.status().message()).find("more than this solve's checkpoint can take") !=
        std::string::npos);
}

TEST_CASE("n-player checkpoint: damaged or truncated files are refused, never crash") {
  TempDir dir;
  const std::string path = dir.File("damaged");
  const solver::GameSolveOptions options = StoppedSolve(path);
  const std::string good = ReadFile(path);
  REQUIRE(good.size() > 200);
  auto refused = [&](const std::string& bytes, const char* what) {
    CAPTURE(what);
    CAPTURE(bytes.size());
    WriteFile(path, bytes);
    absl::Status status = solver::SolveGameValues(options, nullptr).status();
    CHECK(absl::IsDataLoss(status));
    const std::string message(status.message());
    CHECK(message.find("checkpoint " + path + " is unusable") == 0);
    CHECK(message.find(what) != std::string::npos);
    CHECK(message.find("delete it") != std::string::npos);
  };
  // Shorter than the header and checksum (173 bytes), then cut inside the body.
  for (size_t size : {size_t{0}, size_t{7}, size_t{100}, size_t{172}, size_t{173}, good.size() / 2,
                      good.size() - 1}) {
    refused(good.substr(0, size), "truncated");
  }
  // Cut at every length, and every single bit flipped (the parser alone):
  // never accepted; only a flipped format version is another solve's.
  const solver::CheckpointIdentity identity = IdentityOf(good);
  REQUIRE(solver::ParseCheckpoint(good, path, identity).ok());
  for (size_t size = 0; size < good.size(); ++size) {
    auto cut = solver::ParseCheckpoint(std::string_view(good).substr(0, size), path, identity);
    CHECK_MESSAGE(absl::IsDataLoss(cut.status()), size);
    CHECK_MESSAGE(std::string(cut.status().message()).find("truncated") != std::string::npos, size);
  }
  for (size_t at = 0; at < good.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = good;
      flipped[at] ^= static_cast<char>(1 << bit);
      auto parsed = solver::ParseCheckpoint(flipped, path, identity);
      const bool version = at >= 9 && at < 13;
      CHECK_MESSAGE((version ? absl::IsFailedPrecondition(parsed.status())
                             : absl::IsDataLoss(parsed.status())),
                    at, " bit ", bit, ": ", parsed.status());
    }
  }
  refused(good + "x", "bytes where its");
  {  // No checkpoint at all, maybe a file of the user's: kept, and not to be deleted.
    WriteFile(path, "MDPOLICY" + good.substr(8));
    const absl::Status status = solver::SolveGameValues(options, nullptr).status();
    CHECK(absl::IsDataLoss(status));
    CHECK(std::string(status.message()) ==
          "checkpoint " + path +
              " is unusable: not a martiandice N-player checkpoint (bad magic); it is left as it "
              "is: give the solve another checkpoint path");
    CHECK(ReadFile(path) == "MDPOLICY" + good.substr(8));
  }
  // What no other check sees, the checksum does: a counter (mixed cycles),
  // the last bit of the first record's error bound (bytes 169 + 24 on), the
  // checksum itself.
  for (size_t at : {size_t{158}, size_t{193}, good.size() - 2}) {
    std::string flipped = good;
    flipped[at] ^= 0x01;
    refused(flipped, "checksum mismatch");
  }
  // The progress, a record: refused by whatever they break first.
  for (size_t at : {size_t{68}, good.size() / 2}) {
    std::string flipped = good;
    flipped[at] ^= 0x10;
    refused(flipped, "is unusable");
  }
  // A huge context count: refused before any allocation (under ASan an
  // allocation that size would abort), with or without a valid checksum.
  std::string huge = good;
  for (int i = 0; i < 8; ++i) huge[kContextsAt + i] = static_cast<char>(0xff);
  auto reparsed = solver::ParseCheckpoint(huge, "x", identity);
  CHECK(absl::IsDataLoss(reparsed.status()));
  CHECK(std::string(reparsed.status().message()).find("truncated") != std::string::npos);
  for (std::uint64_t contexts : {std::uint64_t{1} << 60, ~std::uint64_t{0}}) {
    CAPTURE(contexts);
    auto parsed = solver::ParseCheckpoint(WithContexts(good, contexts), "x", identity);
    CHECK(absl::IsDataLoss(parsed.status()));
    CHECK(std::string(parsed.status().message()).find("truncated") != std::string::npos);
  }
  // The original is accepted again.
  WriteFile(path, good);
  solver::GameValues values;
  solver::GameSolveReport report;
  REQUIRE(RunStopping(options, 0, &values, &report).ok());
}

TEST_CASE("n-player checkpoint: counts and records are checked against the solve") {
  // A well-formed file (valid checksum) whose progress disagrees with its contents.
  TempDir dir;
  const std::string path = dir.File("forged");
  const solver::GameSolveOptions options = StoppedSolve(path);
  const std::string good = ReadFile(path);
  auto parsed = solver::ParseCheckpoint(good, path, IdentityOf(good));
  REQUIRE(parsed.ok());
  auto refused = [&](const solver::Checkpoint& forged, const char* what) {
    CAPTURE(what);
    absl::StatusOr<std::string> bytes = solver::SerializeCheckpoint(forged);
    REQUIRE(bytes.ok());
    WriteFile(path, *bytes);
    absl::Status status = solver::SolveGameValues(options, nullptr).status();
    CHECK(absl::IsDataLoss(status));
    INFO("message: " << status.message());
    CHECK(std::string(status.message()).find(what) != std::string::npos);
  };
  solver::Checkpoint forged = *parsed;
  forged.vectors_done += 1;  // one more vector claimed than stored
  refused(forged, "contexts stored where its progress has");
  forged = *parsed;
  forged.records[0] = 7.5;  // not a probability
  refused(forged, "record 0 of context 0 is 7.5");
  forged = *parsed;
  forged.levels_done = forged.identity.levels + 1;
  refused(forged, "levels done (and ");
  // Values altered, each still a probability: the context's no longer sum to 1.
  forged = *parsed;
  REQUIRE(forged.records.size() >= 4);
  forged.records[0] += forged.records[0] > 0.5 ? -0.05 : 0.05;
  refused(forged, "finished context 0: the win probabilities sum to");
  // An error bound that would excuse any sum.
  forged = *parsed;
  forged.records[3] = 1.5;
  refused(forged, "finished context 0: error bound 1.5 is not a bound in [0, 1)");
  forged.records[3] = std::nan("");
  refused(forged, "record 3 of context 0 is nan");  // the reader's own check
  // The counters a report and a table's header take.
  forged = *parsed;
  forged.counters.error_bound = -1;
  refused(forged, "a counter is -1");
  forged.counters.error_bound = std::nan("");
  refused(forged, "a counter is nan");
  forged = *parsed;
  forged.counters.max_rounds = std::numeric_limits<std::uint32_t>::max();
  refused(forged, "4294967295 rounds");
  // A header bound below a record's: the records' bound is kept.
  forged = *parsed;
  forged.records[3] = 1e-3;
  forged.counters.error_bound = 0;
  absl::StatusOr<std::string> lowered = solver::SerializeCheckpoint(forged);
  REQUIRE(lowered.ok());
  WriteFile(path, *lowered);
  absl::StatusOr<solver::GameValues> bounded = solver::SolveGameValues(options, nullptr);
  REQUIRE(bounded.ok());
  CHECK(bounded->error_bound >= 1e-3);
  // An unconverged cycle's infinite bound (its context's and the counters')
  // is kept: the solve resumes and ends without a bound, and no table is
  // made of it.
  forged.records[3] = HUGE_VAL;
  forged.counters.error_bound = HUGE_VAL;
  absl::StatusOr<std::string> bytes = solver::SerializeCheckpoint(forged);
  REQUIRE(bytes.ok());
  WriteFile(path, *bytes);
  absl::StatusOr<solver::GameValues> resumed = solver::SolveGameValues(options, nullptr);
  REQUIRE(resumed.ok());
  CHECK(std::isinf(resumed->error_bound));
  WriteFile(path, *bytes);  // the finished solve removed it
  absl::Status table = solver::SolveTableValues(options, nullptr).status();
  CHECK(absl::IsFailedPrecondition(table));
  CHECK(std::string(table.message()).find("could not bound its values (error bound inf)") !=
        std::string::npos);
}

TEST_CASE("n-player checkpoint: solve with a tampered checkpoint leaves the old table") {
  TempDir dir;
  const std::string path = dir.File("t.checkpoint");
  StoppedSolve(path);
  auto parsed = solver::ParseCheckpoint(ReadFile(path), path, IdentityOf(ReadFile(path)));
  REQUIRE(parsed.ok());
  solver::Checkpoint forged = *parsed;
  forged.records[0] += forged.records[0] > 0.5 ? -0.05 : 0.05;
  absl::StatusOr<std::string> bytes = solver::SerializeCheckpoint(forged);
  REQUIRE(bytes.ok());
  WriteFile(path, *bytes);
  const std::string table = dir.File("t.mdt");
  WriteFile(table, "the old table");
  const cli_test::CliRun run =
      cli_test::Run({"solve", "--players", "3", "--dice", "4", "--bonus", "2", "--target", "6",
                     "--out", table, "--checkpoint", path});
  INFO("stderr: " << run.err);
  CHECK(run.code == 1);
  CHECK(run.err.find("is unusable: finished context 0: the win probabilities sum to") !=
        std::string::npos);
  CHECK(ReadFile(table) == "the old table");
  CHECK(ReadFile(path) == *bytes);  // left for the user to look at or delete
}

TEST_CASE("n-player checkpoint: an unwritable checkpoint fails before the work") {
  solver::GameSolveOptions options = Options(3);
  options.checkpoint = "/nonexistent-directory-martiandice/solve.checkpoint";
  int calls = 0;
  options.progress = [&](const solver::GameSolveProgress&) { ++calls; };
  absl::Status status = solver::SolveGameValues(options, nullptr).status();
  CHECK(!status.ok());
  CHECK(std::string(status.message()).find("writing the checkpoint: ") == 0);
  CHECK(calls == 0);
  options.checkpoint.clear();
  options.checkpoint_interval = -1;
  CHECK(absl::IsInvalidArgument(solver::SolveGameValues(options, nullptr).status()));
}

// The checkpoint is a file the solve will replace: a symbolic link to one is
// refused before it is read (the first write would refuse it after the work).
TEST_CASE("n-player checkpoint: a symbolic link is refused before the work") {
  TempDir dir;
  const std::string target = dir.File("real");
  const std::string link = dir.File("link");
  solver::GameSolveOptions options = StoppedSolve(target);
  const std::string bytes = ReadFile(target);
  std::filesystem::create_symlink(target, link);
  options.checkpoint = link;
  int calls = 0;
  options.progress = [&](const solver::GameSolveProgress&) { ++calls; };
  const absl::Status status = solver::SolveGameValues(options, nullptr).status();
  CHECK(absl::IsFailedPrecondition(status));
  CHECK(std::string(status.message()).find("is a symbolic link") != std::string::npos);
  CHECK(calls == 0);
  CHECK(ReadFile(target) == bytes);
}

TEST_CASE("n-player checkpoint: the file layout is the documented one") {
  solver::Checkpoint c;
  c.identity = {Rules{13, 3, 25}, 3, true, solver::kSolverVersion, 121, 1, 2};
  c.levels_done = 85;
  c.vectors_done = 7;
  c.counters = {11, 12, 13, 14, 15, 16, 5, 0.25, 0.5, 17, 0.75};
  c.seconds = 55.5;
  c.records = {0.25, 0.5, 0.25, 1e-14, 0.125, 0.375, 0.5, 2e-14};
  const absl::StatusOr<std::string> serialized = solver::SerializeCheckpoint(c);
  REQUIRE(serialized.ok());
  const std::string& b = *serialized;
  REQUIRE(b.size() == 169 + 8 * 8 + 4);
  CHECK(b.size() == solver::CheckpointSize(2, 3));
  auto u32 = [&](size_t at) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<std::uint8_t>(b[at + i]);
    return v;
  };
  auto u64 = [&](size_t at) { return u32(at) | std::uint64_t{u32(at + 4)} << 32; };
  auto f64 = [&](size_t at) {
    const std::uint64_t bits = u64(at);
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  };
  CHECK(b.substr(0, 8) == std::string("MDNCKPT\0", 8));
  CHECK(b[8] == 1);  // cereal's byte order flag: little-endian
  CHECK(u32(9) == 4);
  CHECK(u32(13) == solver::kSolverVersion);
  CHECK(u32(17) == 13);
  CHECK(u32(21) == 3);
  CHECK(u32(25) == 25);
  CHECK(u32(29) == 3);
  CHECK(u32(33) == 2);
  CHECK(u32(kLevelsAt) == 121);
  CHECK(u32(41) == 1);  // rank 1
  CHECK(u32(45) == 2);  // of 2
  CHECK(solver::CheckpointIdentityString(c.identity) ==
        "dice=13 bonus=3 target=25 players=3 arithmetic=extended solver=v" +
            std::to_string(solver::kSolverVersion) + " levels=121 rank=1/2");
  CHECK(u64(49) == internal::Fnv1a64(solver::CheckpointIdentityString(c.identity)));
  CHECK(u32(57) == 85);
  CHECK(u32(61) == 5);
  CHECK(u64(65) == 7);
  CHECK(u64(kContextsAt) == 2);
  for (int i = 0; i < 6; ++i) CHECK(u64(81 + 8 * i) == 11u + i);
  CHECK(f64(129) == 0.25);
  CHECK(f64(137) == 0.5);
  CHECK(f64(145) == 55.5);
  CHECK(u64(153) == 17);
  CHECK(f64(161) == 0.75);
  for (int i = 0; i < 8; ++i) CHECK(f64(169 + 8 * i) == c.records[i]);
  // zlib's CRC-32, by the plain bytewise reference.
  CHECK(u32(b.size() - 4) == internal::Crc32Bytewise(std::string_view(b).substr(0, b.size() - 4)));
  auto parsed = solver::ParseCheckpoint(b, "x", c.identity);
  REQUIRE(parsed.ok());
  CHECK(parsed->records == c.records);
  CHECK(parsed->levels_done == 85);
  CHECK(parsed->vectors_done == 7);
  CHECK(parsed->counters.kingmaking_contexts == 16);
  CHECK(parsed->counters.mixed_cycles == 17);
  CHECK(parsed->counters.mixing_error == 0.75);
  CHECK(parsed->seconds == 55.5);
  // Alone, a solve's identity names no rank.
  solver::CheckpointIdentity alone = c.identity;
  alone.rank = 0;
  alone.ranks = 1;
  CHECK(solver::CheckpointIdentityString(alone).find("rank") == std::string::npos);
}

TEST_CASE("n-player checkpoint: a count one past the bytes is refused, the exact one taken") {
  solver::Checkpoint c;
  c.identity = {kRules, 3, true, solver::kSolverVersion, 9};
  c.levels_done = 2;
  c.records = {0.25, 0.5, 0.25, 1e-14, 0.125, 0.375, 0.5, 2e-14};  // 2 contexts
  const absl::StatusOr<std::string> bytes = solver::SerializeCheckpoint(c);
  REQUIRE(bytes.ok());
  auto parse = [&](const std::string& b) { return solver::ParseCheckpoint(b, "x", c.identity); };
  // Every count with a valid checksum: only the count is wrong.
  auto over = parse(WithContexts(*bytes, 3));
  CHECK(absl::IsDataLoss(over.status()));
  CHECK(std::string(over.status().message()).find("truncated (237 bytes, its header announces 3") !=
        std::string::npos);
  auto under = parse(WithContexts(*bytes, 1));
  CHECK(absl::IsDataLoss(under.status()));
  CHECK(std::string(under.status().message()).find("237 bytes where its 1 contexts take 205") !=
        std::string::npos);
  auto exact = parse(WithContexts(*bytes, 2));
  REQUIRE(exact.ok());
  CHECK(exact->records == c.records);
  // A third context's bytes added: 3 is then exactly right and 4 one past.
  std::string grown = bytes->substr(0, bytes->size() - 4);
  const double third[4] = {0.5, 0.25, 0.25, 0};
  for (double v : third) {
    grown.append(8, '\0');
    PutLittleEndian(grown, grown.size() - 8, std::bit_cast<std::uint64_t>(v), 8);
  }
  grown.append(4, '\0');
  auto three = parse(WithContexts(grown, 3));
  REQUIRE_MESSAGE(three.ok(), three.status());
  REQUIRE(three->records.size() == 12);
  CHECK(std::equal(c.records.begin(), c.records.end(), three->records.begin()));
  CHECK(std::equal(third, third + 4, three->records.begin() + 8));
  auto four = parse(WithContexts(grown, 4));
  CHECK(absl::IsDataLoss(four.status()));
  CHECK(std::string(four.status().message()).find("truncated (269 bytes, its header announces 4") !=
        std::string::npos);
  // And the writer takes exactly the values it announced.
  std::string out;
  auto to_out = [&out](std::string_view b) {
    out.append(b);
    return absl::OkStatus();
  };
  solver::CheckpointWriter fewer(c, 2, to_out);
  fewer.Append(c.records.data(), 7);
  CHECK(absl::IsInternal(fewer.Finish()));
  solver::CheckpointWriter more(c, 1, to_out);
  more.Append(c.records.data(), 8);
  CHECK(absl::IsInternal(more.Finish()));
  out.clear();
  solver::CheckpointWriter exactly(c, 2, to_out);
  exactly.Append(c.records.data(), 4);
  exactly.Append(c.records.data() + 4, 4);
  REQUIRE(exactly.Finish().ok());
  CHECK(out == *bytes);
}

TEST_CASE("n-player checkpoint: written in chunks, read from the file in place") {
  // 200,000 contexts of 3 players: 6.4 MB, several chunks.
  solver::Checkpoint c;
  c.identity = {kRules, 3, true, solver::kSolverVersion, 9};
  c.levels_done = 3;
  const std::uint64_t contexts = 200000;
  for (std::uint64_t k = 0; k < contexts; ++k) {
    const double a = static_cast<double>(k % 1000) / 4000;
    c.records.insert(c.records.end(), {a, 0.5, 0.5 - a, 1e-15 * static_cast<double>(k % 7)});
  }
  std::string whole;
  std::vector<size_t> chunks;
  solver::CheckpointWriter writer(c, contexts, [&](std::string_view b) {
    whole.append(b);
    chunks.push_back(b.size());
    return absl::OkStatus();
  });
  for (std::uint64_t k = 0; k < contexts; ++k) writer.Append(&c.records[4 * k], 4);
  REQUIRE(writer.Finish().ok());
  CHECK(whole.size() == solver::CheckpointSize(contexts, 3));
  CHECK(chunks.size() >= 6);
  CHECK(*std::max_element(chunks.begin(), chunks.end()) <= (std::size_t{1} << 20));
  // Its checksum is the bytes' (the plain reference), and it reads back from a file.
  const std::uint32_t crc =
      internal::Crc32Bytewise(std::string_view(whole).substr(0, whole.size() - 4));
  std::uint32_t stored = 0;
  for (int i = 3; i >= 0; --i)
    stored = stored << 8 | static_cast<std::uint8_t>(whole[whole.size() - 4 + i]);
  CHECK(stored == crc);
  TempDir dir;
  WriteFile(dir.File("c"), whole);
  auto read = solver::ReadCheckpoint(dir.File("c"), c.identity, whole.size());
  REQUIRE_MESSAGE(read.ok(), read.status());
  CHECK(read->records == c.records);
  CHECK(read->levels_done == 3);
  // A context at a time (as a resume places them), across the chunks; none past the last.
  auto reader = solver::CheckpointReader::Open(dir.File("c"), c.identity, whole.size());
  REQUIRE_MESSAGE(reader.ok(), reader.status());
  CHECK((*reader)->contexts() == contexts);
  CHECK((*reader)->header().records.empty());
  bool same = true;
  for (std::uint64_t k = 0; k < contexts; ++k) {
    double record[4];
    REQUIRE((*reader)->Next(record).ok());
    same = same && std::equal(record, record + 4, &c.records[4 * k]);
  }
  CHECK(same);
  double past[4];
  CHECK(absl::IsInternal((*reader)->Next(past)));
  reader = solver::CheckpointReader::Open(dir.File("c"), c.identity, whole.size());
  REQUIRE(reader.ok());
  CHECK(absl::IsInternal((*reader)->Finish()));  // every context unread
  // One byte flipped deep in the records: the file's checksum refuses it.
  std::string flipped = whole;
  flipped[whole.size() / 2] ^= 1;
  WriteFile(dir.File("c"), flipped);
  auto bad = solver::ReadCheckpoint(dir.File("c"), c.identity, whole.size());
  CHECK(absl::IsDataLoss(bad.status()));
  CHECK(std::string(bad.status().message()).find("checksum mismatch") != std::string::npos);
  // Larger than the solve's checkpoint can be: refused unread.
  auto large = solver::ReadCheckpoint(dir.File("c"), c.identity, whole.size() - 1);
  CHECK(absl::IsDataLoss(large.status()));

  // The sink's first error ends the writing: nothing more is handed to it.
  int calls = 0;
  solver::CheckpointWriter failing(c, contexts, [&calls](std::string_view) {
    return ++calls == 2 ? absl::DataLossError("disk full") : absl::OkStatus();
  });
  for (std::uint64_t k = 0; k < contexts; ++k) failing.Append(&c.records[4 * k], 4);
  const absl::Status status = failing.Finish();
  CHECK(absl::IsDataLoss(status));
  CHECK(status.message() == "disk full");
  CHECK(calls == 2);
}
