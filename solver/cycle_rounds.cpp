// A level's cycles: lockstep rounds (groups, steps on the threads, one batch
// per round) or streams (a cycle per worker at a time, run to its end).
#include "cycle_rounds.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <span>
#include <utility>

#include "martiandice/rules.h"
#include "workers.h"

namespace martiandice::solver {

// One cycle in flight (lockstep) or one worker's cycles (streams): its
// solver (CycleSolve, or PairKernel for 2 players with kAuto), its task,
// buffers and stats.
struct CycleRounds::Slot {
  Slot(SolveState& state, ScoreLawCache& laws, PairKernel::Shared* pair_shared)
      : scratch(state.n, state.max_turn), cycle(state, laws, scratch) {
    if (pair_shared != nullptr) pair.emplace(state, *pair_shared, scratch);
  }
  TurnScratch scratch;
  CycleSolve cycle;
  std::optional<PairKernel> pair;
  CycleTask task;
  SolveStats kept;     // the stats before the group (put back if it is dropped)
  long long cost = 0;  // the cycle's progress weight
};

CycleRounds::CycleRounds(const GameSolveOptions& options, SolveState& state,
                         LevelSchedule& schedule, ScoreLawCache& laws, TurnBatchSolver* batch,
                         WorkerPool& pool)
    : state_(state),
      schedule_(schedule),
      laws_(laws),
      batch_(batch),
      guess_order_(options.guess_order),
      probe_order_(options.probe_guess_order),
      cycles_in_flight_(options.cycles_in_flight),
      pool_(pool) {
  if (state.pair) pair_shared_.emplace(state);
}

CycleRounds::~CycleRounds() = default;

CycleRounds::Slot& CycleRounds::SlotAt(std::size_t k) {
  while (slots_.size() <= k) {
    slots_.push_back(
        std::make_unique<Slot>(state_, laws_, pair_shared_ ? &*pair_shared_ : nullptr));
    stats_.push_back(&slots_.back()->scratch.stats);
  }
  return *slots_[k];
}

CycleRounds::Done CycleRounds::SolveLevel(int level, std::size_t from) {
  return batch_ != nullptr ? Lockstep(level, from) : Streams(level, from);
}

// Each worker takes the level's next vector and, for a cycle, runs it to its
// end; none is taken once the solve is stopped or has failed. The cycles
// taken are every one from `from` to where taking stopped: that prefix is
// done. After a failure the level's cycles from `from` on are dropped
// (their counters too): solved again on resume.
CycleRounds::Done CycleRounds::Streams(int level, std::size_t from) {
  const std::vector<std::uint64_t>& vectors = schedule_.Level(level);
  if (from >= vectors.size()) return Done{from, absl::OkStatus()};
  const int workers =
      static_cast<int>(std::min<std::size_t>(std::max(pool_.threads(), 1), vectors.size() - from));
  std::vector<SolveStats> kept(static_cast<std::size_t>(workers));
  for (int w = 0; w < workers; ++w) kept[w] = SlotAt(w).scratch.stats;
  while (own_.size() < static_cast<std::size_t>(workers)) {
    own_.push_back(std::make_unique<ThreadedTurnBatch>(1));
  }
  const long long before = schedule_.CostBefore(level, from);
  std::atomic<std::size_t> next{from};
  std::atomic<long long> finished{0};  // the cost of the vectors taken and done
  std::atomic<bool> failed{false};
  std::mutex failure_mutex;
  absl::Status failure;
  const absl::Status ran = pool_.Run(workers, [&](int w) {
    int s[kMaxPlayers];
    while (!schedule_.Stopped() && !failed.load(std::memory_order_relaxed)) {
      const std::size_t i = next++;
      if (i >= vectors.size()) return;
      schedule_.Unpack(vectors[i], s);
      if (FinalRoundBegun(state_.rules, std::span<const int>(s, state_.n),
                          state_.FirstMover(s))) {
        finished += schedule_.VectorCost(vectors[i]);  // FinalRound's, solved before
        continue;
      }
      if (absl::Status status = RunCycle(w, s); !status.ok()) {
        std::lock_guard<std::mutex> lock(failure_mutex);
        if (failure.ok()) failure = status;
        failed = true;
        return;
      }
      finished += schedule_.VectorCost(vectors[i]);
      // Worker 0 is the calling thread, where progress is called.
      if (w == 0) schedule_.ProgressIfDue(before + finished);
    }
  });
  if (!ran.ok() || !failure.ok()) {
    for (int w = 0; w < workers; ++w) slots_[w]->scratch.stats = std::move(kept[w]);
    return Done{from, ran.ok() ? failure : ran};
  }
  return Done{std::min(next.load(), vectors.size()), absl::OkStatus()};
}

// The cycle at totals `s` on worker `w`'s slot, each round's turns solved
// on this thread.
absl::Status CycleRounds::RunCycle(int w, const int* s) {
  Slot& slot = *slots_[w];
  slot.task = slot.pair ? slot.pair->SolveCycle(s)
                        : slot.cycle.Solve(s, guess_order_, probe_order_);
  while (!slot.task.Step()) {
    TurnPosts& posts = slot.scratch.posts;
    if (absl::Status status = own_[w]->Solve(*state_.model,
                                             std::span(posts.requests.data(), posts.count),
                                             std::span(posts.results.data(), posts.count));
        !status.ok()) {
      slot.task = CycleTask();
      return status;
    }
  }
  return absl::OkStatus();
}

// A group of at most cycles_in_flight_ cycles at a time, in lockstep rounds.
CycleRounds::Done CycleRounds::Lockstep(int level, std::size_t from) {
  const std::vector<std::uint64_t>& vectors = schedule_.Level(level);
  Done done{from, absl::OkStatus()};
  int s[kMaxPlayers];
  while (done.vectors < vectors.size() && !schedule_.Stopped()) {
    // The group: the next cycles_in_flight_ cycles (and the vectors between).
    std::size_t end = done.vectors;
    live_.clear();
    for (; end < vectors.size() && live_.size() < cycles_in_flight_; ++end) {
      schedule_.Unpack(vectors[end], s);
      if (FinalRoundBegun(state_.rules, std::span<const int>(s, state_.n), state_.FirstMover(s))) {
        continue;
      }
      Slot& slot = SlotAt(live_.size());
      slot.kept = slot.scratch.stats;
      slot.task = slot.pair ? slot.pair->SolveCycle(s)
                            : slot.cycle.Solve(s, guess_order_, probe_order_);
      slot.cost = schedule_.VectorCost(vectors[end]);
      live_.push_back(&slot);
    }
    const std::size_t group = live_.size();
    absl::StatusOr<bool> finished =
        group == 0 ? true : RunGroup(schedule_.CostBefore(level, done.vectors));
    if (!finished.ok() || !*finished) {  // dropped: solved again on resume
      for (std::size_t k = 0; k < group; ++k) {
        slots_[k]->scratch.stats = std::move(slots_[k]->kept);
        slots_[k]->task = CycleTask();
      }
      done.status = finished.status();
      return done;
    }
    done.vectors = end;
    schedule_.ProgressIfDue(schedule_.CostBefore(level, end));
  }
  return done;
}

// The group's rounds, until every cycle is done (true) or the solve is
// stopped (false). `before`: the cost of the level's work before the group.
absl::StatusOr<bool> CycleRounds::RunGroup(long long before) {
  long long finished = 0;  // the cost of the group's cycles done
  for (;;) {
    if (absl::Status s = Step(); !s.ok()) return s;
    std::size_t kept = 0;
    for (std::size_t k = 0; k < live_.size(); ++k) {
      if (done_[k]) {
        finished += live_[k]->cost;
      } else {
        live_[kept++] = live_[k];
      }
    }
    live_.resize(kept);
    if (live_.empty()) return true;
    schedule_.ProgressIfDue(before + finished);
    if (schedule_.Stopped()) return false;
    if (absl::Status s = SolveBatch(); !s.ok()) return s;
  }
}

// Every live cycle's step, on the worker threads (each cycle's work is its
// own: its slot, and the win and error vectors of its contexts).
absl::Status CycleRounds::Step() {
  done_.assign(live_.size(), 0);
  return pool_.ForEach(live_.size(), [&](int, std::size_t k) { done_[k] = live_[k]->task.Step(); });
}

// The live cycles' posted turns, one batch: their requests and result
// buffers swapped into one array and back.
absl::Status CycleRounds::SolveBatch() {
  std::size_t total = 0;
  for (const Slot* slot : live_) total += slot->scratch.posts.count;
  if (requests_.size() < total) {
    requests_.resize(total);
    results_.resize(total);
  }
  auto exchange = [&] {
    std::size_t at = 0;
    for (Slot* slot : live_) {
      TurnPosts& posts = slot->scratch.posts;
      for (std::size_t j = 0; j < posts.count; ++j, ++at) {
        std::swap(requests_[at], posts.requests[j]);
        std::swap(results_[at], posts.results[j]);
      }
    }
  };
  exchange();
  const absl::Status status = batch_->Solve(*state_.model, std::span(requests_.data(), total),
                                           std::span(results_.data(), total));
  exchange();
  return status;
}

}  // namespace martiandice::solver
