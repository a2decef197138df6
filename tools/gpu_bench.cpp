// martiandice_gpu_bench: the GPU backend's turn solves per second on the
// official 13-dice turn, batch by batch, against the CPU's worker threads on
// the same requests, each GPU result checked against the CPU's bit for bit.
//
//   martiandice_gpu_bench [--batch N] [--seats 2,3,4,5] [--block 128,256,512]
//   martiandice_gpu_bench --solve P [--cycles 32,256,0] [--laws gpu,cpu] [--block B]
//
// The first form also times the settling passes' score laws (the law of
// the turn score under a recorded policy, in SoftX87) per block size.
//
// The second form solves the official P-player game on the GPU with each
// number of zero-score cycles in flight (the lockstep groups, so the
// batches' size: GameSolveOptions::cycles_in_flight; 0, the backend's
// choice: TurnBatchSolver::CyclesInFlight), the settling passes'
// score laws on the GPU or on the CPU's threads (GpuBackend::SetScoreLaws),
// and prints the time, the batches and the GPU's share; every run's values
// must equal the first's, bit for bit.
//
// A request is what a P-player game solve posts for a mover
// (solver/solve_state.cpp): the mover's utility and P carried lanes (the
// zero-score indicator and the other seats' chances); a search round's also
// records its policy and the range of utility[0] (23.5 KB to copy back), a
// final round's does not, and is solved in extended precision (the shipped
// arithmetic: SoftX87 on the GPU) or, for comparison, in double. Exits 1 if
// there is no GPU or a result differs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "game_solver.h"
#include "gpu_batch.h"
#include "martiandice/rules.h"
#include "turn_batch.h"
#include "turn_model.h"

namespace md = martiandice;
using Clock = std::chrono::steady_clock;

namespace {

std::vector<md::solver::TurnRequest> Requests(const md::internal::TurnModel& model, int seats,
                                              int count, bool record, bool extended = false) {
  std::mt19937_64 rng(seats);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<md::solver::TurnRequest> requests(count);
  for (md::solver::TurnRequest& r : requests) {
    const int scores = model.MaxScore() + 1;
    r.utility.resize(scores);
    r.lanes = seats;
    r.carried.assign(seats, std::vector<double>(scores));
    for (int x = 0; x < scores; ++x) {
      // Chances that grow with the score: the mover's, and the others' split.
      const double own = std::min(1.0, 0.1 + 0.05 * x + 0.05 * uniform(rng));
      r.utility[x] = own;
      r.carried[0][x] = x == 0 ? 1.0 : 0.0;
      for (int c = 1; c < seats; ++c) r.carried[c][x] = (1 - own) / (seats - 1);
    }
    r.watched = ((1u << seats) - 1) & ~1u;
    r.record_policy = record;
    r.policy_zero_lane = 0;
    if (extended) r.arithmetic = md::internal::Arithmetic::kExtended;
  }
  return requests;
}

bool Same(const md::solver::TurnResult& a, const md::solver::TurnResult& b) {
  auto bits = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  bool same = bits(a.value, b.value) && a.wide_value == b.wide_value &&
              a.carried.size() == b.carried.size() && a.wide_carried == b.wide_carried &&
              a.tied_decisions == b.tied_decisions && a.kingmaking == b.kingmaking &&
              a.policy.rolls == b.policy.rolls && a.policy.take == b.policy.take &&
              bits(a.policy.below, b.policy.below) && bits(a.policy.above, b.policy.above);
  for (std::size_t c = 0; same && c < a.carried.size(); ++c)
    same = bits(a.carried[c], b.carried[c]);
  return same;
}

// The settling passes' score laws per second: `count` laws of 64 recorded
// policies on the GPU and a share of them on the CPU's threads, each GPU law
// checked against the CPU's. Returns whether every law checked is the same.
bool LawFigure(md::solver::GpuBackend& gpu, md::solver::ThreadedTurnBatch& cpu,
               const md::internal::TurnModel& model, int count, int block, unsigned cores) {
  const std::vector<md::solver::TurnRequest> turns = Requests(model, 4, 64, true);
  std::vector<md::solver::TurnResult> solved(turns.size());
  if (!cpu.Solve(model, turns, solved).ok()) return false;
  std::vector<md::solver::TurnRequest> requests(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < requests.size(); ++i) {
    requests[i].kind = md::solver::TurnRequest::Kind::kScoreLaw;
    requests[i].policy = &solved[i % solved.size()].policy;
  }
  std::vector<md::solver::TurnResult> on_gpu(requests.size());
  const std::size_t warm = std::min<std::size_t>(requests.size(), 64);
  if (!gpu.batch().Solve(model, {requests.data(), warm}, {on_gpu.data(), warm}).ok()) return false;
  const double kernel0 = gpu.stats().kernel_seconds;
  const auto g0 = Clock::now();
  if (!gpu.batch().Solve(model, requests, on_gpu).ok()) return false;
  const double gpu_s = std::chrono::duration<double>(Clock::now() - g0).count();
  const double kernel_s = gpu.stats().kernel_seconds - kernel0;
  const std::size_t share = std::min<std::size_t>(requests.size(), 16 * cores);
  std::vector<md::solver::TurnResult> on_cpu(share);
  const auto c0 = Clock::now();
  if (!cpu.Solve(model, {requests.data(), share}, on_cpu).ok()) return false;
  const double cpu_s = std::chrono::duration<double>(Clock::now() - c0).count();
  std::size_t differ = 0;
  for (std::size_t i = 0; i < share; ++i) differ += on_gpu[i].score_law != on_cpu[i].score_law;
  std::printf(
      "score laws/s (settling passes, SoftX87), batch %d, %d threads a block: GPU %.0f (%.3f s, "
      "of which the device's copies and kernel %.3f s), CPU %u threads %.0f; %zu of %zu checked "
      "against the CPU differ\n",
      count, block, count / gpu_s, gpu_s, kernel_s, cores, share / cpu_s, differ, share);
  return differ == 0;
}

// The official `players`-player solve on `gpu` for each number of cycles
// in flight. Returns the exit status.
int SolveSweep(md::solver::GpuBackend& gpu, int players, const std::vector<int>& cycles,
               const std::vector<bool>& laws_on_gpu, int threads) {
  martiandice::solver::ValueVector first;
  bool same = true;
  for (int n : cycles)
    for (const bool laws : laws_on_gpu) {
      gpu.SetScoreLaws(laws);
      md::solver::GameSolveOptions options;
      options.players = players;
      options.threads = threads;
      options.turn_batch = &gpu.batch();
      options.cycles_in_flight = static_cast<std::size_t>(n);
      const md::solver::DeviceBatchStats before = gpu.stats();
      md::solver::GameSolveReport report;
      auto values = md::solver::SolveGameValues(options, &report);
      if (!values.ok()) {
        std::fprintf(stderr, "%s\n", std::string(values.status().message()).c_str());
        return 1;
      }
      const md::solver::DeviceBatchStats after = gpu.stats();
      if (first.empty()) first = values->win;
      const bool equal = values->win == first;
      same = same && equal;
      const long long launches = after.launches - before.launches;
      const long long turns = after.device_turns - before.device_turns;
      std::printf(
          "official %d-player solve, %zu cycles in flight%s, score laws on the %s: %.2f s; %lld "
          "turns and %lld score laws on the GPU in %lld batches, %lld launches (%.0f turns a "
          "launch), %lld turns on the CPU; batches %.2f s, the device's part %.2f s; values %s\n",
          players, report.cycles_in_flight, n == 0 ? " (the backend's choice)" : "",
          laws ? "GPU" : "CPU", report.seconds, turns, after.device_laws - before.device_laws,
          after.batches - before.batches, launches,
          launches > 0 ? static_cast<double>(turns) / launches : 0.0,
          after.host_turns - before.host_turns, after.device_seconds - before.device_seconds,
          after.kernel_seconds - before.kernel_seconds,
          equal ? "the same as the first run's" : "DIFFER from the first run's");
    }
  return same ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  int batch = 16384;
  int solve_players = 0;
  std::vector<int> cycles = {32, 256, 0};
  std::vector<bool> laws_on_gpu = {true};
  std::vector<int> seats = {2, 3, 4, 5};
  std::vector<int> blocks = {md::solver::kDefaultBlockThreads};
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--batch" && i + 1 < argc) {
      batch = std::atoi(argv[++i]);
      if (batch < 1 || batch > (1 << 22)) {
        std::fprintf(stderr, "%s: --batch must be 1..%d\n", argv[0], 1 << 22);
        return 2;
      }
    } else if (arg == "--seats" && i + 1 < argc) {
      seats.clear();
      for (const char* p = argv[++i]; *p != '\0'; ++p) {
        if (*p >= '2' && *p <= '8') seats.push_back(*p - '0');
      }
    } else if (arg == "--solve" && i + 1 < argc) {
      solve_players = std::atoi(argv[++i]);
      if (solve_players < 3 || solve_players > 4) {
        std::fprintf(stderr, "%s: --solve must be 3 or 4 (the tables a solve may write)\n",
                     argv[0]);
        return 2;
      }
    } else if (arg == "--cycles" && i + 1 < argc) {
      cycles.clear();
      for (const char* p = argv[++i]; *p != '\0';) {
        const int n = std::atoi(p);
        if (n < 0 || n > static_cast<int>(md::solver::kMaxCyclesInFlight)) {
          std::fprintf(stderr, "%s: --cycles: each must be 0 (the backend's choice) or 1..%zu\n",
                       argv[0], md::solver::kMaxCyclesInFlight);
          return 2;
        }
        cycles.push_back(n);
        while (*p != '\0' && *p != ',') ++p;
        if (*p == ',') ++p;
      }
    } else if (arg == "--laws" && i + 1 < argc) {
      laws_on_gpu.clear();
      for (const std::string_view word : {"gpu", "cpu"}) {
        if (std::string_view(argv[i + 1]).find(word) != std::string_view::npos) {
          laws_on_gpu.push_back(word == "gpu");
        }
      }
      const std::string_view list = argv[++i];
      if (laws_on_gpu.empty() || list.size() != laws_on_gpu.size() * 4 - 1) {
        std::fprintf(stderr, "%s: --laws must be gpu, cpu or gpu,cpu\n", argv[0]);
        return 2;
      }
    } else if (arg == "--block" && i + 1 < argc) {
      blocks.clear();
      for (const char* p = argv[++i]; *p != '\0';) {
        blocks.push_back(std::atoi(p));
        while (*p != '\0' && *p != ',') ++p;
        if (*p == ',') ++p;
      }
    } else {
      std::fprintf(stderr,
                   "usage: %s [--batch N] [--seats 2,3,4,5] [--block 128,256,512]\n"
                   "       %s --solve P [--cycles 32,256,2048] [--laws gpu,cpu] [--block B]\n",
                   argv[0], argv[0]);
      return 2;
    }
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  auto gpu = md::solver::MakeGpuBackend(static_cast<int>(cores));
  if (!gpu.ok()) {
    std::fprintf(stderr, "%s: %s\n", argv[0], std::string(gpu.status().message()).c_str());
    return 1;
  }
  std::printf("martiandice GPU benchmark\ndevice:   %s\ncpu cores: %u\n", (*gpu)->device().c_str(),
              cores);
  if (solve_players > 0) {
    if (blocks.size() != 1) {
      std::fprintf(stderr, "%s: --solve takes one --block\n", argv[0]);
      return 2;
    }
    if (blocks[0] != md::solver::kDefaultBlockThreads) {
      gpu = md::solver::MakeGpuBackend(static_cast<int>(cores), blocks[0]);
      if (!gpu.ok()) {
        std::fprintf(stderr, "%s\n", std::string(gpu.status().message()).c_str());
        return 1;
      }
    }
    return SolveSweep(**gpu, solve_players, cycles, laws_on_gpu, static_cast<int>(cores));
  }
  const auto model = md::internal::TurnModel::Get(md::Rules{});
  md::solver::ThreadedTurnBatch cpu(static_cast<int>(cores));
  bool all_same = true;
  for (int block : blocks)
    for (int p : seats)
      for (int kind : {0, 1, 2}) {  // a final round's, in extended precision, a search round's
        const bool record = kind == 2, extended = kind == 0;
        if (block != md::solver::kDefaultBlockThreads) {
          gpu = md::solver::MakeGpuBackend(static_cast<int>(cores), block);
          if (!gpu.ok()) {
            std::fprintf(stderr, "%s\n", std::string(gpu.status().message()).c_str());
            return 1;
          }
        }
        const std::vector<md::solver::TurnRequest> requests =
            Requests(*model, p, batch, record, extended);
        std::vector<md::solver::TurnResult> on_gpu(requests.size());
        // A first batch warms the device (the model's copy, the kernel's load).
        const std::size_t warm = std::min<std::size_t>(requests.size(), 1024);
        if (!(*gpu)->batch().Solve(*model, {requests.data(), warm}, {on_gpu.data(), warm}).ok()) {
          return 1;
        }
        const double kernel0 = (*gpu)->stats().kernel_seconds;
        const auto g0 = Clock::now();
        const auto solved = (*gpu)->batch().Solve(*model, requests, on_gpu);
        const double gpu_s = std::chrono::duration<double>(Clock::now() - g0).count();
        const double kernel_s = (*gpu)->stats().kernel_seconds - kernel0;
        if (!solved.ok()) {
          std::fprintf(stderr, "%s\n", std::string(solved.message()).c_str());
          return 1;
        }
        // The CPU on a share of the same requests (its rate does not depend on the batch).
        const std::size_t share = std::min<std::size_t>(requests.size(), 64 * cores);
        std::vector<md::solver::TurnResult> on_cpu(share);
        const auto c0 = Clock::now();
        if (!cpu.Solve(*model, {requests.data(), share}, on_cpu).ok()) return 1;
        const double cpu_s = std::chrono::duration<double>(Clock::now() - c0).count();
        std::size_t differ = 0;
        for (std::size_t i = 0; i < share; ++i) differ += !Same(on_gpu[i], on_cpu[i]);
        all_same = all_same && differ == 0;
        std::printf(
            "turn solves/s, %d carried lanes (%s), batch %d, %d threads a block: GPU %.0f (%.3f "
            "s, of which the device's copies and kernels %.3f s), CPU %u threads %.0f; %zu of %zu "
            "checked against the CPU differ\n",
            p,
            record     ? "policy and range recorded: a search round"
            : extended ? "a final round, extended precision (SoftX87 on the GPU, x87 on the CPU)"
                       : "a final round in double",
            batch, block, batch / gpu_s, gpu_s, kernel_s, cores, share / cpu_s, differ, share);
        if (p == seats.back() && record) {
          all_same =
              LawFigure(**gpu, cpu, *model, std::min(batch, 16384), block, cores) && all_same;
        }
      }
  return all_same ? 0 : 1;
}
