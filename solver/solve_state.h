// What every part of the game solve shares: the rules and the numbering of
// the turn-start contexts, the solved vectors and their error bounds, what a
// turn's outcome leads to (the next context or the game's end, rules.h), and
// the convention solve of one mover's turn (its request, turn_batch.h, and
// what is kept of its result) with its per-slot buffers. Internal to the
// solver.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "convention_turn.h"
#include "game_solver.h"
#include "martiandice/context.h"
#include "solve_report.h"
#include "table_format.h"
#include "turn_batch.h"
#include "turn_model.h"
#include "value_window.h"
#include "wide.h"
#include "zero_pages.h"

namespace martiandice::solver {

using internal::Wide;

// A solved chance as stored: the exact value is a probability, so rounding
// that strays past 0 or 1 is cut back, which only brings it closer.
inline double Probability(double value) { return std::clamp(value, 0.0, 1.0); }

// The rank of `ranks` that solves the score vectors with seat 0's total
// `total` (so a turn of seats 1.. stays within a rank's vectors).
inline int RankOfTotal(int total, int ranks) { return total % ranks; }

// One mover's turn solved for a guess of the next context's vector: its
// chance of a zero-score turn p, every seat's expected chance E, and its tie
// counts.
struct MoverTurn {
  double p = 0;
  std::vector<double> e;
  // With more than two players (a cycle's turn): the expected error bound of
  // the scoring outcomes' contexts, sum over x >= 1 of P(x) * error(next_x).
  double d = 0;
  long long tied = 0, kingmaking = 0;  // the solve's tie counts
  // p and E before rounding to double (mixed cycles need the digits).
  Wide wide_p = 0;
  std::vector<Wide> wide_e;

  explicit MoverTurn(int players = 0) : e(players), wide_e(players) {}
};

// One worker's or cycle slot's buffers of the turn solves (reused by every
// solve there), and what it measured.
struct TurnScratch {
  std::vector<double> over;       // game-over vectors, by turn score
  TurnPosts posts;                // a cycle's turns of the round (cycle_rounds.h)
  std::vector<MoverTurn> movers;  // per seat: its last solve at the score vector
  SolveStats stats;

  TurnScratch(int players, int max_turn);
};

// The solve's shared state. The vectors of a score vector are written by the
// one thread that solves it and read once its level is done (level_schedule.h).
// In a cluster a rank holds its own score vectors' values (Own) in the
// arrays, where the others' stay zero pages, and those of the others it
// reads in the window.
struct SolveState {
  explicit SolveState(const GameSolveOptions& options);

  // The first seat with a context at totals `s` (those after it have one too):
  // every seat below the target, else the seats after the last one to reach it
  // (FirstSeatToMove, rules.h).
  int FirstMover(const int* s) const;

  // Every seat's chance after `seat` ends its turn at `s` with x points: the
  // next context's vector, or at the game's end each seat's WinShare (written
  // in scratch).
  const double* AfterTurn(int seat, const int* s, int x, TurnScratch& scratch) const;
  // The error bound of the context after `seat` ends its turn at `s` with
  // x >= 1 points (0 at the end of the game, which is exact).
  double ErrorAfter(int seat, const int* s, int x) const;
  // Largest error bound of the contexts a turn of `seat` at `s` leads to
  // with x >= from points (the end of the game is exact).
  double DependencyError(int seat, const int* s, int from) const;

  // Whether this rank solves the score vector `s` (alone: every one).
  bool Own(const int* s) const { return RankOfTotal(s[0], ranks) == rank; }
  // The score vector `s` packed mixed radix (target + max turn score), seat 0
  // most significant, and its sum of totals (its level).
  std::uint64_t Pack(const int* s) const;
  int Sum(const int* s) const;
  // What rank `reader` reads of another rank's vector `t`, x = (t[0] -
  // reader) mod ranks points above its own nearest on seat 0: every mover's
  // record if a first guess reaches it (x <= guess_reach), else seat 1's if
  // a turn of seat 0 does (x <= reach), else nothing.
  enum class Read { kNone, kNext, kAll };
  Read Reads(const int* t, int reader) const;
  Read Reads(const int* t) const { return Reads(t, rank); }
  // Mover `seat`'s record at `s` (a context): every seat's chance, the error
  // bound, the pair kernel's slope; the rank's own from the arrays, others'
  // from the window. One not held (never, when the window is kept as
  // level_share.h keeps it) reads as NaN and sets `missed`.
  const double* Win(int seat, const int* s) const;
  double Error(int seat, const int* s) const;
  double Slope(int seat, const int* s) const;

  // The convention solve of `seat`'s turn at `s`, the zero-score outcome
  // leading to `zero` (every seat's chance), into *request: the mover
  // maximises its own chance; carried are the zero-score indicator and the
  // other seats' chances (CarriedSeats). With `error_lane` also the error
  // bound of each scoring outcome's context, whose expectation is
  // MoverTurn::d. With two players (kAuto: the pair kernel) a plain solve
  // instead. Uses scratch's game-over buffer.
  void MoverRequest(int seat, const int* s, const double* zero, bool error_lane,
                    internal::Arithmetic arithmetic, TurnScratch& scratch,
                    TurnRequest* request) const;
  // What the solve keeps of `turn`, the solution of MoverRequest(seat, ...,
  // error_lane, ...), in *out: every seat's chance (the complement for the
  // seat a 2-player solve does not carry), p, d and the tie counts.
  void ReadMover(int seat, bool error_lane, const TurnResult& turn, MoverTurn* out) const;

  const Rules rules;
  const int n, target, max_turn;
  const internal::ContextNumbering index;
  const std::shared_ptr<const internal::TurnModel> model;
  const int start;  // the turn's start position in the model
  const bool pair;  // two players, kAuto: the pair kernel (pair_kernel.h)
  const internal::Arithmetic arithmetic;
  const double rounding;  // of one turn solve's stored values
  const int rank, ranks;  // in the cluster (GameSolveOptions::cluster); alone 0 of 1
  const int wide;         // the radix of Pack: target + max turn score
  const int guess_reach;  // most points up on seat 0 a first guess reads (every mover)
  const int reach;        // most points a read goes up: a turn's, or a first guess's
  ValueVector win;        // [context * players + seat]
  ValueVector error_of;   // per context: error bound
  // Two players: per context, its mover's zero-score chance under the solved
  // policy (the pair kernel's first guesses for the next cycles; kept in
  // checkpoints); empty otherwise.
  ValueVector pair_slope;
  // A record's width in the window and in the ranks' messages: the chances,
  // the error bound, with 2 players the slope.
  const int width;
  ValueWindow window;                       // others' records this rank reads
  mutable std::atomic<bool> missed{false};  // a record read that was not held

 private:
  // The seats whose chances a convention solve of `seat`'s turn carries, as
  // lanes 1..k-1 into carried[1..k-1] (lane 0: the zero-score indicator);
  // returns k. With two players the other seat is the complement, not
  // carried (its error is the mover's; a complement of more seats would add
  // theirs).
  int CarriedSeats(int seat, int* carried) const;
};

}  // namespace martiandice::solver
