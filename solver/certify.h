// Certification of a game's values (every context's vector of win
// probabilities: a policy table, or solver::GameValues): every decision a
// reader derives by solving a turn over the stored vectors is checked against
// the error bound, ties re-verified exactly (Boost.Multiprecision rationals).
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "game_solver.h"
#include "martiandice/table.h"

namespace martiandice::solver {

struct CertificationReport {
  long long contexts = 0;          // turn-start contexts checked
  long long decisions = 0;         // decisions with two or more options
  double smallest_margin = 0;      // smallest gap best vs second best among non-ties
  double tie_tolerance = 0;        // gaps at or below it are ties (docs/FORMAT.md)
  double error_bound = 0;          // the table's bound on every value's error
  long long ties = 0;              // decisions reported as ties
  long long symmetric_ties = 0;    // of which: two earthling types with equal counts
  long long exact_ties = 0;        // of which: other ties, exactly equal on re-verification
  long long inexact_ties = 0;      // of which: exact values differ (below the tolerance)
  double largest_inexact_gap = 0;  // the largest such exact gap
  long long exact_solves = 0;      // rational turn solves used for the re-verification
                                   // (one per distinct utility, whatever the threads)
  long long structural_ties = 0;       // of the exact ties: proven without a re-solve, from
                                       // the order of the utilities alone (e.g. every outcome
                                       // reachable has the same utility, or stopping already
                                       // secures the best one reachable)
  long long partial_exact_solves = 0;  // rational solves of the tied positions' subtrees alone
  long long kingmaking_ties = 0;       // ties whose tied options differ for another seat
  long long kingmaking_contexts = 0;   // contexts with at least one such tie
  // Largest gap between a stored value (any seat) and the reader's turn solve
  // of its own context: how well the stored vectors solve their own turns.
  // Values within error_bound of a fixed point of the turn solves are within
  // twice that of their own solve, so a certified table has this at most
  // value_threshold. At a mixed context (below) another seat's gap is how
  // far its stored chance lies outside the range its turn gives it under
  // every mixture of the mover's options within value_threshold of its best
  // (margin_threshold is the same there: a mixed context leaves no derived
  // bound).
  double largest_value_gap = 0;
  // Contexts whose stored vector is a mixed cycle's mixture (docs/PLAYERS.md
  // "Mixed cycles"): another seat's stored chance differs from the reader's
  // pure solve by more than 1e-9. The mover is indifferent there up to the
  // bound: its decisions within value_threshold are counted as mixing
  // decisions, neither ties nor margins, and the other seats' chances are
  // checked against the range above, not the pure solve. Two players never
  // mix (the other seat's chance is the complement), nor do the solves of 3
  // (mixed cycles come with 4 players): a certified table of 2 or 3 has none.
  long long mixed_contexts = 0;
  long long mixing_decisions = 0;
  // Values-only certification: the inexact ties by what the table proves of
  // the convention's pick, on the table's word (the true values lie within
  // error_bound of the stored ones, so exact gaps above value_threshold are
  // the truth's order; the derived bound is not known yet when a tie is
  // judged):
  // undecided (the options are closer than that), the pick proven the best,
  // or proven worse than another option by largest_pick_loss at most.
  long long inexact_undecided = 0;
  long long inexact_pick_best = 0;
  long long inexact_pick_worse = 0;
  double largest_pick_loss = 0;
  // Values-only certification: the first inexact ties found (at most
  // kInexactExamples; which ones depends on the thread schedule), so that a
  // failed certification says where to look.
  struct InexactTie {
    std::vector<int> scores;      // the context: every seat's total
    int seat = 0;                 // the mover
    std::string a, b;             // the tied options: positions, or "stop"/"roll" at one position
    double gap = 0;               // their exact values' difference (mover's utility)
    std::vector<double> utility;  // the mover's stored utility by turn score 0..max
  };
  static constexpr int kInexactExamples = 16;
  std::vector<InexactTie> inexact_examples;
  // The certifier's own bound on every value's error, derived from the
  // stored vectors alone (not the table's word): each context's distance to
  // its own turn solve plus kReaderTurnRounding, carried down from the game's
  // end by decreasing score sum through the turn-score law of the reader's
  // decisions (a context's error is at most its own distance plus the
  // expected error of where its turn leads; around a cycle of zero-score
  // turns, that sum over 1 - the product of their zero chances). It holds if
  // the reader's decisions are the exact values' (the margins, checked
  // against it, prove that for non-ties; ties follow the tie convention, as
  // in the solve), and if each of the reader's turn solves rounds by at most
  // kReaderTurnRounding in every seat's chance (which absorbs the rounding
  // of a split win's 1/k too). NaN where it cannot be derived: a mixed
  // context (a mixture is no turn solve's fixed point), or a context whose
  // dependency lies above the ceiling (not checked); +inf where a zero-score
  // cycle's chance rounds to 1. It carries kReaderTurnRounding at every turn
  // of a game, so it usually exceeds the bound an extended-precision solve
  // states for itself (the official 3-player table: 2.11e-14 against
  // 6.53e-15). Certification does not confirm the stated bound: it proves
  // the decisions against the larger of the two.
  double derived_bound = 0;
  // Non-tie margins must exceed this: twice the larger of error_bound and
  // derived_bound (error_bound alone where derived_bound is NaN) plus twice
  // the rounding of the reader's own turn solve.
  double margin_threshold = 0;
  // Stored values must lie within this of their own turn solve, as values
  // within error_bound of the fixed point do: twice error_bound plus twice
  // the reader's rounding. Inexact ties are judged against it too.
  double value_threshold = 0;
  // Every non-tie decision's margin exceeds margin_threshold, so the option
  // the table ranks first is truly best (with the derived bound, even if the
  // table's error_bound understates its errors); every tie is exact; every
  // stored value is within value_threshold of its own turn solve; and a
  // table of 2 or 3 players has no mixed context. Where derived_bound is NaN
  // (a mixed context), all of it is relative to the table's error_bound.
  bool certified = false;
  double seconds = 0;
};

// The option with the largest value and the next largest of another
// position (the same position only where every option reaches it):
// `values[options[i]]` is option i's value, `count` >= 2. Returns indices
// into `options`; ties go to the lower index.
struct BestAndSecondOptions {
  int best = 0;
  int second = 1;
};
BestAndSecondOptions BestAndSecond(const std::vector<double>& values, const int* options,
                                   int count);


// Rounding assumed of the reader's own double turn solve (the convention
// solve over the stored vectors): the two-player solver's bound on one turn
// solve (kTurnSolveRounding, game_solver.h), the same sums.
inline constexpr double kReaderTurnRounding = 1e-15;

// Certifies `values`: for every context (every mover, docs/FORMAT.md
// numbering) the mover's utility by turn score is built as a reader builds it
// (the stored vector of the context each score leads to; at the end of the
// game, tied leaders split the win exactly), the turn is solved in double
// with the tie convention of docs/PLAYERS.md, and every decision is measured
// in the mover's own utility: stop against roll at every position after a
// take with dice left, and every take from every roll (best against second
// best distinct resulting position). A margin at most 1e-12 is a tie; ties
// are exact when the options are the same position up to relabelling
// earthlings ("symmetric"), when the order of the utilities alone fixes both
// exact values ("structural": e.g. every outcome either option can reach has
// the same utility, or stopping there already secures the best utility
// reachable), or when a rational re-solve of the turn (the stored doubles
// taken as exact rationals; one per distinct utility) gives the options
// equal values. Ties
// whose tied options differ by more than 1e-12 for another seat are counted
// as kingmaking. Certified: smallest non-tie margin > margin_threshold =
// 2 x (max(error_bound, derived_bound) + kReaderTurnRounding), and no inexact
// tie, and largest_value_gap <= value_threshold. Contexts are checked by
// decreasing score sum, so that each one's derived bound can use those of the
// contexts its turn leads to.
//
// Errors: Cancelled when stopped; InvalidArgument for rules out of range, a player count outside
// 2..kMaxPlayers, a value vector of the wrong size, a value or bound that is
// not a number, or threads < 1; ResourceExhausted when the worker threads
// cannot be started (RunWorkers, workers.h). Thread-safe (reads `values` only).
struct CertifyOptions {
  // Worker threads (>= 1) sharing the contexts. Every figure but the counts
  // of re-solves (each thread caches its verdicts per utility) and the time
  // is the same for any number.
  int threads = 2;
  // Ties whose positions have at most this many dice left are re-verified by
  // an exact solve of those positions' subtrees alone (fast: a few positions);
  // others by a rational solve of the whole turn. -1: always the whole turn.
  int local_exact_max_left = 4;
  // Empty, or one total per seat: only the contexts at or above these totals
  // (an endgame solved with GameSolveOptions::floor), and at or below the
  // ceiling's, are checked.
  std::vector<int> floor, ceiling;
  // When set (polled between chunks of at most 64 contexts), the certification stops
  // and returns Cancelled.
  const std::atomic<bool>* stop = nullptr;
  // When set, told the fraction of the contexts done (0..1, not decreasing),
  // from the calling thread: after each chunk it certifies itself, and 1 once
  // every context is done.
  std::function<void(double fraction)> progress;
};
absl::StatusOr<CertificationReport> CertifyGameValues(const GameValues& values,
                                                      const CertifyOptions& options = {});


// Certifies a table read with the public reader: CertifyGameValues over its
// stored vectors and error bound. Errors: as CertifyGameValues's.
absl::StatusOr<CertificationReport> CertifyTable(const GameTable& table,
                                                 const CertifyOptions& options = {});

}  // namespace martiandice::solver
