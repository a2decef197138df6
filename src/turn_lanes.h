// Internal: the arithmetic the double turn solves share: lanes (one double,
// or a Pair of doubles worked lane by lane) and the roll sum over a
// position's terms, so that every solve rounds the same way.
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>

#include "turn_model.h"

namespace martiandice::internal {

// Two doubles operated on lane by lane (GCC/Clang vector extension): each
// lane sees exactly the scalar solve's operations, in the same order, so it
// rounds the same way.
typedef double Pair __attribute__((vector_size(16)));

// x in every lane of V (double or Pair).
template <class V>
inline V Splat(double x) {
  if constexpr (std::is_same_v<V, Pair>) {
    return Pair{x, x};
  } else {
    return x;
  }
}

// std::max(a, b) lane by lane: b where a < b, else a.
template <class V>
inline V Max(V a, V b) {
  return a < b ? b : a;
}

// Lane by lane: b where a < b, else c. (A double is selected by index, not
// by a branch: which side wins is data-dependent.)
template <class V>
inline V SelectLess(V a, V b, V then_value, V else_value) {
  if constexpr (std::is_same_v<V, Pair>) {
    return a < b ? then_value : else_value;
  } else {
    const double option[2] = {else_value, then_value};
    return option[a < b];
  }
}

// Phase "roll value": roll[k] = the sum over the terms of a position of
// weight * laws[law * S + k], k < S (a record of S numbers per law). Four
// interleaved partial sums: one chain of dependent additions would make the
// sum wait on the adder's latency (it is most of a solve otherwise).
template <class V, int S>
inline void RollSum(const RollTerms& terms, const V* laws, V* roll) {
  alignas(16) V part[4][S] = {};
  const size_t n = terms.size();
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    for (int j = 0; j < 4; ++j) {
      const V* law = laws + static_cast<size_t>(terms[i + j].law) * S;
      const V weight = Splat<V>(terms[i + j].weight_d);
      for (int k = 0; k < S; ++k) part[j][k] += weight * law[k];
    }
  }
  for (; i < n; ++i) {
    const V* law = laws + static_cast<size_t>(terms[i].law) * S;
    const V weight = Splat<V>(terms[i].weight_d);
    for (int k = 0; k < S; ++k) part[0][k] += weight * law[k];
  }
  for (int k = 0; k < S; ++k) roll[k] = (part[0][k] + part[1][k]) + (part[2][k] + part[3][k]);
}

}  // namespace martiandice::internal
