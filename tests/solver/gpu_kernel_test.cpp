// The GPU backend's kernel (solver/turn_kernel.h) checked on every machine:
// the host emulation of its thread schedule (kernel_batch.h) runs the very
// functions the GPU runs and must give what the CPU's convention solve
// (src/convention_turn.cpp, written apart) gives, bit for bit, request by
// request and table by table. On a machine with a GPU the CUDA backend is
// checked the same way; without one, it must say so.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "convention_turn.h"
#include "game_solver.h"
#include "gpu_batch.h"
#include "kernel_batch.h"
#include "martiandice/rules.h"
#include "test_util.h"
#include "turn_batch.h"
#include "turn_model.h"

using namespace martiandice;

namespace {

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Convention requests of every width the kernel takes (1..8 lanes), some
// recording their policies, half of them with utilities of few distinct
// values (so that actions tie and ties tell carried lanes apart), some in
// extended precision; among them some the kernel leaves to the CPU (plain,
// extended with a policy recorded).
std::vector<solver::TurnRequest> KernelRequests(const internal::TurnModel& model, int count,
                                                unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  auto value = [&](int i) { return i % 2 ? uniform(rng) : static_cast<double>(rng() % 3) / 2; };
  std::vector<solver::TurnRequest> requests(count);
  for (int i = 0; i < count; ++i) {
    solver::TurnRequest& r = requests[i];
    r.utility.resize(model.MaxScore() + 1);
    for (double& x : r.utility) x = value(i);
    if (i % 11 == 10) {
      r.kind = solver::TurnRequest::Kind::kPlain;
      continue;
    }
    r.lanes = 1 + i % 8;
    r.carried.assign(r.lanes, std::vector<double>(r.utility.size()));
    for (auto& lane : r.carried) {
      for (double& x : lane) x = value(i);
    }
    r.watched = static_cast<unsigned>(rng()) & ((1u << r.lanes) - 1);
    r.record_policy = i % 3 == 0;
    r.policy_zero_lane = i % 9 == 3 ? 0 : -1;  // a range: the CPU's
    r.arithmetic = i % 13 == 12 ? internal::Arithmetic::kExtended : internal::Arithmetic::kDouble;
  }
  return requests;
}

// `got` equals `want` in every field the game solve reads.
void CheckSame(const solver::TurnRequest& r, const solver::TurnResult& got,
               const solver::TurnResult& want) {
  CHECK(SameBits(got.value, want.value));
  CHECK(got.wide_value == want.wide_value);
  REQUIRE(got.carried.size() == want.carried.size());
  for (std::size_t c = 0; c < want.carried.size(); ++c) {
    CHECK(SameBits(got.carried[c], want.carried[c]));
    CHECK(got.wide_carried[c] == want.wide_carried[c]);
  }
  CHECK(got.tied_decisions == want.tied_decisions);
  CHECK(got.kingmaking == want.kingmaking);
  if (r.record_policy) {
    CHECK(got.policy.rolls == want.policy.rolls);
    CHECK(got.policy.take == want.policy.take);
    CHECK(got.policy.zero_lane == want.policy.zero_lane);
    CHECK(SameBits(got.policy.below, want.policy.below));
    CHECK(SameBits(got.policy.above, want.policy.above));
  }
}

// Each request solved alone by the CPU's solve (turn_batch.h's reference).
std::vector<solver::TurnResult> SolvedAlone(const internal::TurnModel& model,
                                            const std::vector<solver::TurnRequest>& requests) {
  std::vector<solver::TurnResult> out(requests.size());
  internal::TurnValues plain[2];
  for (std::size_t i = 0; i < requests.size(); ++i) {
    solver::SolveTurn(model, requests[i], plain, &out[i]);
  }
  return out;
}

// The policies recorded by solves of varied utilities (ties among them).
std::vector<internal::ConventionPolicy> RecordedPolicies(const internal::TurnModel& model,
                                                         int count) {
  std::vector<solver::TurnRequest> requests = KernelRequests(model, count, 9);
  std::vector<internal::ConventionPolicy> policies;
  internal::TurnValues plain[2];
  for (solver::TurnRequest& r : requests) {
    if (r.kind != solver::TurnRequest::Kind::kConvention) continue;
    r.record_policy = true;
    r.arithmetic = internal::Arithmetic::kDouble;
    solver::TurnResult solved;
    solver::SolveTurn(model, r, plain, &solved);
    policies.push_back(std::move(solved.policy));
  }
  return policies;
}

// A score-law request for each policy (they must outlive the requests).
std::vector<solver::TurnRequest> LawRequests(
    const std::vector<internal::ConventionPolicy>& policies) {
  std::vector<solver::TurnRequest> requests(policies.size());
  for (std::size_t i = 0; i < policies.size(); ++i) {
    requests[i].kind = solver::TurnRequest::Kind::kScoreLaw;
    requests[i].policy = &policies[i];
  }
  return requests;
}

// Every law the same numbers as the CPU pass's (long double: the same
// bits; SoftX87 where that is the build's Wide).
int SameLaws(const std::vector<internal::Wide>& got, const std::vector<internal::Wide>& want) {
  int same = 0;
  for (std::size_t x = 0; x < want.size() && x < got.size(); ++x) same += got[x] == want[x];
  return got.size() == want.size() ? same : -1;
}

// Each result equal to the CPU's: a law, or a turn's solve (CheckSame).
void CheckSameResults(const std::vector<solver::TurnRequest>& requests,
                      const std::vector<solver::TurnResult>& got,
                      const std::vector<solver::TurnResult>& want) {
  for (std::size_t i = 0; i < requests.size(); ++i) {
    CAPTURE(i);
    if (requests[i].kind == solver::TurnRequest::Kind::kScoreLaw) {
      CHECK(SameLaws(got[i].score_law, want[i].score_law) ==
            static_cast<int>(want[i].score_law.size()));
    } else {
      CheckSame(requests[i], got[i], want[i]);
    }
  }
}

}  // namespace

TEST_CASE("gpu kernel: its host emulation solves every request as the CPU does, bit for bit") {
  for (const Rules& rules : {Rules{13, 3, 25}, Rules{8, 3, 15}, Rules{4, 1, 6}}) {
    CAPTURE(rules.dice);
    const auto model = internal::TurnModel::Get(rules);
    const std::vector<solver::TurnRequest> requests =
        KernelRequests(*model, rules.dice == 13 ? 40 : 120, 27 + rules.dice);
    const std::vector<solver::TurnResult> want = SolvedAlone(*model, requests);
    long long taken = 0, extended = 0, tied = 0, kingmaking = 0, narrowed = 0, closed = 0;
    for (const solver::TurnRequest& r : requests) {
      taken += solver::KernelTakes(r);
      extended += solver::KernelTakes(r) && r.arithmetic == internal::Arithmetic::kExtended;
    }
    for (std::size_t i = 0; i < want.size(); ++i) {
      tied += want[i].tied_decisions;
      kingmaking += want[i].kingmaking;
      if (requests[i].record_policy && requests[i].policy_zero_lane >= 0 &&
          solver::KernelTakes(requests[i])) {
        const double b = want[i].policy.below, a = want[i].policy.above;
        closed += b == 0 && a == 0;
        narrowed += (b > 0 && b < internal::kRangeCap) || (a > 0 && a < internal::kRangeCap);
      }
    }
    // Not vacuous: the kernel takes most requests, extended ones among them
    // (in SoftX87), ties and kingmaking occur, and the kernel's ranges are
    // narrowed, and closed, in some.
    CHECK(taken * 10 >= static_cast<long long>(requests.size()) * 7);
    CHECK(extended > 0);
    CHECK(tied > 0);
    CHECK(kingmaking > 0);
    CHECK(narrowed > 0);
    CHECK(closed > 0);
    MESSAGE(rules.dice << " dice: " << narrowed << " ranges narrowed, " << closed << " closed");
    for (int threads : {256, 7, 1}) {  // other schedules, the same sums
      CAPTURE(threads);
      solver::EmulatedTurnBatch emulated(threads);
      std::vector<solver::TurnResult> got(requests.size());
      REQUIRE(emulated.Solve(*model, requests, got).ok());
      CHECK(emulated.kernel_turns() == taken);
      for (std::size_t i = 0; i < requests.size(); ++i) {
        CAPTURE(i);
        CheckSame(requests[i], got[i], want[i]);
      }
    }
  }
  std::vector<solver::TurnResult> short_results(1);
  const auto model = internal::TurnModel::Get(Rules{4, 1, 6});
  CHECK(absl::IsInvalidArgument(
      solver::EmulatedTurnBatch().Solve(*model, KernelRequests(*model, 3, 1), short_results)));
}

TEST_CASE("gpu kernel: game solves on its host emulation write the CPU's tables, bit for bit") {
  struct Case {
    Rules rules;
    int players;
  };
  for (const Case& c : {Case{Rules{6, 2, 8}, 3}, Case{Rules{4, 2, 6}, 3}, Case{Rules{3, 1, 5}, 4},
                        Case{Rules{4, 1, 5}, 4}, Case{Rules{3, 1, 4}, 5}}) {
    CAPTURE(c.players);
    CAPTURE(c.rules.dice);
    solver::GameSolveOptions options = test_util::TinyOptions(c.rules, c.players);
    solver::GameSolveReport cpu_report, kernel_report;
    absl::StatusOr<std::string> cpu = solver::SolveGameTable(options, &cpu_report);
    REQUIRE(cpu.ok());
    solver::EmulatedTurnBatch emulated(32);
    options.turn_batch = &emulated;
    absl::StatusOr<std::string> kernel = solver::SolveGameTable(options, &kernel_report);
    REQUIRE(kernel.ok());
    CHECK(*kernel == *cpu);
    CHECK(kernel_report.turn_solves == cpu_report.turn_solves);
    CHECK(kernel_report.tied_decisions == cpu_report.tied_decisions);
    // Every turn of the solve ran on the kernel (the final round's extended
    // solves in SoftX87).
    CHECK(emulated.kernel_turns() == kernel_report.turn_solves);
    MESSAGE(c.players << " players: " << emulated.kernel_turns() << " of "
                      << kernel_report.turn_solves << " turns on the kernel");
    // The settling passes' laws went to the batch too, those not stored.
    CHECK(kernel_report.settle_passes == cpu_report.settle_passes);
    CHECK(emulated.kernel_laws() > 0);
    CHECK(emulated.kernel_laws() + kernel_report.settle_reused == kernel_report.settle_passes);
    MESSAGE(c.players << " players: " << emulated.kernel_laws() << " of "
                      << kernel_report.settle_passes << " settling passes' laws on the kernel");
    // The range replays visit only the items marked as able to narrow a
    // range: some, not all (the tables above are the CPU's all the same).
    const solver::kernel::ReplayCount& replay = emulated.replay_count();
    CHECK(replay.visits > 0);
    CHECK(replay.visits < replay.items);
    MESSAGE(c.players << " players: the range replays visited " << replay.visits << " of "
                      << replay.items << " items scanned");
    // Lockstep groups of one cycle, or of every cycle at once: the same table.
    for (std::size_t cycles : {std::size_t{1}, std::size_t{4096}}) {
      CAPTURE(cycles);
      options.cycles_in_flight = cycles;
      absl::StatusOr<std::string> grouped = solver::SolveGameTable(options, nullptr);
      REQUIRE(grouped.ok());
      CHECK(*grouped == *cpu);
    }
  }
  solver::GameSolveOptions options = test_util::TinyOptions(Rules{4, 2, 6}, 3);
  options.cycles_in_flight = solver::kMaxCyclesInFlight + 1;
  const absl::StatusOr<std::string> refused = solver::SolveGameTable(options, nullptr);
  CHECK(absl::IsInvalidArgument(refused.status()));
  CHECK(std::string(refused.status().message()).find("cycles in flight") != std::string::npos);
}

// The settling pass's law of the turn score (solver/score_law_kernel.h), on
// the kernel's schedule in SoftX87: the CPU pass's long double law
// (internal::PolicyScoreLaw, a scatter down the turn) bit for bit, for
// recorded policies of varied utilities (ties among them), at the official
// rules and others, on blocks of several sizes.
TEST_CASE("gpu kernel: its score laws on the host emulation are the CPU pass's, bit for bit") {
  for (const Rules& rules : {Rules{13, 3, 25}, Rules{7, 2, 10}, Rules{10, 0, 20}}) {
    CAPTURE(rules.dice);
    const auto model = internal::TurnModel::Get(rules);
    const solver::KernelModel flat(*model);
    const solver::KernelLawPlan plan(*model, flat);
    solver::LawScratch scratch;
    const std::vector<internal::ConventionPolicy> policies = RecordedPolicies(*model, 40);
    REQUIRE(policies.size() > 30);
    std::vector<std::vector<internal::Wide>> want(policies.size());
    for (std::size_t i = 0; i < policies.size(); ++i) {
      CAPTURE(i);
      std::vector<internal::Wide> got;
      internal::PolicyScoreLaw(*model, policies[i], &want[i]);
      solver::EmulateScoreLaw(flat, plan, policies[i], i % 2 ? 256 : 33, scratch, &got);
      CHECK(SameLaws(got, want[i]) == static_cast<int>(want[i].size()));
    }
    // Through the emulated batch, among turn solves: the laws and the solves
    // the CPU's, each counted where it went.
    std::vector<solver::TurnRequest> requests = LawRequests(policies);
    const std::vector<solver::TurnRequest> turns = KernelRequests(*model, 12, 3);
    requests.insert(requests.begin() + 5, turns.begin(), turns.end());
    const std::vector<solver::TurnResult> alone = SolvedAlone(*model, requests);
    std::vector<solver::TurnResult> got(requests.size());
    solver::EmulatedTurnBatch batch(64);
    REQUIRE(batch.Solve(*model, requests, got).ok());
    CHECK(batch.kernel_laws() == static_cast<long long>(policies.size()));
    CheckSameResults(requests, got, alone);
  }
}

TEST_CASE("gpu backend: on a GPU it is the CPU's, bit for bit, without one it says so") {
  absl::StatusOr<std::unique_ptr<solver::GpuBackend>> gpu = solver::MakeGpuBackend(2);
  if (!solver::GpuBackendBuilt()) {
    REQUIRE(absl::IsUnavailable(gpu.status()));
    CHECK(std::string(gpu.status().message()).find("no GPU backend") != std::string::npos);
    return;
  }
  if (!gpu.ok()) {
    REQUIRE(absl::IsUnavailable(gpu.status()));
    CHECK(std::string(gpu.status().message()).find("no usable GPU") != std::string::npos);
    MESSAGE("built with CUDA, no GPU here: " << gpu.status().message());
    return;
  }
  MESSAGE("GPU: " << (*gpu)->device());
  for (const Rules& rules : {Rules{13, 3, 25}, Rules{7, 2, 10}}) {
    const auto model = internal::TurnModel::Get(rules);
    const std::vector<solver::TurnRequest> requests = KernelRequests(*model, 600, 5);
    const std::vector<solver::TurnResult> want = SolvedAlone(*model, requests);
    std::vector<solver::TurnResult> got(requests.size());
    REQUIRE((*gpu)->batch().Solve(*model, requests, got).ok());
    for (std::size_t i = 0; i < requests.size(); ++i) {
      CAPTURE(i);
      CheckSame(requests[i], got[i], want[i]);
    }
  }
  CHECK((*gpu)->stats().device_turns > 0);
  // The settling passes' score laws on the device: the CPU pass's, bit for bit.
  for (const Rules& rules : {Rules{13, 3, 25}, Rules{7, 2, 10}}) {
    const auto model = internal::TurnModel::Get(rules);
    const std::vector<internal::ConventionPolicy> policies = RecordedPolicies(*model, 300);
    std::vector<solver::TurnRequest> requests = LawRequests(policies);
    const std::vector<solver::TurnRequest> turns = KernelRequests(*model, 40, 7);
    requests.insert(requests.end(), turns.begin(), turns.end());
    const std::vector<solver::TurnResult> want = SolvedAlone(*model, requests);
    std::vector<solver::TurnResult> got(requests.size());
    REQUIRE((*gpu)->batch().Solve(*model, requests, got).ok());
    CheckSameResults(requests, got, want);
  }
  CHECK((*gpu)->stats().device_laws > 0);
  for (int players : {3, 4, 5}) {
    CAPTURE(players);
    solver::GameSolveOptions options = test_util::TinyOptions(Rules{5, 2, 6}, players);
    absl::StatusOr<std::string> cpu = solver::SolveGameTable(options, nullptr);
    options.turn_batch = &(*gpu)->batch();
    absl::StatusOr<std::string> on_gpu = solver::SolveGameTable(options, nullptr);
    REQUIRE(cpu.ok());
    REQUIRE(on_gpu.ok());
    CHECK(*on_gpu == *cpu);
  }
}
