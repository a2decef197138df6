// Mixed equilibria of zero-score cycles: closing a cycle under mixed
// policies and solving the movers' indifference conditions.
#include "mixed_cycle.h"

#include <algorithm>
#include <cmath>

namespace martiandice::solver {
namespace {

// Own continuation minus the indifference point, per mixing mover: zero at
// an equilibrium.
std::vector<long double> Gaps(const std::vector<std::vector<CyclePolicy>>& options,
                              const std::vector<long double>& weight,
                              const std::vector<int>& movers,
                              const std::vector<long double>& indifference) {
  const int n = static_cast<int>(options.size());
  const std::vector<std::vector<long double>> v = CloseMixedCycle(options, weight);
  std::vector<long double> gap;
  for (int i : movers) gap.push_back(v[(i + 1) % n][i] - indifference[i]);
  return gap;
}

// Solves a * x = b in place (Gaussian elimination, partial pivoting); false
// when singular.
bool SolveLinear(std::vector<std::vector<long double>> a, std::vector<long double> b,
                 std::vector<long double>* x) {
  const int m = static_cast<int>(b.size());
  for (int col = 0; col < m; ++col) {
    int pivot = col;
    for (int r = col + 1; r < m; ++r) {
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    }
    if (a[pivot][col] == 0) return false;
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    for (int r = col + 1; r < m; ++r) {
      const long double f = a[r][col] / a[col][col];
      for (int k = col; k < m; ++k) a[r][k] -= f * a[col][k];
      b[r] -= f * b[col];
    }
  }
  x->assign(m, 0);
  for (int r = m - 1; r >= 0; --r) {
    long double acc = b[r];
    for (int k = r + 1; k < m; ++k) acc -= a[r][k] * (*x)[k];
    (*x)[r] = acc / a[r][r];
  }
  return true;
}

// Newton's method on the mixing movers' weights until every gap is at
// rounding level; false if it diverges or stalls above it.
bool SolveIndifference(const std::vector<std::vector<CyclePolicy>>& options,
                       const std::vector<int>& movers, const std::vector<long double>& indifference,
                       std::vector<long double>* weight) {
  constexpr long double kStep = 1e-7L, kSolved = 1e-18L;
  const int m = static_cast<int>(movers.size());
  for (int iteration = 0; iteration < 60; ++iteration) {
    const std::vector<long double> gap = Gaps(options, *weight, movers, indifference);
    long double largest = 0;
    for (long double g : gap) largest = std::max(largest, std::abs(g));
    std::vector<std::vector<long double>> jacobian(m, std::vector<long double>(m));
    for (int b = 0; b < m; ++b) {
      std::vector<long double> moved = *weight;
      moved[movers[b]] += kStep;
      const std::vector<long double> there = Gaps(options, moved, movers, indifference);
      for (int a = 0; a < m; ++a) jacobian[a][b] = (there[a] - gap[a]) / kStep;
    }
    std::vector<long double> step;
    if (!SolveLinear(jacobian, gap, &step)) return false;
    long double longest = 0;
    for (int b = 0; b < m; ++b) {
      (*weight)[movers[b]] -= step[b];
      longest = std::max(longest, std::abs(step[b]));
      if (!((*weight)[movers[b]] > -0.5 && (*weight)[movers[b]] < 1.5)) return false;
    }
    if (largest <= kSolved && longest <= 1e-15L) return true;
  }
  const std::vector<long double> gap = Gaps(options, *weight, movers, indifference);
  for (long double g : gap) {
    if (!(std::abs(g) <= kSolved)) return false;
  }
  return true;
}

}  // namespace

std::vector<std::vector<long double>> CloseMixedCycle(
    const std::vector<std::vector<CyclePolicy>>& options, const std::vector<long double>& weight) {
  const int n = static_cast<int>(options.size());
  std::vector<long double> p(n);
  std::vector<std::vector<long double>> c(n, std::vector<long double>(n));
  for (int i = 0; i < n; ++i) {
    const long double w = options[i].size() > 1 ? weight[i] : 0.0L;
    const CyclePolicy& a = options[i][0];
    const CyclePolicy& b = options[i].size() > 1 ? options[i][1] : a;
    p[i] = (1 - w) * a.p + w * b.p;
    for (int j = 0; j < n; ++j) c[i][j] = (1 - w) * a.c[j] + w * b.c[j];
  }
  std::vector<std::vector<long double>> v(n, std::vector<long double>(n));
  SolveAffineCycle<long double>(
      n, [&](int i) { return p[i]; }, [&](int i, int j) { return c[i][j]; },
      [&](int i, int j) -> long double& { return v[i][j]; });
  return v;
}

bool FindMixedEquilibrium(const std::vector<std::vector<CyclePolicy>>& options, MixedCycle* out) {
  const int n = static_cast<int>(options.size());
  std::vector<int> switching;
  std::vector<long double> indifference(n, 0.0L);
  for (int i = 0; i < n; ++i) {
    if (options[i].empty() || options[i].size() > 2) return false;
    if (options[i].size() == 2) {
      const CyclePolicy& a = options[i][0];
      const CyclePolicy& b = options[i][1];
      if (!(b.p > a.p)) return false;
      switching.push_back(i);
      indifference[i] = (b.c[i] - a.c[i]) / (a.p - b.p);
    }
  }
  const int k = static_cast<int>(switching.size());
  int patterns = 1;
  for (int t = 0; t < k; ++t) patterns *= 3;
  // Fewer mixing movers first: a pure equilibrium among the options is taken
  // if there is one.
  for (int mixed_count = 0; mixed_count <= k; ++mixed_count) {
    for (int code = 0; code < patterns; ++code) {
      std::vector<long double> weight(n, 0.0L);
      std::vector<int> movers;
      int rest = code;
      for (int t = 0; t < k; ++t, rest /= 3) {
        const int kind = rest % 3;  // 0: first policy, 1: second, 2: mixing
        weight[switching[t]] = kind == 2 ? 0.5L : kind;
        if (kind == 2) movers.push_back(switching[t]);
      }
      if (static_cast<int>(movers.size()) != mixed_count) continue;
      if (!movers.empty() && !SolveIndifference(options, movers, indifference, &weight)) continue;
      bool ok = true;
      for (int i : movers) ok &= weight[i] > 0 && weight[i] < 1;
      const std::vector<std::vector<long double>> v = CloseMixedCycle(options, weight);
      for (int t = 0; t < k && ok; ++t) {
        const int i = switching[t];
        if (std::find(movers.begin(), movers.end(), i) != movers.end()) continue;
        // A pure mover's policy must be its best reply: the first below the
        // indifference point, the second above it.
        const long double gap = v[(i + 1) % n][i] - indifference[i];
        ok = weight[i] == 0 ? gap <= 0 : gap >= 0;
      }
      if (!ok) continue;
      out->weight = weight;
      out->mixing.assign(n, false);
      for (int i : movers) out->mixing[i] = true;
      out->indifference = indifference;
      out->values = v;
      out->sensitivity.assign(n, 0.0);
      for (int i : movers) {
        constexpr long double kShift = 1e-9L;
        std::vector<long double> shifted = indifference;
        shifted[i] += kShift;
        std::vector<long double> w = weight;
        double largest = HUGE_VAL;
        if (SolveIndifference(options, movers, shifted, &w)) {
          const std::vector<std::vector<long double>> moved = CloseMixedCycle(options, w);
          largest = 0;
          for (int a = 0; a < n; ++a) {
            for (int j = 0; j < n; ++j) {
              largest = std::max(largest, static_cast<double>(std::abs(moved[a][j] - v[a][j])));
            }
          }
          largest /= static_cast<double>(kShift);
        }
        out->sensitivity[i] = largest;
      }
      return true;
    }
  }
  return false;
}

}  // namespace martiandice::solver
