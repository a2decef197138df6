// N-player solve checkpoints (solver/nplayer_checkpoint.h): interrupted at
// many points through the stop flag and resumed, the values are bit for bit
// those of an uninterrupted solve; checkpoints of other solves, damaged or
// truncated ones are refused with clear errors; progress and its estimate.
#include "nplayer_checkpoint.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>

#include "crc32.h"
#include "game_solver.h"
#include "table_format.h"
#include "test_util.h"

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

}  // namespace

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
  for (int players : {3, 4}) {
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
  const std::string version = "solver=v" + std::to_string(solver::kNPlayerSolverVersion);
  refused(Options(4), ("players=3 arithmetic=extended " + version + " levels=").c_str());
  solver::GameSolveOptions other_rules = Options(3);
  other_rules.rules.target = 7;
  refused(other_rules, "target=6");
  solver::GameSolveOptions other_arithmetic = Options(3);
  other_arithmetic.arithmetic = solver::SolveArithmetic::kDouble;
  refused(other_arithmetic, "arithmetic=double");
  // Another solver version (the parser, given the expected identity).
  solver::CheckpointIdentity future{kRules, 3, true, solver::kNPlayerSolverVersion + 1, 0};
  auto parsed = solver::ReadCheckpoint(path, future, 1 << 30);
  CHECK(absl::IsFailedPrecondition(parsed.status()));
  CHECK(std::string(parsed.status().message()).find(version) != std::string::npos);
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
  // Shorter than the header and checksum (148 bytes), then cut inside the body.
  for (size_t size : {size_t{0}, size_t{7}, size_t{100}, size_t{147}, size_t{148}, good.size() / 2,
                      good.size() - 1}) {
    refused(good.substr(0, size), "truncated");
  }
  refused(good + "x", "bytes where its");
  refused("MDPOLICY" + good.substr(8), "bad magic");
  for (size_t at : {size_t{60}, size_t{150}, good.size() / 2, good.size() - 2}) {
    std::string flipped = good;
    flipped[at] ^= 0x10;
    refused(flipped, "checksum mismatch");
  }
  // A huge context count with a valid checksum: refused before any allocation.
  std::string huge = good;
  for (int i = 0; i < 8; ++i) huge[64 + i] = static_cast<char>(0xff);
  auto reparsed = solver::ParseCheckpoint(huge, "x", {kRules, 3, true, 1, 0});
  CHECK(absl::IsDataLoss(reparsed.status()));
  CHECK(std::string(reparsed.status().message()).find("truncated") != std::string::npos);
  // The original is accepted again.
  WriteFile(path, good);
  solver::GameValues values;
  solver::GameSolveReport report;
  REQUIRE(RunStopping(options, 0, &values, &report).ok());
}

TEST_CASE("n-player checkpoint: counts are checked against the solve after the checksum") {
  // A well-formed file (valid checksum) whose progress disagrees with its contents.
  TempDir dir;
  const std::string path = dir.File("forged");
  const solver::GameSolveOptions options = StoppedSolve(path);
  // The identity the solve expects, read back from the file itself.
  auto id_of = [&](const std::string& bytes) {
    solver::CheckpointIdentity id{kRules, 3, true, solver::kNPlayerSolverVersion, 0};
    std::uint32_t levels = 0;
    std::memcpy(&levels, bytes.data() + 36, 4);  // little-endian host
    id.levels = levels;
    return id;
  };
  const std::string good = ReadFile(path);
  auto parsed = solver::ParseCheckpoint(good, path, id_of(good));
  REQUIRE(parsed.ok());
  auto refused = [&](const solver::NPlayerCheckpoint& forged, const char* what) {
    CAPTURE(what);
    WriteFile(path, solver::SerializeCheckpoint(forged));
    absl::Status status = solver::SolveGameValues(options, nullptr).status();
    CHECK(absl::IsDataLoss(status));
    CHECK(std::string(status.message()).find(what) != std::string::npos);
  };
  solver::NPlayerCheckpoint forged = *parsed;
  forged.vectors_done += 1;  // one more vector claimed than stored
  refused(forged, "contexts stored where its progress has");
  forged = *parsed;
  forged.records[0] = 7.5;  // not a probability
  refused(forged, "record 0 of context 0 is 7.5");
  forged = *parsed;
  forged.levels_done = forged.identity.levels + 1;
  refused(forged, "levels done (and ");
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

TEST_CASE("n-player checkpoint: the file layout is the documented one") {
  solver::NPlayerCheckpoint c;
  c.identity = {Rules{13, 3, 25}, 3, true, solver::kNPlayerSolverVersion, 121};
  c.levels_done = 85;
  c.vectors_done = 7;
  c.counters = {11, 12, 13, 14, 15, 16, 5, 0.25, 0.5, 17, 0.75};
  c.seconds = 55.5;
  c.records = {0.25, 0.5, 0.25, 1e-14, 0.125, 0.375, 0.5, 2e-14};
  const std::string b = solver::SerializeCheckpoint(c);
  REQUIRE(b.size() == 160 + 8 * 8 + 4);
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
  CHECK(u32(8) == 2);
  CHECK(u32(12) == solver::kNPlayerSolverVersion);
  CHECK(u32(16) == 13);
  CHECK(u32(20) == 3);
  CHECK(u32(24) == 25);
  CHECK(u32(28) == 3);
  CHECK(u32(32) == 2);
  CHECK(u32(36) == 121);
  CHECK(solver::CheckpointIdentityString(c.identity) ==
        "dice=13 bonus=3 target=25 players=3 arithmetic=extended solver=v" +
            std::to_string(solver::kNPlayerSolverVersion) + " levels=121");
  CHECK(u64(40) == internal::Fnv1a64(solver::CheckpointIdentityString(c.identity)));
  CHECK(u32(48) == 85);
  CHECK(u32(52) == 5);
  CHECK(u64(56) == 7);
  CHECK(u64(64) == 2);
  for (int i = 0; i < 6; ++i) CHECK(u64(72 + 8 * i) == 11u + i);
  CHECK(f64(120) == 0.25);
  CHECK(f64(128) == 0.5);
  CHECK(f64(136) == 55.5);
  CHECK(u64(144) == 17);
  CHECK(f64(152) == 0.75);
  for (int i = 0; i < 8; ++i) CHECK(f64(160 + 8 * i) == c.records[i]);
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
}
