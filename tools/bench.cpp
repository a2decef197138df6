// martiandice_bench: times the library's hot paths on this machine and prints
// each figure (min and median over repetitions) next to its goal.
//
//   martiandice_bench [--quick]
//
// Figures: the full solve of the official 13-dice turn in double precision and
// exactly, warm queries (AdviseRoll, EvaluatePosition) on solved turns, and the
// game: loading the shipped official policy tables (GameTable::Open; 2 and 3
// players), warm and cold win queries on them (AdviseWin, EvaluateWin; cold:
// the mover's turn solved on demand), a game's advice (Advisor::Advise, what
// `coach` answers), the full official 2-player solve
// (solver::SolveGameTable, the pair kernel, 1 and 2 threads), and the official
// 3-player game solve on 2 threads (solver::SolveGameValues; wall and CPU
// time, error bound).
//
//   martiandice_bench --nplayer-only [--players P]   only the P-player game
//                                                    solve (default 3)
//   ... --nplayer-only [--players P] --probe K      the shipped (extended)
//       solve alone, every zero-score cycle solved again from guess order K
//       (1..3) and compared: how many reach another equilibrium
//   martiandice_bench --mapped-table P [--queries N]  a table of P players under
//       the official rules, of synthetic values (valid vectors; a query's cost
//       does not depend on them), written as a stream to $TMPDIR and dropped
//       from the page cache, then mapped: GameTable::Open, and `best` at N
//       contexts (AdviseWin, first roll), each cold (its pages read from the
//       disk, its blocks verified, the turn solved) then warm; the file is
//       removed after
//   martiandice_bench --table FILE [--queries N]  the same of a table a solve
//       wrote (13 dice), dropped from the page cache first and kept
//   martiandice_bench --batches P [--target T] [--cycles LIST] [--emulate] [--laws-on-steps]
//       the P-player game to T in lockstep rounds (the GPU backend's
//       schedule) on the CPU, one thread stepping the cycles and one solving
//       the batches (the settling passes' score laws among them, as the GPU
//       takes them, unless --laws-on-steps), per number of cycles in flight,
//       one group of cycles or two taking turns: the batches, their turns and
//       laws and the time; --emulate: one group, on the threads and then on
//       the GPU kernel's host emulation (the values compared), counting the
//       range replays' items
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "game_solver.h"
#include "kernel_batch.h"
#include "martiandice/advisor.h"
#include "martiandice/dice.h"
#include "martiandice/exact.h"
#include "martiandice/final_round.h"
#include "martiandice/game_state.h"
#include "martiandice/objective.h"
#include "martiandice/rules.h"
#include "martiandice/turn_query.h"
#include "martiandice/turn_solver.h"
#include "martiandice/win_query.h"
#include "table_format.h"
#include "turn_batch.h"

namespace md = martiandice;
using Clock = std::chrono::steady_clock;

namespace {

// Keeps the compiler from discarding a computed value or hoisting work out of a loop.
template <class T>
inline void DoNotOptimize(const T& value) {
#if defined(__GNUC__) || defined(__clang__)
  asm volatile("" : : "r"(&value) : "memory");
#else
  static volatile const void* sink;
  sink = &value;
#endif
}

volatile double g_sink = 0;

// CPU seconds (user + system) of the process so far.
double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// Peak resident memory of the process so far (Linux: ru_maxrss in KiB).
double PeakRssMegabytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        auto start = line.find_first_not_of(" \t", colon + 1);
        return start == std::string::npos ? "unknown" : line.substr(start);
      }
    }
  }
  return "unknown";
}

std::string BuildType() {
#if defined(MARTIANDICE_BUILD_TYPE)
  return MARTIANDICE_BUILD_TYPE;
#else
  std::string s;
#if defined(__OPTIMIZE__)
  s = "optimized";
#else
  s = "not optimized";
#endif
#if defined(NDEBUG)
  s += ", NDEBUG (Release-like)";
#else
  s += ", assertions on (Debug-like)";
#endif
  return s;
#endif
}

std::string FormatSeconds(double seconds) {
  char buf[64];
  if (seconds < 1e-6) {
    std::snprintf(buf, sizeof buf, "%.1f ns", seconds * 1e9);
  } else if (seconds < 1e-3) {
    std::snprintf(buf, sizeof buf, "%.2f us", seconds * 1e6);
  } else if (seconds < 1.0) {
    std::snprintf(buf, sizeof buf, "%.2f ms", seconds * 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.3f s", seconds);
  }
  return buf;
}

struct Figure {
  std::string name;
  double min = 0;     // seconds per operation
  double median = 0;  // seconds per operation
  double goal = 0;    // seconds per operation; 0 = no goal
  int reps = 0;
  long iters = 0;
};

// Runs `op` `iters` times per repetition, `reps` repetitions (after one
// untimed warm-up repetition); returns seconds per call, min and median.
Figure Measure(std::string name, int reps, long iters, double goal,
               const std::function<void()>& op) {
  for (long i = 0; i < std::min<long>(iters, 1000); ++i) op();  // warm-up
  std::vector<double> per_op;
  per_op.reserve(reps);
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    for (long i = 0; i < iters; ++i) op();
    auto t1 = Clock::now();
    per_op.push_back(std::chrono::duration<double>(t1 - t0).count() / static_cast<double>(iters));
  }
  std::sort(per_op.begin(), per_op.end());
  Figure f;
  f.name = std::move(name);
  f.min = per_op.front();
  f.median = reps % 2 ? per_op[reps / 2] : (per_op[reps / 2 - 1] + per_op[reps / 2]) / 2;
  f.goal = goal;
  f.reps = reps;
  f.iters = iters;
  return f;
}

void PrintFigure(const Figure& f) {
  std::string goal = f.goal > 0 ? "<= " + FormatSeconds(f.goal) : "-";
  std::string verdict = f.goal > 0 ? (f.median <= f.goal ? "ok" : "OVER GOAL") : "";
  std::printf("%-58s %11s %11s %12s  %-9s (%d reps x %ld)\n", f.name.c_str(),
              FormatSeconds(f.min).c_str(), FormatSeconds(f.median).c_str(), goal.c_str(),
              verdict.c_str(), f.reps, f.iters);
  std::fflush(stdout);
}

template <class T>
T OrDie(absl::StatusOr<T> s, std::string_view what) {
  if (!s.ok()) {
    std::cerr << "martiandice_bench: " << what << ": " << s.status() << "\n";
    std::exit(1);
  }
  return *std::move(s);
}

md::Dice Parse(std::string_view text) { return OrDie(md::ParseDice(text), text); }

// splitmix64: the synthetic table's values.
std::uint64_t Mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Drops the file at `path` from the page cache, so that its first queries
// read it from the disk.
void DropFromPageCache(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) OrDie(absl::StatusOr<int>(absl::NotFoundError(path)), "open");
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  close(fd);
}

// Writes a table of `players` under the official rules with synthetic
// vectors to `path` (streamed, fsynced, then dropped from the page cache).
void WriteSyntheticTable(int players, const std::string& path) {
  md::internal::TableEncoder encoder(md::Rules{}, players, 1e-12);
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) OrDie(absl::StatusOr<int>(absl::UnavailableError(path)), "create");
  const std::string room(md::internal::kTableHeaderSize, '\0');
  std::fwrite(room.data(), 1, room.size(), file);
  std::vector<double> win;
  for (std::int64_t b = 0; b < encoder.block_count(); ++b) {
    win.clear();
    for (std::int64_t c = encoder.BlockBegin(b); c < encoder.BlockEnd(b); ++c) {
      double w[md::kMaxPlayers], sum = 0;
      for (int j = 0; j < players; ++j) sum += w[j] = 1 + Mix(c * 8 + j) % 1024;
      for (int j = 0; j < players; ++j) win.push_back(w[j] / sum);
    }
    const std::string block = encoder.Block(b, win);
    std::fwrite(block.data(), 1, block.size(), file);
  }
  const std::string sums = encoder.Checksums(), header = encoder.Header();
  std::fwrite(sums.data(), 1, sums.size(), file);
  std::fseek(file, 0, SEEK_SET);
  std::fwrite(header.data(), 1, header.size(), file);
  if (std::fflush(file) != 0 || fsync(fileno(file)) != 0) {
    OrDie(absl::StatusOr<int>(absl::DataLossError(path)), "write (disk full?)");
  }
  std::fclose(file);
  DropFromPageCache(path);  // the queries start cold
}

// --mapped-table, --table: the figures of a large table read mapped: the
// synthetic official table of `players` (written, then removed), or `given`,
// a table a solve wrote (13 dice; kept).
int MappedTableBench(int players, int queries, const std::string& given) {
  const char* dir = std::getenv("TMPDIR");
  const std::string path = !given.empty()
                               ? given
                               : std::string(dir && *dir ? dir : "/tmp") + "/martiandice-bench-p" +
                                     std::to_string(players) + ".mdt";
  md::Rules rules{};
  auto t0 = Clock::now();
  if (given.empty()) {
    WriteSyntheticTable(players, path);
    const double write = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf(
        "synthetic %d-player table: %.2f GiB (%lld contexts) written as a stream in %.1f s\n",
        players, static_cast<double>(md::TableBytes(rules, players)) / (1u << 30),
        static_cast<long long>(md::internal::ContextNumbering(rules, players).size()), write);
  } else {
    DropFromPageCache(path);
    std::printf("%s: dropped from the page cache\n", path.c_str());
  }
  t0 = Clock::now();
  const md::GameTable table = OrDie(md::GameTable::Open(path), "open " + path);
  const double open = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!given.empty()) {
    players = table.players();
    rules = table.rules();
    std::printf("%s: %d players, %d dice, bonus %d, target %d, %.2f GiB\n", path.c_str(), players,
                rules.dice, rules.bonus, rules.target,
                static_cast<double>(md::TableBytes(rules, players)) / (1u << 30));
    if (rules.dice != 13) {
      std::fprintf(stderr, "martiandice_bench: %s: the queries' roll is of 13 dice, not %d\n",
                   path.c_str(), rules.dice);
      return 2;
    }
  }
  const std::string how = md::TableBytes(rules, players) > md::kEagerTableBytes
                              ? "mapped: header, checksums section"
                              : "read whole and verified: not over " +
                                    std::to_string(md::kEagerTableBytes >> 20) + " MiB";
  std::printf("GameTable::Open (%s): %s\n", how.c_str(), FormatSeconds(open).c_str());
  // Open-round contexts at random, every mover: few share a block.
  std::mt19937_64 rng(5);
  const md::Dice roll = Parse("2T 3R 4H 3C 1K");
  std::vector<double> cold, warm;
  for (int q = 0; q < queries; ++q) {
    md::GameContext context{std::vector<int>(players), static_cast<int>(rng() % players)};
    for (int& score : context.scores) score = static_cast<int>(rng() % rules.target);
    auto a = Clock::now();
    auto first = md::AdviseWin(table, context, md::Dice{}, roll);
    auto b = Clock::now();
    auto again = md::AdviseWin(table, context, md::Dice{}, roll);
    auto c = Clock::now();
    OrDie(first, "AdviseWin");
    if (!again.ok() || again->advice.value.approx != first->advice.value.approx) {
      std::fprintf(stderr, "martiandice_bench: a warm query differs from the cold one\n");
      return 1;
    }
    cold.push_back(std::chrono::duration<double>(b - a).count());
    warm.push_back(std::chrono::duration<double>(c - b).count());
  }
  if (given.empty()) std::remove(path.c_str());
  for (auto* times : {&cold, &warm}) std::sort(times->begin(), times->end());
  auto at = [](const std::vector<double>& v, double q) {
    return FormatSeconds(v[static_cast<size_t>(q * (v.size() - 1))]);
  };
  std::printf("best (AdviseWin, first roll) at %d random contexts, min / median / max:\n", queries);
  std::printf(
      "  cold (pages from disk, blocks verified, turn solved): %s / %s / %s  goal <= 5 ms\n",
      at(cold, 0).c_str(), at(cold, 0.5).c_str(), at(cold, 1).c_str());
  std::printf(
      "  warm (the same query again):                          %s / %s / %s  goal <= 5 us\n",
      at(warm, 0).c_str(), at(warm, 0.5).c_str(), at(warm, 1).c_str());
  return 0;
}

// Counts the lockstep rounds' batches and their turns, solving each on
// threads of its own (the GPU backend's batches are these: their shape does
// not depend on the machine). `laws`: it takes the settling passes' score
// laws (SolvesScoreLaws), as the GPU does by default. `beside`: says so
// (SolvesBesideSteps), so the solve keeps two groups of cycles, one's batch
// solved while the other's cycles step, as it does with a GPU.
class CountingBatch final : public md::solver::TurnBatchSolver {
 public:
  // `emulate`: the batches solved by the GPU kernel's host emulation (one
  // block of 256 virtual threads at a time) instead of `threads` threads.
  CountingBatch(int threads, bool beside, bool emulate, bool laws) : beside_(beside), laws_(laws) {
    if (emulate) {
      inner_ = std::make_unique<md::solver::EmulatedTurnBatch>();
    } else {
      inner_ = std::make_unique<md::solver::ThreadedTurnBatch>(threads);
    }
  }
  bool SolvesBesideSteps() const override { return beside_; }
  bool SolvesScoreLaws() const override { return laws_; }
  absl::Status Solve(const md::internal::TurnModel& model,
                     std::span<const md::solver::TurnRequest> requests,
                     std::span<md::solver::TurnResult> results) override {
    ++batches;
    for (const md::solver::TurnRequest& r : requests) {
      const bool law = r.kind == md::solver::TurnRequest::Kind::kScoreLaw;
      laws += law;
      turns += !law;
      ranged += r.record_policy && r.policy_zero_lane >= 0;
    }
    const auto t0 = Clock::now();
    absl::Status status = inner_->Solve(model, requests, results);
    seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    return status;
  }
  // The emulation, or null.
  const md::solver::EmulatedTurnBatch* emulated() const {
    return dynamic_cast<const md::solver::EmulatedTurnBatch*>(inner_.get());
  }
  long long batches = 0, turns = 0;
  long long laws = 0;    // settling passes' score laws
  long long ranged = 0;  // turns that keep a range of utility[0] (a search round's)
  double seconds = 0;    // wall time inside the batches

 private:
  std::unique_ptr<md::solver::TurnBatchSolver> inner_;
  const bool beside_, laws_;
};

// The `players`-player game to `target` in lockstep rounds, for each number
// of cycles in flight, with one group of cycles and with two taking turns:
// the batches (a GPU's launches) and their turns, and the wall time with
// one thread stepping the cycles and one solving the batches (the steps and
// the batches wait for each other, or run at once). Every run's values must
// equal the first's. Returns the exit status.
int BatchShapeBench(int players, int target, const std::vector<int>& cycles, bool emulate,
                    bool laws) {
  md::solver::ValueVector first;
  bool same = true;
  for (const int n : cycles) {
    // With `emulate`: one group on the threads, then on the emulation (whose
    // time is not a GPU's; its values must be the threads').
    for (const int run : {0, 1}) {
      const bool beside = !emulate && run == 1;
      CountingBatch counting(1, beside, emulate && run == 1, laws);
      md::solver::GameSolveOptions options;
      options.rules.target = target;
      options.players = players;
      options.threads = 1;
      options.turn_batch = &counting;
      options.cycles_in_flight = static_cast<std::size_t>(n);
      md::solver::GameSolveReport report;
      const auto t0 = Clock::now();
      const double cpu0 = CpuSeconds();
      auto values = md::solver::SolveGameValues(options, &report);
      const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      const double cpu = CpuSeconds() - cpu0;
      if (!values.ok()) {
        std::fprintf(stderr, "%s\n", std::string(values.status().message()).c_str());
        return 1;
      }
      if (first.empty()) first = values->win;
      const bool equal = values->win == first;
      same = same && equal;
      std::printf(
          "%d players to %d, %d cycles in flight, %s: %lld batches, %lld turns (%.1f a batch, "
          "at most %d), %lld of them keeping a range, and %lld score laws; %.2f s (%.2f s CPU, "
          "%.2f s in the batches); values %s\n",
          players, target, n,
          beside                ? "two groups taking turns"
          : counting.emulated() ? "one group, kernel emulation"
                                : "one group",
          counting.batches, counting.turns,
          counting.batches > 0 ? static_cast<double>(counting.turns) / counting.batches : 0.0,
          n * players, counting.ranged, counting.laws, seconds, cpu, counting.seconds,
          equal ? "the same as the first run's" : "DIFFER");
      if (const md::solver::EmulatedTurnBatch* emulated = counting.emulated()) {
        const md::solver::kernel::ReplayCount& replay = emulated->replay_count();
        std::printf(
            "  kernel emulation: %lld turns and %lld score laws on the kernel; the range replays "
            "visited %lld of the %lld items they scanned (%.2f%%)\n",
            emulated->kernel_turns(), emulated->kernel_laws(), replay.visits, replay.items,
            replay.items > 0 ? 100.0 * static_cast<double>(replay.visits) / replay.items : 0.0);
      }
    }
  }
  return same ? 0 : 1;
}

// (4d) The final round without a table (FinalRoundSolver), 4 to 6 players,
// seat 1 to move, the leader at 25..30 and the others at 10..24: cold (a
// fresh solver per context: every state of its round solved), then warm
// (the same context again), with the turn solves a cold context takes.
void FinalRoundFigures(bool quick, const std::function<void(Figure)>& run) {
  const md::Rules rules;
  std::mt19937_64 rng(11);
  auto uniform = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
  for (int players = 4; players <= 6; ++players) {
    std::vector<md::GameContext> contexts;
    for (int i = 0; i < 200; ++i) {
      std::vector<int> scores(players);
      scores[0] = uniform(25, 30);
      for (int j = 1; j < players; ++j) scores[j] = uniform(10, 24);
      contexts.push_back({scores, 1});
    }
    std::size_t next = 0;
    std::int64_t solves = 0, most = 0;
    const std::string name = "final round p" + std::to_string(players) + " seat 1, ";
    run(Measure(name + "cold (fresh solver)", quick ? 3 : 5, 40, 50e-3, [&] {
      auto solver = OrDie(md::FinalRoundSolver::Create(rules, players), "final round");
      auto chances = solver.WinProbabilities(contexts[next++ % contexts.size()]);
      DoNotOptimize(chances);
      solves += solver.stats().turn_solves;
      most = std::max(most, solver.stats().turn_solves);
    }));
    std::printf("  (%.1f turn solves a cold context on average, %lld at most)\n",
                static_cast<double>(solves) / static_cast<double>(next),
                static_cast<long long>(most));
    auto warm = OrDie(md::FinalRoundSolver::Create(rules, players), "final round");
    const md::GameContext& context = contexts.front();
    run(Measure(name + "warm (the same context)", quick ? 3 : 11, quick ? 20000 : 200000, 5e-6,
                [&] {
                  auto chances = warm.WinProbabilities(context);
                  DoNotOptimize(chances);
                }));
  }
}

// *out = `text` as --`name`'s value if it is an integer in [lo, hi]; else
// says so on stderr and returns false (the benchmark then exits 2).
bool IntArg(const char* program, const char* name, const char* text, int lo, int hi, int* out) {
  const int value = std::atoi(text);
  if (value < lo || value > hi) {
    std::fprintf(stderr, "%s: --%s must be %d..%d\n", program, name, lo, hi);
    return false;
  }
  *out = value;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, nplayer_only = false;
  int players = 3;
  int probe = 0;  // GameSolveOptions::probe_guess_order
  int mapped_players = 0, mapped_queries = 200;
  std::string mapped_path;  // --table
  int batch_players = 0, batch_target = 10;
  bool batch_emulate = false, batch_laws = true;
  std::vector<int> batch_cycles = {32, 128};
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--nplayer-only") {
      nplayer_only = true;
    } else if (arg == "--players" && i + 1 < argc && nplayer_only) {
      if (!IntArg(argv[0], "players", argv[++i], md::kMinPlayers, md::kMaxPlayers, &players)) {
        return 2;
      }
    } else if (arg == "--probe" && i + 1 < argc && nplayer_only) {
      if (!IntArg(argv[0], "probe", argv[++i], 1, md::solver::kMaxGuessOrder, &probe)) return 2;
    } else if (arg == "--mapped-table" && i + 1 < argc) {
      if (!IntArg(argv[0], "mapped-table", argv[++i], md::kMinPlayers, 5, &mapped_players)) {
        return 2;
      }
    } else if (arg == "--table" && i + 1 < argc) {
      mapped_path = argv[++i];
    } else if (arg == "--queries" && i + 1 < argc && (mapped_players > 0 || !mapped_path.empty())) {
      if (!IntArg(argv[0], "queries", argv[++i], 1, 100000, &mapped_queries)) return 2;
    } else if (arg == "--batches" && i + 1 < argc) {
      if (!IntArg(argv[0], "batches", argv[++i], 3, 6, &batch_players)) return 2;
    } else if (arg == "--target" && i + 1 < argc && batch_players > 0) {
      if (!IntArg(argv[0], "target", argv[++i], 1, 25, &batch_target)) return 2;
    } else if (arg == "--emulate" && batch_players > 0) {
      batch_emulate = true;
    } else if (arg == "--laws-on-steps" && batch_players > 0) {
      batch_laws = false;
    } else if (arg == "--cycles" && i + 1 < argc && batch_players > 0) {
      batch_cycles.clear();
      for (std::string_view list = argv[++i]; !list.empty();) {
        const std::size_t comma = std::min(list.find(','), list.size());
        const int n = std::atoi(std::string(list.substr(0, comma)).c_str());
        if (n < 1 || n > static_cast<int>(md::solver::kMaxCyclesInFlight)) {
          std::fprintf(stderr, "%s: --cycles takes numbers 1..%zu\n", argv[0],
                       md::solver::kMaxCyclesInFlight);
          return 2;
        }
        batch_cycles.push_back(n);
        list.remove_prefix(std::min(comma + 1, list.size()));
      }
      if (batch_cycles.empty()) {
        std::fprintf(stderr, "%s: --cycles needs at least one number\n", argv[0]);
        return 2;
      }
    } else if (arg == "-h" || arg == "--help") {
      std::printf(
          "usage: %s [--quick] [--nplayer-only [--players P] [--probe K]]\n"
          "       %s --mapped-table P [--queries N] | --table FILE [--queries N]\n"
          "       %s --batches P [--target T] [--cycles LIST] [--emulate] [--laws-on-steps]\n"
          "Times the martiandice solver and queries, loading the official policy\n"
          "table and win queries on it, and the official 2-player game solve; prints\n"
          "min and median per operation over repetitions, next to each goal.\n"
          "--quick: fewer repetitions. --nplayer-only: only the official 3-player\n"
          "game solve (2 threads; wall and CPU time, error bound); --players P after\n"
          "it: P players instead (goals: 5 s for 3, 10 minutes for 4). --probe K\n"
          "after it: the extended solve alone, each zero-score cycle also solved from\n"
          "guess order K (1..3) and compared (cycles that reach another equilibrium).\n"
          "--mapped-table P: only a synthetic P-player official table (5: 6.2 GiB in\n"
          "$TMPDIR, removed after), mapped: Open, then `best` at N random contexts\n"
          "(default 200), cold and warm. --table FILE: the same of a table a solve\n"
          "wrote (13 dice; dropped from the page cache first, kept).\n"
          "--batches P [--target T] [--cycles LIST]: only the P-player game to T\n"
          "(default 10) in lockstep rounds (one thread stepping, one solving the\n"
          "batches, the settling passes' score laws among them unless\n"
          "--laws-on-steps), per number of cycles in flight (default 32,128), with one group\n"
          "of cycles and with two taking turns: the batches a GPU would get. --emulate\n"
          "after it: one group, on the threads and then on the GPU kernel's host\n"
          "emulation (values compared), with the range replays' items scanned and\n"
          "visited.\n",
          argv[0], argv[0], argv[0]);
      return 0;
    } else {
      std::fprintf(stderr, "%s: unknown argument '%s' (try --help)\n", argv[0], argv[i]);
      return 2;
    }
  }

  const unsigned cores = std::thread::hardware_concurrency();
  std::printf("martiandice benchmark%s\n", quick ? " (--quick)" : "");
  if (mapped_players > 0 || !mapped_path.empty() || batch_players > 0) {
    std::printf("cpu:      %s\ncores:    %u\n\n", CpuModel().c_str(), cores);
    return batch_players > 0 ? BatchShapeBench(batch_players, batch_target, batch_cycles,
                                               batch_emulate, batch_laws)
                             : MappedTableBench(mapped_players, mapped_queries, mapped_path);
  }
  std::printf("cpu:      %s\n", CpuModel().c_str());
  std::printf("cores:    %u\n", cores);
#if defined(__clang__)
  std::printf("compiler: %s\n", __VERSION__);
#elif defined(__GNUC__)
  std::printf("compiler: GCC %s\n", __VERSION__);
#else
  std::printf("compiler: %s\n", __VERSION__);
#endif
  std::printf("build:    %s\n", BuildType().c_str());
  std::printf("clock:    std::chrono::steady_clock; figures are per operation\n\n");

  const md::Rules rules{};
  const md::Objective ev = md::Objective::ExpectedScore();

  // The official P-player game solve on 2 threads (one run: it takes
  // seconds). Goals on 2 cores: 5 s for 3 players, 10 minutes for 4.
  auto nplayer = [&](std::vector<Figure>* figures, md::solver::SolveArithmetic arithmetic) {
    const char* kernel = arithmetic == md::solver::SolveArithmetic::kExtended ? "extended"
                         : arithmetic == md::solver::SolveArithmetic::kDouble
                             ? "double"
                             : (players == 2 ? "pair kernel" : "extended (auto)");
    md::solver::GameSolveOptions options;
    options.rules = rules;
    options.players = players;
    options.threads = 2;
    options.arithmetic = arithmetic;
    options.probe_guess_order = probe;
    md::solver::GameSolveReport report;
    const double cpu0 = CpuSeconds();
    auto t0 = Clock::now();
    auto values = md::solver::SolveGameValues(options, &report);
    auto t1 = Clock::now();
    const double cpu = CpuSeconds() - cpu0;
    OrDie(std::move(values), "3-player game solve");
    Figure f;
    f.name = "game solve, official " + std::to_string(players) + " players, 2 threads, " + kernel;
    f.min = f.median = std::chrono::duration<double>(t1 - t0).count();
    if (probe > 0) f.name += ", probing";
    // A probe solves every cycle twice: the goals are for the solve alone.
    f.goal = probe > 0                                                          ? 0.0
             : players == 2 && arithmetic == md::solver::SolveArithmetic::kAuto ? 0.2
             : players == 3                                                     ? 5.0
             : players == 4                                                     ? 600.0
                                                                                : 0.0;
    f.reps = 1;
    f.iters = 1;
    PrintFigure(f);
    std::printf(
        "  (%d-player solve: %.2f s CPU; error bound %.3g (goal <= 1e-13); %lld contexts, %lld "
        "turn solves, rounds per cycle %.2f mean, %d max; %lld tied decisions, %lld kingmaking; "
        "%lld of %lld settling passes reused; peak RSS so far %.0f MB; start",
        players, cpu, report.error_bound, report.contexts, report.turn_solves, report.mean_rounds,
        report.max_rounds, report.tied_decisions, report.kingmaking, report.settle_reused,
        report.settle_passes, PeakRssMegabytes());
    for (double w : report.start) std::printf(" %.17g", w);
    std::printf(")\n");
    auto print_scores = [](const std::vector<std::vector<int>>& examples) {
      for (const std::vector<int>& scores : examples) {
        std::printf("; at");
        for (int v : scores) std::printf(" %d", v);
      }
    };
    if (probe > 0) {
      std::printf(
          "  (probe from guess order %d: %lld of %lld cycles reach vectors more than %g "
          "apart, largest gap %.3g",
          probe, report.probe_apart, report.cycles, md::solver::kProbeApart, report.probe_largest);
      print_scores(report.probe_examples);
      std::printf("; %lld did not converge from that start", report.probe_unconverged);
      print_scores(report.probe_unconverged_examples);
      std::printf(")\n");
    }
    figures->push_back(std::move(f));
  };
  if (nplayer_only) {
    std::printf("%-58s %11s %11s %12s  %s\n", "figure", "min", "median", "goal", "median vs goal");
    std::vector<Figure> figures;
    if (players == 2) {
      nplayer(&figures, md::solver::SolveArithmetic::kAuto);  // as the shipped table
    } else {
      if (probe == 0) nplayer(&figures, md::solver::SolveArithmetic::kDouble);
      nplayer(&figures, md::solver::SolveArithmetic::kExtended);
    }
    return 0;
  }

  // Start values, and the solutions the queries run on.
  const md::TurnSolution dbl =
      OrDie(md::TurnSolution::Solve(rules, ev, md::Precision::kDouble), "solve (double)");
  const md::TurnSolution exact =
      OrDie(md::TurnSolution::Solve(rules, ev, md::Precision::kExact), "solve (exact)");
  {
    const md::PositionEval start = OrDie(md::EvaluatePosition(exact, md::Dice{}), "eval start");
    std::printf("ev start value (13 dice, official rules): %.12f (double)", dbl.StartValue());
    if (start.value.exact) {
      std::printf(" = %s (exact, ~%.12f)", md::FormatRational(*start.value.exact).c_str(),
                  start.value.approx);
    }
    std::printf("\n\n");
  }

  const int solve_reps = quick ? 11 : 101;
  const int exact_reps = quick ? 3 : 11;
  const int query_reps = quick ? 3 : 11;
  const long query_iters = quick ? 20000 : 200000;
  const long exact_query_iters = quick ? 500 : 5000;

  std::printf("%-58s %11s %11s %12s  %s\n", "figure", "min", "median", "goal", "median vs goal");
  std::vector<Figure> figures;
  auto run = [&](Figure f) {
    PrintFigure(f);
    figures.push_back(std::move(f));
  };

  // (1) Full solve of the 13-dice turn, double precision (warm: the rule set's
  // turn model is already built and cached in the process).
  run(Measure("solve 13 dice, ev, double, warm", solve_reps, 1, 100e-6, [&] {
    auto s = md::TurnSolution::Solve(rules, ev, md::Precision::kDouble);
    DoNotOptimize(s);
    g_sink = s.ok() ? s->StartValue() : -1;
  }));

  // (1b) Cold: the first solve of a rule set in a process also builds the turn
  // model (cached per dice count and bonus), as a CLI run does. Each call uses
  // a bonus not solved before, so nothing is cached; same size as the official turn.
  int next_bonus = 4;  // 3 (official) is already cached above
  const int cold_reps = quick ? 5 : 31;
  const int cold_exact_reps = quick ? 3 : 11;
  run(Measure("solve 13 dice, ev, double, cold (new rules)", cold_reps, 1, 100e-6, [&] {
    md::Rules r;
    r.bonus = next_bonus++;
    auto s = md::TurnSolution::Solve(r, ev, md::Precision::kDouble);
    DoNotOptimize(s);
    g_sink = s.ok() ? s->StartValue() : -1;
  }));

  // (2) The same, exactly.
  run(Measure("solve 13 dice, ev, exact, warm", exact_reps, 1, 50e-3, [&] {
    auto s = md::TurnSolution::Solve(rules, ev, md::Precision::kExact);
    DoNotOptimize(s);
    g_sink = s.ok() ? s->StartValue() : -1;
  }));

  run(Measure("solve 13 dice, ev, exact, cold (new rules)", cold_exact_reps, 1, 50e-3, [&] {
    md::Rules r;
    r.bonus = next_bonus++;
    auto s = md::TurnSolution::Solve(r, ev, md::Precision::kExact);
    DoNotOptimize(s);
    g_sink = s.ok() ? s->StartValue() : -1;
  }));

  // (3) Warm best-move queries: the rulebook's sample turn, roll 2 and roll 1.
  const md::Dice aside2 = Parse("2T 4H");
  const md::Dice roll2 = Parse("1T 2R 3C 1K");
  const md::Dice roll1 = Parse("2T 3R 4H 3C 1K");
  const md::Dice aside4 = Parse("3T 2R 4H 1K");
  // Check the queries once before timing them (the timed loops assume success).
  OrDie(md::AdviseRoll(dbl, aside2, roll2), "AdviseRoll (double)");
  OrDie(md::AdviseRoll(dbl, md::Dice{}, roll1), "AdviseRoll first roll (double)");
  OrDie(md::EvaluatePosition(dbl, aside4), "EvaluatePosition (double)");
  OrDie(md::AdviseRoll(exact, aside2, roll2), "AdviseRoll (exact)");

  run(Measure("best (AdviseRoll) '2T 4H' + '1T 2R 3C 1K', double", query_reps, query_iters, 1e-6,
              [&] {
                auto a = md::AdviseRoll(dbl, aside2, roll2);
                DoNotOptimize(a);
                g_sink = a->value.approx;
              }));
  run(Measure("best (AdviseRoll) first roll 13 dice, double", query_reps, query_iters, 1e-6, [&] {
    auto a = md::AdviseRoll(dbl, md::Dice{}, roll1);
    DoNotOptimize(a);
    g_sink = a->value.approx;
  }));
  run(Measure("eval (EvaluatePosition) start, double", query_reps, query_iters, 1e-6, [&] {
    auto e = md::EvaluatePosition(dbl, md::Dice{});
    DoNotOptimize(e);
    g_sink = e->value.approx;
  }));
  run(Measure("eval (EvaluatePosition) '3T 2R 4H 1K', double", query_reps, query_iters, 1e-6, [&] {
    auto e = md::EvaluatePosition(dbl, aside4);
    DoNotOptimize(e);
    g_sink = e->value.approx;
  }));
  // The same queries on the exact solution (rational values copied out): no goal.
  run(Measure("best (AdviseRoll) '2T 4H' + '1T 2R 3C 1K', exact", query_reps, exact_query_iters, 0,
              [&] {
                auto a = md::AdviseRoll(exact, aside2, roll2);
                DoNotOptimize(a);
                g_sink = a->value.approx;
              }));
  run(Measure("eval (EvaluatePosition) start, exact", query_reps, exact_query_iters, 0, [&] {
    auto e = md::EvaluatePosition(exact, md::Dice{});
    DoNotOptimize(e);
    g_sink = e->value.approx;
  }));

  // (4) The game: the shipped official 2-player policy table (found as the CLI
  // finds it: $MARTIANDICE_DATA alone when set, else the installed tree's, the source tree's data/,
  // the install folder).
  const std::string table_path =
      OrDie(md::LocateTable(rules, 2, std::nullopt), "locate the official 2-player table");
  std::printf("  (table: %s; after the first Open the file is read from the page cache)\n",
              table_path.c_str());
  // The first Open in this process on its own (a CLI run does exactly one); the
  // file may or may not be in the page cache yet.
  {
    auto t0 = Clock::now();
    auto first = md::GameTable::Open(table_path);
    auto t1 = Clock::now();
    OrDie(std::move(first), "open " + table_path);
    Figure f;
    f.name = "table load, first Open in this process (no goal)";
    f.min = f.median = std::chrono::duration<double>(t1 - t0).count();
    f.reps = 1;
    f.iters = 1;
    run(f);
  }
  // Every later Open reads the file from the page cache.
  const int load_reps = quick ? 7 : 51;
  run(Measure("table load (GameTable::Open, official p2 table)", load_reps, 1, 5e-3, [&] {
    auto t = md::GameTable::Open(table_path);
    DoNotOptimize(t);
    g_sink = t.ok() ? t->error_bound() : -1;
  }));

  const md::GameTable table = OrDie(md::GameTable::Open(table_path), "open " + table_path);
  struct WinQuery {
    std::string name;
    md::GameContext context;
    md::Dice aside, roll;
  };
  // The start of the game, mid-game, and the final round (seat 0 has reached 25).
  const WinQuery advise_queries[] = {
      {"start 0-0 seat 0, first roll", {{0, 0}, 0}, md::Dice{}, roll1},
      {"20-18 seat 1, '2T 4H' + '1T 2R 3C 1K'", {{20, 18}, 1}, aside2, roll2},
      {"27-20 seat 1 (final), '3T 2R 4H 1K' + '1R 1H 1C'",
       {{27, 20}, 1},
       aside4,
       Parse("1R 1H 1C")},
  };
  const WinQuery eval_queries[] = {
      {"start 0-0 seat 0", {{0, 0}, 0}, md::Dice{}, {}},
      {"12-21 seat 0, '3T 2R 4H 1K'", {{12, 21}, 0}, aside4, {}},
      {"27-20 seat 1 (final), '2T 4H'", {{27, 20}, 1}, aside2, {}},
  };
  for (const WinQuery& q : advise_queries) {
    OrDie(md::AdviseWin(table, q.context, q.aside, q.roll), "AdviseWin " + q.name);
  }
  for (const WinQuery& q : eval_queries) {
    OrDie(md::EvaluateWin(table, q.context, q.aside), "EvaluateWin " + q.name);
  }
  for (const WinQuery& q : advise_queries) {
    run(Measure("AdviseWin " + q.name, query_reps, query_iters, 2e-6, [&] {
      auto a = md::AdviseWin(table, q.context, q.aside, q.roll);
      DoNotOptimize(a);
      g_sink = a->advice.value.approx;
    }));
  }
  for (const WinQuery& q : eval_queries) {
    run(Measure("EvaluateWin " + q.name, query_reps, query_iters, 2e-6, [&] {
      auto e = md::EvaluateWin(table, q.context, q.aside);
      DoNotOptimize(e);
      g_sink = e->position.value.approx;
    }));
  }
  // Cold: every call at a context no query of this table has used yet (the
  // mover's turn solved from the stored values), on a table opened afresh.
  {
    const md::GameTable fresh = OrDie(md::GameTable::Open(table_path), "open " + table_path);
    std::vector<md::GameContext> contexts;
    for (std::int64_t c = 0; c < fresh.context_count(); ++c) {
      const md::GameContext context = OrDie(fresh.Context(c), "context").context;
      // The first roll's dice are all left: open-round contexts, seat 0 first.
      if (context.scores[0] < 25 && context.scores[1] < 25) contexts.push_back(context);
    }
    std::size_t next = 0;
    const int cold_reps = 3;
    const long cold_iters = static_cast<long>(contexts.size()) / (cold_reps + 1);
    run(Measure("AdviseWin p2 cold (turn solved), first roll", cold_reps, cold_iters, 1e-3, [&] {
      auto a = md::AdviseWin(fresh, contexts[next++ % contexts.size()], md::Dice{}, roll1);
      DoNotOptimize(a);
      g_sink = a->advice.value.approx;
    }));
  }

  // (4b) The shipped 3-player table (format version 3, values only): loading,
  // and win queries that solve the mover's turn on first use of a context
  // (cold: a different context every call, more than the cache keeps) or find
  // it in the table's turn cache (warm: the same context again).
  {
    const std::string p3_path =
        OrDie(md::LocateTable(rules, 3, std::nullopt), "locate the official 3-player table");
    run(Measure("table load (GameTable::Open, official p3 table, v3)", load_reps, 1, 5e-3, [&] {
      auto t = md::GameTable::Open(p3_path);
      DoNotOptimize(t);
      g_sink = t.ok() ? t->error_bound() : -1;
    }));
    const md::GameTable p3 = OrDie(md::GameTable::Open(p3_path), "open " + p3_path);
    // 10,000 contexts of open rounds, all movers: more than the cache keeps.
    std::vector<md::GameContext> contexts;
    for (int k = 0; static_cast<int>(contexts.size()) < 10000; ++k) {
      md::GameContext c{{k % 25, (k / 25) % 25, (k / 625 + k * 7) % 25}, k % 3};
      contexts.push_back(c);
    }
    std::size_t next = 0;
    const int cold_iters = quick ? 50 : 200;
    run(Measure("AdviseWin p3 cold (turn solved), '2T 4H' + '1T 2R 3C 1K'", query_reps, cold_iters,
                1e-3, [&] {
                  const md::GameContext& c = contexts[next++ % contexts.size()];
                  auto a = md::AdviseWin(p3, c, aside2, roll2);
                  DoNotOptimize(a);
                  g_sink = a->advice.value.approx;
                }));
    const md::GameContext mid{{10, 12, 8}, 1};
    run(Measure("AdviseWin p3 warm (cached), '2T 4H' + '1T 2R 3C 1K'", query_reps, query_iters,
                5e-6, [&] {
                  auto a = md::AdviseWin(p3, mid, aside2, roll2);
                  DoNotOptimize(a);
                  g_sink = a->advice.value.approx;
                }));
    run(Measure("EvaluateWin p3 warm (cached), 10-12-8 seat 1, '2T 4H'", query_reps, query_iters,
                5e-6, [&] {
                  auto e = md::EvaluateWin(p3, mid, aside2);
                  DoNotOptimize(e);
                  g_sink = e->position.value.approx;
                }));
  }

  // (4c) A game's advice (Advisor::Advise), what `coach`, `play`'s hints and
  // `serve`'s game sessions answer at each entry: the take from the rulebook's
  // second roll and the stop or roll on after it (with the chance that rolling
  // on scores 0), 2 players at 20-18, seat 1 to move; warm (the advisor holds
  // the table, the mover's turn and its zero chances). Then a turn's first
  // advice: at the start of turns at 24 contexts in turn, more than the
  // advisor keeps, so that each computes the turn's zero chances.
  {
    md::Advisor advisor;
    md::GameState take = OrDie(md::GameState::AtTurnStart(rules, 2, {{20, 18}, 1}), "game");
    OrDie(take.Roll(roll1), "roll");
    OrDie(take.Take(md::Face::kHuman), "take");
    OrDie(take.RollOn(), "roll on");
    OrDie(take.Roll(roll2), "roll");
    md::GameState stop_or_roll = take;
    OrDie(stop_or_roll.Take(md::Face::kRay), "take");
    OrDie(advisor.Advise(take), "Advise");
    OrDie(advisor.Advise(stop_or_roll), "Advise");
    run(Measure("Advise (coach) p2 20-18 seat 1, take: '2T 4H' + '1T 2R 3C 1K'", query_reps,
                query_iters / 10, 1e-3, [&] {
                  auto a = advisor.Advise(take);
                  DoNotOptimize(a);
                  g_sink = a->takes->value.approx;
                }));
    run(Measure("Advise (coach) p2 20-18 seat 1, stop or roll: '3T 2R 4H'", query_reps,
                query_iters / 10, 1e-3, [&] {
                  auto a = advisor.Advise(stop_or_roll);
                  DoNotOptimize(a);
                  g_sink = *a->zero_chance;
                }));
    std::vector<md::GameState> starts;
    for (int a = 0; a < 24; ++a) {
      starts.push_back(OrDie(md::GameState::AtTurnStart(rules, 2, {{a, 23 - a}, 0}), "game"));
    }
    std::size_t next = 0;
    run(Measure("Advise (coach) p2 a turn's first advice, at its start", query_reps, 24, 1e-3, [&] {
      auto a = advisor.Advise(starts[next++ % starts.size()]);
      DoNotOptimize(a);
      g_sink = *a->zero_chance;
    }));
  }

  FinalRoundFigures(quick, run);

  // (5) The full official 2-player game solve as `martiandice solve` runs it
  // (the pair kernel; table bytes serialized, not written), on 1 and 2 threads.
  const int game_reps = quick ? 3 : 7;
  for (int threads : {1, 2}) {
    md::solver::GameSolveReport game_report;
    run(Measure("game solve, official 2 players, " + std::to_string(threads) + " thread" +
                    (threads > 1 ? "s" : ""),
                game_reps, 1, 200e-3, [&] {
                  md::solver::GameSolveOptions options;
                  options.rules = rules;
                  options.players = 2;
                  options.threads = threads;
                  auto bytes = md::solver::SolveGameTable(options, &game_report);
                  DoNotOptimize(bytes);
                  g_sink = bytes.ok() ? static_cast<double>(bytes->size()) : -1;
                }));
    std::printf(
        "  (game solve: %lld contexts, %lld turn solves, error bound %.3g; seat 0 wins %.6f)\n",
        game_report.contexts, game_report.turn_solves, game_report.error_bound,
        game_report.start[0]);
  }

  nplayer(&figures, md::solver::SolveArithmetic::kDouble);
  nplayer(&figures, md::solver::SolveArithmetic::kExtended);  // as the shipped table

  int goals = 0, met = 0;
  for (const Figure& f : figures) {
    if (f.goal > 0) {
      ++goals;
      met += f.median <= f.goal ? 1 : 0;
    }
  }
  std::printf("\n%d of %d goals met (by median)\n", met, goals);
  return 0;
}
