// The solve's shared state: where a turn's outcomes lead, their error
// bounds, and one mover's convention turn solve.
#include "solve_state.h"

#include <limits>
#include <span>

#include "martiandice/rules.h"
#include "solve_cluster.h"

namespace martiandice::solver {

TurnScratch::TurnScratch(int players, int max_turn)
    : over(static_cast<size_t>(max_turn + 1) * players), movers(players, MoverTurn(players)) {}

SolveState::SolveState(const GameSolveOptions& options)
    : rules(options.rules),
      n(options.players),
      target(options.rules.target),
      max_turn(MaxTurnScore(options.rules)),
      index(options.rules, options.players),
      model(internal::TurnModel::Get(options.rules)),
      start(model->Id(0, 0, 0, 0, 0)),
      pair(options.players == 2 && options.arithmetic == SolveArithmetic::kAuto),
      arithmetic(options.arithmetic == SolveArithmetic::kExtended ||
                         (options.arithmetic == SolveArithmetic::kAuto && options.players > 2)
                     ? internal::Arithmetic::kExtended
                     : internal::Arithmetic::kDouble),
      rounding(arithmetic == internal::Arithmetic::kExtended ? kExtendedTurnRounding
                                                             : kTurnSolveRounding),
      rank(options.cluster != nullptr ? options.cluster->rank() : 0),
      ranks(options.cluster != nullptr ? options.cluster->ranks() : 1),
      wide(target + max_turn),
      // CycleSolve::InitialGuess: guess order + 1 up; PairKernel::Extrapolate: 2.
      guess_reach(std::max(std::max(options.guess_order, options.probe_guess_order) + 1, 2)),
      reach(std::max(max_turn, guess_reach)),
      win(index.size() * n),
      error_of(index.size()),
      pair_slope(n == 2 ? index.size() : 0),
      width(n + 1 + (n == 2 ? 1 : 0)),
      window(width, n * (wide - 1) + 1) {}

std::uint64_t SolveState::Pack(const int* s) const {
  std::uint64_t code = 0;
  for (int j = 0; j < n; ++j) code = code * wide + s[j];
  return code;
}

int SolveState::Sum(const int* s) const {
  int sum = 0;
  for (int j = 0; j < n; ++j) sum += s[j];
  return sum;
}

SolveState::Read SolveState::Reads(const int* t, int reader) const {
  // The reader's vector nearest below on seat 0: t[0] - x with x = (t[0] - reader) mod ranks.
  const int x = ((t[0] - reader) % ranks + ranks) % ranks;
  if (x == 0 || x > t[0] || x > reach) return Read::kNone;
  return x <= guess_reach ? Read::kAll : Read::kNext;
}

namespace {

// What a record not held reads as.
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMissing[kMaxPlayers + 2] = {kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN};
static_assert(kMaxPlayers + 2 == 8);

}  // namespace

const double* SolveState::Win(int seat, const int* s) const {
  if (Own(s)) return &win[index.Index(seat, s) * n];
  const double* record = window.Find(Sum(s), Pack(s), seat);
  if (record != nullptr) return record;
  missed.store(true, std::memory_order_relaxed);
  return kMissing;
}

double SolveState::Error(int seat, const int* s) const {
  return Own(s) ? error_of[index.Index(seat, s)] : Win(seat, s)[n];
}

double SolveState::Slope(int seat, const int* s) const {
  return Own(s) ? pair_slope[index.Index(seat, s)] : Win(seat, s)[n + 1];
}

int SolveState::FirstMover(const int* s) const { return FirstSeatToMove(rules, {s, s + n}); }

const double* SolveState::AfterTurn(int seat, const int* s, int x, TurnScratch& scratch) const {
  int next[kMaxPlayers] = {};
  std::copy(s, s + n, next);
  next[seat] += x;
  const std::span<const int> after(next, n);
  if (GameEndsAfterTurn(rules, after, seat)) {
    double* out = &scratch.over[static_cast<size_t>(x) * n];
    for (int j = 0; j < n; ++j) out[j] = WinShare(after, j);
    return out;
  }
  return Win((seat + 1) % n, next);
}

double SolveState::ErrorAfter(int seat, const int* s, int x) const {
  int next[kMaxPlayers];
  std::copy(s, s + n, next);
  next[seat] += x;
  if (GameEndsAfterTurn(rules, std::span<const int>(next, n), seat)) return 0;
  return Error((seat + 1) % n, next);
}

double SolveState::DependencyError(int seat, const int* s, int from) const {
  double worst = 0;
  int next[kMaxPlayers];
  for (int x = from; x <= max_turn; ++x) {
    std::copy(s, s + n, next);
    next[seat] += x;
    if (GameEndsAfterTurn(rules, std::span<const int>(next, n), seat)) continue;
    worst = std::max(worst, Error((seat + 1) % n, next));
  }
  return worst;
}

int SolveState::CarriedSeats(int seat, int* carried) const {
  const int last_other = n > 2 ? -1 : 1 - seat;
  int k = 1;
  for (int j = 0; j < n; ++j) {
    if (j != seat && j != last_other) carried[k++] = j;
  }
  return k;
}

void SolveState::MoverRequest(int seat, const int* s, const double* zero, bool error_lane,
                              internal::Arithmetic arithmetic, TurnScratch& scratch,
                              TurnRequest* request) const {
  request->utility.resize(max_turn + 1);
  request->record_policy = false;
  if (pair) {
    request->kind = TurnRequest::Kind::kPlain;
    for (int x = 0; x <= max_turn; ++x) {
      request->utility[x] = (x == 0 ? zero : AfterTurn(seat, s, x, scratch))[seat];
    }
    return;
  }
  int carried_seat[kMaxPlayers + 1];
  const int k = CarriedSeats(seat, carried_seat);
  request->kind = TurnRequest::Kind::kConvention;
  request->lanes = k + (error_lane ? 1 : 0);
  if (static_cast<int>(request->carried.size()) < request->lanes) {
    request->carried.resize(request->lanes);
  }
  for (int c = 0; c < request->lanes; ++c) request->carried[c].resize(max_turn + 1);
  std::vector<std::vector<double>>& carried = request->carried;
  for (int x = 0; x <= max_turn; ++x) {
    const double* next = x == 0 ? zero : AfterTurn(seat, s, x, scratch);
    request->utility[x] = next[seat];
    carried[0][x] = x == 0 ? 1.0 : 0.0;
    for (int c = 1; c < k; ++c) carried[c][x] = next[carried_seat[c]];
    if (error_lane) carried[k][x] = x == 0 ? 0.0 : ErrorAfter(seat, s, x);
  }
  request->watched = ((1u << k) - 1) & ~1u;
  request->arithmetic = arithmetic;
}

void SolveState::ReadMover(int seat, bool error_lane, const TurnResult& turn,
                           MoverTurn* out) const {
  if (pair) {
    out->e[seat] = Probability(turn.value);
    out->e[1 - seat] = 1.0 - out->e[seat];
    out->tied = out->kingmaking = 0;
    return;
  }
  int carried_seat[kMaxPlayers + 1];
  const int k = CarriedSeats(seat, carried_seat);
  const int last_other = n > 2 ? -1 : 1 - seat;
  out->p = turn.carried[0];
  out->e[seat] = turn.value;
  out->wide_p = turn.wide_carried[0];
  out->wide_e[seat] = turn.wide_value;
  double rest = 1.0 - turn.value;
  Wide wide_rest = 1 - turn.wide_value;
  for (int c = 1; c < k; ++c) {
    out->e[carried_seat[c]] = turn.carried[c];
    out->wide_e[carried_seat[c]] = turn.wide_carried[c];
    rest -= turn.carried[c];
    wide_rest -= turn.wide_carried[c];
  }
  if (last_other >= 0) {
    out->e[last_other] = rest;
    out->wide_e[last_other] = wide_rest;
  }
  out->d = error_lane ? turn.carried[k] : 0.0;
  out->tied = turn.tied_decisions;
  out->kingmaking = turn.kingmaking;
}

}  // namespace martiandice::solver
