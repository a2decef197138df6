// The values a rank of a cluster reads but another rank solves: the records
// of other ranks' score vectors (every mover's chances, error bound and, with
// 2 players, slope), kept by level only while a level still to solve can
// read them (a turn reaches at most Reach() points up). Written between
// levels, read by the workers during one. Internal to the solver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace martiandice::solver {

class ValueWindow {
 public:
  // Records of `width` doubles per mover; levels are sums 0..sums-1.
  ValueWindow(int width, int sums);

  // Room for `vectors` vectors of `movers` records in all at sum `sum` (else
  // the arrays grow by doubling, briefly twice the size).
  void Reserve(int sum, std::size_t vectors, std::size_t movers);
  // Keeps the records of the score vector `code` at sum `sum` of its movers
  // first..first + movers - 1: `movers` records of width doubles, in order. A
  // level's vectors come in increasing order (as LevelSchedule::ForEachOf makes
  // them).
  void Put(int sum, std::uint64_t code, int first, const double* records, int movers);
  // The record of the vector's mover `seat`; null if not held.
  const double* Find(int sum, std::uint64_t code, int seat) const;
  // Forgets the levels of sums `sum` and up.
  void DropFrom(int sum);
  // The bytes held now, and the most held at once.
  std::size_t bytes() const { return bytes_; }
  std::size_t peak_bytes() const { return peak_; }

 private:
  struct Level {
    std::vector<std::uint64_t> codes;  // the vectors, increasing
    std::vector<std::size_t> at;       // each one's first record
    std::vector<std::uint8_t> first;   // each one's first mover held
    std::vector<double> records;
  };
  static std::size_t Bytes(const Level& level);

  const int width_;
  std::vector<Level> levels_;  // by sum
  std::size_t bytes_ = 0, peak_ = 0;
};

}  // namespace martiandice::solver
