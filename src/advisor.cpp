// The advisor (martiandice/advisor.h): the bounded caches of solved turns and
// loaded tables that every front end shares, the answers to queries, the
// advice at a game's decision and its fallback.
#include "martiandice/advisor.h"

#include <algorithm>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "fallback_turn.h"
#include "file_kind.h"
#include "martiandice/state_space.h"
#include "martiandice/win_query.h"
#include "zero_chances.h"

namespace martiandice {
namespace {

// The fallback's solved turn, at FallbackTurnObjective.
absl::StatusOr<TurnSolution> FallbackTurn(Advisor& advisor, const Rules& rules,
                                          const GameContext& context) {
  return advisor.Turn(rules, FallbackTurnObjective(rules, context), Precision::kDouble);
}

}  // namespace

Query DecisionQuery(const GameState& state, const Goal& goal) {
  Query query;
  query.rules = state.rules();
  query.goal = goal;
  query.aside = state.aside_before_roll();
  if (goal.is_win()) {
    query.context = state.context();
    query.players = state.players();
  }
  return query;
}

Objective FallbackObjective(const Rules& rules, const GameContext& context) {
  const internal::FallbackTurnSpec spec = internal::FallbackTurnAt(rules, context);
  return spec.final_round ? Objective::FinalRound(spec.needed, spec.level)
                          : Objective::Capped(spec.needed);
}

Objective FallbackTurnObjective(const Rules& rules, const GameContext& context) {
  const internal::FallbackTurnSpec spec = internal::FallbackTurnAt(rules, context);
  const int most = MaxTurnScore(rules);
  return spec.final_round ? Objective::FinalRound(std::min(spec.needed, most + 2), spec.level)
                          : Objective::Capped(std::min(spec.needed, most));
}

// ------------------------------------------------------------ the caches

// A small cache keeping its most recently used entries first.
template <typename Key, typename Value>
class RecentlyUsed {
 public:
  explicit RecentlyUsed(std::size_t capacity) : capacity_(std::max<std::size_t>(capacity, 1)) {}

  std::optional<Value> Find(const Key& key) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == key) {
        entries_.splice(entries_.begin(), entries_, it);
        return entries_.front().second;
      }
    }
    return std::nullopt;
  }
  void Add(Key key, Value value) {
    if (Find(key)) return;  // another thread was first
    if (entries_.size() == capacity_) entries_.pop_back();
    entries_.emplace_front(std::move(key), std::move(value));
  }

 private:
  std::size_t capacity_;
  std::list<std::pair<Key, Value>> entries_;
};

struct Advisor::Caches {
  using TurnKey = std::tuple<int, int, int, std::string, Precision>;
  using TableKey = std::tuple<int, int, int, int, std::optional<std::string>>;
  // A game turn's zero chances, by table and context; the entry holds its
  // table, so that no other table takes the address while it is kept.
  using ZeroKey = std::tuple<const LoadedTable*, int, std::vector<int>>;
  using Zero = std::shared_ptr<const internal::ZeroChances>;
  using ZeroEntry = std::pair<std::shared_ptr<const LoadedTable>, Zero>;
  // The turns of the games a front end follows at once (serve's sessions).
  static constexpr std::size_t kZeroTurns = 16;
  using GameKey = std::tuple<int, int, int, int>;  // rules and players
  static constexpr std::size_t kFinalRounds = 4;
  Caches(std::size_t turns, std::size_t tables)
      : turns(turns),
        tables(tables),
        zero_chances(kZeroTurns),
        fallback_zero_chances(kZeroTurns),
        final_rounds(kFinalRounds) {}

  // The entry of `cache` at `key`, else `make()`'s (a StatusOr), added. Made
  // outside the lock: two threads missing the same key may both make it.
  template <typename Key, typename Value, typename Make>
  absl::StatusOr<Value> FindOrMake(RecentlyUsed<Key, Value>& cache, Key key, Make make) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (std::optional<Value> cached = cache.Find(key)) return *std::move(cached);
    }
    absl::StatusOr<Value> made = make();
    if (!made.ok()) return made.status();
    std::lock_guard<std::mutex> lock(mutex);
    cache.Add(std::move(key), *made);
    return made;
  }

  // The zero chances of `table`'s turn at `context`, kept or made.
  absl::StatusOr<Zero> ZeroChancesAt(const std::shared_ptr<const LoadedTable>& table,
                                     const GameContext& context) {
    absl::StatusOr<ZeroEntry> entry =
        FindOrMake(zero_chances, ZeroKey{table.get(), context.seat, context.scores},
                   [&]() -> absl::StatusOr<ZeroEntry> {
                     auto made = internal::ZeroChances::ForTable(table->table, context);
                     if (!made.ok()) return made.status();
                     return ZeroEntry{table, *std::move(made)};
                   });
    if (!entry.ok()) return entry.status();
    return entry->second;
  }
  // The zero chances of the solved turn `turn` (the fallback's), kept or made.
  Zero ZeroChancesOf(const TurnSolution& turn) {
    const Rules& rules = turn.rules();
    return *FindOrMake(
        fallback_zero_chances,
        TurnKey{rules.dice, rules.bonus, rules.target, turn.objective().key(), turn.precision()},
        [&]() -> absl::StatusOr<Zero> { return internal::ZeroChances::ForTurn(turn); });
  }

  // The table read from `file` that is still held (by `tables` or a caller).
  std::shared_ptr<const LoadedTable> LoadedFrom(const internal::FileIdentity& file) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = files.find(file);
    return it == files.end() ? nullptr : it->second.lock();
  }
  void RememberFile(const internal::FileIdentity& file, std::shared_ptr<const LoadedTable> table) {
    std::lock_guard<std::mutex> lock(mutex);
    std::erase_if(files, [](const auto& entry) { return entry.second.expired(); });
    files[file] = std::move(table);
  }

  // A refusal's key: the file, its path, and the rules (dice, bonus, target) and players asked.
  using RefusalKey = std::tuple<internal::FileIdentity, std::string, int, int, int, int>;
  // The refusal of a table file for its content (damaged, another format
  // version, or other rules or players than asked), asked again as the same file.
  std::optional<absl::Status> RefusedBefore(const RefusalKey& key) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = refused.find(key);
    return it == refused.end() ? std::nullopt : std::optional<absl::Status>(it->second);
  }
  void RememberRefusal(RefusalKey key, const absl::Status& status) {
    // Only the content's faults: a permission or a read error may pass with the file unchanged.
    if (!absl::IsDataLoss(status) && !absl::IsFailedPrecondition(status)) return;
    std::lock_guard<std::mutex> lock(mutex);
    if (refused.size() >= kMaxRefused) refused.erase(refused.begin());
    refused[std::move(key)] = status;
  }

  // The table at `path` (located), read or shared with a source that holds
  // the same file, checked for `rules` and `players`; a refusal for its
  // content remembered for the same file.
  absl::StatusOr<std::shared_ptr<const LoadedTable>> Load(const std::string& path,
                                                          const Rules& rules, int players) {
    const std::optional<internal::FileIdentity> file = internal::IdentifyFile(path);
    std::optional<RefusalKey> refusal;
    if (file) {
      refusal.emplace(*file, path, rules.dice, rules.bonus, rules.target, players);
      if (std::optional<absl::Status> before = RefusedBefore(*refusal)) return *std::move(before);
    }
    auto refuse = [&](absl::Status status) {
      if (refusal) RememberRefusal(*std::move(refusal), status);
      return status;
    };
    std::shared_ptr<const LoadedTable> loaded = file ? LoadedFrom(*file) : nullptr;
    if (loaded == nullptr) {
      absl::StatusOr<GameTable> table = GameTable::Open(path);
      if (!table.ok()) return refuse(table.status());
      loaded = std::make_shared<const LoadedTable>(LoadedTable{*std::move(table), path});
      if (file) RememberFile(*file, loaded);
    }
    // A held table found for other rules or players is checked again.
    if (absl::Status s = CheckTableMatches(loaded->table, rules, players); !s.ok()) {
      return refuse(absl::Status(s.code(), absl::StrCat(path, ": ", s.message())));
    }
    return loaded;
  }

  std::mutex mutex;
  RecentlyUsed<TurnKey, TurnSolution> turns;
  RecentlyUsed<TableKey, std::shared_ptr<const LoadedTable>> tables;
  RecentlyUsed<ZeroKey, ZeroEntry> zero_chances;
  RecentlyUsed<TurnKey, Zero> fallback_zero_chances;  // by the solved turn's key
  RecentlyUsed<GameKey, FinalRoundSolver> final_rounds;
  // The tables held, by file: another spelling of a held table's path (a
  // folder and the file in it, "./data") shares it rather than reading it again.
  std::map<internal::FileIdentity, std::weak_ptr<const LoadedTable>> files;
  // Files refused for their content, by identity, path and what was asked: not
  // read again until they change, so a service or a coach asked again and
  // again answers at once with the same error.
  static constexpr std::size_t kMaxRefused = 64;
  std::map<RefusalKey, absl::Status> refused;
};

Advisor::Advisor() : Advisor(Options()) {}

Advisor::Advisor(Options options)
    : options_(std::move(options)),
      caches_(std::make_unique<Caches>(options_.max_turns, options_.max_tables)) {}

Advisor::~Advisor() = default;

absl::StatusOr<TurnSolution> Advisor::Turn(const Rules& rules, const Objective& objective,
                                           Precision precision) {
  return caches_->FindOrMake(
      caches_->turns,
      Caches::TurnKey{rules.dice, rules.bonus, rules.target, objective.key(), precision},
      [&] { return TurnSolution::Solve(rules, objective, precision); });
}

absl::StatusOr<std::shared_ptr<const LoadedTable>> Advisor::Table(
    const Rules& rules, int players, const std::optional<std::string>& tables) {
  const std::optional<std::string>& source = tables ? tables : options_.tables;
  return caches_->FindOrMake(
      caches_->tables, Caches::TableKey{rules.dice, rules.bonus, rules.target, players, source},
      [&]() -> absl::StatusOr<std::shared_ptr<const LoadedTable>> {
        absl::StatusOr<std::string> path = LocateTable(rules, players, source);
        if (absl::IsNotFound(path.status()) && options_.missing_table) {
          path = absl::NotFoundError(options_.missing_table(rules, players));
        }
        if (absl::IsNotFound(path.status()) && options_.make_table && !source) {
          path = options_.make_table(rules, players, path.status());
        }
        if (!path.ok()) return path.status();
        return caches_->Load(*path, rules, players);
      });
}

absl::StatusOr<TableCoverage> Advisor::Coverage(const Rules& rules, int players,
                                                const std::optional<std::string>& tables) {
  TableCoverage coverage;
  absl::StatusOr<std::shared_ptr<const LoadedTable>> table = Table(rules, players, tables);
  if (absl::IsNotFound(table.status())) {
    coverage.reason = std::string(table.status().message());
    return coverage;
  }
  if (!table.ok()) return table.status();
  coverage.table = *std::move(table);
  return coverage;
}

absl::StatusOr<FinalRoundSolver> Advisor::FinalRound(const Rules& rules, int players) {
  return caches_->FindOrMake(
      caches_->final_rounds, Caches::GameKey{rules.dice, rules.bonus, rules.target, players},
      [&] { return FinalRoundSolver::Create(rules, players, options_.final_round); });
}

absl::StatusOr<bool> Advisor::SolvesFinalRound(const Query& query) {
  if (!options_.solve_final_round || !query.goal.is_win() || !query.context || query.tables ||
      !ValidateRules(query.rules).ok() ||
      !ValidateContext(query.rules, query.players, *query.context).ok() ||
      !FinalRoundBegun(query.rules, query.context->scores, query.context->seat)) {
    return false;
  }
  absl::StatusOr<TableCoverage> coverage = Coverage(query.rules, query.players);
  if (!coverage.ok()) return coverage.status();
  if (coverage->table) return false;
  absl::StatusOr<FinalRoundSolver> round = FinalRound(query.rules, query.players);
  // Within the work bound: its values, kept for the answer.
  return round.ok() && round->WinProbabilities(*query.context).ok();
}

namespace {

// Where no table answers a win query (`missing`: NotFound), the solved final
// round where it answers instead; else `missing`.
absl::StatusOr<FinalRoundSolver> InsteadOfTable(Advisor& advisor, const Query& query,
                                                const absl::Status& missing) {
  if (!absl::IsNotFound(missing)) return missing;
  absl::StatusOr<bool> solves = advisor.SolvesFinalRound(query);
  if (!solves.ok()) return solves.status();
  if (!*solves) return missing;
  return advisor.FinalRound(query.rules, query.players);
}

// GameAdvice::take_zero_chances: `zero_after(aside after the take)` for every
// take that leaves dice to roll.
template <typename ZeroAfter>
absl::StatusOr<GameAdvice> AddTakeZeroChances(GameAdvice advice, ZeroAfter zero_after) {
  for (const TakeOption& option : advice.takes->options) {
    std::optional<double>& chance = advice.take_zero_chances.emplace_back();
    if (!option.roll) continue;  // no dice left, or the turn is over
    absl::StatusOr<double> zero = zero_after(option.aside_after);
    if (!zero.ok()) return zero.status();
    chance = *zero;
  }
  return advice;
}

// In the roll phase the mover has chosen to roll (or the turn starts):
// rolling is the only move, and the position is worth the roll.
PositionEval OnlyRollIn(Phase phase, PositionEval eval) {
  if (phase == Phase::kRoll && eval.roll) {
    eval.stop.reset();
    eval.value = *eval.roll;
    eval.action = Then::kRoll;
  }
  return eval;
}

}  // namespace

absl::StatusOr<GameAdvice> Advisor::Advise(const GameState& state,
                                           const std::optional<std::string>& tables) {
  if (state.over()) return absl::InvalidArgumentError("no decision: the game is over");
  absl::StatusOr<TableCoverage> coverage = Coverage(state.rules(), state.players(), tables);
  if (!coverage.ok()) return coverage.status();
  GameAdvice advice;
  advice.phase = state.phase();
  const Dice& aside = state.aside_before_roll();
  if (coverage->table) {
    const GameTable& table = coverage->table->table;
    advice.table = coverage->table;
    absl::StatusOr<std::vector<double>> win = table.WinProbabilities(state.context());
    if (!win.ok()) return win.status();
    advice.win_probabilities = *std::move(win);
    absl::StatusOr<Caches::Zero> zero = caches_->ZeroChancesAt(coverage->table, state.context());
    if (!zero.ok()) return zero.status();
    if (state.phase() == Phase::kTake) {
      absl::StatusOr<WinAdvice> takes = AdviseWin(table, state.context(), aside, state.roll());
      if (!takes.ok()) return takes.status();
      advice.takes = std::move(takes->advice);
      return AddTakeZeroChances(std::move(advice),
                                [&](const Dice& after) { return (*zero)->At(after); });
    }
    absl::StatusOr<WinEval> eval = EvaluateWin(table, state.context(), aside);
    if (!eval.ok()) return eval.status();
    advice.position = OnlyRollIn(state.phase(), std::move(eval->position));
    absl::StatusOr<double> chance = (*zero)->At(aside);
    if (!chance.ok()) return chance.status();
    advice.zero_chance = *chance;
    return advice;
  }
  advice.goal = Goal::ForTurn(FallbackObjective(state.rules(), state.context()));
  advice.fallback = true;
  advice.fallback_reason = std::move(coverage->reason);
  absl::StatusOr<TurnSolution> turn = FallbackTurn(*this, state.rules(), state.context());
  if (!turn.ok()) return turn.status();
  const Caches::Zero zero = caches_->ZeroChancesOf(*turn);
  if (state.phase() == Phase::kTake) {
    absl::StatusOr<RollAdvice> takes = AdviseRoll(*turn, aside, state.roll());
    if (!takes.ok()) return takes.status();
    advice.takes = *std::move(takes);
    return AddTakeZeroChances(std::move(advice),
                              [&](const Dice& after) { return zero->At(after); });
  }
  absl::StatusOr<PositionEval> eval = EvaluatePosition(*turn, aside);
  if (!eval.ok()) return eval.status();
  advice.position = OnlyRollIn(state.phase(), *std::move(eval));
  absl::StatusOr<double> chance = zero->At(aside);
  if (!chance.ok()) return chance.status();
  advice.zero_chance = *chance;
  return advice;
}

namespace {

// A query's inputs checked in turn, each error named by its input
// (InputError): the win goal's context ("scores"), the set-aside, and the
// roll when there is one. What the answer's own computation returns after
// that (a corrupt table block: DataLoss) keeps its code.
absl::Status CheckQueryInputs(const Query& query, const Dice* roll) {
  if (absl::Status s = ValidateRules(query.rules); !s.ok()) return s;
  if (query.goal.is_win()) {
    if (query.precision != Precision::kDouble) {  // as ParseQuery refuses it
      return InputError("exact",
                        "exact values are available for turn objectives; win tables hold "
                        "certified doubles");
    }
    if (!query.context) {
      return InputError("scores", "the win goal needs a context: every seat's total and the mover");
    }
    // Named as ParseQuery names them: the players, the seat, else the totals.
    const int players = query.players;
    const int seat = query.context->seat;
    absl::Status s = ValidateContext(query.rules, players, *query.context);
    if (!s.ok()) {
      const bool players_bad = !ValidatePlayers(players).ok();
      const bool seat_bad = !players_bad &&
                            static_cast<int>(query.context->scores.size()) == players &&
                            (seat < 0 || seat >= players);
      return InputError(players_bad ? "players" : seat_bad ? "seat" : "scores", s);
    }
  }
  if (absl::Status s = ValidateAside(query.rules, query.aside); !s.ok()) {
    return InputError("aside", s);
  }
  if (roll != nullptr) {
    if (absl::Status s = ValidateRoll(query.rules, query.aside, *roll); !s.ok()) {
      return InputError("roll", s);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<EvalAnswer> Advisor::Evaluate(const Query& query) {
  if (absl::Status s = CheckQueryInputs(query, nullptr); !s.ok()) return s;
  EvalAnswer answer;
  if (query.goal.is_win()) {
    absl::StatusOr<std::shared_ptr<const LoadedTable>> table =
        Table(query.rules, query.players, query.tables);
    if (!table.ok()) {
      absl::StatusOr<FinalRoundSolver> round = InsteadOfTable(*this, query, table.status());
      if (!round.ok()) return round.status();
      absl::StatusOr<WinEval> win = round->Evaluate(*query.context, query.aside);
      if (!win.ok()) return win.status();
      answer.eval = std::move(win->position);
      answer.win_probabilities = std::move(win->win_probabilities);
      answer.source = WinSource::kFinalRound;
      return answer;
    }
    absl::StatusOr<WinEval> win = EvaluateWin((*table)->table, *query.context, query.aside);
    if (!win.ok()) return win.status();
    answer.eval = std::move(win->position);
    answer.win_probabilities = std::move(win->win_probabilities);
    answer.table = *std::move(table);
    return answer;
  }
  absl::StatusOr<TurnSolution> turn = Turn(query.rules, query.goal.objective(), query.precision);
  if (!turn.ok()) return turn.status();
  absl::StatusOr<PositionEval> eval = EvaluatePosition(*turn, query.aside);
  if (!eval.ok()) return eval.status();
  answer.eval = *std::move(eval);
  return answer;
}

absl::StatusOr<BestAnswer> Advisor::Best(const Query& query, const Dice& roll) {
  if (absl::Status s = CheckQueryInputs(query, &roll); !s.ok()) return s;
  BestAnswer answer;
  if (query.goal.is_win()) {
    absl::StatusOr<std::shared_ptr<const LoadedTable>> table =
        Table(query.rules, query.players, query.tables);
    if (!table.ok()) {
      absl::StatusOr<FinalRoundSolver> round = InsteadOfTable(*this, query, table.status());
      if (!round.ok()) return round.status();
      absl::StatusOr<WinAdvice> win = round->Advise(*query.context, query.aside, roll);
      if (!win.ok()) return win.status();
      answer.advice = std::move(win->advice);
      answer.win_probabilities = std::move(win->win_probabilities);
      answer.source = WinSource::kFinalRound;
      return answer;
    }
    absl::StatusOr<WinAdvice> win = AdviseWin((*table)->table, *query.context, query.aside, roll);
    if (!win.ok()) return win.status();
    answer.advice = std::move(win->advice);
    answer.win_probabilities = std::move(win->win_probabilities);
    answer.table = *std::move(table);
    return answer;
  }
  absl::StatusOr<TurnSolution> turn = Turn(query.rules, query.goal.objective(), query.precision);
  if (!turn.ok()) return turn.status();
  absl::StatusOr<RollAdvice> advice = AdviseRoll(*turn, query.aside, roll);
  if (!advice.ok()) return advice.status();
  answer.advice = *std::move(advice);
  return answer;
}

}  // namespace martiandice
