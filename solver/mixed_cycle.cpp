// Mixed equilibria of zero-score cycles: closing a cycle under mixed
// policies and solving the movers' indifference conditions.
#include "mixed_cycle.h"

#include <algorithm>
#include <cmath>

namespace martiandice::solver {
namespace {

// Own continuation minus the indifference point, per mixing mover: zero at
// an equilibrium.
std::vector<Wide> Gaps(const std::vector<std::vector<CyclePolicy>>& options,
                       const std::vector<Wide>& weight, const std::vector<int>& movers,
                       const std::vector<Wide>& indifference) {
  const int n = static_cast<int>(options.size());
  const std::vector<std::vector<Wide>> v = CloseMixedCycle(options, weight);
  std::vector<Wide> gap;
  for (int i : movers) gap.push_back(v[(i + 1) % n][i] - indifference[i]);
  return gap;
}

// Solves a * x = b in place (Gaussian elimination, partial pivoting); false
// when singular.
bool SolveLinear(std::vector<std::vector<Wide>> a, std::vector<Wide> b, std::vector<Wide>* x) {
  const int m = static_cast<int>(b.size());
  for (int col = 0; col < m; ++col) {
    int pivot = col;
    for (int r = col + 1; r < m; ++r) {
      if (internal::WideAbs(a[r][col]) > internal::WideAbs(a[pivot][col])) pivot = r;
    }
    if (a[pivot][col] == 0) return false;
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    for (int r = col + 1; r < m; ++r) {
      const Wide f = a[r][col] / a[col][col];
      for (int k = col; k < m; ++k) a[r][k] -= f * a[col][k];
      b[r] -= f * b[col];
    }
  }
  x->assign(m, 0);
  for (int r = m - 1; r >= 0; --r) {
    Wide acc = b[r];
    for (int k = r + 1; k < m; ++k) acc -= a[r][k] * (*x)[k];
    (*x)[r] = acc / a[r][r];
  }
  return true;
}

// Newton's method on the mixing movers' weights until every gap is at
// rounding level; false if it diverges or stalls above it.
bool SolveIndifference(const std::vector<std::vector<CyclePolicy>>& options,
                       const std::vector<int>& movers, const std::vector<Wide>& indifference,
                       std::vector<Wide>* weight) {
  const Wide kStep = internal::kWide1e7, kSolved = internal::kWide1e18;
  const int m = static_cast<int>(movers.size());
  for (int iteration = 0; iteration < 60; ++iteration) {
    const std::vector<Wide> gap = Gaps(options, *weight, movers, indifference);
    Wide largest = 0;
    for (Wide g : gap) largest = std::max(largest, internal::WideAbs(g));
    std::vector<std::vector<Wide>> jacobian(m, std::vector<Wide>(m));
    for (int b = 0; b < m; ++b) {
      std::vector<Wide> moved = *weight;
      moved[movers[b]] += kStep;
      const std::vector<Wide> there = Gaps(options, moved, movers, indifference);
      for (int a = 0; a < m; ++a) jacobian[a][b] = (there[a] - gap[a]) / kStep;
    }
    std::vector<Wide> step;
    if (!SolveLinear(jacobian, gap, &step)) return false;
    Wide longest = 0;
    for (int b = 0; b < m; ++b) {
      (*weight)[movers[b]] -= step[b];
      longest = std::max(longest, internal::WideAbs(step[b]));
      if (!((*weight)[movers[b]] > -0.5 && (*weight)[movers[b]] < 1.5)) return false;
    }
    if (largest <= kSolved && longest <= internal::kWide1e15) return true;
  }
  const std::vector<Wide> gap = Gaps(options, *weight, movers, indifference);
  for (Wide g : gap) {
    if (!(internal::WideAbs(g) <= kSolved)) return false;
  }
  return true;
}

}  // namespace

std::vector<std::vector<Wide>> CloseMixedCycle(const std::vector<std::vector<CyclePolicy>>& options,
                                               const std::vector<Wide>& weight) {
  const int n = static_cast<int>(options.size());
  std::vector<Wide> p(n);
  std::vector<std::vector<Wide>> c(n, std::vector<Wide>(n));
  for (int i = 0; i < n; ++i) {
    const Wide w = options[i].size() > 1 ? weight[i] : Wide(0);
    const CyclePolicy& a = options[i][0];
    const CyclePolicy& b = options[i].size() > 1 ? options[i][1] : a;
    p[i] = (1 - w) * a.p + w * b.p;
    for (int j = 0; j < n; ++j) c[i][j] = (1 - w) * a.c[j] + w * b.c[j];
  }
  std::vector<std::vector<Wide>> v(n, std::vector<Wide>(n));
  SolveAffineCycle<Wide>(
      n, [&](int i) { return p[i]; }, [&](int i, int j) { return c[i][j]; },
      [&](int i, int j) -> Wide& { return v[i][j]; });
  return v;
}

bool FindMixedEquilibrium(const std::vector<std::vector<CyclePolicy>>& options, MixedCycle* out) {
  const int n = static_cast<int>(options.size());
  std::vector<int> switching;
  std::vector<Wide> indifference(n, Wide(0));
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
      std::vector<Wide> weight(n, Wide(0));
      std::vector<int> movers;
      int rest = code;
      for (int t = 0; t < k; ++t, rest /= 3) {
        const int kind = rest % 3;  // 0: first policy, 1: second, 2: mixing
        weight[switching[t]] = kind == 2 ? Wide(0.5) : Wide(kind);
        if (kind == 2) movers.push_back(switching[t]);
      }
      if (static_cast<int>(movers.size()) != mixed_count) continue;
      if (!movers.empty() && !SolveIndifference(options, movers, indifference, &weight)) continue;
      bool ok = true;
      for (int i : movers) ok &= weight[i] > 0 && weight[i] < 1;
      const std::vector<std::vector<Wide>> v = CloseMixedCycle(options, weight);
      for (int t = 0; t < k && ok; ++t) {
        const int i = switching[t];
        if (std::find(movers.begin(), movers.end(), i) != movers.end()) continue;
        // A pure mover's policy must be its best reply: the first below the
        // indifference point, the second above it.
        const Wide gap = v[(i + 1) % n][i] - indifference[i];
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
        const Wide kShift = internal::kWide1e9;
        std::vector<Wide> shifted = indifference;
        shifted[i] += kShift;
        std::vector<Wide> w = weight;
        double largest = HUGE_VAL;
        if (SolveIndifference(options, movers, shifted, &w)) {
          const std::vector<std::vector<Wide>> moved = CloseMixedCycle(options, w);
          largest = 0;
          for (int a = 0; a < n; ++a) {
            for (int j = 0; j < n; ++j) {
              largest =
                  std::max(largest, static_cast<double>(internal::WideAbs(moved[a][j] - v[a][j])));
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
