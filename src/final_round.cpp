// The final round solved exactly (martiandice/final_round.h): a state is the
// number of seats level with the leader and the gaps to the leader of the
// seats still to move; its value is each leader's share of the win and each
// such seat's chance. A mover's turn is one convention solve for its chance
// to win by turn score, and its score law follows the actions that solve
// chose (PolicyScoreLaw), as the game solver's own final rounds are solved.
#include "martiandice/final_round.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <list>
#include <mutex>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "convention_turn.h"
#include "martiandice/state_space.h"
#include "table_turns.h"
#include "take_options.h"
#include "turn_model.h"
#include "win_values.h"

namespace martiandice {
namespace {

constexpr int kMaxMovers = kMaxPlayers - 1;  // seats still to move in a final round
// A gap larger than any turn's score: the seat can neither tie nor lead.
int Hopeless(int max_score) { return max_score + 1; }

// k seats level with the leader (already moved), then the gaps of the r seats
// still to move, in turn order. Packed: 3 bits k, 3 bits r, 8 bits a gap
// (gaps are at most MaxTurnScore + 1 = 121).
struct State {
  int k = 1, r = 0;
  std::array<int, kMaxMovers> gap{};

  std::uint64_t Key() const {
    std::uint64_t key = static_cast<std::uint64_t>(k) | static_cast<std::uint64_t>(r) << 3;
    for (int i = 0; i < r; ++i) key |= static_cast<std::uint64_t>(gap[i]) << (6 + 8 * i);
    return key;
  }
  // The state after the mover ends its turn `shift` points past the leader
  // (0: level with it, k + 1 leaders; below it: pass shift < 0).
  State Next(int shift, int hopeless) const {
    State next;
    next.r = r - 1;
    next.k = shift < 0 ? k : shift == 0 ? k + 1 : 1;
    for (int i = 1; i < r; ++i) next.gap[i - 1] = std::min(gap[i] + std::max(shift, 0), hopeless);
    return next;
  }
};

// Each leader's share, then each seat still to move (r + 1 used).
using Values = std::array<double, 1 + kMaxMovers>;

// Bytes a cached state costs with its map node, bucket and place in the use
// order (the tests measure the whole against the bound).
constexpr std::size_t kStateBytes = 128;
constexpr int kShards = 16;

// A bounded least-recently-used cache of state values, sharded by key.
class ValueCache {
 public:
  explicit ValueCache(std::size_t max_bytes)
      : per_shard_(std::max<std::size_t>(1, max_bytes / kStateBytes / kShards)) {}

  bool Find(std::uint64_t key, Values* values) const {
    Shard& shard = ShardOf(key);
    std::lock_guard<std::mutex> lock(shard.mutex);
    auto it = shard.entries.find(key);
    if (it == shard.entries.end()) return false;
    shard.uses.splice(shard.uses.begin(), shard.uses, it->second.use);
    *values = it->second.values;
    return true;
  }

  void Insert(std::uint64_t key, const Values& values) const {
    Shard& shard = ShardOf(key);
    std::lock_guard<std::mutex> lock(shard.mutex);
    if (shard.entries.count(key) != 0) return;  // another thread solved it: the same bits
    shard.uses.push_front(key);
    try {
      shard.entries.emplace(key, Entry{shard.uses.begin(), values});
    } catch (...) {
      shard.uses.pop_front();
      throw;
    }
    states_.fetch_add(1, std::memory_order_relaxed);
    if (shard.entries.size() > per_shard_) {
      shard.entries.erase(shard.uses.back());
      shard.uses.pop_back();
      states_.fetch_sub(1, std::memory_order_relaxed);
    }
  }

  std::int64_t states() const { return states_.load(std::memory_order_relaxed); }

 private:
  struct Entry {
    std::list<std::uint64_t>::iterator use;
    Values values;
  };
  struct Shard {
    std::mutex mutex;
    std::list<std::uint64_t> uses;  // most recently used first
    std::unordered_map<std::uint64_t, Entry> entries;
  };
  Shard& ShardOf(std::uint64_t key) const {
    return shards_[(key * 0x9E3779B97F4A7C15ull) >> 60];  // the top 4 bits: 16 shards
  }

  const std::size_t per_shard_;
  mutable std::array<Shard, kShards> shards_;
  mutable std::atomic<std::int64_t> states_{0};
};

}  // namespace

struct FinalRoundSolver::Impl {
  Impl(const Rules& r, int p, const Options& o)
      : rules(r),
        players(p),
        options(o),
        model(internal::TurnModel::Get(r)),
        max_score(MaxTurnScore(r)),
        cache(o.max_value_bytes),
        turns(r, 0, o.max_turn_bytes) {}

  // The mover's chance to win by turn score x = 0..max_score.
  std::vector<double> Utility(const State& state, std::vector<Values>* next) const;
  Values Solve(const State& state) const;
  absl::StatusOr<State> Start(const GameContext& context) const;
  // Every seat's chance at `context`, whose state and values these are.
  std::vector<double> Chances(const GameContext& context, const State& state,
                              const Values& values) const;
  class MoverValues;  // the mover's stop and roll values at one state

  const Rules rules;
  const int players;
  const Options options;
  const std::shared_ptr<const internal::TurnModel> model;
  const int max_score;
  const ValueCache cache;
  const internal::TurnCache turns;  // the movers' roll values, by state
  mutable std::atomic<std::int64_t> turn_solves{0};
};

namespace {

// The turn score's law when the mover plays to maximise `utility`.
std::vector<double> ScoreLaw(const internal::TurnModel& model, const std::vector<double>& utility) {
  thread_local std::vector<double> rolls;
  thread_local internal::ConventionPolicy policy;
  thread_local std::vector<internal::Wide> law;
  internal::SolveConventionRolls(model, utility, internal::Arithmetic::kDouble, &rolls, &policy);
  internal::PolicyScoreLaw(model, policy, &law);
  return std::vector<double>(law.begin(), law.end());
}

}  // namespace

std::vector<double> FinalRoundSolver::Impl::Utility(const State& state,
                                                    std::vector<Values>* next) const {
  const int d = state.gap[0];
  std::vector<double> utility(static_cast<size_t>(max_score) + 1, 0.0);
  next->assign(utility.size(), Values{});
  const Values below = Solve(state.Next(-1, Hopeless(max_score)));
  for (int x = 0; x <= max_score; ++x) {
    (*next)[x] = x < d ? below : Solve(state.Next(x - d, Hopeless(max_score)));
    if (x >= d) utility[x] = (*next)[x][0];  // the mover leads, alone or tied
  }
  return utility;
}

// No lock is held while solving: values come back by copy, and a state
// evicted meanwhile is solved again to the same bits.
Values FinalRoundSolver::Impl::Solve(const State& state) const {
  if (state.r == 0) {
    Values end{};
    end[0] = 1.0 / state.k;
    return end;
  }
  const std::uint64_t key = state.Key();
  Values out{};
  if (cache.Find(key, &out)) return out;
  std::vector<Values> next;
  const std::vector<double> utility = Utility(state, &next);
  std::vector<double> law(utility.size(), 0.0);
  if (state.gap[0] > max_score) {
    law[0] = 1;  // the mover cannot catch up: its turn changes nothing
  } else {
    law = ScoreLaw(*model, utility);
    turn_solves.fetch_add(1, std::memory_order_relaxed);
  }
  const int d = state.gap[0];
  for (int x = 0; x <= max_score; ++x) {
    const double p = law[x];
    if (p == 0) continue;
    if (x <= d) out[0] += p * next[x][0];  // the leaders keep (or share) the lead
    out[1] += p * utility[x];
    for (int i = 1; i < state.r; ++i) out[1 + i] += p * next[x][i];
  }
  cache.Insert(key, out);
  return out;
}

absl::StatusOr<State> FinalRoundSolver::Impl::Start(const GameContext& context) const {
  if (absl::Status valid = ValidateContext(rules, players, context); !valid.ok()) return valid;
  if (!FinalRoundBegun(rules, context.scores, context.seat)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no final round at totals ", absl::StrJoin(context.scores, ","), " with seat ",
        context.seat, " to move: no seat before it has reached the target ", rules.target));
  }
  const auto first = context.scores.begin();
  const int leader = *std::max_element(first, first + context.seat);
  State state;
  state.k = static_cast<int>(std::count(first, first + context.seat, leader));
  state.r = players - context.seat;
  for (int i = 0; i < state.r; ++i) {
    state.gap[i] = std::min(leader - context.scores[context.seat + i], Hopeless(max_score));
  }
  // Reachable states: one at the top, then per seat below it at most
  // (max_score + 2) shifts past the leader times (players - 1) leader counts.
  const std::int64_t solves = 1 + std::int64_t{state.r - 1} * (max_score + 2) * (players - 1);
  const std::int64_t work = solves * model->size();
  if (state.r > 1 && work > options.max_work) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the final round at totals ", absl::StrJoin(context.scores, ","), " with seat ",
        context.seat, " to move may need ", solves, " turn solves of ", model->size(),
        " positions, more work than max_work ", options.max_work, " allows"));
  }
  return state;
}

// The mover's stop and roll values at one state, read as WinValues reads a
// table's (the interface internal::AdviseTakes uses).
class FinalRoundSolver::Impl::MoverValues {
 public:
  // `start`: the mover's chance at the turn's start (the state's values[1]).
  MoverValues(const Impl& impl, const State& state, double start) : impl_(impl), start_(start) {
    std::vector<Values> next;
    utility_ = impl.Utility(state, &next);
    // A bijection of the key spreads neighbouring states over the shards.
    const auto key = static_cast<std::int64_t>(state.Key() * 0x9E3779B97F4A7C15ull);
    turn_ = impl.turns.Rolls(key, [this](std::vector<double>* u) { *u = utility_; });
  }

  std::optional<double> Roll(const internal::Canon& c) const {
    if (c.tanks + c.rays + c.e0 + c.e1 + c.e2 == 0) return start_;
    if (c.left == 0) return std::nullopt;
    if (c.tanks > c.rays + c.left) return utility_[0];
    return (*turn_.rolls)[impl_.turns.model().Id(c.tanks, c.rays, c.e0, c.e1, c.e2)];
  }
  template <typename V>
  void Position(const Dice& after, V& stop, std::optional<V>& roll) const {
    const internal::Canon c = internal::Canonicalize(impl_.rules, after);
    stop.approx = utility_[c.score];
    if (std::optional<double> r = Roll(c)) roll = internal::ApproxOnly<V>(*r);
  }
  template <typename V>
  void Stop(int score, V& value) const {
    value = internal::ApproxOnly<V>(utility_[score]);
  }

 private:
  const Impl& impl_;
  const double start_;
  std::vector<double> utility_;
  internal::TurnCache::Turn turn_;
};

namespace {

constexpr internal::WinCompare kCompare{internal::kConventionTie};

}  // namespace

absl::StatusOr<WinEval> FinalRoundSolver::Evaluate(const GameContext& context,
                                                   const Dice& aside) const {
  absl::StatusOr<State> state = impl_->Start(context);
  if (!state.ok()) return state.status();
  if (absl::Status s = ValidateAside(impl_->rules, aside); !s.ok()) return s;
  const Values solved = impl_->Solve(*state);
  const Impl::MoverValues values(*impl_, *state, solved[1]);
  WinEval result;
  result.position = internal::EvaluateWinAt(impl_->rules, values, kCompare, aside);
  result.win_probabilities = impl_->Chances(context, *state, solved);
  return result;
}

absl::StatusOr<WinAdvice> FinalRoundSolver::Advise(const GameContext& context, const Dice& aside,
                                                   const Dice& roll) const {
  absl::StatusOr<State> state = impl_->Start(context);
  if (!state.ok()) return state.status();
  if (absl::Status s = ValidateRoll(impl_->rules, aside, roll); !s.ok()) return s;
  const Values solved = impl_->Solve(*state);
  const Impl::MoverValues values(*impl_, *state, solved[1]);
  WinAdvice result;
  result.advice = internal::AdviseTakes<RollAdvice>(impl_->rules, aside, roll, kCompare, values);
  internal::PickByConvention(result.advice);
  result.win_probabilities = impl_->Chances(context, *state, solved);
  return result;
}

std::vector<double> FinalRoundSolver::Impl::Chances(const GameContext& context, const State& state,
                                                    const Values& values) const {
  const auto first = context.scores.begin();
  const int leader = *std::max_element(first, first + context.seat);
  std::vector<double> chances(static_cast<size_t>(players), 0.0);
  for (int j = 0; j < context.seat; ++j) {
    if (context.scores[j] == leader) chances[j] = values[0];
  }
  for (int i = 0; i < state.r; ++i) chances[context.seat + i] = values[1 + i];
  return chances;
}

absl::StatusOr<FinalRoundSolver> FinalRoundSolver::Create(const Rules& rules, int players,
                                                          const Options& options) {
  if (absl::Status valid = ValidateRules(rules); !valid.ok()) return valid;
  if (absl::Status valid = ValidatePlayers(players); !valid.ok()) return valid;
  return FinalRoundSolver(std::make_shared<const Impl>(rules, players, options));
}

const Rules& FinalRoundSolver::rules() const { return impl_->rules; }
int FinalRoundSolver::players() const { return impl_->players; }

absl::StatusOr<std::vector<double>> FinalRoundSolver::WinProbabilities(
    const GameContext& context) const {
  absl::StatusOr<State> state = impl_->Start(context);
  if (!state.ok()) return state.status();
  return impl_->Chances(context, *state, impl_->Solve(*state));
}

absl::StatusOr<std::vector<double>> FinalRoundSolver::MoverUtility(
    const GameContext& context) const {
  absl::StatusOr<State> state = impl_->Start(context);
  if (!state.ok()) return state.status();
  std::vector<Values> next;
  return impl_->Utility(*state, &next);
}

FinalRoundSolver::Stats FinalRoundSolver::stats() const {
  Stats stats;
  stats.turn_solves = impl_->turn_solves.load(std::memory_order_relaxed);
  stats.mover_turns = impl_->turns.misses();
  stats.states = impl_->cache.states();
  stats.value_bytes = static_cast<std::size_t>(stats.states) * kStateBytes;
  return stats;
}

}  // namespace martiandice
