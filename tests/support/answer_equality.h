// Bit-for-bit equality of the library's answers (values compared as their
// bits, exact values as rationals), for tests that compare one way of asking
// with another: the advisor's answers with the library's own queries, and a
// thread's answers with the single-threaded ones.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/turn_query.h"
#include "martiandice/win_query.h"

namespace answer_equality {

inline bool Same(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
inline bool Same(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!Same(a[i], b[i])) return false;
  }
  return true;
}
inline bool Same(const martiandice::Value& a, const martiandice::Value& b) {
  return Same(a.approx, b.approx) && a.exact == b.exact;
}
inline bool Same(const std::optional<martiandice::Value>& a,
                 const std::optional<martiandice::Value>& b) {
  return a.has_value() == b.has_value() && (!a || Same(*a, *b));
}
inline bool Same(const martiandice::PositionEval& a, const martiandice::PositionEval& b) {
  return a.aside == b.aside && a.dice_left == b.dice_left && Same(a.stop, b.stop) &&
         Same(a.roll, b.roll) && Same(a.value, b.value) && a.action == b.action;
}
inline bool Same(const martiandice::TakeOption& a, const martiandice::TakeOption& b) {
  return a.take == b.take && a.count == b.count && a.aside_after == b.aside_after &&
         Same(a.stop, b.stop) && Same(a.roll, b.roll) && Same(a.value, b.value) &&
         a.then == b.then && a.optimal == b.optimal;
}
inline bool Same(const martiandice::RollAdvice& a, const martiandice::RollAdvice& b) {
  if (a.options.size() != b.options.size()) return false;
  for (std::size_t i = 0; i < a.options.size(); ++i) {
    if (!Same(a.options[i], b.options[i])) return false;
  }
  return a.aside_after_tanks == b.aside_after_tanks && a.turn_over == b.turn_over &&
         a.turn_over_score == b.turn_over_score && Same(a.value, b.value) && a.best == b.best;
}
inline bool Same(const martiandice::WinEval& a, const martiandice::WinEval& b) {
  return Same(a.position, b.position) && Same(a.win_probabilities, b.win_probabilities);
}
inline bool Same(const martiandice::WinAdvice& a, const martiandice::WinAdvice& b) {
  return Same(a.advice, b.advice) && Same(a.win_probabilities, b.win_probabilities);
}
template <typename T>
bool Same(const absl::StatusOr<T>& a, const absl::StatusOr<T>& b) {
  if (a.ok() != b.ok()) return false;
  return a.ok() ? Same(*a, *b) : a.status() == b.status();
}

}  // namespace answer_equality
