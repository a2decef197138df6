// The final round of the game solve: once a seat has reached the target,
// the seats after it move once more, and every outcome of a turn is known
// (the next seat's context at the same totals, or the game's end). A
// level's final-round contexts are solved in waves, one per seat from the
// last back (each seat's zero-score outcome is the next seat's context,
// solved by the wave before), each wave's turns one batch of the turn batch
// solver (turn_batch.h). Many turns share every outcome's vector (the last
// seat's turn depends on the gaps between the totals only): those reuse one
// solve, across the whole run. Internal to the solver.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "level_schedule.h"
#include "solve_report.h"
#include "solve_state.h"
#include "turn_batch.h"

namespace martiandice::solver {

class FinalRound {
 public:
  FinalRound(SolveState& state, const LevelSchedule& schedule, TurnBatchSolver& batch);

  // Solves the final-round contexts of level `level`'s score vectors from
  // `from` on (the others, cycles, are left): stores their vectors and error
  // bounds, and keeps their counters until Commit. Errors: the batch
  // solver's (the level's final-round contexts then unsolved).
  absl::Status SolveLevel(int level, std::size_t from);
  // Counts the ties and error bounds of the contexts SolveLevel solved whose
  // score vector is among the level's first `finished` (the work a
  // checkpoint holds), and forgets the others'.
  void Commit(std::size_t finished);

  // The turn solves run and the counters committed.
  const SolveStats& stats() const { return stats_; }

 private:
  // A final-round score vector of the level being solved.
  struct Vector {
    std::size_t at;  // in the level
    int first;       // the first seat to move
    int s[kMaxPlayers];
  };
  // A context solved, its counters kept until Commit.
  struct Solved {
    std::size_t at;
    long long tied, kingmaking;
    double error;
  };

  void Key(int seat, const int* s);
  absl::Status SolveWave(int seat);

  SolveState& state_;
  const LevelSchedule& schedule_;
  TurnBatchSolver& batch_;
  TurnScratch scratch_;                          // its game-over vectors
  std::string key_;                              // of a final-round turn's outcomes
  // By key_: the turn in turns_. std's map, not absl's: absl's (20220623) is left
  // broken by an allocation that fails while it grows.
  std::unordered_map<std::string, std::size_t> known_;
  std::vector<MoverTurn> turns_;                 // every turn solved
  std::vector<Vector> vectors_;                  // of the level
  std::vector<std::pair<std::size_t, std::size_t>> wave_;  // (vectors_ entry, turns_ entry)
  std::vector<TurnRequest> requests_;            // a wave's new turns (storage reused)
  std::vector<std::size_t> requested_;           // their turns_ entries
  std::vector<TurnResult> results_;
  std::vector<Solved> solved_;                   // of the level, until Commit
  SolveStats stats_;
};

}  // namespace martiandice::solver
