// The zero-score cycles of 3 or more players (and of 2 with kDouble or
// kExtended): the P contexts of a score vector below the target, each
// mover's zero-score turn handing the move to the next, solved by policy
// iteration from an extrapolated start; in extended arithmetic the search
// runs in double and one settling round in extended precision gives the
// stored values; movers whose best replies keep alternating mix
// (mixed_cycle.h). Each round's turn solves are posted to the turn batch
// (cycle_task.h). Internal to the solver.
#pragma once

#include <cmath>
#include <vector>

#include "cycle_task.h"
#include "mixed_cycle.h"
#include "score_law_cache.h"
#include "solve_state.h"

namespace martiandice::solver {

// One cycle's solve at a time (a slot of cycle_rounds.h).
class CycleSolve {
 public:
  // `laws`: the settling passes' turn-score laws, shared by the threads.
  // `scratch`: the slot's buffers, posts and stats. `post_laws`: the
  // settling passes' laws not stored in `laws` are posted (kScoreLaw) with
  // the round's turns, not computed on the step's thread.
  CycleSolve(SolveState& state, ScoreLawCache& laws, TurnScratch& scratch, bool post_laws = false);

  // The cycle at totals `s` (every seat below the target), from a start of
  // `guess_order` (GameSolveOptions::guess_order): its rounds' turns posted
  // to scratch.posts, one round per step of the task; at its end its
  // vectors and error bound stored and counted in scratch.stats. With
  // `probe_order` > 0 it is then solved again from that start and compared
  // (GameSolveReport::probe_*), the first solve's vectors, bounds and
  // counters kept. This object must outlive the task; one task at a time.
  CycleTask Solve(const int* s, int guess_order, int probe_order);

  // Once the batch of the round last posted is solved (its results in
  // scratch.posts), before any cycle reads its round: the score laws it
  // posted stored in `laws`, where cycles that found them claimed
  // (ScoreLawCache::Claim) read them. Does nothing if it posted none.
  void PublishLaws();

 private:
  // What a round does with each mover's turn.
  enum class Turn : char { kStands, kSolve, kMixing, kSettle };

  // Where the policy iteration of the cycle being solved stands.
  struct Run {
    internal::Arithmetic search = internal::Arithmetic::kDouble;  // the search rounds'
    bool settle = false;  // extended: a settling round after the search
    int round = 1;
    bool mixed = false, converged = false;
    double residual = HUGE_VAL, previous = HUGE_VAL, slope = 0;
  };

  CycleTask Rounds(int guess_order, int probe_order);
  void Begin(const int* s, int guess_order);
  void InitialGuess(const int* s, int guess_order);
  bool SearchDone();
  AwaitTurns PostRound(const int* s, internal::Arithmetic arithmetic, bool error_lane);
  void ReadRound(const int* s, bool error_lane);
  void Store(const int* s);
  void KeepForProbe(const int* s);
  void CompareProbe(const int* s);
  void RecordMixture(const int* s, double mixing);
  void CloseCycle();
  bool MarkStale(bool partial);
  void SettleMover(int seat, const int* s, const double* zero, const std::vector<Wide>& law,
                   MoverTurn* out);
  void WatchPolicies();
  CyclePolicy PolicyOf(const MoverTurn& m, const std::vector<double>& next) const;
  void SetGuess();
  // What the watched policies hold: no equilibrium, a pure one, a mixture.
  enum class Watched { kNone, kPure, kMixed };
  Watched MixCycle();
  bool Remix();
  void PostMixingMover(int seat, const int* s, const double* zero, bool error_lane,
                       internal::Arithmetic arithmetic);
  void ReadMixingMover(int seat, const int* s, const double* zero, bool error_lane,
                       std::size_t posted, MoverTurn* out);
  double MixingError() const;

  SolveState& state_;
  ScoreLawCache& laws_;
  TurnScratch& scratch_;
  const int n_;
  int s_[kMaxPlayers] = {};  // the totals of the cycle being solved
  Run run_;
  std::vector<Turn> turn_;         // per mover: this round's
  std::vector<std::size_t> post_;  // per mover: its first request in the posts
  // The probe's: the first solve's vectors, bounds and stats, kept.
  std::vector<double> kept_, kept_error_;
  SolveStats kept_stats_;
  std::vector<std::vector<double>> guess_, closed_;  // per mover: the context's vector
  std::vector<std::vector<CyclePolicy>> seen_;       // per mover: policies while watched
  MixedCycle mix_;                                   // the mixture, once found
  std::vector<double> nudged_;                       // a mixing mover's next vector
  std::vector<MoverTurn> below_, above_;             // per mixing mover: its two policies
  std::vector<double> mix_errors_;                   // per mixing mover: see MixingError
  std::vector<Wide> low_law_, high_law_;             // their turn scores' distributions
  // Per mover: the actions of its last double solve in a settling cycle's
  // search, and the law of the turn score they give.
  std::vector<internal::ConventionPolicy> policies_;
  std::vector<Wide> score_law_;
  // With post_laws: per mover of a settling round, its policy's fingerprint
  // and whether its law was posted (else it was stored, or claimed by
  // another cycle).
  const bool post_laws_;
  std::vector<PolicyKey> law_key_;
  std::vector<char> law_posted_;
  // Per mover, in a settling cycle's search: whether its policy must be
  // solved again (its range no longer holds the guess), and the utility[0]
  // its last solve had (its range is about that).
  std::vector<char> stale_;
  std::vector<double> solved_at_;
  bool mix_failed_ = false;
};

}  // namespace martiandice::solver
