// The N-player game-level solve, put together: backward over the sum of the
// totals (level_schedule.h), a level's score vectors with a seat at the
// target first, in final-round waves from the last seat back (final_round.h),
// then those below the target, zero-score cycles (cycle_rounds.h:
// cycle_solve.h, or pair_kernel.h for 2 players; in streams on the worker
// threads, in lockstep rounds for a caller's turn batch solver), every turn
// through a turn batch solver (turn_batch.h); checkpoints
// (solve_checkpoint.h) and the report (solve_report.h). Also the options'
// checks and the table written from the solved values.
#include "game_solver.h"

#include <unistd.h>

#include <chrono>
#include <new>
#include <span>
#include <string>

#include "absl/strings/str_format.h"
#include "atomic_file.h"
#include "cycle_rounds.h"
#include "final_round.h"
#include "level_schedule.h"
#include "level_share.h"
#include "score_law_cache.h"
#include "solve_checkpoint.h"
#include "solve_report.h"
#include "solve_state.h"
#include "table_format.h"
#include "turn_batch.h"

namespace martiandice::solver {
namespace {

// Most turn-score laws the settling passes keep (about 300 bytes each: 40 MB).
constexpr std::size_t kScoreLawEntries = std::size_t{1} << 17;

class GameSolver {
 public:
  GameSolver(const GameSolveOptions& options, GameSolveReport* report)
      : floor_(options.floor),
        report_(report),
        state_(options),
        schedule_(options, state_),
        share_(state_, schedule_, options.cluster),
        checkpoint_(options, state_, schedule_, share_, report),
        score_laws_(*state_.model, kScoreLawEntries),
        pool_(options.threads),
        threaded_(pool_),
        batch_(options.turn_batch ? *options.turn_batch : threaded_),
        final_(state_, schedule_, batch_),
        cycles_(options, state_, schedule_, score_laws_, options.turn_batch, pool_) {}

  // Solves every level not loaded from the checkpoint. Cancelled when stopped.
  absl::StatusOr<GameValues> Run() {
    absl::StatusOr<SolvePoint> resume = checkpoint_.Open();
    if (!resume.ok()) return resume.status();
    const long long resumed = schedule_.CostBefore(resume->level, resume->vectors);
    schedule_.SetResumed(resumed);
    report_->resumed_fraction = schedule_.Fraction(resumed);
    if (share_.enabled()) {
      // Every rank loaded its own vectors of the finished levels: now the others'.
      for (int k = 0; k < resume->level; ++k) {
        if (absl::StatusOr<LevelShare::Agreed> shared =
                share_.AfterLevel(k, absl::OkStatus(), false, false);
            !shared.ok()) {
          return shared.status();
        }
      }
    }
    if (absl::Status s = share_.enabled() ? SolveLevelsShared(*resume) : SolveLevels(*resume);
        !s.ok()) {
      return s;
    }
    report_->contexts = state_.index.size();
    if (share_.enabled()) {  // every rank's counters
      absl::StatusOr<std::vector<SolveStats>> ranks = share_.GatherStats(Counters(), Stats());
      if (!ranks.ok()) return ranks.status();
      std::vector<const SolveStats*> each;
      for (const SolveStats& r : *ranks) each.push_back(&r);
      ReportCounters(MergeCounters(CheckpointCounters(), each), each, report_);
    } else {
      ReportCounters(Counters(), Stats(), report_);
    }
    std::vector<int> from(state_.n, 0);  // the start, or the floor's first context
    if (!floor_.empty()) from = floor_;
    const double* start =
        &state_.win[state_.index.Index(state_.FirstMover(from.data()), from) * state_.n];
    report_->start.assign(start, start + state_.n);
    GameValues out;
    out.rules = state_.rules;
    out.players = state_.n;
    out.win = std::move(state_.win);
    out.error_bound = report_->error_bound;
    return out;
  }

 private:
  // The levels from `resume` on, with progress and checkpoints. A level's
  // final-round contexts (FinalRound) go first, its cycles after: where
  // those stop, at a prefix of the level's vectors, the counters of the
  // final-round contexts past it are dropped (they are solved again).
  absl::Status SolveLevels(SolvePoint resume) {
    const int levels = schedule_.levels();
    for (int k = resume.level; k < levels; ++k) {
      const SolvePoint from{k, k == resume.level ? resume.vectors : 0};
      if (schedule_.Stopped()) return checkpoint_.Interrupt(from, Counters());
      if (absl::Status s = final_.SolveLevel(k, from.vectors); !s.ok()) {
        final_.Commit(from.vectors);
        return checkpoint_.SaveAfter(s, from, Counters());
      }
      const CycleRounds::Done finished = cycles_.SolveLevel(k, from.vectors);
      final_.Commit(finished.vectors);
      if (!finished.status.ok()) {
        return checkpoint_.SaveAfter(finished.status, SolvePoint{k, finished.vectors}, Counters());
      }
      if (finished.vectors < schedule_.Level(k).size()) {
        return checkpoint_.Interrupt(SolvePoint{k, finished.vectors}, Counters());
      }
      schedule_.Progress(schedule_.CostBefore(k + 1, 0));
      if (k + 1 < levels && checkpoint_.Due()) {
        if (absl::Status s = checkpoint_.Write(SolvePoint{k + 1, 0}, Counters()); !s.ok()) {
          return s;
        }
      }
    }
    if (resume.level == levels) {  // the checkpoint held everything
      schedule_.Progress(schedule_.CostBefore(levels, 0));
    }
    return checkpoint_.Finish(/*solved=*/resume.level < levels, Counters());
  }

  // The levels from `resume` on in a cluster: each level's share of this
  // rank, then the level's values shared (level_share.h); the ranks stop,
  // fail and write checkpoints together, between levels. A failure (any
  // rank's) or a transport error (a rank gone) ends the solve at once: the
  // last checkpoints written hold the work.
  absl::Status SolveLevelsShared(SolvePoint resume) {
    const int levels = schedule_.levels();
    for (int k = resume.level; k < levels; ++k) {
      // Within a level only with one rank, from a checkpoint of a solve alone.
      const std::size_t from = k == resume.level ? resume.vectors : 0;
      absl::Status solved = final_.SolveLevel(k, from);
      std::size_t done = from;  // the level's prefix finished
      if (solved.ok()) {
        const CycleRounds::Done finished = cycles_.SolveLevel(k, from);
        solved = finished.status;
        done = finished.vectors;
      }
      final_.Commit(solved.ok() ? schedule_.Level(k).size() : done);
      absl::StatusOr<LevelShare::Agreed> agreed =
          share_.AfterLevel(k, solved, schedule_.StopAsked(), checkpoint_.Due());
      if (!agreed.ok()) {
        // A failed level is saved by a lone rank only (as alone); with more,
        // the last checkpoints, all at a level's start, keep the work.
        if (IsTransportError(agreed.status()) || schedule_.ranks() > 1) return agreed.status();
        return checkpoint_.SaveAfter(agreed.status(), SolvePoint{k, done}, Counters());
      }
      schedule_.Progress(schedule_.CostBefore(k + 1, 0));
      if (k + 1 == levels) break;
      if (agreed->stop) return checkpoint_.Interrupt(SolvePoint{k + 1, 0}, Counters());
      if (agreed->checkpoint) {
        if (absl::Status s = checkpoint_.Write(SolvePoint{k + 1, 0}, Counters()); !s.ok()) {
          return s;
        }
      }
    }
    if (resume.level == levels) schedule_.Progress(schedule_.CostBefore(levels, 0));
    return checkpoint_.Finish(/*solved=*/resume.level < levels, Counters());
  }

  // The stats of the work so far: the final round's and the cycle slots'.
  std::vector<const SolveStats*> Stats() const {
    std::vector<const SolveStats*> all{&final_.stats()};
    all.insert(all.end(), cycles_.stats().begin(), cycles_.stats().end());
    return all;
  }
  // The counters of the work so far: the solve's and the checkpoint's.
  CheckpointCounters Counters() const { return MergeCounters(checkpoint_.loaded(), Stats()); }

  const std::vector<int> floor_;
  GameSolveReport* const report_;
  SolveState state_;
  LevelSchedule schedule_;
  LevelShare share_;  // with a cluster: the levels' values, statuses, counters
  SolveCheckpoint checkpoint_;
  ScoreLawCache score_laws_;    // of the settling passes, by policy
  WorkerPool pool_;             // the solve's threads: its steps and its threaded batches
  ThreadedTurnBatch threaded_;  // the turn batches' solver unless options.turn_batch
  TurnBatchSolver& batch_;
  FinalRound final_;
  CycleRounds cycles_;
};

}  // namespace

namespace {

absl::Status OutOfMemory() {
  return absl::ResourceExhaustedError(
      "out of memory while solving: the system refused an allocation; free memory or use fewer "
      "threads (--threads)");
}

}  // namespace

absl::StatusOr<GameValues> SolveGameValues(const GameSolveOptions& options,
                                           GameSolveReport* report) {
  if (absl::Status s = ValidateRules(options.rules); !s.ok()) return s;
  if (options.players < kMinPlayers || options.players > kMaxPlayers) {
    return absl::InvalidArgumentError(absl::StrFormat("players must be %d..%d, got %d", kMinPlayers,
                                                      kMaxPlayers, options.players));
  }
  if (options.threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrFormat("threads must be at least 1, got %d", options.threads));
  }
  if (!(options.progress_interval >= 0) || !(options.checkpoint_interval >= 0)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("progress and checkpoint intervals must be >= 0 seconds, got %g and %g",
                        options.progress_interval, options.checkpoint_interval));
  }
  if (options.guess_order < 1 || options.guess_order > kMaxGuessOrder ||
      (options.guess_order != 1 && !options.checkpoint.empty())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("the guess order must be 1 to %d (and 1 with a checkpoint), got %d",
                        kMaxGuessOrder, options.guess_order));
  }
  if (options.probe_guess_order < 0 || options.probe_guess_order > kMaxGuessOrder ||
      (options.probe_guess_order != 0 && !options.checkpoint.empty())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("the probe guess order must be 0 to %d (and 0 with a checkpoint), got %d",
                        kMaxGuessOrder, options.probe_guess_order));
  }
  if (options.cycles_in_flight < 1 || options.cycles_in_flight > kMaxCyclesInFlight) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "cycles in flight must be 1 to %d, got %d", kMaxCyclesInFlight, options.cycles_in_flight));
  }
  if (options.players == 2 && options.arithmetic == SolveArithmetic::kAuto &&
      (options.guess_order != 1 || options.probe_guess_order != 0)) {
    return absl::InvalidArgumentError(
        "the 2-player solve takes no guess order or probe (its cycles are solved by the pair "
        "kernel; those are for 3 or more players)");
  }
  if (!options.floor.empty() &&
      (static_cast<int>(options.floor.size()) != options.players || !options.checkpoint.empty())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("a floor needs one total per seat (%d, got %d) and no checkpoint",
                        options.players, static_cast<int>(options.floor.size())));
  }
  GameSolveReport local;
  if (report == nullptr) report = &local;
  *report = GameSolveReport();
  auto begin = std::chrono::steady_clock::now();
  try {  // a worker's failed allocation is rethrown on this thread (workers.h)
    absl::StatusOr<GameValues> values = GameSolver(options, report).Run();
    report->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return values;
  } catch (const std::bad_alloc&) {
    return OutOfMemory();
  }
}

namespace {

// The machine's memory in bytes; 0 when unknown.
double PhysicalMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0;
}

// A table too large to make here (kMaxSolveTableBytes, or values beyond memory).
absl::Status CheckTableSize(const GameSolveOptions& options) {
  if (options.players < kMinPlayers || options.players > kMaxPlayers) return absl::OkStatus();
  const long long contexts = internal::ContextNumbering(options.rules, options.players).size();
  const double values = 8.0 * options.players * static_cast<double>(contexts);
  const double bytes = static_cast<double>(TableBytes(options.rules, options.players));
  if (bytes > static_cast<double>(kMaxSolveTableBytes)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%d players with these rules have %d turn-start contexts: the table would take %.3g "
        "bytes, more than the %d GiB one machine solves (its memory holds every value); lower "
        "the target or the number of players",
        options.players, contexts, bytes, kMaxSolveTableBytes >> 30));
  }
  if (const double memory = PhysicalMemory(); memory > 0 && values > memory) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%d players with these rules have %d turn-start contexts: their values take %.3g bytes, "
        "more than this machine's memory (%.3g bytes); lower the target or the number of "
        "players",
        options.players, contexts, values, memory));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<GameValues> SolveTableValues(const GameSolveOptions& options,
                                            GameSolveReport* report) {
  if (absl::Status s = ValidateRules(options.rules); !s.ok()) return s;
  // A table that cannot be made is not worth the solve (nor its memory).
  if (absl::Status s = CheckTableSize(options); !s.ok()) return s;
  GameSolveReport local;
  absl::StatusOr<GameValues> values = SolveGameValues(options, report ? report : &local);
  if (!values.ok()) return values.status();
  // A zero-score cycle that did not converge leaves values without a bound
  // (docs/PLAYERS.md, "Zero-score cycles" and "Mixed cycles"): no table a
  // reader would refuse, or worse trust, is written.
  if (!(values->error_bound < 1e-9)) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the %d-player solve could not bound its values (error bound %g): a zero-score cycle "
        "did not converge within %d rounds of policy iteration (its best replies alternate; "
        "see docs/PLAYERS.md); no table written",
        values->players, values->error_bound, kMaxCycleRounds));
  }
  return values;
}

absl::StatusOr<std::string> SolveGameTable(const GameSolveOptions& options,
                                           GameSolveReport* report) {
  absl::StatusOr<GameValues> values = SolveTableValues(options, report);
  if (!values.ok()) return values.status();
  try {  // the table's bytes: as many again as the values
    return internal::SerializeTable(values->rules, values->players, values->error_bound,
                                    values->win);
  } catch (const std::bad_alloc&) {
    return OutOfMemory();
  }
}

absl::Status WriteGameTable(const GameValues& values, const std::string& path,
                            absl::FunctionRef<absl::Status(const std::string& temporary)> check) {
  absl::StatusOr<std::unique_ptr<AtomicFileWriter>> writer = AtomicFileWriter::Create(path);
  if (!writer.ok()) return writer.status();
  internal::TableEncoder encoder(values.rules, values.players, values.error_bound);
  const std::span<const double> win(values.win);
  // The header's room first: it is complete once every block's checksum is known.
  if (absl::Status s = (*writer)->Append(std::string(internal::kTableHeaderSize, '\0')); !s.ok()) {
    return s;
  }
  for (std::int64_t b = 0; b < encoder.block_count(); ++b) {
    const std::int64_t first = encoder.BlockBegin(b) * values.players;
    const std::int64_t end = encoder.BlockEnd(b) * values.players;
    if (absl::Status s = (*writer)->Append(encoder.Block(b, win.subspan(first, end - first)));
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = (*writer)->Append(encoder.Checksums()); !s.ok()) return s;
  if (absl::Status s = (*writer)->WriteAt(0, encoder.Header()); !s.ok()) return s;
  if (absl::Status s = check((*writer)->temporary()); !s.ok()) return s;
  return (*writer)->Commit();
}

}  // namespace martiandice::solver
