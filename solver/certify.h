// Certification of a policy table: every decision a reader derives from it
// (stop or roll, which take), checked against the table's error bound, with
// ties re-verified exactly (Boost.Multiprecision rationals).
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/game.h"

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
  // Values-only (N-player) certification only (solver/certify_nplayer.h):
  long long structural_ties = 0;       // of the exact ties: proven without a re-solve, from
                                       // the order of the utilities alone (e.g. every outcome
                                       // reachable has the same utility, or stopping already
                                       // secures the best one reachable)
  long long partial_exact_solves = 0;  // rational solves of the tied positions' subtrees alone
  long long kingmaking_ties = 0;       // ties whose tied options differ for another seat
  long long kingmaking_contexts = 0;   // contexts with at least one such tie
  // Largest gap between a stored value (any seat) and the reader's turn solve
  // of its own context: how well the stored vectors solve their own turns.
  double largest_value_gap = 0;
  // Contexts whose stored vector is a mixed cycle's mixture (docs/PLAYERS.md
  // "Mixed cycles"): another seat's stored chance differs from the reader's
  // pure solve by more than 1e-9 (their gaps are left out of
  // largest_value_gap; the mover's own is in it). The mover is indifferent
  // there up to the bound: its decisions within margin_threshold are counted
  // as mixing decisions, neither ties nor margins.
  long long mixed_contexts = 0;
  long long mixing_decisions = 0;
  // Values-only certification: the inexact ties by what the table proves of
  // the convention's pick (the true values lie within error_bound of the
  // stored ones, so exact gaps above margin_threshold are the truth's order):
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
  // Non-tie margins must exceed this: twice the error bound (plus, for a
  // values-only table, twice the rounding of the reader's own turn solve).
  double margin_threshold = 0;
  // Every non-tie decision's margin exceeds margin_threshold, so the option
  // the table ranks first is truly best; and every tie is exact.
  bool certified = false;
  double seconds = 0;
};

// The option with the largest value and the next largest (another option,
// possibly the same position): `values[options[i]]` is option i's value,
// `count` >= 2. Returns indices into `options`; ties go to the lower index.
struct BestAndSecondOptions {
  int best = 0;
  int second = 1;
};
BestAndSecondOptions BestAndSecond(const std::vector<double>& values, const int* options,
                                   int count);

// Certifies the table in `bytes` (a policy table file, read with the public
// reader). Errors: the reader's, for a file it refuses; Unimplemented for a
// format version 2 table (no stored roll values).
absl::StatusOr<CertificationReport> CertifyTable(const std::string& bytes);
// The same for a table already read (a format version 1 one).
absl::StatusOr<CertificationReport> CertifyTable(const GameTable& table);

}  // namespace martiandice::solver
