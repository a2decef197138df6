// The game solve's turn batches (solver/turn_batch.h): the worker threads'
// batch solves every request as it is solved alone, bit for bit; a game
// solve whose batches are solved in another order and grouping writes the
// same table, bit for bit; a batch solver's error ends the solve with it.
#include "turn_batch.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "game_solver.h"
#include "martiandice/rules.h"
#include "score_law_cache.h"
#include "test_util.h"
#include "turn_model.h"

using namespace martiandice;

namespace {

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Varied requests: convention solves of 1..4 lanes in both arithmetics
// (some recording their policies), plain ones and pairs (with and without
// slopes), of random utilities.
std::vector<solver::TurnRequest> RandomRequests(const internal::TurnModel& model, int count) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<solver::TurnRequest> requests(count);
  for (int i = 0; i < count; ++i) {
    solver::TurnRequest& r = requests[i];
    r.utility.resize(model.MaxScore() + 1);
    for (double& x : r.utility) x = uniform(rng);
    if (i % 5 == 4) {
      r.kind = solver::TurnRequest::Kind::kPlain;
      continue;
    }
    if (i % 7 == 6) {
      r.kind = solver::TurnRequest::Kind::kPair;
      r.lanes = 1 + i % 2;  // 2: with slopes
      r.carried.assign(2, std::vector<double>(r.utility.size()));
      for (double& x : r.carried[0]) x = uniform(rng);
      r.carried[1][0] = 1.0;  // the zero-score indicator
      continue;
    }
    r.record_policy = i % 3 == 0;
    r.policy_zero_lane = i % 2 ? 0 : -1;
    r.lanes = 1 + i % 4;
    r.carried.assign(r.lanes + 1, std::vector<double>(r.utility.size()));  // one unread
    for (auto& lane : r.carried) {
      for (double& x : lane) x = uniform(rng);
    }
    r.watched = static_cast<unsigned>(rng()) & ((1u << r.lanes) - 1);
    r.arithmetic = i % 2 ? internal::Arithmetic::kExtended : internal::Arithmetic::kDouble;
  }
  return requests;
}

// Solves by chunks of 1..3 requests, in a shuffled order, each chunk a batch
// of the worker threads' solver: what a backend that reorders and splits
// its work does. Counts the requests by kind (a pair as its two turns).
// `beside`: says it solves beside the steps (its threads are its own), so
// the solve keeps two groups of cycles taking turns, and takes the settling
// passes' score laws, as the GPU backend does.
class ShufflingBatch final : public solver::TurnBatchSolver {
 public:
  explicit ShufflingBatch(bool beside = false) : beside_(beside) {}
  bool SolvesBesideSteps() const override { return beside_; }
  bool SolvesScoreLaws() const override { return beside_; }
  absl::Status Solve(const internal::TurnModel& model,
                     std::span<const solver::TurnRequest> requests,
                     std::span<solver::TurnResult> results) override {
    ++batches;
    for (const solver::TurnRequest& r : requests) {
      turns += r.kind == solver::TurnRequest::Kind::kPair       ? 2
               : r.kind == solver::TurnRequest::Kind::kScoreLaw ? 0
                                                                : 1;
      ++by_kind[static_cast<int>(r.kind)];
      recorded += r.record_policy ? 1 : 0;
      if (r.kind == solver::TurnRequest::Kind::kScoreLaw) {
        repeated_laws += !laws_.insert(solver::FingerprintPolicy(*r.policy)).second;
      }
    }
    std::vector<std::size_t> order(requests.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng_);
    for (std::size_t begin = 0; begin < order.size();) {
      const std::size_t end = std::min(order.size(), begin + 1 + rng_() % 3);
      std::vector<solver::TurnRequest> chunk;
      for (std::size_t k = begin; k < end; ++k) chunk.push_back(requests[order[k]]);
      std::vector<solver::TurnResult> out(chunk.size());
      if (absl::Status s = threads_.Solve(model, chunk, out); !s.ok()) return s;
      for (std::size_t k = begin; k < end; ++k) results[order[k]] = std::move(out[k - begin]);
      begin = end;
    }
    return absl::OkStatus();
  }
  int batches = 0;
  long long turns = 0;
  long long by_kind[4] = {0, 0, 0, 0};  // by TurnRequest::Kind
  long long recorded = 0;               // requests recording their policies
  long long repeated_laws = 0;          // score laws of a policy posted before

 private:
  std::set<solver::PolicyKey> laws_;  // the policies of the laws posted
  const bool beside_;
  std::mt19937_64 rng_{7};
  solver::ThreadedTurnBatch threads_{2};
};

// Solves `good` batches, then fails every one; beside the steps or not.
class FailingBatch final : public solver::TurnBatchSolver {
 public:
  explicit FailingBatch(int good = 0, bool beside = false) : good_(good), beside_(beside) {}
  bool SolvesBesideSteps() const override { return beside_; }
  absl::Status Solve(const internal::TurnModel& model,
                     std::span<const solver::TurnRequest> requests,
                     std::span<solver::TurnResult> results) override {
    if (good_-- > 0) return threads_.Solve(model, requests, results);
    return absl::ResourceExhaustedError("no device");
  }

 private:
  int good_;
  const bool beside_;
  solver::ThreadedTurnBatch threads_{1};
};

// States how many cycles it wants in flight (`stated`), remembers for how
// many players it was asked, and the size of every batch it solved.
class SizingBatch final : public solver::TurnBatchSolver {
 public:
  explicit SizingBatch(std::size_t stated) : stated_(stated) {}
  std::size_t CyclesInFlight(int players) const override {
    asked_players = players;
    return stated_;
  }
  absl::Status Solve(const internal::TurnModel& model,
                     std::span<const solver::TurnRequest> requests,
                     std::span<solver::TurnResult> results) override {
    sizes.push_back(requests.size());
    return threads_.Solve(model, requests, results);
  }
  mutable int asked_players = 0;
  std::vector<std::size_t> sizes;

 private:
  const std::size_t stated_;
  solver::ThreadedTurnBatch threads_{1};
};

}  // namespace

TEST_CASE("turn batch: the threads' batch is every request solved alone, bit for bit") {
  const Rules rules{8, 3, 15};
  const std::shared_ptr<const internal::TurnModel> model = internal::TurnModel::Get(rules);
  const std::vector<solver::TurnRequest> requests = RandomRequests(*model, 40);
  for (int threads : {1, 3}) {
    CAPTURE(threads);
    std::vector<solver::TurnResult> results(requests.size());
    REQUIRE(solver::ThreadedTurnBatch(threads).Solve(*model, requests, results).ok());
    for (std::size_t i = 0; i < requests.size(); ++i) {
      CAPTURE(i);
      const solver::TurnRequest& r = requests[i];
      solver::TurnResult alone;
      const int start = model->Id(0, 0, 0, 0, 0);
      if (r.kind == solver::TurnRequest::Kind::kConvention) {
        alone.policy.zero_lane = r.policy_zero_lane;
        internal::SolveConvention(*model, r.utility, r.Carried(), r.watched, r.arithmetic, &alone,
                                  r.record_policy ? &alone.policy : nullptr);
      } else if (r.kind == solver::TurnRequest::Kind::kPlain) {
        const internal::TurnValues values = internal::SolveDouble(*model, r.utility);
        alone.value = alone.wide_value = values.value[start];
      } else {
        const std::vector<double>* pair[2] = {&r.utility, &r.carried[0]};
        internal::TurnValues values[2];
        internal::SolveDoublePair(*model, pair, r.lanes == 2 ? &r.carried[1] : nullptr,
                                  alone.pair_slope, values);
        for (int k = 0; k < 2; ++k) {
          alone.pair_value[k] = values[k].value[start];
          // Each lane is the single solve's.
          CHECK(SameBits(
              values[k].value[start],
              internal::SolveDouble(*model, k == 0 ? r.utility : r.carried[0]).value[start]));
        }
      }
      CHECK(SameBits(results[i].value, alone.value));
      CHECK(results[i].wide_value == alone.wide_value);
      REQUIRE(results[i].carried.size() == alone.carried.size());
      for (std::size_t c = 0; c < alone.carried.size(); ++c) {
        CHECK(SameBits(results[i].carried[c], alone.carried[c]));
        CHECK(results[i].wide_carried[c] == alone.wide_carried[c]);
      }
      CHECK(results[i].tied_decisions == alone.tied_decisions);
      CHECK(results[i].kingmaking == alone.kingmaking);
      for (int k = 0; k < 2; ++k) {
        CHECK(SameBits(results[i].pair_value[k], alone.pair_value[k]));
        CHECK(SameBits(results[i].pair_slope[k], alone.pair_slope[k]));
      }
      if (r.kind == solver::TurnRequest::Kind::kPair && r.lanes == 2) {
        CHECK(results[i].pair_slope[0] > 0);
      }
      if (r.record_policy) {
        CHECK(!results[i].policy.rolls.empty());
        CHECK(results[i].policy.rolls == alone.policy.rolls);
        CHECK(results[i].policy.take == alone.policy.take);
        CHECK(results[i].policy.zero_lane == r.policy_zero_lane);
        CHECK(SameBits(results[i].policy.below, alone.policy.below));
        CHECK(SameBits(results[i].policy.above, alone.policy.above));
      }
    }
  }
  // Empty batches are fine; spans of different sizes are not.
  CHECK(solver::ThreadedTurnBatch(2).Solve(*model, {}, {}).ok());
  std::vector<solver::TurnResult> short_results(3);
  CHECK(
      absl::IsInvalidArgument(solver::ThreadedTurnBatch(2).Solve(*model, requests, short_results)));
}

TEST_CASE("turn batch: a game solve's batches in any order and grouping give the same table") {
  struct Case {
    Rules rules;
    int players;
    solver::SolveArithmetic arithmetic;
  };
  for (const Case& c : {Case{Rules{5, 2, 10}, 2, solver::SolveArithmetic::kAuto},
                        Case{Rules{5, 2, 10}, 2, solver::SolveArithmetic::kExtended},
                        Case{Rules{4, 2, 6}, 3, solver::SolveArithmetic::kAuto},
                        Case{Rules{6, 2, 8}, 3, solver::SolveArithmetic::kDouble},
                        Case{Rules{3, 1, 5}, 4, solver::SolveArithmetic::kAuto}}) {
    CAPTURE(c.players);
    CAPTURE(c.rules.target);
    solver::GameSolveOptions options = test_util::TinyOptions(c.rules, c.players);
    options.arithmetic = c.arithmetic;
    solver::GameSolveReport usual_report, shuffled_report;
    absl::StatusOr<std::string> usual = solver::SolveGameTable(options, &usual_report);
    REQUIRE(usual.ok());
    for (const bool beside : {false, true}) {
      CAPTURE(beside);
      ShufflingBatch shuffling(beside);
      options.turn_batch = &shuffling;
      // Few cycles in flight: slots take new cycles often, and the two groups
      // (beside) take turns many times a level.
      options.cycles_in_flight = 3;
      absl::StatusOr<std::string> shuffled = solver::SolveGameTable(options, &shuffled_report);
      REQUIRE(shuffled.ok());
      CHECK(shuffling.batches > 0);
      CHECK(shuffling.turns > 0);
      // Every turn solve went through the batch solver: the cycles' too.
      CHECK(shuffling.turns == usual_report.turn_solves);
      using Kind = solver::TurnRequest::Kind;
      if (c.players == 2 && c.arithmetic == solver::SolveArithmetic::kAuto) {
        CHECK(shuffling.by_kind[static_cast<int>(Kind::kPair)] > 0);   // the cycles'
        CHECK(shuffling.by_kind[static_cast<int>(Kind::kPlain)] > 0);  // the final round's
      } else {
        CHECK(shuffling.by_kind[static_cast<int>(Kind::kConvention)] == shuffling.turns);
        CHECK(usual_report.cycles > 0);
      }
      const long long laws = shuffling.by_kind[static_cast<int>(Kind::kScoreLaw)];
      if (c.arithmetic == solver::SolveArithmetic::kExtended ||
          (c.players > 2 && c.arithmetic == solver::SolveArithmetic::kAuto)) {
        CHECK(shuffling.recorded > 0);  // the settling cycles' search rounds
        // Their settling passes' laws, those not stored, beside: posted.
        CHECK((laws > 0) == beside);
        if (beside) CHECK(laws == shuffled_report.settle_passes - shuffled_report.settle_reused);
        // Each policy's law posted once, by the first cycle that needed it
        // (cycles of one batch, or of both groups, share it).
        CHECK(shuffling.repeated_laws == 0);
      } else {
        CHECK(laws == 0);
      }
      CHECK(*shuffled == *usual);
      CHECK(shuffled_report.turn_solves == usual_report.turn_solves);
      CHECK(shuffled_report.tied_decisions == usual_report.tied_decisions);
      CHECK(shuffled_report.kingmaking == usual_report.kingmaking);
      CHECK(shuffled_report.kingmaking_contexts == usual_report.kingmaking_contexts);
      CHECK(SameBits(shuffled_report.error_bound, usual_report.error_bound));
      CHECK(shuffled_report.start == usual_report.start);
    }
  }
}

TEST_CASE("turn batch: a batch solver's error ends the solve with that error") {
  // At the first batch, or after some (cycles done, others in flight; two
  // groups taking turns beside the steps or one).
  for (const int good : {0, 25}) {
    for (const bool beside : {false, true}) {
      CAPTURE(good);
      CAPTURE(beside);
      solver::GameSolveOptions options = test_util::TinyOptions(Rules{4, 2, 6}, 3);
      options.cycles_in_flight = 2;
      FailingBatch failing(good, beside);
      options.turn_batch = &failing;
      const absl::Status status = solver::SolveGameValues(options, nullptr).status();
      CHECK(absl::IsResourceExhausted(status));
      CHECK(std::string(status.message()).find("no device") != std::string::npos);
    }
  }
}

TEST_CASE("turn batch: the solve keeps the batch solver's cycles in flight unless told") {
  solver::GameSolveOptions options = test_util::TinyOptions(Rules{4, 2, 6}, 3);
  // Every batch's size, with the batch solver stating `stated` and the
  // options asking `asked` (0: the solver's choice).
  auto sizes = [&](std::size_t stated, std::size_t asked) {
    SizingBatch sizing(stated);
    options.turn_batch = &sizing;
    options.cycles_in_flight = asked;
    solver::GameSolveReport report;
    REQUIRE(solver::SolveGameValues(options, &report).ok());
    CHECK(report.cycles_in_flight == (asked > 0 ? asked : stated));
    if (asked == 0) CHECK(sizing.asked_players == 3);
    return sizing.sizes;
  };
  const std::vector<std::size_t> one = sizes(1, 0), five = sizes(5, 0);
  CHECK(one == sizes(32, 1));  // the same schedule as asking for 1
  CHECK(five == sizes(1, 5));  // an explicit count overrides the solver's
  CHECK(one != five);          // and the count shapes the batches
  CHECK(one.size() > five.size());
  // The threads' own solve has no lockstep rounds.
  options.turn_batch = nullptr;
  options.cycles_in_flight = 0;
  solver::GameSolveReport report;
  REQUIRE(solver::SolveGameValues(options, &report).ok());
  CHECK(report.cycles_in_flight == 0);
  // A count out of range, the solver's or the options', is refused.
  for (const std::size_t bad : {std::size_t{0}, solver::kMaxCyclesInFlight + 1}) {
    SizingBatch sizing(bad);
    options.turn_batch = &sizing;
    const absl::Status refused = solver::SolveGameValues(options, nullptr).status();
    CHECK(absl::IsInvalidArgument(refused));
    CHECK(std::string(refused.message()).find("from the turn batch solver") != std::string::npos);
  }
  SizingBatch fine(4);
  options.turn_batch = &fine;
  options.cycles_in_flight = solver::kMaxCyclesInFlight + 1;
  const absl::Status refused = solver::SolveGameValues(options, nullptr).status();
  CHECK(absl::IsInvalidArgument(refused));
  CHECK(std::string(refused.message()).find("cycles in flight") != std::string::npos);
}
