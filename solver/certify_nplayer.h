// Certification of an N-player solution held as values only (every context's
// vector of win probabilities, solver::GameValues): every decision a reader
// derives by solving a turn over the stored vectors is checked against the
// error bound, ties re-verified exactly (Boost.Multiprecision rationals).
#pragma once

#include "absl/status/statusor.h"
#include "certify.h"
#include "nplayer_solver.h"

namespace martiandice::solver {

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
// 2 x (error_bound + kReaderTurnRounding), and no inexact tie.
//
// Errors: Cancelled when stopped; InvalidArgument for rules out of range, a player count outside
// 2..kMaxPlayers, a value vector of the wrong size, a value or bound that is
// not a number, or threads < 1. Thread-safe (reads `values` only).
struct NPlayerCertifyOptions {
  // Worker threads (>= 1) sharing the contexts. Every figure but the counts
  // of re-solves (each thread caches its verdicts per utility) and the time
  // is the same for any number.
  int threads = 2;
  // Ties whose positions have at most this many dice left are re-verified by
  // an exact solve of those positions' subtrees alone (fast: a few positions);
  // others by a rational solve of the whole turn. -1: always the whole turn.
  int local_exact_max_left = 4;
  // Empty, or one total per seat: only the contexts at or above these totals
  // (an endgame solved with NPlayerSolveOptions::floor), and at or below the
  // ceiling's, are checked.
  std::vector<int> floor, ceiling;
  // When set (polled between chunks of 64 contexts), the certification stops
  // and returns Cancelled.
  const std::atomic<bool>* stop = nullptr;
};
absl::StatusOr<CertificationReport> CertifyGameValues(const GameValues& values,
                                                      const NPlayerCertifyOptions& options = {});

}  // namespace martiandice::solver
