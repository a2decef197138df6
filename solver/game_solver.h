// The game-level solve (docs/PLAYERS.md): every seat's probability of winning
// at every turn-start context when every seat maximises its own chance, ties
// broken by the fixed convention, for any player count 2..kMaxPlayers; and
// the policy table file that stores it (docs/FORMAT.md).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"
#include "zero_pages.h"

namespace martiandice::solver {

class TurnBatchSolver;  // turn_batch.h
class SolveCluster;     // solve_cluster.h

// Arithmetic of the turn solves. kExtended (x87 long double, or its
// software twin SoftX87 where the compiler has none: src/wide.h) rounds about
// 2,000 times less per solve but is slower; kDouble meets the 1e-13 bound for
// 3 and 4 players too (the error bound is propagated as an expectation over
// each turn's outcomes, cycle_solve.cpp), but its rounding noise leaves
// stored values that should be equal (e.g. two certain wins) an ulp apart, so
// some of the reader's ties are no longer exact on the stored numbers and the
// table cannot be certified. kAuto, what the shipped tables use: for 2
// players the pair kernel (both movers of a cycle in one double pass of the
// plain turn solve, Newton steps along their zero-score slopes: ties cannot
// change a value when the other seat's chance is the complement), for more
// the convention solve in extended precision. kDouble and kExtended run the
// convention solve for any number of players.
enum class SolveArithmetic { kAuto, kDouble, kExtended };

// Bound assumed on the rounding error of one double turn solve's values
// (sums of a few thousand non-negative terms below 1): the largest seen
// against exact rational solves of the same utilities is 7.8e-16
// (tests/solver/game_solver_test.cpp checks contexts of the official game).
inline constexpr double kTurnSolveRounding = 1e-15;

// Policy iteration on a zero-score cycle: at most kMaxCycleRounds rounds; a
// round is accepted once its residual r is at rounding level (the largest
// seen for the official game is about 1e-15), or once r stops halving below
// kCycleStallResidual (rounding noise, not a policy change).
inline constexpr int kMaxCycleRounds = 60;
inline constexpr double kCycleAcceptResidual = 2e-15;
inline constexpr double kCycleStallResidual = 1e-14;

// Bound assumed on the rounding of one extended-precision turn solve's values
// once stored as doubles: the conversion (half an ulp of 1, 1.1e-16) plus the
// extended sums (about 1e-18); checked against exact rational solves in
// tests/solver/game_solver_test.cpp.
inline constexpr double kExtendedTurnRounding = 2e-16;
// The extended sums' part alone: the rounding of an extended solve's values
// before they are stored as doubles (ConventionTurn::wide_value), which the
// mixed cycles' indifference points use (checked there too).
inline constexpr double kWideTurnRounding = 1e-18;

// What the progress callback is told.
struct GameSolveProgress {
  // Fraction of the work done, 0..1, including work loaded from a checkpoint:
  // score vectors weighted by their expected cost (a zero-score cycle about
  // kCycleCost per seat, a final-round context far less). Never decreases;
  // exactly 1 at the last call of a finished solve.
  double fraction = 0;
  double seconds = 0;  // wall time of this run so far
  // Estimate of the wall time left, from this run's rate; negative while
  // unknown (no work finished yet in this run).
  double seconds_left = -1;
};

struct GameSolveOptions {
  Rules rules;
  int players = 3;
  SolveArithmetic arithmetic = SolveArithmetic::kAuto;
  // Worker threads (>= 1): the zero-score cycles' steps between batches,
  // and the turns of a turn batch (unless turn_batch is set), run in
  // parallel.
  int threads = 1;
  // Called from the calling thread after every level (score vectors of one
  // sum), and within a level at most every progress_interval seconds (0:
  // after every cycle the calling thread solves, or with turn_batch every
  // round of the cycles in flight). May set *stop.
  std::function<void(const GameSolveProgress&)> progress;
  double progress_interval = 0.25;
  // Checkpoint file (docs/PLAYERS.md "Checkpoints"); empty: none. If it
  // exists and belongs to this solve, its finished work is loaded and not
  // redone (the result is bit for bit that of an uninterrupted solve); if it
  // belongs to another solve or is damaged the solve fails without touching
  // it. Written (atomically) at the start, after a level once
  // checkpoint_interval seconds passed since the last write (and at least
  // 20 times the last write's duration, bounding the overhead near 5%), and
  // when stopped. Deleted after a finished solve, unless keep_checkpoint:
  // then rewritten with the whole solve, which solving again only loads
  // (a caller that must still write the result deletes it once written).
  std::string checkpoint;
  double checkpoint_interval = 60;
  bool keep_checkpoint = false;
  // How the Cancelled message of a stopped solve with a checkpoint ends, after
  // "...saved in <checkpoint>: ": how the caller's user resumes.
  std::string resume_hint = "run the same solve with that checkpoint to resume";
  // When set (by a signal handler, the progress callback or another thread;
  // polled between turn batches), the solve finishes the cycles in flight
  // (with turn_batch: drops them, to be solved again on resuming), writes
  // the checkpoint and returns Cancelled.
  const std::atomic<bool>* stop = nullptr;
  // Empty, or one total per seat: only the score vectors at or above these
  // totals (seat by seat) are solved, the others' vectors left zero: the
  // endgame from a position, for tests and diagnosis. Not with a checkpoint.
  std::vector<int> floor;
  // Order (1..kMaxGuessOrder) of the extrapolation from the solved score
  // vectors above that starts each zero-score cycle's policy iteration. It
  // selects the equilibrium where a cycle has several (docs/PLAYERS.md): 1,
  // linear, is what the tables hold; others are for tests and diagnosis,
  // not with a checkpoint.
  int guess_order = 1;
  // Diagnosis (0: off; else 1..kMaxGuessOrder, not with a checkpoint): every
  // zero-score cycle is solved again from a start of this order, against the
  // same solved vectors above it, and compared (GameSolveReport::probe_*); the
  // values kept are guess_order's. About doubles the cycles' work.
  int probe_guess_order = 0;
  // The solver of the turn batches (turn_batch.h: every turn of the solve),
  // not owned; null: the worker threads (`threads` of them). Any solver
  // meeting that header's contract gives the same values, bit for bit.
  TurnBatchSolver* turn_batch = nullptr;
  // With turn_batch: most zero-score cycles in flight at once in lockstep
  // rounds (1..kMaxCyclesInFlight; each round's batch is about P / 2 turns
  // per live cycle, and each cycle holds its movers' recorded policies,
  // about 47 KB a mover for the official rules); 0: the turn batch's choice
  // (TurnBatchSolver::CyclesInFlight). The values do not depend on it.
  std::size_t cycles_in_flight = 0;
  // The ranks this process solves with (solve_cluster.h: MPI, mpi_cluster.h),
  // not owned; null: alone. Every rank calls the solve with the same options
  // but this one; each solves its share of each level's score vectors and the
  // ranks send each other the level's values their next levels read
  // (level_share.h); each returns its own vectors' values, bit for bit those
  // of a solve alone, and the report's figures of the whole solve. The
  // stop flag is agreed between levels (a level started is finished), and
  // checkpoints are a file per rank (the checkpoint's name with
  // ".rank-R-of-N" added, with more than one rank), written between levels.
  SolveCluster* cluster = nullptr;
};
inline constexpr int kMaxGuessOrder = 3;

// Expected cost of one zero-score cycle per seat, in turn solves (its
// search rounds' solves and its settling pass, about three), against a
// final-round context's kFinalCost (one solve, most of them reused): the
// progress weights, of which only the ratio matters.
inline constexpr double kCycleCost = 3.2;
inline constexpr double kFinalCost = 0.25;

// A zero-score cycle whose movers mix (docs/PLAYERS.md "Mixed cycles").
struct MixedCycleReport {
  std::vector<int> scores;  // every seat's total
  // Per mover: the weight of its bolder policy (the larger chance of a
  // zero-score turn); -1 for a mover that does not mix.
  std::vector<double> weights;
  double error = 0;  // the mixture's share of the cycle's error bound
};

// What the solve measured.
struct GameSolveReport {
  long long contexts = 0;     // turn-start contexts (docs/FORMAT.md numbering)
  long long turn_solves = 0;  // turn dynamic programs run
  long long cycles = 0;       // zero-score cycles solved (score vectors below the target)
  int max_rounds = 0;         // most policy-iteration rounds one cycle needed
  double mean_rounds = 0;     // average rounds per cycle
  double max_residual = 0;    // largest change of any value in the settling solve
  double error_bound = 0;     // bound on every value's error
  // Ties are counted by the convention solve only (not by the 2-player pair kernel).
  long long tied_decisions = 0;       // decision points (per context) where the mover was tied
  long long kingmaking = 0;           // ... where the tied actions differ for another seat
  long long kingmaking_contexts = 0;  // contexts with at least one such decision point
  // Settling passes (one per mover of a cycle settled in extended precision),
  // and those whose policy an earlier pass had played: its turn-score law
  // was taken from the solve's store (score_law_cache.h) instead of summed
  // again. This run's only (not the checkpoint's).
  long long settle_passes = 0;
  long long settle_reused = 0;
  // Zero-score cycles without a pure equilibrium, whose movers mix, and the
  // largest share of the error bound their mixture contributes.
  long long mixed_cycles = 0;
  double mixing_error = 0;
  // Those cycles, by score vector (this run's only: a resumed solve lists
  // the cycles it solved, the counts above include the checkpoint's).
  std::vector<MixedCycleReport> mixed;
  double seconds = 0;  // wall time of this run
  // With turn_batch: the lockstep rounds' most cycles in flight
  // (GameSolveOptions::cycles_in_flight, or the batch solver's choice); else 0.
  std::size_t cycles_in_flight = 0;
  // turn_solves counts the runs' turn solves together: a resumed solve redoes
  // some final-round solves the reuse cache had saved, so it may exceed an
  // uninterrupted solve's; every other counter is the same.
  double resumed_fraction = 0;     // of the work loaded from a checkpoint
  double earlier_seconds = 0;      // wall time of the runs before (checkpoint)
  int checkpoints_written = 0;     // by this run
  long long checkpoint_bytes = 0;  // size of the last one written
  double checkpoint_seconds = 0;   // wall time of this run's checkpoint writes
  // Every seat's chance at the start of the game (with a floor: at the
  // floor's totals, the first seat that moves there).
  std::vector<double> start;
  // With probe_guess_order: the cycles whose second solve reached vectors
  // more than kProbeApart from the kept ones (another fixed point: both
  // converged to within their bounds), the largest such difference, and up
  // to kProbeExamples of their score vectors (sorted).
  long long probe_apart = 0;
  double probe_largest = 0;
  std::vector<std::vector<int>> probe_examples;
  // ... and the cycles whose second solve did not converge (policy iteration
  // from that start neither settled nor found a mixture: no value to
  // compare), with up to kProbeExamples of their score vectors (sorted).
  long long probe_unconverged = 0;
  std::vector<std::vector<int>> probe_unconverged_examples;
  // Zero-score cycles that did not converge (their values' bound is
  // infinite): up to kProbeExamples of their score vectors (sorted), this
  // run's only.
  std::vector<std::vector<int>> unconverged_examples;
};
inline constexpr double kProbeApart = 1e-9;
inline constexpr int kProbeExamples = 32;

// Every context's vector: win[index * players + seat]. A rank of a cluster's
// holds its own score vectors' (SolveState::Own), the others' left zero.
struct GameValues {
  Rules rules;
  int players = 0;
  ValueVector win;
  double error_bound = 0;
};

// Solves the game. Errors: InvalidArgument for rules out of range, a player
// count outside 2..kMaxPlayers, threads < 1 or a negative interval;
// a floor of the wrong size or with a checkpoint; a guess order out of range
// or other than 1 with a checkpoint;
// Cancelled when stopped (the message says whether and where the work was
// saved); ResourceExhausted when worker threads cannot be started
// (workers.h; the finished work is saved in the checkpoint, if
// any) or memory runs out (nothing more saved); the checkpoint's read errors (DataLoss: damaged,
// FailedPrecondition: of another solve) and write errors.
absl::StatusOr<GameValues> SolveGameValues(const GameSolveOptions& options,
                                           GameSolveReport* report);

// Solves the game (SolveGameValues with `options`) for a policy table;
// `report` (may be null) gets the solve's figures. Errors: as
// SolveGameValues's, and InvalidArgument, before any work, when the table
// needs more processes than it has (TableSolveProcesses) or its values more
// than this machine's memory (in a cluster of R ranks: a 1/R share);
// FailedPrecondition when the solve cannot bound its values (a zero-score
// cycle that does not converge).
absl::StatusOr<GameValues> SolveTableValues(const GameSolveOptions& options,
                                            GameSolveReport* report);

// SolveTableValues, then the table's bytes in memory (as much again as the
// values). Errors: SolveTableValues's; ResourceExhausted when memory runs out.
absl::StatusOr<std::string> SolveGameTable(const GameSolveOptions& options,
                                           GameSolveReport* report);

// Writes the table of `values` (SolveTableValues's) to `path` as a stream, a
// block of records at a time (no copy of the table in memory), into a
// temporary file (AtomicFileWriter) that replaces `path` once `check`, given
// the temporary's path, accepts it (e.g. reads it back). `values` is
// consumed: its win is freed once the records are written, before `check`
// runs (a read-back never holds the table twice), whatever the outcome.
// Errors: AtomicFileWriter's, or `check`'s (then `path` is left as it was).
absl::Status WriteGameTable(GameValues&& values, const std::string& path,
                            absl::FunctionRef<absl::Status(const std::string& temporary)> check);

// WriteGameTable for the ranks of `cluster`, each with its own `values`
// (SolveTableValues's in the cluster, consumed: freed once its records are
// written), collective: rank 0 creates the temporary, every rank writes its
// contexts' records into it and reads its share of the blocks back for their
// checksums, then rank 0 writes the checksums and the header, calls `check`
// (only there) and renames it over `path`. `path` must name one file for
// every rank (one machine, or a shared file system). Errors (every rank gets
// the first failed rank's, named): AtomicFileWriter's; DataLoss when a rank
// cannot write or read the temporary; `check`'s; the cluster's transport
// errors.
absl::Status WriteGameTableShared(
    GameValues&& values, const std::string& path, SolveCluster& cluster,
    absl::FunctionRef<absl::Status(const std::string& temporary)> check);
}  // namespace martiandice::solver
