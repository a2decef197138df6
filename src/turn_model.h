// Internal: the turn as a DAG over canonical positions (earthling types sorted,
// so a user's cow and chicken share one entry), the roll laws it needs, and
// the dynamic programs that value every position for a utility of the score.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "canonical_index.h"
#include "martiandice/dice.h"
#include "martiandice/exact.h"
#include "martiandice/rules.h"
#include "martiandice/state_space.h"
#include "wide.h"

namespace martiandice::internal {

// A canonical position: tanks, rays, earthling counts sorted descending.
struct CanonState {
  std::uint8_t tanks = 0;
  std::uint8_t rays = 0;
  std::uint8_t earth[3] = {0, 0, 0};
  std::uint8_t left = 0;     // dice not set aside
  std::uint8_t untaken = 0;  // earthling types not yet taken (zeros in earth)
  std::uint8_t score = 0;    // TurnScore if the turn ended here
};

// One (tanks a, rays b, other q) split of a roll of m dice from a position:
// multinomial weight m!/(a! b! q!) 2^b; the q other dice then fall over the
// earthling types by the law of (group, q), group = position after the tanks.
// The b rays number left(group) - q, so (group, q) fixes the whole outcome law.
struct RollTerm {
  double weight_d = 0;   // weight / 6^m
  std::int32_t law = 0;  // LawIndex(group, q)
};
// The exact side of the RollTerm with the same index.
struct RollTermExact {
  std::uint64_t weight = 0;
};

// A position's roll terms, RollTerm values in (tanks a, other dice q) order:
// the weights, shared by every position with as many dice left, beside the
// position's own laws (4 bytes a term where a RollTerm takes 16).
class RollTerms {
 public:
  RollTerms(const double* weight, const std::int32_t* law, std::size_t size)
      : weight_(weight), law_(law), size_(size) {}
  std::size_t size() const { return size_; }
  RollTerm operator[](std::size_t i) const { return {weight_[i], law_[i]}; }

  class Iterator {
   public:
    Iterator(const double* weight, const std::int32_t* law) : weight_(weight), law_(law) {}
    RollTerm operator*() const { return {*weight_, *law_}; }
    Iterator& operator++() {
      ++weight_;
      ++law_;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return law_ != other.law_; }

   private:
    const double* weight_;
    const std::int32_t* law_;
  };
  Iterator begin() const { return {weight_, law_}; }
  Iterator end() const { return {weight_ + size_, law_ + size_}; }

 private:
  const double* weight_;
  const std::int32_t* law_;
  std::size_t size_;
};

// How q non-tank, non-ray dice fall over j untaken earthling types (each 1/3)
// and already-taken ones ("blanks"): the set of counts present among the
// untaken types as a bit mask (bit x: some untaken type shows x dice), and the
// number of the 3^q ordered results producing it.
struct EarthClass {
  std::uint32_t present = 0;
  std::uint64_t weight = 0;
  double weight_d = 0;  // the same, as a double (exact: weights < 2^53)
  // The set bits of `present`, ascending (the takes this class allows), then
  // the largest repeated up to 3 entries (none if present == 0).
  std::uint8_t takes = 0;
  std::uint8_t take[3] = {0, 0, 0};
};

// The number of the 3^q ordered results of q dice (no tanks, no rays) in
// which the `untaken` types (0..3) show c[0], c[1], c[2] dice in face order
// (entries past `untaken` are 0) and the rest show taken types.
std::uint64_t EarthOutcomeWeight(int untaken, const int c[3], int q);

// Calls f(c, weight) for every ordered outcome of q dice over `untaken`
// earthling types (EarthOutcomeWeight's), c[0] slowest: the one enumeration
// the model's classes and a split class (zero_chances.cpp) are counted by.
template <typename F>
void ForEachEarthOutcome(int untaken, int q, F&& f) {
  int c[3] = {0, 0, 0};
  for (c[0] = 0; c[0] <= (untaken >= 1 ? q : 0); ++c[0]) {
    for (c[1] = 0; c[1] <= (untaken >= 2 ? q - c[0] : 0); ++c[1]) {
      for (c[2] = 0; c[2] <= (untaken >= 3 ? q - c[0] - c[1] : 0); ++c[2]) {
        if (untaken == 3 && c[0] + c[1] + c[2] < q) continue;  // no taken type to show
        f(static_cast<const int*>(c), EarthOutcomeWeight(untaken, c, q));
      }
    }
  }
}

// Everything about the turn that does not depend on the objective.
class TurnModel {
 public:
  // Builds (or returns the shared) model for valid `rules`. Thread-safe. The
  // model of a dice count and bonus is shared while anyone holds it, and the
  // kKeptModels most recently asked for are kept besides: a program asking
  // for ever new rules (a service's requests) holds at most those models
  // plus the ones in use, not one per rules ever asked.
  static std::shared_ptr<const TurnModel> Get(const Rules& rules);
  static constexpr int kKeptModels = 4;
  explicit TurnModel(const Rules& rules);

  const Rules& rules() const { return rules_; }
  int size() const { return static_cast<int>(states_.size()); }
  const CanonState& state(int id) const { return states_[id]; }
  // Id of a canonical tuple (earth sorted descending); -1 if past the dice count.
  int Id(int tanks, int rays, int e0, int e1, int e2) const {
    if (tanks + rays + e0 + e1 + e2 > rules_.dice) return -1;
    return index_.Id(tanks, rays, e0, e1, e2);
  }
  // Id of a concrete set-aside (any earthling order).
  int IdOf(const Dice& aside) const;
  // Position after taking x dice of an untaken earthling type at `group`.
  int EarthChild(int group, int x) const { return earth_child_[group * (rules_.dice + 1) + x]; }
  // EarthChild(group, x) for x = 0..dice, as an array.
  const std::int32_t* EarthChildren(int group) const {
    return earth_child_.data() + group * (rules_.dice + 1);
  }
  // Ids with `left` dice left, the DP's processing order by level.
  const std::vector<int>& Level(int left) const { return levels_[left]; }
  RollTerms Terms(int id) const {
    const int m = states_[id].left;
    return {weights_.data() + weight_begin_[m], term_law_.data() + term_begin_[id],
            static_cast<std::size_t>(term_begin_[id + 1] - term_begin_[id])};
  }
  // The same terms' exact weights. Built on first use (thread-safe), as only
  // exact solves need them.
  std::span<const RollTermExact> ExactTerms(int id) const {
    std::call_once(exact_once_, [this] { BuildExactTerms(); });
    const int m = states_[id].left;
    return {exact_terms_.data() + weight_begin_[m], exact_terms_.data() + weight_begin_[m + 1]};
  }
  // The terms' weights in extended precision (one rounding, about 5e-20
  // relative, where weight_d has up to two of 1.1e-16): for extended solves.
  // Built on first use (thread-safe), as only the N-player solver needs them.
  std::span<const Wide> WideWeights(int id) const {
    std::call_once(wide_once_, [this] { BuildWideWeights(); });
    const int m = states_[id].left;
    return {wide_weights_.data() + weight_begin_[m], wide_weights_.data() + weight_begin_[m + 1]};
  }
  // Earthling laws are numbered per (group, q), q = 0..left(group).
  int LawIndex(int group, int q) const { return law_offset_[group] + q; }
  int LawCount() const { return law_offset_.back(); }
  // Outcome classes of every law in one numbering: law l's are
  // LawClassBegin(l) .. LawClassBegin(l + 1) - 1, in ClassData order (the
  // same for every objective, so a recorded policy needs no offsets of its own).
  int LawClassBegin(int law) const { return law_class_begin_[law]; }
  int LawClassCount() const { return law_class_begin_.back(); }
  // Position after taking the left(group) - q rays beside q other dice at
  // `group`; -1 when there are no rays (q == left).
  int RayChild(int group, int q) const { return law_ray_child_[LawIndex(group, q)]; }
  const std::vector<EarthClass>& Classes(int untaken, int q) const {
    return classes_[untaken * (rules_.dice + 1) + q];
  }
  // The same classes in one array, for the inner loops: those of (untaken, q)
  // are ClassData()[ClassRow(untaken)[q] .. ClassRow(untaken)[q + 1]).
  const EarthClass* ClassData() const { return class_data_.data(); }
  const std::int32_t* ClassRow(int untaken) const {
    return class_begin_.data() + untaken * (rules_.dice + 2);
  }
  // RayChild(group, q) for q = 0..left(group), as an array.
  const std::int32_t* RayChildren(int group) const {
    return law_ray_child_.data() + LawIndex(group, 0);
  }
  int MaxScore() const { return MaxTurnScore(rules_); }
  // Exponent D of the exact denominator 6^D of values at positions with `left`
  // dice left: D(m) = m + D(m-1), enough for every roll down the turn.
  static int DenominatorExponent(int left) { return left * (left + 1) / 2; }

 private:
  void BuildIndex();
  void BuildChildren();
  void BuildClasses();
  void BuildTerms();

  Rules rules_;
  std::vector<CanonState> states_;
  CanonicalIndex index_;
  std::vector<std::int32_t> earth_child_;
  std::vector<std::vector<int>> levels_;
  // The terms' weights by dice left m (each m's from weight_begin_[m], in
  // (a, q) order, none for m = 0; plus the end), and each term's law.
  std::vector<double> weights_;
  std::vector<std::int32_t> weight_begin_;
  std::vector<std::int32_t> term_law_;
  // Calls f(m, weight) for every term shape of m = 1..dice dice left, in
  // the terms' order: a tanks, q other dice, b = m - a - q rays, weight the
  // exact m!/(a! b! q!) 2^b.
  template <typename F>
  static void ForEachWeight(int dice, F&& f) {
    for (int m = 1; m <= dice; ++m) {
      for (int a = 0; a <= m; ++a) {
        for (int q = 0; a + q <= m; ++q) f(m, ExactWeight(a, m - a - q, q));
      }
    }
  }
  static std::uint64_t ExactWeight(int a, int b, int q);  // (a+b+q)!/(a! b! q!) 2^b
  mutable std::vector<RollTermExact> exact_terms_;        // as weights_
  mutable std::once_flag exact_once_;
  void BuildExactTerms() const;
  mutable std::vector<Wide> wide_weights_;  // as weights_
  mutable std::once_flag wide_once_;
  void BuildWideWeights() const;
  std::vector<std::int32_t> term_begin_;       // per id, plus the end: its laws
  std::vector<std::int32_t> law_offset_;       // per id, plus the end
  std::vector<std::int32_t> law_ray_child_;    // per law
  std::vector<std::int32_t> law_class_begin_;  // per law, plus the end
  std::vector<std::vector<EarthClass>> classes_;
  std::vector<EarthClass> class_data_;     // classes_ flattened by (untaken, q)
  std::vector<std::int32_t> class_begin_;  // per untaken: dice + 2 offsets
};

// The law of a roll of `dice` dice (0..kMaxDice), made once for the program
// (never freed): every walk over a turn's concrete rolls reads the same rows.
// Thread-safe.
const std::vector<RollOutcome>& RollLaw(int dice);

// A concrete set-aside as one number (5 bits a face): a key for maps.
inline std::uint32_t DiceKey(const Dice& dice) {
  std::uint32_t key = 0;
  for (Face face : kAllFaces) key = key * 32 + static_cast<std::uint32_t>(dice.count(face));
  return key;
}

// Values of every canonical position for one utility.
struct TurnValues {
  std::vector<double> stop;   // utility of the score if the turn ends here
  std::vector<double> roll;   // optimal expected utility of rolling on (NaN if no dice left)
  std::vector<double> value;  // max(stop, roll), or roll at the start
};

// Solves in double precision for `utility[score]`, score 0..MaxScore().
TurnValues SolveDouble(const TurnModel& model, const std::vector<double>& utility);
// The same into *out, reusing its vectors' storage (no allocation once sized).
void SolveDouble(const TurnModel& model, const std::vector<double>& utility, TurnValues* out);

// SolveDouble (the same values, bit for bit) plus the start position's value
// slope in a parameter t of the utility (d utility / dt = slope_utility by
// score) under the policy that solve chose, in *start_slope. Unlike
// SolveDoubleParametric it says nothing about how far that policy stays
// optimal; it is cheaper.
TurnValues SolveDoubleWithSlope(const TurnModel& model, const std::vector<double>& utility,
                                const std::vector<double>& slope_utility, double* start_slope);
void SolveDoubleWithSlope(const TurnModel& model, const std::vector<double>& utility,
                          const std::vector<double>& slope_utility, double* start_slope,
                          TurnValues* out);

// Two solves in one pass, two lanes wide: out[i] gets exactly (bit for bit)
// what SolveDouble(model, utility[i], &out[i]) gives, and with a non-null
// `slope_utility` SolveDoubleWithSlope's start slope in start_slope[i]. The
// turn model is shared, so one pass over it serves both utilities.
void SolveDoublePair(const TurnModel& model, const std::vector<double>* const utility[2],
                     const std::vector<double>* slope_utility, double start_slope[2],
                     TurnValues out[2]);

// A solve's sensitivity to a parameter t of the utility (utility(t + d) =
// utility + d * slope_utility): the values' slopes under the optimal policy,
// and the range [lo, hi] of d over which that policy stays optimal, so that
// value(t + d) = value + d * slope exactly (up to rounding) for d in range.
struct ParametricTurn {
  std::vector<double> slope;       // per position, of the value
  std::vector<double> roll_slope;  // per position, of the roll value
  double lo = 0, hi = 0;
};
// The values are SolveDouble's, bit for bit, and the start slope
// SolveDoubleWithSlope's.
TurnValues SolveDoubleParametric(const TurnModel& model, const std::vector<double>& utility,
                                 const std::vector<double>& slope_utility, ParametricTurn* out);

// Exact values: value = numerator / (denominator * 6^DenominatorExponent(left)).
struct ExactTurnValues {
  BigInt denominator;           // common denominator of the utilities
  std::vector<BigInt> utility;  // numerators by score
  std::vector<BigInt> roll;     // numerators of the roll values (0 if no dice left)
  TurnValues approx;            // the same values rounded to double
};

// Solves exactly for `utility[score]`; every decision is certified (doubles
// decide only when they differ by far more than their rounding error).
ExactTurnValues SolveExact(const TurnModel& model, const std::vector<Rational>& utility);

}  // namespace martiandice::internal
