// Internal: canonical position index, roll terms and earthling classes, and the
// double and exact dynamic programs over them.
#include "turn_model.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>

#include "martiandice/state_space.h"

namespace martiandice::internal {
namespace {

// n! for n <= 20 (20! < 2^64).
constexpr std::array<std::uint64_t, kMaxDice + 1> kFactorial = [] {
  std::array<std::uint64_t, kMaxDice + 1> f{};
  f[0] = 1;
  for (int i = 1; i <= kMaxDice; ++i) f[i] = f[i - 1] * static_cast<std::uint64_t>(i);
  return f;
}();

// (sum of parts)! / (product of part!), parts summing to at most kMaxDice.
std::uint64_t Multinomial(std::initializer_list<int> parts) {
  int total = 0;
  std::uint64_t result = 1;
  for (int part : parts) {
    total += part;
    result *= kFactorial[part];
  }
  return kFactorial[total] / result;
}

std::uint64_t Power(std::uint64_t base, int exp) {
  std::uint64_t p = 1;
  for (int i = 0; i < exp; ++i) p *= base;
  return p;
}

}  // namespace

// ---------------------------------------------------------------- the model

std::shared_ptr<const TurnModel> TurnModel::Get(const Rules& rules) {
  static std::mutex mutex;
  static std::map<std::tuple<int, int>, std::shared_ptr<const TurnModel>> cache;
  // The model depends on the dice count and the bonus (through scores) only.
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_tuple(rules.dice, rules.bonus);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  auto model = std::make_shared<const TurnModel>(rules);
  cache.emplace(key, model);
  return model;
}

TurnModel::TurnModel(const Rules& rules) : rules_(rules) {
  BuildIndex();
  BuildChildren();
  BuildClasses();
  BuildTerms();
}

int TurnModel::IdOf(const Dice& aside) const {
  int e[3] = {aside.count(Face::kHuman), aside.count(Face::kCow), aside.count(Face::kChicken)};
  if (e[0] < e[1]) std::swap(e[0], e[1]);
  if (e[1] < e[2]) std::swap(e[1], e[2]);
  if (e[0] < e[1]) std::swap(e[0], e[1]);
  return Id(aside.count(Face::kTank), aside.count(Face::kRay), e[0], e[1], e[2]);
}

void TurnModel::BuildIndex() {
  const int n = rules_.dice;
  index_ = CanonicalIndex(n);
  states_.resize(index_.size());
  levels_.assign(n + 1, {});
  for (int t = 0; t <= n; ++t) {
    for (int r = 0; t + r <= n; ++r) {
      for (int e0 = 0; t + r + e0 <= n; ++e0) {
        for (int e1 = 0; e1 <= e0 && t + r + e0 + e1 <= n; ++e1) {
          for (int e2 = 0; e2 <= e1 && t + r + e0 + e1 + e2 <= n; ++e2) {
            CanonState& s = states_[Id(t, r, e0, e1, e2)];
            s.tanks = t;
            s.rays = r;
            s.earth[0] = e0;
            s.earth[1] = e1;
            s.earth[2] = e2;
            s.left = n - t - r - e0 - e1 - e2;
            s.untaken = (e0 == 0) + (e1 == 0) + (e2 == 0);
            s.score = TurnScore(rules_, Dice(t, r, e0, e1, e2));
            levels_[s.left].push_back(Id(t, r, e0, e1, e2));
          }
        }
      }
    }
  }
}

void TurnModel::BuildChildren() {
  const int n = rules_.dice;
  earth_child_.assign(states_.size() * (n + 1), -1);
  for (int id = 0; id < size(); ++id) {
    const CanonState& s = states_[id];
    if (s.untaken == 0) continue;
    for (int x = 1; x <= s.left; ++x) {
      int e[3] = {s.earth[0], s.earth[1], s.earth[2]};
      e[3 - s.untaken] = x;  // the first empty slot (zeros sort last)
      std::sort(e, e + 3, std::greater<int>());
      earth_child_[id * (n + 1) + x] = Id(s.tanks, s.rays, e[0], e[1], e[2]);
    }
  }
}

void TurnModel::BuildClasses() {
  const int n = rules_.dice;
  classes_.assign(4 * (n + 1), {});
  for (int j = 0; j <= 3; ++j) {
    for (int q = 0; q <= n; ++q) {
      std::map<std::uint32_t, std::uint64_t> by_mask;
      // Counts (c0, c1, c2) for the untaken types (unused slots stay 0), z blanks.
      for (int c0 = 0; c0 <= (j >= 1 ? q : 0); ++c0) {
        for (int c1 = 0; c1 <= (j >= 2 ? q - c0 : 0); ++c1) {
          for (int c2 = 0; c2 <= (j >= 3 ? q - c0 - c1 : 0); ++c2) {
            int z = q - c0 - c1 - c2;
            if (j == 3 && z > 0) continue;  // no taken type: no blanks
            std::uint64_t w = Multinomial({c0, c1, c2, z}) * Power(3 - j, z);
            std::uint32_t mask = 0;
            for (int c : {c0, c1, c2}) {
              if (c > 0) mask |= 1u << c;
            }
            by_mask[mask] += w;
          }
        }
      }
      auto& out = classes_[j * (n + 1) + q];
      for (auto [mask, w] : by_mask) {
        EarthClass cls{mask, w, static_cast<double>(w)};
        for (std::uint32_t bits = mask; bits != 0 && cls.takes < 3; bits &= bits - 1) {
          cls.take[cls.takes++] = static_cast<std::uint8_t>(std::countr_zero(bits));
        }
        // Padded with the largest: a class then always has `untaken` entries.
        for (int i = cls.takes; cls.takes > 0 && i < 3; ++i) cls.take[i] = cls.take[cls.takes - 1];
        out.push_back(cls);
      }
    }
  }
  for (int u = 0; u <= 3; ++u) {
    for (int q = 0; q <= n; ++q) {
      class_begin_.push_back(static_cast<std::int32_t>(class_data_.size()));
      const auto& row = classes_[u * (n + 1) + q];
      class_data_.insert(class_data_.end(), row.begin(), row.end());
    }
    class_begin_.push_back(static_cast<std::int32_t>(class_data_.size()));
  }
}

void TurnModel::BuildTerms() {
  law_offset_.assign(1, 0);
  law_class_begin_.assign(1, 0);
  for (int id = 0; id < size(); ++id) {
    const CanonState& g = states_[id];
    law_offset_.push_back(law_offset_.back() + g.left + 1);
    const std::int32_t* const row = ClassRow(std::min<int>(g.untaken, 3));
    for (int q = 0; q <= g.left; ++q) {
      law_class_begin_.push_back(law_class_begin_.back() + row[q + 1] - row[q]);
      law_ray_child_.push_back(
          q == g.left ? -1 : Id(g.tanks, g.rays + g.left - q, g.earth[0], g.earth[1], g.earth[2]));
    }
  }
  size_t count = 0;
  for (const CanonState& s : states_) count += s.left == 0 ? 0 : (s.left + 1) * (s.left + 2) / 2;
  terms_.reserve(count);
  exact_terms_.reserve(count);
  term_begin_.assign(1, 0);
  for (int id = 0; id < size(); ++id) {
    const CanonState s = states_[id];
    const int m = s.left;
    const double scale = 1.0 / static_cast<double>(PowerOfSix(m));
    for (int a = 0; m > 0 && a <= m; ++a) {
      for (int q = 0; a + q <= m; ++q) {
        int b = m - a - q;
        RollTermExact exact;
        exact.weight = Multinomial({a, b, q}) << b;  // times 2^b: two ray sides
        RollTerm term;
        term.weight_d = static_cast<double>(exact.weight) * scale;
        term.law = LawIndex(Id(s.tanks + a, s.rays, s.earth[0], s.earth[1], s.earth[2]), q);
        terms_.push_back(term);
        exact_terms_.push_back(exact);
      }
    }
    term_begin_.push_back(static_cast<std::int32_t>(terms_.size()));
  }
}

void TurnModel::BuildWideWeights() const {
  wide_weights_.resize(terms_.size());
  for (int id = 0; id < size(); ++id) {
    const long double six_m = static_cast<long double>(PowerOfSix(states_[id].left));
    for (std::int32_t i = term_begin_[id]; i < term_begin_[id + 1]; ++i) {
      wide_weights_[i] = static_cast<long double>(exact_terms_[i].weight) / six_m;
    }
  }
}

// --------------------------------------------------- earthling-take laws

namespace {

// Ranks the earthling take counts x = 1..left(group) best first into
// rank[x] (lower is better); `better(c1, c2)` says child position c1 beats c2.
template <class Better>
void RankTakes(const TurnModel& model, int group, Better better, int* rank) {
  const CanonState& g = model.state(group);
  if (g.untaken <= 1) {
    for (int x = 1; x <= g.left; ++x) rank[x] = x;  // one type: a single take per class
    return;
  }
  // Insertion sort: stable, allocation-free, and left <= 20.
  int order[kMaxDice + 1];
  int count = 0;
  for (int x = 1; x <= g.left; ++x) {
    const int child = model.EarthChild(group, x);
    int i = count++;
    for (; i > 0 && better(child, model.EarthChild(group, order[i - 1])); --i) {
      order[i] = order[i - 1];
    }
    order[i] = x;
  }
  for (int i = 0; i < count; ++i) rank[order[i]] = i;
}

// The take of a class of outcomes: its present count of best rank.
int BestTake(std::uint32_t present, const int* rank) {
  int best = std::countr_zero(present);
  for (std::uint32_t bits = present & (present - 1); bits != 0; bits &= bits - 1) {
    int x = std::countr_zero(bits);
    if (rank[x] < rank[best]) best = x;
  }
  return best;
}

// The law of the best earthling take from a group's q other dice: calls
// sink(q, none_weight, weight_of) for q = 0..left, where none_weight counts
// the outcomes (over 3^q) showing no untaken type and weight_of[x] those
// whose best take is x dice.
template <class Better, class Sink>
void ForEachEarthLaw(const TurnModel& model, int group, Better better, Sink&& sink) {
  const CanonState& g = model.state(group);
  int rank[kMaxDice + 1];
  RankTakes(model, group, better, rank);
  for (int q = 0; q <= g.left; ++q) {
    std::uint64_t weight_of[kMaxDice + 1] = {};
    std::uint64_t none_weight = 0;
    for (const EarthClass& cls : model.Classes(g.untaken, q)) {
      if (cls.present == 0) {
        none_weight += cls.weight;
      } else {
        weight_of[BestTake(cls.present, rank)] += cls.weight;
      }
    }
    sink(q, none_weight, weight_of);
  }
}

}  // namespace

// ------------------------------------------------------------ double DP

namespace {

// The sums of one group's laws, q = 0..left, for a group with J untaken types.
template <bool kSlope, int J>
void GroupSums(const TurnModel& model, int group, const CanonState& g, const TurnValues& v,
               double* sums, const double* slope_utility, const double* slope, double* law_slope,
               const double* take_value, const double* take_slope) {
  const EarthClass* const data = model.ClassData();
  const std::int32_t* const row = model.ClassRow(J);
  const std::int32_t* const ray_children = model.RayChildren(group);
  const int law0 = model.LawIndex(group, 0);
  // The best take: the largest value, the fewest dice among equals (take[]
  // ascending, padded to J entries).
  auto better = [&](int x, int y) { return take_value[y] > take_value[x] ? y : x; };
  for (int q = 0; q <= g.left; ++q) {
    const int ray_child = ray_children[q];
    // Without rays an empty choice ends the turn; with rays they are taken.
    const double rays = ray_child < 0 ? -HUGE_VAL : v.value[ray_child];
    const double none = ray_child < 0 ? v.stop[group] : rays;
    double sum = 0, slope_sum = 0;
    double rays_slope = 0, none_slope = 0;
    if constexpr (kSlope) {
      rays_slope = ray_child < 0 ? 0.0 : slope[ray_child];
      none_slope = ray_child < 0 ? slope_utility[g.score] : rays_slope;
    }
    const EarthClass* cls = data + row[q];
    const EarthClass* const end = data + row[q + 1];
    // No untaken type shown (classes are sorted by mask, so it comes first):
    // always possible with a taken type to show, else only with no dice.
    if (J < 3 || q == 0) {
      sum += cls->weight_d * none;
      if constexpr (kSlope) slope_sum += cls->weight_d * none_slope;
      ++cls;
    }
    for (; cls != end; ++cls) {
      int x = cls->take[0];
      if constexpr (J >= 2) x = better(x, cls->take[1]);
      if constexpr (J >= 3) x = better(x, cls->take[2]);
      sum += cls->weight_d * std::max(rays, take_value[x]);
      if constexpr (kSlope) {
        // std::max keeps the rays on a tie: so does the slope.
        // (Indexed, not branched: which option wins is data-dependent.)
        const double option_slope[2] = {rays_slope, take_slope[x]};
        slope_sum += cls->weight_d * option_slope[rays < take_value[x]];
      }
    }
    sums[law0 + q] = sum;
    if constexpr (kSlope) law_slope[law0 + q] = slope_sum;
  }
}

// Phase "roll outcome values": for each group at this level and each q, the
// expected utility (times 3^q) of the q other dice under optimal takes. The
// rays beside them number left(group) - q whichever position rolled, so this
// sum is shared by every position whose roll leads to (group, q). With
// kSlope, the same sums of the chosen options' slopes go to law_slope (the
// choices, and so the value sums, are exactly those without).
template <bool kSlope>
void OutcomeSumsDouble(const TurnModel& model, int level, const TurnValues& v,
                       std::vector<double>& sums, const double* slope_utility, const double* slope,
                       double* law_slope) {
  double take_value[kMaxDice + 1], take_slope[kMaxDice + 1];
  for (int group : model.Level(level)) {
    const CanonState& g = model.state(group);
    if (g.untaken > 0) {
      for (int x = 1; x <= g.left; ++x) {
        take_value[x] = v.value[model.EarthChild(group, x)];
        if constexpr (kSlope) take_slope[x] = slope[model.EarthChild(group, x)];
      }
    }
    auto run = [&]<int J>() {
      GroupSums<kSlope, J>(model, group, g, v, sums.data(), slope_utility, slope, law_slope,
                           take_value, take_slope);
    };
    switch (g.untaken) {
      case 0:
        run.template operator()<0>();
        break;
      case 1:
        run.template operator()<1>();
        break;
      case 2:
        run.template operator()<2>();
        break;
      default:
        run.template operator()<3>();
        break;
    }
  }
}

// Phase "roll value": expected utility of rolling every die left at `id`,
// and with kSlope the same sum of the law slopes in *slope. Four interleaved
// partial sums: one chain of dependent additions would make the sum wait on
// the adder's latency (it is most of a solve otherwise).
template <bool kSlope>
double RollValueDouble(const TurnModel& model, int id, const double* sums, const double* law_slope,
                       double* slope) {
  const std::span<const RollTerm> terms = model.Terms(id);
  const size_t n = terms.size();
  double v0 = 0, v1 = 0, v2 = 0, v3 = 0, s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    v0 += terms[i].weight_d * sums[terms[i].law];
    v1 += terms[i + 1].weight_d * sums[terms[i + 1].law];
    v2 += terms[i + 2].weight_d * sums[terms[i + 2].law];
    v3 += terms[i + 3].weight_d * sums[terms[i + 3].law];
    if constexpr (kSlope) {
      s0 += terms[i].weight_d * law_slope[terms[i].law];
      s1 += terms[i + 1].weight_d * law_slope[terms[i + 1].law];
      s2 += terms[i + 2].weight_d * law_slope[terms[i + 2].law];
      s3 += terms[i + 3].weight_d * law_slope[terms[i + 3].law];
    }
  }
  for (; i < n; ++i) {
    v0 += terms[i].weight_d * sums[terms[i].law];
    if constexpr (kSlope) s0 += terms[i].weight_d * law_slope[terms[i].law];
  }
  if constexpr (kSlope) *slope = (s0 + s1) + (s2 + s3);
  return (v0 + v1) + (v2 + v3);
}

// Values with only the stop values filled in (roll unset: NaN).
TurnValues StopValues(const TurnModel& model, const std::vector<double>& utility) {
  const int size = model.size();
  TurnValues v;
  v.stop.resize(size);
  v.roll.assign(size, std::numeric_limits<double>::quiet_NaN());
  v.value.resize(size);
  for (int id = 0; id < size; ++id) v.stop[id] = utility[model.state(id).score];
  return v;
}

// Parametric solve (see SolveDoubleParametric): every value is linear in a
// parameter t of the utility while the policy stays optimal; this keeps the
// slopes and narrows [lo, hi], the range of t - t0 over which it does.
struct Parametric {
  const std::vector<double>* slope_utility = nullptr;  // d utility / dt by score
  std::vector<double> slope;                           // d value / dt per position
  std::vector<double> roll_slope;                      // d roll / dt per position
  std::vector<double> law_slope;                       // per law
  double lo = -HUGE_VAL, hi = HUGE_VAL;

  // The chosen option beats another by `gap` >= 0 now, and gains `dslope`
  // relative to it per unit of t: it stays chosen while gap + dslope * d >= 0.
  // Options equal up to rounding (the same function summed in another order)
  // would pin the range to one side of 0, so a loss of kSlack is accepted:
  // each decision then costs at most kSlack, a few per turn.
  static constexpr double kSlack = 1e-16;
  void Keep(double gap, double dslope) {
    // t is a probability: |d| <= 1, so a gap above |dslope| can never close.
    if (gap + kSlack >= std::abs(dslope)) return;
    if (dslope > 0) {
      lo = std::max(lo, -(gap + kSlack) / dslope);
    } else if (dslope < 0) {
      hi = std::min(hi, (gap + kSlack) / -dslope);
    }
  }
};

// Phase "roll outcome values" with slopes and the policy's range of validity.
void OutcomeSumsParametric(const TurnModel& model, int level, const TurnValues& v,
                           std::vector<double>& sums, Parametric& p) {
  auto better = [&](int a, int b) { return v.value[a] > v.value[b]; };
  double take_value[kMaxDice + 1], take_slope[kMaxDice + 1];
  for (int group : model.Level(level)) {
    const CanonState& g = model.state(group);
    for (int x = 1; g.untaken > 0 && x <= g.left; ++x) {
      take_value[x] = v.value[model.EarthChild(group, x)];
      take_slope[x] = p.slope[model.EarthChild(group, x)];
    }
    int rank[kMaxDice + 1];
    RankTakes(model, group, better, rank);
    if (g.untaken > 1) {
      // The ranking of the takes must hold: each take against the next one.
      int order[kMaxDice + 1];
      for (int x = 1; x <= g.left; ++x) order[rank[x]] = x;
      for (int i = 0; i + 1 < g.left; ++i) {
        int a = order[i], b = order[i + 1];
        p.Keep(take_value[a] - take_value[b], take_slope[a] - take_slope[b]);
      }
    }
    const double turn_over_slope = (*p.slope_utility)[g.score];
    for (int q = 0; q <= g.left; ++q) {
      const int ray_child = model.RayChild(group, q);
      const bool has_rays = ray_child >= 0;
      const double rays = has_rays ? v.value[ray_child] : 0.0;
      const double rays_slope = has_rays ? p.slope[ray_child] : 0.0;
      const int law = model.LawIndex(group, q);
      double sum = 0, slope_sum = 0;
      for (const EarthClass& cls : model.Classes(g.untaken, q)) {
        double value = has_rays ? rays : v.stop[group];
        double slope = has_rays ? rays_slope : turn_over_slope;
        if (cls.present != 0) {
          int x = BestTake(cls.present, rank);
          if (!has_rays || take_value[x] > rays) {
            if (has_rays) p.Keep(take_value[x] - rays, take_slope[x] - rays_slope);
            value = take_value[x];
            slope = take_slope[x];
          } else {
            p.Keep(rays - take_value[x], rays_slope - take_slope[x]);
          }
        }
        sum += cls.weight_d * value;
        slope_sum += cls.weight_d * slope;
      }
      sums[law] = sum;
      p.law_slope[law] = slope_sum;
    }
  }
}

}  // namespace

TurnValues SolveDoubleParametric(const TurnModel& model, const std::vector<double>& utility,
                                 const std::vector<double>& slope_utility, ParametricTurn* out) {
  const int size = model.size();
  TurnValues v = StopValues(model, utility);
  thread_local std::vector<double> sums;
  sums.resize(model.LawCount());
  Parametric p;
  p.slope_utility = &slope_utility;
  p.slope.assign(size, 0.0);
  p.roll_slope.assign(size, 0.0);
  p.law_slope.assign(model.LawCount(), 0.0);
  const int start = model.Id(0, 0, 0, 0, 0);
  for (int level = 0; level <= model.rules().dice; ++level) {
    OutcomeSumsParametric(model, level, v, sums, p);
    for (int id : model.Level(level)) {
      const double stop_slope = slope_utility[model.state(id).score];
      if (level == 0) {
        v.value[id] = v.stop[id];
        p.slope[id] = stop_slope;
        continue;
      }
      double roll = 0, roll_slope = 0;
      for (const RollTerm& term : model.Terms(id)) {
        roll += term.weight_d * sums[term.law];
        roll_slope += term.weight_d * p.law_slope[term.law];
      }
      v.roll[id] = roll;
      p.roll_slope[id] = roll_slope;
      // Phase "stop or roll": stopping is not allowed before the first roll.
      const bool rolls = id == start || roll > v.stop[id];
      if (id != start) {
        rolls ? p.Keep(roll - v.stop[id], roll_slope - stop_slope)
              : p.Keep(v.stop[id] - roll, stop_slope - roll_slope);
      }
      v.value[id] = rolls ? roll : v.stop[id];
      p.slope[id] = rolls ? roll_slope : stop_slope;
    }
  }
  out->slope = std::move(p.slope);
  out->roll_slope = std::move(p.roll_slope);
  out->lo = p.lo;
  out->hi = p.hi;
  return v;
}

namespace {

// The double solve; with kSlope also every value's slope in a parameter of
// the utility (slope_utility by score) under the policy chosen, returned for
// the start position in *start_slope.
template <bool kSlope>
void SolveDoubleImpl(const TurnModel& model, const std::vector<double>& utility,
                     const std::vector<double>* slope_utility, double* start_slope, TurnValues& v) {
  // The stop values; the vectors' storage is reused (the game solver's many
  // solves then allocate nothing). Every roll value is written below except
  // at positions with no dice left: NaN.
  const int size = model.size();
  v.stop.resize(size);
  v.value.resize(size);
  v.roll.resize(size);
  for (int id = 0; id < size; ++id) v.stop[id] = utility[model.state(id).score];
  for (int id : model.Level(0)) v.roll[id] = std::numeric_limits<double>::quiet_NaN();
  // Reused across solves on this thread: repeated solves (the game solver's
  // many utilities) then allocate nothing here.
  thread_local std::vector<double> sums, slope, law_slope;
  sums.resize(model.LawCount());
  if constexpr (kSlope) {
    slope.resize(model.size());
    law_slope.resize(model.LawCount());
  }
  const double* su = kSlope ? slope_utility->data() : nullptr;
  const int start = model.Id(0, 0, 0, 0, 0);
  for (int level = 0; level <= model.rules().dice; ++level) {
    OutcomeSumsDouble<kSlope>(model, level, v, sums, su, slope.data(), law_slope.data());
    for (int id : model.Level(level)) {
      if (level == 0) {
        v.value[id] = v.stop[id];
        if constexpr (kSlope) slope[id] = su[model.state(id).score];
        continue;
      }
      double roll_slope = 0;
      v.roll[id] = RollValueDouble<kSlope>(model, id, sums.data(), law_slope.data(), &roll_slope);
      // Phase "stop or roll": stopping is not allowed before the first roll.
      v.value[id] = id == start ? v.roll[id] : std::max(v.stop[id], v.roll[id]);
      if constexpr (kSlope) {
        const bool rolls = id == start || v.stop[id] < v.roll[id];
        slope[id] = rolls ? roll_slope : su[model.state(id).score];
      }
    }
  }
  if constexpr (kSlope) *start_slope = slope[start];
}

}  // namespace

TurnValues SolveDouble(const TurnModel& model, const std::vector<double>& utility) {
  TurnValues v;
  SolveDoubleImpl<false>(model, utility, nullptr, nullptr, v);
  return v;
}

void SolveDouble(const TurnModel& model, const std::vector<double>& utility, TurnValues* out) {
  SolveDoubleImpl<false>(model, utility, nullptr, nullptr, *out);
}

void SolveDoubleWithSlope(const TurnModel& model, const std::vector<double>& utility,
                          const std::vector<double>& slope_utility, double* start_slope,
                          TurnValues* out) {
  SolveDoubleImpl<true>(model, utility, &slope_utility, start_slope, *out);
}

TurnValues SolveDoubleWithSlope(const TurnModel& model, const std::vector<double>& utility,
                                const std::vector<double>& slope_utility, double* start_slope) {
  TurnValues v;
  SolveDoubleImpl<true>(model, utility, &slope_utility, start_slope, v);
  return v;
}

// ------------------------------------------------- double DP, two lanes

namespace {

// Two doubles operated on lane by lane (GCC/Clang vector extension): each
// lane sees exactly the scalar solve's operations, in the same order, so it
// rounds the same way.
typedef double Pair __attribute__((vector_size(16)));

inline Pair Splat(double x) { return Pair{x, x}; }
// std::max(a, b) lane by lane: b where a < b, else a.
inline Pair MaxPair(Pair a, Pair b) { return a < b ? b : a; }

// Scratch of the paired solve: one Pair per position and per law.
struct PairValues {
  std::vector<Pair> stop, roll, value, slope, sums, law_slope;
};

// GroupSums for two utilities: the same choices per lane (the better take
// replaces the current one only when strictly greater; rays lose only when
// strictly smaller), hence the same sums.
template <bool kSlope, int J>
void GroupSumsPair(const TurnModel& model, int group, const CanonState& g, PairValues& v,
                   const Pair* slope_utility, const Pair* take_value, const Pair* take_slope) {
  const EarthClass* const data = model.ClassData();
  const std::int32_t* const row = model.ClassRow(J);
  const std::int32_t* const ray_children = model.RayChildren(group);
  const int law0 = model.LawIndex(group, 0);
  for (int q = 0; q <= g.left; ++q) {
    const int ray_child = ray_children[q];
    const Pair rays = ray_child < 0 ? Splat(-HUGE_VAL) : v.value[ray_child];
    const Pair none = ray_child < 0 ? v.stop[group] : rays;
    Pair sum = Splat(0), slope_sum = Splat(0), rays_slope = Splat(0), none_slope = Splat(0);
    if constexpr (kSlope) {
      rays_slope = ray_child < 0 ? Splat(0) : v.slope[ray_child];
      none_slope = ray_child < 0 ? slope_utility[g.score] : rays_slope;
    }
    const EarthClass* cls = data + row[q];
    const EarthClass* const end = data + row[q + 1];
    if (J < 3 || q == 0) {
      sum += Splat(cls->weight_d) * none;
      if constexpr (kSlope) slope_sum += Splat(cls->weight_d) * none_slope;
      ++cls;
    }
    for (; cls != end; ++cls) {
      Pair best = take_value[cls->take[0]];
      Pair best_slope = Splat(0);
      if constexpr (kSlope) best_slope = take_slope[cls->take[0]];
      auto consider = [&](int x) {
        const auto better = take_value[x] > best;
        best = better ? take_value[x] : best;
        if constexpr (kSlope) best_slope = better ? take_slope[x] : best_slope;
      };
      if constexpr (J >= 2) consider(cls->take[1]);
      if constexpr (J >= 3) consider(cls->take[2]);
      const Pair w = Splat(cls->weight_d);
      sum += w * MaxPair(rays, best);
      if constexpr (kSlope) slope_sum += w * (rays < best ? best_slope : rays_slope);
    }
    v.sums[law0 + q] = sum;
    if constexpr (kSlope) v.law_slope[law0 + q] = slope_sum;
  }
}

template <bool kSlope>
void OutcomeSumsPair(const TurnModel& model, int level, PairValues& v, const Pair* slope_utility) {
  Pair take_value[kMaxDice + 1], take_slope[kMaxDice + 1];
  for (int group : model.Level(level)) {
    const CanonState& g = model.state(group);
    if (g.untaken > 0) {
      for (int x = 1; x <= g.left; ++x) {
        take_value[x] = v.value[model.EarthChild(group, x)];
        if constexpr (kSlope) take_slope[x] = v.slope[model.EarthChild(group, x)];
      }
    }
    switch (g.untaken) {
      case 0:
        GroupSumsPair<kSlope, 0>(model, group, g, v, slope_utility, take_value, take_slope);
        break;
      case 1:
        GroupSumsPair<kSlope, 1>(model, group, g, v, slope_utility, take_value, take_slope);
        break;
      case 2:
        GroupSumsPair<kSlope, 2>(model, group, g, v, slope_utility, take_value, take_slope);
        break;
      default:
        GroupSumsPair<kSlope, 3>(model, group, g, v, slope_utility, take_value, take_slope);
        break;
    }
  }
}

// RollValueDouble for two utilities: the same four interleaved partial sums.
template <bool kSlope>
Pair RollValuePair(const TurnModel& model, int id, const PairValues& v, Pair* slope) {
  const std::span<const RollTerm> terms = model.Terms(id);
  const size_t n = terms.size();
  Pair v0 = Splat(0), v1 = v0, v2 = v0, v3 = v0, s0 = v0, s1 = v0, s2 = v0, s3 = v0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    v0 += Splat(terms[i].weight_d) * v.sums[terms[i].law];
    v1 += Splat(terms[i + 1].weight_d) * v.sums[terms[i + 1].law];
    v2 += Splat(terms[i + 2].weight_d) * v.sums[terms[i + 2].law];
    v3 += Splat(terms[i + 3].weight_d) * v.sums[terms[i + 3].law];
    if constexpr (kSlope) {
      s0 += Splat(terms[i].weight_d) * v.law_slope[terms[i].law];
      s1 += Splat(terms[i + 1].weight_d) * v.law_slope[terms[i + 1].law];
      s2 += Splat(terms[i + 2].weight_d) * v.law_slope[terms[i + 2].law];
      s3 += Splat(terms[i + 3].weight_d) * v.law_slope[terms[i + 3].law];
    }
  }
  for (; i < n; ++i) {
    v0 += Splat(terms[i].weight_d) * v.sums[terms[i].law];
    if constexpr (kSlope) s0 += Splat(terms[i].weight_d) * v.law_slope[terms[i].law];
  }
  if constexpr (kSlope) *slope = (s0 + s1) + (s2 + s3);
  return (v0 + v1) + (v2 + v3);
}

template <bool kSlope>
void SolvePairImpl(const TurnModel& model, const std::vector<double>* const utility[2],
                   const std::vector<double>* slope_utility, double start_slope[2],
                   TurnValues out[2]) {
  const int size = model.size();
  // Reused across solves on this thread: repeated solves allocate nothing.
  thread_local PairValues v;
  v.stop.resize(size);
  v.roll.resize(size);
  v.value.resize(size);
  v.sums.resize(model.LawCount());
  if constexpr (kSlope) {
    v.slope.resize(size);
    v.law_slope.resize(model.LawCount());
  }
  Pair su[kMaxDice + kMaxBonus + 1];
  if constexpr (kSlope) {
    for (int s = 0; s <= model.MaxScore(); ++s) su[s] = Splat((*slope_utility)[s]);
  }
  for (int id = 0; id < size; ++id) {
    const int score = model.state(id).score;
    v.stop[id] = Pair{(*utility[0])[score], (*utility[1])[score]};
  }
  const int start = model.Id(0, 0, 0, 0, 0);
  for (int level = 0; level <= model.rules().dice; ++level) {
    OutcomeSumsPair<kSlope>(model, level, v, su);
    for (int id : model.Level(level)) {
      if (level == 0) {
        v.value[id] = v.stop[id];
        if constexpr (kSlope) v.slope[id] = su[model.state(id).score];
        continue;
      }
      Pair roll_slope = Splat(0);
      v.roll[id] = RollValuePair<kSlope>(model, id, v, &roll_slope);
      // Phase "stop or roll": stopping is not allowed before the first roll.
      v.value[id] = id == start ? v.roll[id] : MaxPair(v.stop[id], v.roll[id]);
      if constexpr (kSlope) {
        const Pair stop_slope = su[model.state(id).score];
        v.slope[id] =
            id == start ? roll_slope : (v.stop[id] < v.roll[id] ? roll_slope : stop_slope);
      }
    }
  }
  for (int lane = 0; lane < 2; ++lane) {
    TurnValues& o = out[lane];
    o.stop.resize(size);
    o.roll.resize(size);
    o.value.resize(size);
    for (int id = 0; id < size; ++id) {
      o.stop[id] = v.stop[id][lane];
      o.roll[id] = v.roll[id][lane];
      o.value[id] = v.value[id][lane];
    }
    for (int id : model.Level(0)) o.roll[id] = std::numeric_limits<double>::quiet_NaN();
    if constexpr (kSlope) start_slope[lane] = v.slope[start][lane];
  }
}

}  // namespace

void SolveDoublePair(const TurnModel& model, const std::vector<double>* const utility[2],
                     const std::vector<double>* slope_utility, double start_slope[2],
                     TurnValues out[2]) {
  if (slope_utility != nullptr) {
    SolvePairImpl<true>(model, utility, slope_utility, start_slope, out);
  } else {
    SolvePairImpl<false>(model, utility, nullptr, nullptr, out);
  }
}

// ------------------------------------------------------------- exact DP

namespace {

double RatioToDouble(const BigInt& num, const BigInt& den) {
  if (num == 0) return 0;
  BigInt a = abs(num);
  int shift_a = std::max<int>(0, static_cast<int>(msb(a)) - 62);
  int shift_d = std::max<int>(0, static_cast<int>(msb(den)) - 62);
  double r = static_cast<double>((a >> shift_a).convert_to<std::uint64_t>()) /
             static_cast<double>((den >> shift_d).convert_to<std::uint64_t>());
  r = std::ldexp(r, shift_a - shift_d);
  return num < 0 ? -r : r;
}

// Exact solve state: numerators of every node's value. Nodes are positions
// (value over Q * 6^D(left)) and final scores (utility over Q).
class ExactSolver {
 public:
  ExactSolver(const TurnModel& model, const std::vector<Rational>& utility)
      : model_(model), size_(model.size()), start_(model.Id(0, 0, 0, 0, 0)) {
    out_.denominator = 1;
    for (const Rational& u : utility) out_.denominator = lcm(out_.denominator, denominator(u));
    for (const Rational& u : utility) {
      out_.utility.push_back(numerator(u) * (out_.denominator / denominator(u)));
      utility_d_.push_back(RatioToDouble(out_.utility.back(), out_.denominator));
    }
    const int max_exp = TurnModel::DenominatorExponent(model.rules().dice);
    pow6_.resize(max_exp + 1);
    pow6_[0] = 1;
    for (int i = 1; i <= max_exp; ++i) pow6_[i] = pow6_[i - 1] * 6;
    value_.resize(size_);
    out_.roll.resize(size_);
    out_.approx.stop.resize(size_);
    out_.approx.roll.assign(size_, std::numeric_limits<double>::quiet_NaN());
    out_.approx.value.resize(size_);
    for (int id = 0; id < size_; ++id) out_.approx.stop[id] = utility_d_[model.state(id).score];
    acc_.assign(size_ + out_.utility.size(), 0);
    laws_.resize(model.LawCount());
  }

  ExactTurnValues Run() {
    for (int level = 0; level <= model_.rules().dice; ++level) {
      for (int group : model_.Level(level)) {
        ForEachEarthLaw(
            model_, group, [&](int a, int b) { return Compare(a, b) > 0; },
            [&](int q, std::uint64_t none_weight, const std::uint64_t* weight_of) {
              BuildOutcomeLaw(group, q, none_weight, weight_of);
            });
      }
      for (int id : model_.Level(level)) SolvePosition(id);
    }
    return std::move(out_);
  }

 private:
  int Exponent(int node) const {
    return node < size_ ? TurnModel::DenominatorExponent(model_.state(node).left) : 0;
  }
  const BigInt& Numerator(int node) const {
    return node < size_ ? value_[node] : out_.utility[node - size_];
  }
  double Approx(int node) const {
    return node < size_ ? out_.approx.value[node] : utility_d_[node - size_];
  }
  int ScoreNode(int id) const { return size_ + model_.state(id).score; }

  // Sign of value(a) - value(b); doubles decide only with a margin far above
  // their rounding error (a few ulps), else the numerators are compared.
  int Compare(int a, int b) const {
    double da = Approx(a), db = Approx(b);
    double margin = 1e-12 * std::max(std::abs(da), std::abs(db));
    if (da - db > margin) return 1;
    if (db - da > margin) return -1;
    int ea = Exponent(a), eb = Exponent(b), e = std::max(ea, eb);
    BigInt lhs = Numerator(a) * pow6_[e - ea];
    BigInt rhs = Numerator(b) * pow6_[e - eb];
    return lhs < rhs ? -1 : (lhs > rhs ? 1 : 0);
  }

  // Phase "roll outcome values", exactly: the node (position or final score)
  // each class of (group, q) outcomes leads to under optimal takes.
  void BuildOutcomeLaw(int group, int q, std::uint64_t none_weight,
                       const std::uint64_t* weight_of) {
    std::vector<std::pair<int, std::uint64_t>>& law = laws_[model_.LawIndex(group, q)];
    const int ray_child = model_.RayChild(group, q);
    if (none_weight > 0)
      law.emplace_back(ray_child < 0 ? ScoreNode(group) : ray_child, none_weight);
    for (int x = 1; x <= q; ++x) {
      if (weight_of[x] == 0) continue;
      int child = model_.EarthChild(group, x);
      if (ray_child >= 0 && Compare(ray_child, child) >= 0) child = ray_child;
      law.emplace_back(child, weight_of[x]);
    }
  }

  void Add(int node, std::uint64_t weight) {
    if (acc_[node] == 0) touched_.push_back(node);
    acc_[node] += weight;
  }

  // Phase "roll value", exactly: weights of the node each roll outcome leads to
  // under optimal takes, then one big-number sum per level of denominator.
  void SolvePosition(int id) {
    const CanonState& s = model_.state(id);
    const int exp = TurnModel::DenominatorExponent(s.left);
    const BigInt& qd = pow6_[exp];
    if (s.left == 0) {
      value_[id] = out_.utility[s.score];
      out_.approx.value[id] = out_.approx.stop[id];
      return;
    }
    std::span<const RollTerm> terms = model_.Terms(id);
    std::span<const RollTermExact> exact_terms = model_.ExactTerms(id);
    for (size_t i = 0; i < terms.size(); ++i) {
      for (auto [node, w] : laws_[terms[i].law]) Add(node, exact_terms[i].weight * w);
    }
    const int child_exp = TurnModel::DenominatorExponent(s.left - 1);
    std::vector<BigInt> by_exp(child_exp + 1);
    for (int node : touched_) {
      by_exp[Exponent(node)] += Numerator(node) * acc_[node];
      acc_[node] = 0;
    }
    touched_.clear();
    BigInt roll = 0;
    for (int e = 0; e <= child_exp; ++e) {
      if (by_exp[e] != 0) roll += by_exp[e] * pow6_[child_exp - e];
    }
    out_.approx.roll[id] = RatioToDouble(roll, out_.denominator * qd);
    out_.roll[id] = roll;
    // Phase "stop or roll", decided exactly.
    BigInt stop = out_.utility[s.score] * qd;
    bool roll_better = id == start_ || stop < roll;
    value_[id] = roll_better ? roll : stop;
    out_.approx.value[id] = roll_better ? out_.approx.roll[id] : out_.approx.stop[id];
  }

  const TurnModel& model_;
  const int size_;
  const int start_;
  ExactTurnValues out_;
  std::vector<double> utility_d_;
  std::vector<BigInt> pow6_;
  std::vector<BigInt> value_;
  std::vector<std::uint64_t> acc_;
  std::vector<int> touched_;
  std::vector<std::vector<std::pair<int, std::uint64_t>>> laws_;  // (node, weight) per law
};

}  // namespace

ExactTurnValues SolveExact(const TurnModel& model, const std::vector<Rational>& utility) {
  return ExactSolver(model, utility).Run();
}

}  // namespace martiandice::internal
