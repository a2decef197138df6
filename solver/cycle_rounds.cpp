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
  Slot(SolveState& state, ScoreLawCache& laws, PairKernel::Shared* pair_shared, bool post_laws)
      : scratch(state.n, state.max_turn), cycle(state, laws, scratch, post_laws) {
    if (pair_shared != nullptr) pair.emplace(state, *pair_shared, scratch);
  }
  TurnScratch scratch;
  CycleSolve cycle;
  std::optional<PairKernel> pair;
  CycleTask task;
  long long cost = 0;  // the cycle's progress weight
};

// Lockstep's cycles in flight: their slots and their batch.
struct CycleRounds::Group {
  std::vector<Slot*> live;            // the cycles whose turns are posted (or solved, to step)
  std::vector<Slot*> fresh;           // the cycles just taken, before their first step
  std::vector<Slot*> free;            // the slots without a cycle
  std::vector<char> done;             // per cycle stepped: ended by that step
  std::vector<TurnRequest> requests;  // the batch (storage swapped with the slots')
  std::vector<TurnResult> results;
};

std::size_t CyclesInFlight(const GameSolveOptions& options) {
  if (options.cycles_in_flight > 0) return options.cycles_in_flight;
  return options.turn_batch != nullptr ? options.turn_batch->CyclesInFlight(options.players)
                                       : kCyclesInFlight;
}

CycleRounds::CycleRounds(const GameSolveOptions& options, SolveState& state,
                         LevelSchedule& schedule, ScoreLawCache& laws, TurnBatchSolver* batch,
                         WorkerPool& pool)
    : state_(state),
      schedule_(schedule),
      laws_(laws),
      batch_(batch),
      guess_order_(options.guess_order),
      probe_order_(options.probe_guess_order),
      cycles_in_flight_(CyclesInFlight(options)),
      pool_(pool),
      groups_(std::make_unique<Group[]>(2)) {
  if (state.pair) pair_shared_.emplace(state);
}

CycleRounds::~CycleRounds() = default;

CycleRounds::Slot& CycleRounds::SlotAt(std::size_t k) {
  while (slots_.size() <= k) {
    slots_.push_back(std::make_unique<Slot>(state_, laws_, pair_shared_ ? &*pair_shared_ : nullptr,
                                            batch_ != nullptr && batch_->SolvesScoreLaws()));
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
      if (FinalRoundBegun(state_.rules, std::span<const int>(s, state_.n), state_.FirstMover(s))) {
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
  slot.task =
      slot.pair ? slot.pair->SolveCycle(s) : slot.cycle.Solve(s, guess_order_, probe_order_);
  while (!slot.task.Step()) {
    TurnPosts& posts = slot.scratch.posts;
    if (absl::Status status =
            own_[w]->Solve(*state_.model, std::span(posts.requests.data(), posts.count),
                           std::span(posts.results.data(), posts.count));
        !status.ok()) {
      slot.task = CycleTask();
      return status;
    }
  }
  return absl::OkStatus();
}

// At most cycles_in_flight_ cycles at a time, in lockstep rounds: each round
// every live cycle steps on the worker threads, then their posted turns are
// solved as one batch. A slot whose cycle ends takes the level's next cycle
// at once (stepped before the batch, its first round posted), so the batches
// stay full until the level's last cycles: a group run to its end would
// shrink round by round as its cycles converge. With a batch solver that
// solves beside the steps (TurnBatchSolver::SolvesBesideSteps: a GPU) two
// such groups take turns: one's batch is solved while the other's cycles
// step, so neither the CPU's steps nor the batch wait for the other. Once
// the solve is stopped no cycle is taken and those taken are finished (a
// few rounds): the level is done up to the last one taken. After a failure
// the level's cycles from `from` on are dropped (their counters too):
// solved again on resume.
CycleRounds::Done CycleRounds::Lockstep(int level, std::size_t from) {
  const std::vector<std::uint64_t>& vectors = schedule_.Level(level);
  if (from >= vectors.size()) return Done{from, absl::OkStatus()};
  const bool overlap = batch_->SolvesBesideSteps();
  const std::size_t per_group = std::min(cycles_in_flight_, vectors.size() - from);
  const std::size_t slots = (overlap ? 2 : 1) * per_group;
  std::vector<SolveStats> kept(slots);
  for (int g = 0; g < 2; ++g) {
    groups_[g].live.clear();
    groups_[g].free.clear();
  }
  for (std::size_t k = slots; k-- > 0;) {
    kept[k] = SlotAt(k).scratch.stats;
    groups_[k / per_group].free.push_back(slots_[k].get());
  }
  if (overlap && !beside_) beside_.emplace(2);
  const long long before = schedule_.CostBefore(level, from);
  long long finished = 0;  // the cost of the vectors from `from` done
  std::size_t next = from;
  absl::Status status = TopUp(groups_[0], vectors, &next, &finished);
  for (int a = 0; status.ok(); a = overlap ? 1 - a : a) {
    Group& batched = groups_[a];       // its cycles' turns posted: solved now
    Group& stepping = groups_[1 - a];  // overlap: its turns solved by the last batch
    if (batched.live.empty() && (!overlap || stepping.live.empty())) break;  // all taken done
    schedule_.ProgressIfDue(before + finished);
    if (!overlap) {
      status = SolveBatch(batched);
      if (status.ok()) status = Step(batched, batched.live, &finished);
      if (status.ok()) status = TopUp(batched, vectors, &next, &finished);
      continue;
    }
    absl::Status solved, stepped;
    status = beside_->Run(2, [&](int w) {
      if (w == 1) {  // on the helper thread: the batch solver's own threads (a GPU) work
        solved = SolveBatch(batched);
        return;
      }
      stepped = Step(stepping, stepping.live, &finished);  // on the game solve's workers meanwhile
      if (stepped.ok()) stepped = TopUp(stepping, vectors, &next, &finished);
    });
    if (status.ok()) status = solved.ok() ? stepped : solved;
  }
  if (!status.ok()) {
    for (std::size_t k = 0; k < slots; ++k) {
      slots_[k]->scratch.stats = std::move(kept[k]);
      slots_[k]->task = CycleTask();
    }
    return Done{from, status};
  }
  schedule_.ProgressIfDue(before + finished);
  return Done{next, status};
}

// Fills `group`'s free slots with the level's next cycles (from *next on;
// the final-round vectors between are FinalRound's, solved before, and only
// counted) and steps them once: their first rounds posted, they join the
// live ones. Cycles that end at once free their slots again.
absl::Status CycleRounds::TopUp(Group& group, const std::vector<std::uint64_t>& vectors,
                                std::size_t* next, long long* finished) {
  int s[kMaxPlayers];
  while (!group.free.empty() && *next < vectors.size() && !schedule_.Stopped()) {
    group.fresh.clear();
    for (; !group.free.empty() && *next < vectors.size(); ++*next) {
      schedule_.Unpack(vectors[*next], s);
      const long long cost = schedule_.VectorCost(vectors[*next]);
      if (FinalRoundBegun(state_.rules, std::span<const int>(s, state_.n), state_.FirstMover(s))) {
        *finished += cost;
        continue;
      }
      Slot& slot = *group.free.back();
      group.free.pop_back();
      slot.task =
          slot.pair ? slot.pair->SolveCycle(s) : slot.cycle.Solve(s, guess_order_, probe_order_);
      slot.cost = cost;
      group.fresh.push_back(&slot);
    }
    if (absl::Status status = Step(group, group.fresh, finished); !status.ok()) return status;
    group.live.insert(group.live.end(), group.fresh.begin(), group.fresh.end());
  }
  return absl::OkStatus();
}

// Each cycle of `cycles` (group's live or fresh ones) steps on the worker
// threads (each cycle's work is its own: its slot, and the win and error
// vectors of its contexts); those that end leave, their slots freed and
// their cost added.
absl::Status CycleRounds::Step(Group& group, std::vector<Slot*>& cycles, long long* finished) {
  group.done.assign(cycles.size(), 0);
  if (absl::Status status = pool_.ForEach(
          cycles.size(), [&](int, std::size_t k) { group.done[k] = cycles[k]->task.Step(); });
      !status.ok()) {
    return status;
  }
  std::size_t kept = 0;
  for (std::size_t k = 0; k < cycles.size(); ++k) {
    if (group.done[k]) {
      *finished += cycles[k]->cost;
      group.free.push_back(cycles[k]);
    } else {
      cycles[kept++] = cycles[k];
    }
  }
  cycles.resize(kept);
  return absl::OkStatus();
}

// The group's posted turns, one batch: their requests and result buffers
// swapped into the group's arrays and back.
absl::Status CycleRounds::SolveBatch(Group& group) {
  std::size_t total = 0;
  for (const Slot* slot : group.live) total += slot->scratch.posts.count;
  if (total == 0) return absl::OkStatus();
  if (group.requests.size() < total) {
    group.requests.resize(total);
    group.results.resize(total);
  }
  auto exchange = [&] {
    std::size_t at = 0;
    for (Slot* slot : group.live) {
      TurnPosts& posts = slot->scratch.posts;
      for (std::size_t j = 0; j < posts.count; ++j, ++at) {
        std::swap(group.requests[at], posts.requests[j]);
        std::swap(group.results[at], posts.results[j]);
      }
    }
  };
  exchange();
  const absl::Status status = batch_->Solve(*state_.model, std::span(group.requests.data(), total),
                                            std::span(group.results.data(), total));
  exchange();
  if (!status.ok()) return status;
  // Before any cycle reads: some wait for another's law (ScoreLawCache::Claim).
  for (Slot* slot : group.live) slot->cycle.PublishLaws();
  return absl::OkStatus();
}

}  // namespace martiandice::solver
