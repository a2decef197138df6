// The records a rank reads from other ranks, by level.
#include "value_window.h"

#include <algorithm>

namespace martiandice::solver {

ValueWindow::ValueWindow(int width, int sums) : width_(width), levels_(sums) {}

std::size_t ValueWindow::Bytes(const Level& level) {
  return level.codes.capacity() * sizeof(std::uint64_t) +
         level.at.capacity() * sizeof(std::size_t) + level.first.capacity() +
         level.records.capacity() * sizeof(double);
}

void ValueWindow::Reserve(int sum, std::size_t vectors, std::size_t movers) {
  Level& level = levels_[sum];
  bytes_ -= Bytes(level);
  level.codes.reserve(vectors);
  level.at.reserve(vectors);
  level.first.reserve(vectors);
  level.records.reserve(movers * width_);
  bytes_ += Bytes(level);
  peak_ = std::max(peak_, bytes_);
}

void ValueWindow::Put(int sum, std::uint64_t code, int first, const double* records, int movers) {
  Level& level = levels_[sum];
  bytes_ -= Bytes(level);
  level.codes.push_back(code);
  level.at.push_back(level.records.size());
  level.first.push_back(static_cast<std::uint8_t>(first));
  level.records.insert(level.records.end(), records,
                       records + static_cast<std::size_t>(movers) * width_);
  bytes_ += Bytes(level);
  peak_ = std::max(peak_, bytes_);
}

const double* ValueWindow::Find(int sum, std::uint64_t code, int seat) const {
  if (sum < 0 || sum >= static_cast<int>(levels_.size())) return nullptr;
  const Level& level = levels_[sum];
  auto it = std::lower_bound(level.codes.begin(), level.codes.end(), code);
  if (it == level.codes.end() || *it != code) return nullptr;
  const std::size_t v = it - level.codes.begin();
  const std::size_t end = v + 1 < level.at.size() ? level.at[v + 1] : level.records.size();
  const std::size_t at = level.at[v] + static_cast<std::size_t>(seat - level.first[v]) * width_;
  if (seat < level.first[v] || at >= end) return nullptr;
  return level.records.data() + at;
}

void ValueWindow::DropFrom(int sum) {
  for (int s = std::max(sum, 0); s < static_cast<int>(levels_.size()); ++s) {
    bytes_ -= Bytes(levels_[s]);
    levels_[s] = Level();
  }
}

}  // namespace martiandice::solver
