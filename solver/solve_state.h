// What every part of the game solve shares: the rules and the numbering of
// the turn-start contexts, the solved vectors and their error bounds, what a
// turn's outcome leads to (the next context or the game's end, rules.h), and
// the convention solve of one mover's turn (its request, turn_batch.h, and
// what is kept of its result) with its per-slot buffers. Internal to the
// solver.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "convention_turn.h"
#include "game_solver.h"
#include "martiandice/context.h"
#include "solve_report.h"
#include "table_format.h"
#include "turn_batch.h"
#include "turn_model.h"
#include "wide.h"

namespace martiandice::solver {

using internal::Wide;

// A solved chance as stored: the exact value is a probability, so rounding
// that strays past 0 or 1 is cut back, which only brings it closer.
inline double Probability(double value) { return std::clamp(value, 0.0, 1.0); }

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
  const double rounding;         // of one turn solve's stored values
  std::vector<double> win;       // [context * players + seat]
  std::vector<double> error_of;  // per context: error bound
  // Two players: per context, its mover's zero-score chance under the solved
  // policy (the pair kernel's first guesses for the next cycles; kept in
  // checkpoints); empty otherwise.
  std::vector<double> pair_slope;

 private:
  // The seats whose chances a convention solve of `seat`'s turn carries, as
  // lanes 1..k-1 into carried[1..k-1] (lane 0: the zero-score indicator);
  // returns k. With two players the other seat is the complement, not
  // carried (its error is the mover's; a complement of more seats would add
  // theirs).
  int CarriedSeats(int seat, int* carried) const;
};

}  // namespace martiandice::solver
