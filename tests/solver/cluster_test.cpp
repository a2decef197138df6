// The clustered solve (solver/solve_cluster.h, level_share.h) with ranks as
// threads (tests/support/thread_cluster.h, no MPI): every rank's values are
// the solve alone's, bit for bit, at the contexts it owns (none held
// elsewhere), for 2 to 4 players and 1 to 4 ranks; a stop
// asked by one rank stops all between levels and resumes bit for bit; ranks
// whose checkpoints hold different levels resume at the latest one all hold;
// one rank's failure reaches every rank; a rank is sent only the values it
// reads. The MPI transport is checked by
// tests/scripts/check_mpi_solve.py (ctest mpi_solve).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "game_solver.h"
#include "level_schedule.h"
#include "martiandice/context.h"
#include "solve_checkpoint.h"
#include "solve_state.h"
#include "table_format.h"
#include "test_util.h"
#include "thread_cluster.h"
#include "turn_batch.h"

using namespace martiandice;
namespace fs = std::filesystem;

namespace {

using test_util::ReadFile;
using test_util::TempDir;

solver::GameSolveOptions Options(int players, Rules rules = Rules{4, 2, 6}) {
  solver::GameSolveOptions options;
  options.rules = rules;
  options.players = players;
  options.threads = 1;
  options.progress_interval = 0;
  return options;
}

// What each rank's solve returned.
struct RankResult {
  absl::Status status;
  solver::GameValues values;
  solver::GameSolveReport report;
};

// `options` solved by `ranks` ranks; `edit(rank, options)` may change a
// rank's options (its stop flag, its progress).
std::vector<RankResult> SolveRanks(
    int ranks, const solver::GameSolveOptions& options,
    const std::function<void(int, solver::GameSolveOptions&)>& edit = nullptr) {
  std::vector<RankResult> results(ranks);
  test_util::RunRanks(ranks, 60, [&](int rank, solver::SolveCluster& cluster) {
    solver::GameSolveOptions mine = options;
    mine.cluster = &cluster;
    if (edit) edit(rank, mine);
    absl::StatusOr<solver::GameValues> values =
        solver::SolveGameValues(mine, &results[rank].report);
    results[rank].status = values.status();
    if (values.ok()) results[rank].values = *std::move(values);
  });
  return results;
}

// Whether rank `rank` of `ranks` holds `alone`'s values bit for bit at the
// contexts it owns (seat 0's total is the rank modulo the ranks) and none
// elsewhere, with the same error bound.
bool SameBits(const solver::GameValues& rank_values, const solver::GameValues& alone, int rank = 0,
              int ranks = 1) {
  const auto& a = rank_values;
  const auto& b = alone;
  if (a.win.size() != b.win.size() ||
      std::memcmp(&a.error_bound, &b.error_bound, sizeof(double)) != 0) {
    return false;
  }
  const int n = b.players;
  const internal::ContextNumbering numbering(b.rules, n);
  int s[kMaxPlayers];
  for (std::int64_t c = 0; c < numbering.size(); ++c) {
    numbering.Decode(c, s);
    const double zero[kMaxPlayers] = {};
    const double* want = s[0] % ranks == rank ? &b.win[c * n] : zero;
    if (std::memcmp(&a.win[c * n], want, sizeof(double) * n) != 0) return false;
  }
  return true;
}

// The counters a rank reports are the whole solve's (turn_solves aside:
// each rank reuses its own final-round solves).
void CheckSameReport(const solver::GameSolveReport& alone, const solver::GameSolveReport& rank) {
  CHECK(rank.contexts == alone.contexts);
  CHECK(rank.cycles == alone.cycles);
  CHECK(rank.max_rounds == alone.max_rounds);
  CHECK(rank.mean_rounds == doctest::Approx(alone.mean_rounds).epsilon(1e-12));
  CHECK(std::memcmp(&rank.max_residual, &alone.max_residual, sizeof(double)) == 0);
  CHECK(std::memcmp(&rank.error_bound, &alone.error_bound, sizeof(double)) == 0);
  CHECK(rank.tied_decisions == alone.tied_decisions);
  CHECK(rank.kingmaking == alone.kingmaking);
  CHECK(rank.kingmaking_contexts == alone.kingmaking_contexts);
  CHECK(rank.mixed_cycles == alone.mixed_cycles);
  CHECK(rank.settle_passes == alone.settle_passes);
  CHECK(rank.start == alone.start);
}

}  // namespace

TEST_CASE("cluster: every rank's values are the solve alone's, bit for bit") {
  struct Case {
    int players;
    Rules rules;
    std::vector<int> ranks;
  };
  for (const Case& c : {Case{2, Rules{13, 3, 25}, {2, 3}}, Case{3, Rules{4, 2, 6}, {1, 2, 3, 4}},
                        Case{4, Rules{4, 2, 5}, {3}}}) {
    const solver::GameSolveOptions options = Options(c.players, c.rules);
    solver::GameSolveReport alone_report;
    absl::StatusOr<solver::GameValues> alone = solver::SolveGameValues(options, &alone_report);
    REQUIRE(alone.ok());
    for (int ranks : c.ranks) {
      CAPTURE(c.players);
      CAPTURE(ranks);
      std::vector<RankResult> results = SolveRanks(ranks, options);
      for (int rank = 0; rank < ranks; ++rank) {
        const RankResult& r = results[rank];
        REQUIRE(r.status.ok());
        CHECK(SameBits(r.values, *alone, rank, ranks));
        CheckSameReport(alone_report, r.report);
      }
    }
  }
}

TEST_CASE("cluster: the ranks write one table, the bytes of the solve alone's") {
  // Rank 1 writes last (it sleeps first): the others must wait for its
  // records before checksumming blocks that hold them.
  for (const int players : {2, 3}) {
    CAPTURE(players);
    const solver::GameSolveOptions options = Options(players);
    absl::StatusOr<solver::GameValues> alone = solver::SolveGameValues(options, nullptr);
    REQUIRE(alone.ok());
    TempDir dir;
    const std::string alone_path = dir.File("alone.mdt"), shared_path = dir.File("shared.mdt");
    REQUIRE(solver::WriteGameTable(std::move(*alone), alone_path, [](const std::string&) {
              return absl::OkStatus();
            }).ok());
    std::vector<absl::Status> written(3);
    std::atomic<int> checks{0};
    test_util::RunRanks(3, 60, [&](int rank, solver::SolveCluster& cluster) {
      solver::GameSolveOptions mine = options;
      mine.cluster = &cluster;
      absl::StatusOr<solver::GameValues> values = solver::SolveTableValues(mine, nullptr);
      written[rank] = values.status();
      if (!values.ok()) return;
      if (rank == 1) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      written[rank] = solver::WriteGameTableShared(
          std::move(*values), shared_path, cluster, [&](const std::string& temporary) {
            ++checks;
            CHECK(values->win.empty());  // rank 0's freed before the read-back
            CHECK(ReadFile(temporary) == ReadFile(alone_path));
            return absl::OkStatus();
          });
    });
    for (const absl::Status& w : written) CHECK_MESSAGE(w.ok(), w.ToString());
    CHECK(checks == 1);  // rank 0's
    CHECK(ReadFile(shared_path) == ReadFile(alone_path));
    CHECK(dir.Files().size() == 2);  // no temporary left
  }
  // A refused check: every rank gets rank 0's error, nothing is written.
  TempDir dir;
  const std::string path = dir.File("refused.mdt");
  std::vector<absl::Status> written(2);
  test_util::RunRanks(2, 60, [&](int rank, solver::SolveCluster& cluster) {
    solver::GameSolveOptions mine = Options(3);
    mine.cluster = &cluster;
    absl::StatusOr<solver::GameValues> values = solver::SolveTableValues(mine, nullptr);
    REQUIRE(values.ok());
    written[rank] = solver::WriteGameTableShared(
        std::move(*values), path, cluster,
        [](const std::string&) { return absl::DataLossError("the test refuses it"); });
  });
  for (const absl::Status& w : written) {
    CHECK(absl::IsDataLoss(w));
    CHECK(w.message().find("the test refuses it") != std::string::npos);
  }
  CHECK(dir.Files().empty());
}

TEST_CASE(
    "cluster: a stop asked by one rank stops every rank between levels, resumed bit for bit") {
  TempDir dir;
  solver::GameSolveOptions options = Options(3);
  options.checkpoint = dir.File("solve.checkpoint");
  options.checkpoint_interval = 1e9;  // only the stop writes
  const absl::StatusOr<solver::GameValues> alone = solver::SolveGameValues(Options(3), nullptr);
  REQUIRE(alone.ok());
  std::atomic<bool> stop{false};
  std::vector<RankResult> stopped = SolveRanks(3, options, [&](int rank, auto& mine) {
    if (rank != 1) return;
    mine.stop = &stop;
    mine.progress = [&, calls = 0](const solver::GameSolveProgress& p) mutable {
      if (++calls == 40 && p.fraction < 1) stop = true;
    };
  });
  for (const RankResult& r : stopped) {
    CHECK(absl::IsCancelled(r.status));
    CHECK(r.status.message().find("saved in") != std::string::npos);
  }
  for (int r = 0; r < 3; ++r) {
    CHECK(fs::exists(solver::RankCheckpointPath(options.checkpoint, r, 3)));
  }
  CHECK(!fs::exists(options.checkpoint));
  std::vector<RankResult> resumed = SolveRanks(3, options);
  for (int rank = 0; rank < 3; ++rank) {
    const RankResult& r = resumed[rank];
    REQUIRE(r.status.ok());
    CHECK(r.report.resumed_fraction > 0);
    CHECK(r.report.resumed_fraction < 1);
    CHECK(SameBits(r.values, *alone, rank, 3));
  }
  for (int r = 0; r < 3; ++r) {  // finished: every rank's file is gone
    CHECK(!fs::exists(solver::RankCheckpointPath(options.checkpoint, r, 3)));
  }
}

TEST_CASE("cluster: ranks whose checkpoints differ resume at the latest level all hold") {
  TempDir dir;
  solver::GameSolveOptions options = Options(3);
  options.checkpoint = dir.File("solve.checkpoint");
  options.checkpoint_interval = 1e9;
  const absl::StatusOr<solver::GameValues> alone = solver::SolveGameValues(Options(3), nullptr);
  REQUIRE(alone.ok());
  // Stopped twice: the files after the first stop are kept aside.
  auto stop_at = [&](int call) {
    std::atomic<bool> stop{false};
    std::vector<RankResult> results = SolveRanks(3, options, [&](int rank, auto& mine) {
      if (rank != 0) return;
      mine.stop = &stop;
      mine.progress = [&, calls = 0](const solver::GameSolveProgress&) mutable {
        if (++calls == call) stop = true;
      };
    });
    for (const RankResult& r : results) REQUIRE(absl::IsCancelled(r.status));
    return results[0].report;
  };
  stop_at(20);
  std::vector<std::string> first(3);
  for (int r = 0; r < 3; ++r) {
    first[r] = solver::RankCheckpointPath(options.checkpoint, r, 3);
    fs::copy_file(first[r], first[r] + ".aside");
  }
  stop_at(25);
  bool resumes = false;
  SUBCASE("a rank killed before its newer file: its older one as the previous") {
    // Ranks 0 and 2 hold both levels (their newer file, their older one as
    // .previous), rank 1 only the older: all resume at the older level.
    for (int r = 0; r < 3; ++r) fs::rename(first[r] + ".aside", first[r] + ".previous");
    fs::remove(first[1]);
    resumes = true;
  }
  SUBCASE("no level in common: the solve starts over") {
    fs::rename(first[1] + ".aside", first[1]);  // rank 1 alone at the older level
  }
  std::vector<RankResult> resumed = SolveRanks(3, options);
  for (int rank = 0; rank < 3; ++rank) {
    const RankResult& r = resumed[rank];
    REQUIRE(r.status.ok());
    CHECK(SameBits(r.values, *alone, rank, 3));
    CHECK((r.report.resumed_fraction > 0) == resumes);
  }
  for (int r = 0; r < 3; ++r) {
    CHECK(!fs::exists(first[r]));
    CHECK(!fs::exists(first[r] + ".previous"));
  }
}

TEST_CASE("cluster: rank files swapped are refused as another solve's, left alone") {
  TempDir dir;
  solver::GameSolveOptions options = Options(3);
  options.checkpoint = dir.File("solve.checkpoint");
  options.checkpoint_interval = 1e9;  // only the stop writes
  std::atomic<bool> stop{false};
  std::vector<RankResult> stopped = SolveRanks(3, options, [&](int rank, auto& mine) {
    if (rank != 0) return;
    mine.stop = &stop;
    mine.progress = [&, calls = 0](const solver::GameSolveProgress&) mutable {
      if (++calls == 30) stop = true;
    };
  });
  for (const RankResult& r : stopped) REQUIRE(absl::IsCancelled(r.status));
  const std::string zero = solver::RankCheckpointPath(options.checkpoint, 0, 3);
  const std::string one = solver::RankCheckpointPath(options.checkpoint, 1, 3);
  fs::rename(zero, zero + ".swap");
  fs::rename(one, zero);
  fs::rename(zero + ".swap", one);
  const std::string zero_bytes = ReadFile(zero), one_bytes = ReadFile(one);
  std::vector<RankResult> resumed = SolveRanks(3, options);
  for (const RankResult& r : resumed) {  // every rank told rank 0's refusal
    CAPTURE(r.status);
    CHECK(absl::IsFailedPrecondition(r.status));
    CHECK(r.status.message().find("rank 0 of 3: checkpoint " + zero +
                                  " belongs to another solve") == 0);
    CHECK(r.status.message().find(" rank=1/3) than this one (") != std::string::npos);
  }
  CHECK(ReadFile(zero) == zero_bytes);
  CHECK(ReadFile(one) == one_bytes);
}

TEST_CASE("cluster: one rank's failure reaches every rank, named") {
  TempDir dir;
  solver::GameSolveOptions options = Options(3);
  options.checkpoint = dir.File("solve.checkpoint");
  // Rank 1's checkpoint path is a folder: its first write fails.
  fs::create_directory(solver::RankCheckpointPath(options.checkpoint, 1, 3));
  std::vector<RankResult> results = SolveRanks(3, options);
  for (const RankResult& r : results) {
    CHECK(!r.status.ok());
    CHECK(r.status.message().find("rank 1 of 3") != std::string::npos);
    CHECK(r.status.message().find("checkpoint") != std::string::npos);
  }
}

// One thread's turn solver, failing once armed.
class FailingBatch final : public solver::TurnBatchSolver {
 public:
  absl::Status Solve(const internal::TurnModel& model,
                     std::span<const solver::TurnRequest> requests,
                     std::span<solver::TurnResult> results) override {
    if (armed) return absl::UnavailableError("the test's device went away");
    return threaded_.Solve(model, requests, results);
  }
  bool armed = false;  // set on the solve's own thread (its progress callback)

 private:
  solver::ThreadedTurnBatch threaded_{1};
};

TEST_CASE("cluster: a rank failing within a level stops every rank, the last checkpoints resume") {
  TempDir dir;
  solver::GameSolveOptions options = Options(3, Rules{13, 3, 10});
  const absl::StatusOr<solver::GameValues> alone = solver::SolveGameValues(options, nullptr);
  REQUIRE(alone.ok());
  options.checkpoint = dir.File("solve.checkpoint");
  options.checkpoint_interval = 0;  // after a level, once 20 times the last write's time passed
  FailingBatch failing;
  std::vector<std::unique_ptr<solver::ThreadedTurnBatch>> others;
  for (int r = 0; r < 3; ++r) others.push_back(std::make_unique<solver::ThreadedTurnBatch>(1));
  std::vector<RankResult> failed = SolveRanks(3, options, [&](int rank, auto& mine) {
    // Every rank solves in lockstep rounds (a batch solver of its own); rank
    // 2's fails once its solve is past 70%.
    mine.turn_batch =
        rank == 2 ? static_cast<solver::TurnBatchSolver*>(&failing) : others[rank].get();
    if (rank == 2) {
      mine.progress = [&](const solver::GameSolveProgress& p) {
        failing.armed |= p.fraction > 0.7;
      };
    }
  });
  for (const RankResult& r : failed) {
    CHECK(absl::IsUnavailable(r.status));
    CHECK(r.status.message().find("rank 2 of 3: the test's device went away") != std::string::npos);
  }
  std::vector<RankResult> resumed = SolveRanks(3, options);
  for (int rank = 0; rank < 3; ++rank) {
    const RankResult& r = resumed[rank];
    REQUIRE(r.status.ok());
    CHECK(r.report.resumed_fraction > 0);
    CHECK(SameBits(r.values, *alone, rank, 3));
  }
}

// A rank's cluster that records the sizes of the messages of every exchange
// whose messages differ (not a gather's copies), as it sends them.
class RecordingCluster : public solver::SolveCluster {
 public:
  explicit RecordingCluster(solver::SolveCluster& inner) : inner_(inner) {}
  int rank() const override { return inner_.rank(); }
  int ranks() const override { return inner_.ranks(); }
  std::vector<std::vector<std::size_t>> sent;  // per such exchange, per receiver

 private:
  absl::StatusOr<std::vector<std::string>> Swap(std::vector<std::string> to_each) override {
    std::vector<std::size_t> sizes;
    for (const std::string& m : to_each) sizes.push_back(m.size());
    if (std::count(sizes.begin(), sizes.end(), sizes[0]) != static_cast<long>(sizes.size())) {
      sent.push_back(std::move(sizes));
    }
    return inner_.Exchange(std::move(to_each));
  }
  solver::SolveCluster& inner_;
};

TEST_CASE("cluster: a rank sends only the values another's turns read, none out of reach") {
  // 2 players, 4 dice, bonus 2: a turn scores at most 6 points, so rank 7 of
  // 8's vectors (seat 0 at 7 or 15) are read by rank 6 (1 point above its
  // own on seat 0) and rank 1 (6 above), never by rank 0 (7 above).
  const solver::GameSolveOptions options = Options(2, Rules{4, 2, 10});
  const absl::StatusOr<solver::GameValues> alone = solver::SolveGameValues(options, nullptr);
  REQUIRE(alone.ok());
  const int ranks = 8;
  std::vector<RankResult> results(ranks);
  std::vector<std::vector<std::vector<std::size_t>>> sent(ranks);
  test_util::RunRanks(ranks, 60, [&](int rank, solver::SolveCluster& cluster) {
    RecordingCluster recording(cluster);
    solver::GameSolveOptions mine = options;
    mine.cluster = &recording;
    absl::StatusOr<solver::GameValues> values = solver::SolveGameValues(mine, nullptr);
    results[rank].status = values.status();
    if (values.ok()) results[rank].values = *std::move(values);
    sent[rank] = std::move(recording.sent);
  });
  for (int rank = 0; rank < ranks; ++rank) {
    REQUIRE(results[rank].status.ok());
    CHECK(SameBits(results[rank].values, *alone, rank, ranks));
  }
  // A message without values: the flags (2 bytes) and an ok status (4).
  REQUIRE(sent[7].size() > 3);
  std::size_t most[ranks] = {};
  int fewer = 0;  // exchanges where rank 1 got fewer records than rank 6
  for (const std::vector<std::size_t>& sizes : sent[7]) {
    REQUIRE(sizes.size() == static_cast<std::size_t>(ranks));
    CHECK(sizes[7] == 6);  // its own: nothing to read
    // Rank 6's first guesses read every mover's record, rank 1's turns seat 1's.
    CHECK(sizes[1] <= sizes[6]);
    fewer += sizes[1] < sizes[6];
    for (int r = 0; r < ranks; ++r) most[r] = std::max(most[r], sizes[r]);
  }
  CHECK(fewer > 0);
  CHECK(most[0] == 6);
  for (int r = 1; r <= 6; ++r) {
    CAPTURE(r);
    CHECK(most[r] >= 6 + 8 * 4);  // a record of 2 players: 2 chances, the error, the slope
  }
}

TEST_CASE("cluster: an exchange without one message for each rank is refused") {
  test_util::ClusterBoard board(2, 0.5);
  test_util::ThreadCluster cluster(board, 0, 2);
  const absl::StatusOr<std::vector<std::string>> one = cluster.Exchange({"only one"});
  CHECK(absl::IsInvalidArgument(one.status()));
  CHECK(absl::StrContains(one.status().message(), "one message for each of 2 ranks, got 1"));
}

TEST_CASE("cluster: a rank that never joins makes the others give up") {
  // Rank 1 of 2 never calls the solve: rank 0 waits 0.5 s at its first exchange.
  test_util::ClusterBoard board(2, 0.5);
  test_util::ThreadCluster cluster(board, 0, 2);
  solver::GameSolveOptions options = Options(3);
  options.cluster = &cluster;
  absl::StatusOr<solver::GameValues> values = solver::SolveGameValues(options, nullptr);
  CHECK(absl::IsDeadlineExceeded(values.status()));
}

TEST_CASE("concurrency: a clustered solve on threads of threads is the solve alone's") {
  solver::GameSolveOptions options = Options(3, Rules{4, 2, 5});
  const absl::StatusOr<solver::GameValues> alone = solver::SolveGameValues(options, nullptr);
  REQUIRE(alone.ok());
  options.threads = 2;
  const std::vector<RankResult> ranks = SolveRanks(2, options);
  for (int rank = 0; rank < 2; ++rank) {
    REQUIRE(ranks[rank].status.ok());
    CHECK(SameBits(ranks[rank].values, *alone, rank, 2));
  }
}

TEST_CASE("cluster: a rank's share over 64 GiB is refused up front, below TableSolveProcesses") {
  // The official 6-player table (315 GiB) needs 5 processes; 4 ranks' shares exceed the limit.
  const Rules rules{};
  const int players = 6, ranks = TableSolveProcesses(rules, players) - 1;
  REQUIRE(ranks == 4);
  test_util::ClusterBoard board(ranks, 1);
  test_util::ThreadCluster cluster(board, 0, ranks);
  solver::GameSolveOptions options = Options(players, rules);
  options.cluster = &cluster;
  solver::GameSolveReport report;
  const auto begin = std::chrono::steady_clock::now();
  const absl::StatusOr<solver::GameValues> values = solver::SolveTableValues(options, &report);
  CHECK(std::chrono::steady_clock::now() - begin < std::chrono::milliseconds(100));
  REQUIRE(values.status().code() == absl::StatusCode::kInvalidArgument);
  const std::string message(values.status().message());
  MESSAGE(message);
  CHECK(message.find("(a rank's share of 4)") != std::string::npos);
  CHECK(message.find("more than the 64 GiB one machine solves") != std::string::npos);
  CHECK(message.find("solve on 5 ranks at least (mpirun -np 5)") != std::string::npos);
}

TEST_CASE("cluster: a rank lists only its own score vectors, all made in order as a scan finds") {
  // Against a scan of every packed code (seat 0 most significant): the
  // vectors with a context (the last seat below the target) at or above the
  // floor, by the sum of their totals, in increasing order.
  struct Game {
    int players;
    Rules rules;
    std::vector<int> floor;
  };
  for (const Game& game : {Game{2, Rules{4, 2, 6}, {}}, Game{3, Rules{4, 2, 6}, {}},
                           Game{3, Rules{3, 1, 5}, {2, 0, 1}}, Game{4, Rules{3, 0, 4}, {}},
                           Game{5, Rules{3, 1, 3}, {0, 1, 0, 0, 2}}}) {
    const int n = game.players, target = game.rules.target;
    const int wide = target + MaxTurnScore(game.rules);
    CAPTURE(n);
    CAPTURE(game.floor.size());
    std::vector<std::vector<std::uint64_t>> scan(n * (wide - 1) + 1);
    std::uint64_t count = 1;
    for (int j = 0; j < n; ++j) count *= wide;
    for (std::uint64_t code = 0; code < count; ++code) {
      std::vector<int> s(n);
      for (std::uint64_t c = code, j = n; j-- > 0; c /= wide) s[j] = static_cast<int>(c % wide);
      bool keep = s[n - 1] < target;
      for (std::size_t j = 0; j < game.floor.size(); ++j) keep &= s[j] >= game.floor[j];
      int sum = 0;
      for (int v : s) sum += v;
      if (keep) scan[sum].push_back(code);
    }
    for (const int ranks : {1, 2, 3}) {
      test_util::ClusterBoard board(ranks, 1);
      for (int rank = 0; rank < ranks; ++rank) {
        CAPTURE(ranks);
        CAPTURE(rank);
        test_util::ThreadCluster cluster(board, rank, ranks);
        solver::GameSolveOptions options = Options(n, game.rules);
        options.floor = game.floor;
        if (ranks > 1) options.cluster = &cluster;
        const solver::SolveState state(options);
        const solver::LevelSchedule schedule(options, state);
        REQUIRE(schedule.levels() == static_cast<int>(scan.size()));
        for (int k = 0; k < schedule.levels(); ++k) {
          const std::vector<std::uint64_t>& want = scan[schedule.Sum(k)];
          std::vector<std::uint64_t> all, mine;
          schedule.ForEachOf(k, [&](std::uint64_t code) { all.push_back(code); });
          CHECK(all == want);
          for (std::uint64_t code : want) {
            if (static_cast<int>(code / (count / wide)) % ranks == rank) mine.push_back(code);
          }
          CHECK(schedule.Level(k) == mine);
        }
      }
    }
  }
}
