// Policy iteration on the zero-score cycles of the convention solve: the
// start, the search rounds, the settling round, the mixtures, the bound.
#include "cycle_solve.h"

#include <algorithm>
#include <cmath>

namespace martiandice::solver {
namespace {

// Policy iteration that has not settled by round kWatchFrom watches the
// movers' policies for kWatchRounds more rounds; movers that alternate
// between two then mix them (mixed_cycle.h).
constexpr int kWatchFrom = 10;
constexpr int kWatchRounds = 8;

}  // namespace

CycleSolve::CycleSolve(SolveState& state, ScoreLawCache& laws, TurnScratch& scratch, bool post_laws)
    : state_(state),
      laws_(laws),
      scratch_(scratch),
      n_(state.n),
      turn_(n_, Turn::kStands),
      post_(n_, 0),
      guess_(n_, std::vector<double>(n_)),
      closed_(n_, std::vector<double>(n_)),
      below_(n_, MoverTurn(n_)),
      above_(n_, MoverTurn(n_)),
      mix_errors_(n_, 0.0),
      policies_(n_),
      post_laws_(post_laws),
      law_key_(n_),
      law_posted_(n_, 0),
      stale_(n_, 1),
      solved_at_(n_, 0.0) {}

// The P movers' turns at totals `s`, all below the target. Each round
// solves every mover for the guessed next vectors G; the largest change r
// = |T(G) - G| decides: small enough, those solves are the stored values;
// else the cycle closed under the round's policies (Newton on a piecewise
// linear map) is the next guess.
// With extended arithmetic the policy iteration's rounds run in double
// (they only find the policies and the guess) and one more round at the
// accepted guess, in extended precision (SettleMover: the last round's
// policies), gives the stored values and the residual the bound uses:
// stored values that should be equal (e.g. two certain wins) then come out
// equal, so the reader's ties stay exact. Those double rounds re-solve
// only the movers whose policy may have changed (MarkStale), and stop
// once every policy stands at the closed guess (docs/PLAYERS.md).
// A cycle whose policies keep alternating has no pure equilibrium: its
// movers mix (MixCycle) and one round at the mixture is checked.
CycleTask CycleSolve::Solve(const int* s, int guess_order, int probe_order) {
  std::copy(s, s + n_, s_);
  return Rounds(guess_order, probe_order);
}

// Solve's rounds: the search's, until accepted, confirmed, mixed or out of
// rounds; then in extended arithmetic the settling round (at a mixture: the
// weights found in double solved again from the extended solves' policies
// first). Each round's turns are one step's posts.
CycleTask CycleSolve::Rounds(int guess_order, int probe_order) {
  const int* s = s_;
  for (int pass = 0; pass < (probe_order > 0 ? 2 : 1); ++pass) {
    if (pass == 1) KeepForProbe(s);
    Begin(s, pass == 0 ? guess_order : probe_order);
    for (;; ++run_.round) {
      run_.previous = run_.residual;
      const bool error_lane = n_ > 2 && !run_.settle;
      co_await PostRound(s, run_.search, error_lane);
      ReadRound(s, error_lane);
      if (SearchDone()) break;
    }
    if (run_.settle) {
      if (run_.mixed && run_.converged) {
        co_await PostRound(s, state_.arithmetic, /*error_lane=*/false);
        ReadRound(s, /*error_lane=*/false);
        if (Remix()) {
          SetGuess();
        } else {
          run_.converged = false;
        }
      }
      co_await PostRound(s, state_.arithmetic, /*error_lane=*/n_ > 2);
      ReadRound(s, /*error_lane=*/n_ > 2);
      if (run_.mixed) run_.converged &= run_.residual <= kCycleStallResidual && !mix_failed_;
    }
    Store(s);
    if (pass == 1) CompareProbe(s);
  }
}

// A solve's start: the first guess, round 1, every mover stale.
void CycleSolve::Begin(const int* s, int guess_order) {
  InitialGuess(s, guess_order);
  run_ = Run();
  run_.settle = state_.arithmetic == internal::Arithmetic::kExtended;
  run_.search = run_.settle ? internal::Arithmetic::kDouble : state_.arithmetic;
  std::fill(stale_.begin(), stale_.end(), 1);
  for (auto& options : seen_) options.clear();
  mix_failed_ = false;
}

// First guess of the cycle's vectors, from the solved score vectors up
// to guess_order + 1 points up on each seat that can take them: the mean
// of the extrapolations along those seats, of the highest order (at most
// guess_order) any seat can take: linear 2 V(s + e_j) - V(s + 2 e_j),
// else V(s + e_j), else even chances. This start selects the equilibrium
// where a cycle has several: a cubic one saves rounds but reaches another
// with 4 players (docs/PLAYERS.md).
void CycleSolve::InitialGuess(const int* s, int guess_order) {
  static constexpr double kWeights[kMaxGuessOrder + 1][kMaxGuessOrder + 1] = {
      {1, 0, 0, 0}, {2, -1, 0, 0}, {3, -3, 1, 0}, {4, -6, 4, -1}};
  const int target = state_.target;
  for (auto& g : guess_) std::fill(g.begin(), g.end(), 0.0);
  int order = -1;  // the highest any seat can take: V(s + (order + 1) e_j) solved
  for (int j = 0; j < n_; ++j) order = std::max(order, std::min(guess_order, target - 2 - s[j]));
  int count = 0;
  int up[kMaxPlayers];
  for (int j = 0; order >= 0 && j < n_; ++j) {
    if (target - 2 - s[j] < order) continue;
    for (int i = 0; i < n_; ++i) {
      const double* v[kMaxGuessOrder + 1];  // V(s + k e_j) for mover i, k = 1..order + 1
      for (int k = 1; k <= order + 1; ++k) {
        std::copy(s, s + n_, up);
        up[j] += k;
        v[k - 1] = state_.Win(i, up);
      }
      for (int c = 0; c < n_; ++c) {
        double extrapolated = 0;
        for (int k = 0; k <= order; ++k) extrapolated += kWeights[order][k] * v[k][c];
        guess_[i][c] += extrapolated;
      }
    }
    ++count;
  }
  for (auto& g : guess_) {
    for (double& x : g) x = count > 0 ? x / count : 1.0 / n_;
  }
}

// After a search round: whether the search ends (the round at a mixture
// done, accepted, confirmed or out of rounds); if not, the next round's
// guess is set.
bool CycleSolve::SearchDone() {
  Run& r = run_;
  if (r.mixed) {  // the round at the mixture: it must be a fixed point
    r.converged = r.residual <= kCycleStallResidual && !mix_failed_;
    return true;
  }
  // At rounding level, or rounding keeps r from shrinking further.
  const bool accepted = r.residual <= kCycleAcceptResidual ||
                        (r.residual <= kCycleStallResidual && r.residual > r.previous / 2);
  if (accepted || r.round == kMaxCycleRounds) {
    r.converged = accepted || r.residual <= kCycleStallResidual;
    return true;
  }
  if (r.round >= kWatchFrom) WatchPolicies();
  if (r.round == kWatchFrom + kWatchRounds - 1) {
    const Watched found = MixCycle();
    if (found != Watched::kNone) {
      // A mixture: one round checks it. A pure equilibrium among the
      // alternating policies (two movers' simultaneous best replies can
      // swap around it forever): the search goes on from it.
      r.mixed = found == Watched::kMixed;
      SetGuess();
      std::fill(stale_.begin(), stale_.end(), 1);
      return false;
    }
  }
  CloseCycle();
  // Every mover's policy still best at the closed guess: it is the
  // fixed point, and a confirming round would find the same actions.
  const bool confirmed = r.settle && !r.mixed && MarkStale(r.round + 1 < kWatchFrom);
  guess_ = closed_;
  if (confirmed) r.converged = true;
  return confirmed;
}

// One round at the guess, posted: a search round solves the stale movers
// only (the others' policies stand, and their maps too); every other round
// solves every mover (a settling round's unmixed movers by SettleMover,
// without a turn solve). Returns what the cycle awaits: the requests
// posted, and whether it waits for a batch anyway (a law another cycle
// posted, stored once that batch is solved).
AwaitTurns CycleSolve::PostRound(const int* s, internal::Arithmetic arithmetic, bool error_lane) {
  TurnPosts& posts = scratch_.posts;
  posts.Clear();
  bool waits = false;  // for a law another cycle posted
  for (int i = 0; i < n_; ++i) {
    const double* next = guess_[(i + 1) % n_].data();
    post_[i] = posts.count;
    if (arithmetic != run_.search && !run_.mixed) {
      turn_[i] = Turn::kSettle;
      law_posted_[i] = 0;
      if (post_laws_) {  // the law stored, posted here, or posted by another cycle
        law_key_[i] = FingerprintPolicy(policies_[i]);
        switch (laws_.Claim(law_key_[i])) {
          case ScoreLawCache::Claimed::kStored:
            break;
          case ScoreLawCache::Claimed::kPost: {
            TurnRequest& request = posts.Add();  // a reused one: every field it reads set
            request.kind = TurnRequest::Kind::kScoreLaw;
            request.policy = &policies_[i];
            request.lanes = 0;
            request.record_policy = false;
            law_posted_[i] = 1;
            break;
          }
          case ScoreLawCache::Claimed::kWait:
            waits = true;  // for that cycle's batch, which stores it (PublishLaws)
            break;
        }
      }
    } else if (run_.mixed && mix_.mixing[i]) {
      turn_[i] = Turn::kMixing;
      PostMixingMover(i, s, next, error_lane, arithmetic);
    } else if (stale_[i]) {
      turn_[i] = Turn::kSolve;
      TurnRequest& request = posts.Add();
      state_.MoverRequest(i, s, next, error_lane, arithmetic, scratch_, &request);
      // A settling cycle's search records the policies (and their
      // ranges) for MarkStale and SettleMover.
      request.record_policy = run_.settle && arithmetic == run_.search;
      request.policy_zero_lane = 0;  // carried[0]: ranges of utility[0]
    } else {
      turn_[i] = Turn::kStands;
    }
  }
  return AwaitTurns{posts.count, waits};
}

// The round posted, its turns solved: each mover's turn read (or settled),
// and the round's residual and slope.
void CycleSolve::ReadRound(const int* s, bool error_lane) {
  TurnPosts& posts = scratch_.posts;
  long long laws_posted = 0;
  for (int i = 0; i < n_; ++i) laws_posted += turn_[i] == Turn::kSettle && law_posted_[i];
  scratch_.stats.counters.turn_solves += static_cast<long long>(posts.count) - laws_posted;
  run_.residual = run_.slope = 0;
  for (int i = 0; i < n_; ++i) {
    MoverTurn& m = scratch_.movers[i];
    const double* next = guess_[(i + 1) % n_].data();
    switch (turn_[i]) {
      case Turn::kStands:
        continue;
      case Turn::kSettle:
        ++scratch_.stats.settle_passes;
        if (!post_laws_) {
          scratch_.stats.settle_reused += laws_.Law(policies_[i], &score_law_);
          SettleMover(i, s, next, score_law_, &m);
        } else if (law_posted_[i]) {  // stored by PublishLaws
          SettleMover(i, s, next, posts.results[post_[i]].score_law, &m);
        } else {
          // Stored, at the post or by the batch of the cycle that posted it;
          // else (the store full) summed here.
          if (laws_.Find(law_key_[i], &score_law_)) {
            ++scratch_.stats.settle_reused;
          } else {
            internal::PolicyScoreLaw(*state_.model, policies_[i], &score_law_);
          }
          SettleMover(i, s, next, score_law_, &m);
        }
        break;
      case Turn::kMixing:
        ReadMixingMover(i, s, next, error_lane, post_[i], &m);
        break;
      case Turn::kSolve: {
        TurnResult& result = posts.results[post_[i]];
        state_.ReadMover(i, error_lane, result, &m);
        if (posts.requests[post_[i]].record_policy) std::swap(policies_[i], result.policy);
        solved_at_[i] = next[i];
        break;
      }
    }
    run_.slope = std::max(run_.slope, m.p);
    for (int j = 0; j < n_; ++j) {
      run_.residual = std::max(run_.residual, std::abs(m.e[j] - guess_[i][j]));
    }
  }
}

// Stores the last round's vectors and the cycle's bound.
// |W - T(W)| <= b r + rounding for the stored W (the last round's
// solves), so each value is off by at most its dependencies' error plus
// that over 1 - b (b: the largest zero-score chance, the cycle's
// contraction per step). Two players: the dependencies' largest error.
// More: mover i's error e_i <= d_i + p_i E + c (d_i: the expected error
// of its scoring outcomes, at most (1 - p_i) times their largest; c = b r
// + rounding), so E = max_i d_i / (1 - p_i) + c / (1 - b) bounds every
// e_i. This assumes, as the carried chances do anyway, that the computed
// decisions are the exact values' (closer ones are ties, within 1e-12).
void CycleSolve::Store(const int* s) {
  CheckpointCounters& counters = scratch_.stats.counters;
  double deps = 0;
  for (int i = 0; i < n_; ++i) {
    const MoverTurn& m = scratch_.movers[i];
    CountTies(m.tied, m.kingmaking, counters);
    // The error lane's own rounding is relative, far below 1e-9.
    deps = std::max(deps, n_ > 2 ? m.d / (1 - m.p) * (1 + 1e-9) : state_.DependencyError(i, s, 1));
    std::copy(m.e.begin(), m.e.end(), &state_.win[state_.index.Index(i, s) * n_]);
  }
  const double mixing = run_.mixed ? MixingError() : 0.0;
  const double error =
      run_.converged
          ? deps + (run_.slope * run_.residual + state_.rounding) / (1 - run_.slope) + mixing
          : HUGE_VAL;
  for (int i = 0; i < n_; ++i) state_.error_of[state_.index.Index(i, s)] = error;
  std::vector<std::vector<int>>& unconverged = scratch_.stats.unconverged_examples;
  if (!run_.converged && unconverged.size() < kProbeExamples) unconverged.emplace_back(s, s + n_);
  RecordCycle(run_.round, run_.residual, error, counters);
  if (run_.mixed) RecordMixture(s, mixing);
}

// Counts a mixed cycle and lists it for the report.
void CycleSolve::RecordMixture(const int* s, double mixing) {
  SolveStats& st = scratch_.stats;
  ++st.counters.mixed_cycles;
  st.counters.mixing_error = std::max(st.counters.mixing_error, mixing);
  MixedCycleReport r;
  r.scores.assign(s, s + n_);
  for (int i = 0; i < n_; ++i) {
    r.weights.push_back(mix_.mixing[i] ? static_cast<double>(mix_.weight[i]) : -1);
  }
  r.error = mixing;
  st.mixed.push_back(std::move(r));
}

// With every mover's actions fixed, V_i = c_i + p_i V_{i+1} around the
// cycle, c_i = E_i - p_i G_{i+1} for the guess G the turn was solved with:
// V_0 = (c_0 + p_0 c_1 + p_0 p_1 c_2 + ...) / (1 - p_0 ... p_{P-1}).
void CycleSolve::CloseCycle() {
  const std::vector<MoverTurn>& movers = scratch_.movers;
  SolveAffineCycle<double>(
      n_, [&](int i) { return movers[i].p; },
      [&](int i, int j) { return movers[i].e[j] - movers[i].p * guess_[(i + 1) % n_][j]; },
      [&](int i, int j) -> double& { return closed_[i][j]; });
}

// Marks stale the movers whose utility[0] at the closed guess (their own
// chance at the next context) is out of the range their last solve kept
// its actions over; the others' policies stand, and their solves are
// moved to the closed guess along their maps E = c + p G. With `partial`
// false, every mover is stale for the next round. Returns whether every
// policy stands: then the closed guess is the fixed point.
bool CycleSolve::MarkStale(bool partial) {
  bool all_stand = true;
  for (int i = 0; i < n_; ++i) {
    const int next = (i + 1) % n_;
    const double move = closed_[next][i] - solved_at_[i];
    const internal::ConventionPolicy& p = policies_[i];
    const bool stands = move >= -p.below && move <= p.above;
    all_stand = all_stand && stands;
    stale_[i] = !stands;
  }
  if (all_stand) return true;
  for (int i = 0; i < n_; ++i) {
    if (!partial) {
      stale_[i] = 1;
    } else if (!stale_[i]) {
      MoverTurn& m = scratch_.movers[i];
      const std::vector<double>& from = guess_[(i + 1) % n_];
      const std::vector<double>& to = closed_[(i + 1) % n_];
      for (int j = 0; j < n_; ++j) m.e[j] += m.p * (to[j] - from[j]);
    }
  }
  return false;
}

// turn_ and law_posted_ are the round's: every round is posted by PostRound.
void CycleSolve::PublishLaws() {
  for (int i = 0; i < n_; ++i) {
    if (turn_[i] == Turn::kSettle && law_posted_[i]) {
      laws_.Add(law_key_[i], scratch_.posts.results[post_[i]].score_law);
    }
  }
}

// The settling round's solve of `seat`'s turn at `s` (zero-score outcome
// `zero`, as the search's last round had it): the policy that round chose,
// valued in extended precision as the law of its turn score times each
// outcome's vector: one pass of one number per position, where a backward
// solve would carry every seat in x87 through every position and outcome
// class for the same digits. Keeps the search's tie counts.
void CycleSolve::SettleMover(int seat, const int* s, const double* zero,
                             const std::vector<Wide>& law, MoverTurn* out) {
  Wide d = 0;
  for (int j = 0; j < n_; ++j) out->wide_e[j] = law[0] * zero[j];
  for (int x = 1; x <= state_.max_turn; ++x) {
    const double* next = state_.AfterTurn(seat, s, x, scratch_);
    for (int j = 0; j < n_; ++j) out->wide_e[j] += law[x] * next[j];
    if (n_ > 2) d += law[x] * state_.ErrorAfter(seat, s, x);
  }
  out->wide_p = law[0];
  out->p = static_cast<double>(law[0]);
  for (int j = 0; j < n_; ++j) out->e[j] = static_cast<double>(out->wide_e[j]);
  out->d = static_cast<double>(d);
}

// Before a probe's second solve of the cycle at `s`: its vectors, bounds
// and stats so far kept (the probe's solve counts apart).
void CycleSolve::KeepForProbe(const int* s) {
  kept_.resize(static_cast<size_t>(n_) * n_);
  kept_error_.resize(n_);
  for (int i = 0; i < n_; ++i) {
    const long long c = state_.index.Index(i, s);
    std::copy(&state_.win[c * n_], &state_.win[c * n_] + n_, &kept_[static_cast<size_t>(i) * n_]);
    kept_error_[i] = state_.error_of[c];
  }
  kept_stats_ = std::move(scratch_.stats);
  scratch_.stats = SolveStats();
}

// After a probe's second solve: compared with the first, whose vectors,
// bounds and stats are put back.
void CycleSolve::CompareProbe(const int* s) {
  double apart = 0;
  for (int i = 0; i < n_; ++i) {
    const long long c = state_.index.Index(i, s);
    for (int j = 0; j < n_; ++j) {
      apart = std::max(apart,
                       std::abs(state_.win[c * n_ + j] - kept_[static_cast<size_t>(i) * n_ + j]));
    }
    std::copy(&kept_[static_cast<size_t>(i) * n_], &kept_[static_cast<size_t>(i) * n_] + n_,
              &state_.win[c * n_]);
    state_.error_of[c] = kept_error_[i];
  }
  // Another fixed point only if the second solve converged too; one that
  // did not is counted apart (that start fails to settle there).
  const bool converged = std::isfinite(scratch_.stats.counters.error_bound);
  scratch_.stats = std::move(kept_stats_);
  SolveStats& st = scratch_.stats;
  auto add_example = [&](std::vector<std::vector<int>>* examples) {
    if (examples->size() < kProbeExamples) examples->emplace_back(s, s + n_);
  };
  if (!converged) {
    ++st.probe_unconverged;
    add_example(&st.probe_unconverged_examples);
  } else if (apart > kProbeApart) {
    ++st.probe_apart;
    st.probe_largest = std::max(st.probe_largest, apart);
    add_example(&st.probe_examples);
  }
}

// Records each mover's policy of the round just solved (as its map
// E = c + p G), once per distinct policy.
void CycleSolve::WatchPolicies() {
  seen_.resize(n_);
  for (int i = 0; i < n_; ++i) {
    CyclePolicy policy = PolicyOf(scratch_.movers[i], guess_[(i + 1) % n_]);
    auto same = [&](const CyclePolicy& o) {
      return internal::WideAbs(o.p - policy.p) <= internal::kWide1e13 &&
             internal::WideAbs(o.c[i] - policy.c[i]) <= internal::kWide1e13;
    };
    std::vector<CyclePolicy>& seen = seen_[i];
    if (std::none_of(seen.begin(), seen.end(), same)) seen.push_back(std::move(policy));
  }
}

CyclePolicy CycleSolve::PolicyOf(const MoverTurn& m, const std::vector<double>& next) const {
  CyclePolicy policy{m.wide_p, std::vector<Wide>(n_)};
  for (int j = 0; j < n_; ++j) policy.c[j] = m.wide_e[j] - m.wide_p * next[j];
  return policy;
}

void CycleSolve::SetGuess() {
  for (int i = 0; i < n_; ++i) {
    for (int j = 0; j < n_; ++j) guess_[i][j] = static_cast<double>(mix_.values[i][j]);
  }
}

// The watched policies' equilibrium (mixed_cycle.h), in mix_: kNone if
// there is none among them (policy iteration goes on, and may end
// unconverged, with an infinite bound), kPure if no mover mixes in it.
CycleSolve::Watched CycleSolve::MixCycle() {
  for (auto& options : seen_) {
    std::sort(options.begin(), options.end(),
              [](const CyclePolicy& a, const CyclePolicy& b) { return a.p < b.p; });
  }
  if (!FindMixedEquilibrium(seen_, &mix_)) return Watched::kNone;
  const bool mixed = std::find(mix_.mixing.begin(), mix_.mixing.end(), true) != mix_.mixing.end();
  return mixed ? Watched::kMixed : Watched::kPure;
}

// The mixture again, from the last round's solves (the mixing movers' two
// policies, the others' one): false if the same movers no longer mix.
bool CycleSolve::Remix() {
  std::vector<std::vector<CyclePolicy>> options(n_);
  for (int i = 0; i < n_; ++i) {
    const std::vector<double>& next = guess_[(i + 1) % n_];
    if (mix_.mixing[i]) {
      options[i] = {PolicyOf(below_[i], next), PolicyOf(above_[i], next)};
    } else {
      options[i] = {PolicyOf(scratch_.movers[i], next)};
    }
  }
  MixedCycle again;
  if (!FindMixedEquilibrium(options, &again) || again.mixing != mix_.mixing) return false;
  for (int i = 0; i < n_; ++i) {
    if (again.mixing[i]) seen_[i] = options[i];
  }
  mix_ = std::move(again);
  return true;
}

// A mixing mover: its two policies are the best replies just below and
// just above its indifference point (the next vector's own chance nudged
// down and up, the solves' values then moved back to `zero`), played with
// the mixture's weights. Posts the two solves (their policies recorded).
void CycleSolve::PostMixingMover(int seat, const int* s, const double* zero, bool error_lane,
                                 internal::Arithmetic arithmetic) {
  const CyclePolicy& low = seen_[seat][0];
  const CyclePolicy& high = seen_[seat][1];
  // eta * (p_b - p_a) = 1e-8, far above the turn solve's tie distance.
  const double eta = std::min(1e-3, 1e-8 / static_cast<double>(high.p - low.p));
  for (const double next_own : {zero[seat] - eta, zero[seat] + eta}) {
    nudged_.assign(zero, zero + n_);
    nudged_[seat] = next_own;
    TurnRequest& request = scratch_.posts.Add();
    state_.MoverRequest(seat, s, nudged_.data(), error_lane, arithmetic, scratch_, &request);
    request.record_policy = true;
    request.policy_zero_lane = -1;
  }
}

// The mixing mover's two solves (at `posted` in the posts) read: flags
// mix_failed_ if either one's policy is not the watched one. Also measures
// the policies' turn-score distributions (for MixingError).
void CycleSolve::ReadMixingMover(int seat, const int* s, const double* zero, bool error_lane,
                                 std::size_t posted, MoverTurn* out) {
  const CyclePolicy& low = seen_[seat][0];
  const CyclePolicy& high = seen_[seat][1];
  MoverTurn& a = below_[seat];
  MoverTurn& b = above_[seat];
  const TurnRequest* requests = &scratch_.posts.requests[posted];
  const TurnResult* results = &scratch_.posts.results[posted];
  auto read = [&](int k, MoverTurn* m, std::vector<Wide>* law) {
    const double next_own = requests[k].utility[0];  // the nudged own chance
    state_.ReadMover(seat, error_lane, results[k], m);
    internal::PolicyScoreLaw(*state_.model, results[k].policy, law);
    m->wide_e[seat] += m->wide_p * (static_cast<Wide>(zero[seat]) - next_own);
  };
  read(0, &a, &low_law_);
  read(1, &b, &high_law_);
  if (!(internal::WideAbs(a.wide_p - low.p) <= internal::kWide1e12 &&
        internal::WideAbs(b.wide_p - high.p) <= internal::kWide1e12)) {
    mix_failed_ = true;
  }
  const Wide w = mix_.weight[seat];
  out->wide_p = (1 - w) * a.wide_p + w * b.wide_p;
  out->p = static_cast<double>(out->wide_p);
  for (int j = 0; j < n_; ++j) {
    out->wide_e[j] = (1 - w) * a.wide_e[j] + w * b.wide_e[j];
    out->e[j] = static_cast<double>(out->wide_e[j]);
  }
  out->d = static_cast<double>((1 - w) * a.d + w * b.d);
  out->tied = a.tied;
  out->kingmaking = a.kingmaking;
  // The policies' c's differ only where their turn-score laws do.
  Wide apart = 0;
  for (int x = 1; x <= state_.max_turn; ++x) {
    apart += internal::WideAbs(high_law_[x] - low_law_[x]) * state_.ErrorAfter(seat, s, x);
  }
  mix_errors_[seat] = static_cast<double>(apart);
}

// Bound on the values' error from the mixture's: mixing mover i's
// indifference point (c_b - c_a) / (p_a - p_b) is off by at most
// (sum over scores x >= 1 of |P_b(x) - P_a(x)| error(x) + the extended
// sums' rounding) / (p_b - p_a), and the stored continuation is off it by
// its gap; times the values' sensitivity to the point. The values are a
// smooth function of the points, the slope from a 1e-9 shift is their
// derivative to about 1e-6, and the shifts here are below 1e-12 (second
// order negligible): 1e-3 more covers both.
double CycleSolve::MixingError() const {
  const bool wide = state_.arithmetic == internal::Arithmetic::kExtended;
  const double rounding = wide ? kWideTurnRounding : kTurnSolveRounding;
  double total = 0;
  for (int i = 0; i < n_; ++i) {
    if (!mix_.mixing[i]) continue;
    const Wide point = mix_.indifference[i];
    const double gap =
        static_cast<double>(internal::WideAbs(scratch_.movers[(i + 1) % n_].wide_e[i] - point));
    const double spread = static_cast<double>(seen_[i][1].p - seen_[i][0].p);
    const double off =
        (mix_errors_[i] + 2 * rounding * (1 + static_cast<double>(internal::WideAbs(point)))) /
            spread +
        gap;
    total += (1 + 1e-3) * mix_.sensitivity[i] * off;
  }
  return total;
}

}  // namespace martiandice::solver
