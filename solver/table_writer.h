// Serialises a solved game into the policy table layout of docs/FORMAT.md
// (little-endian, checksummed), and writes files atomically.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "martiandice/rules.h"

namespace martiandice::solver {

// Everything a table file holds, in file order.
struct TableContents {
  Rules rules;
  int players = 2;
  double error_bound = 0;
  std::vector<double> win;                          // contexts × players
  std::vector<std::uint32_t> block_of;              // per context
  std::vector<std::array<std::uint8_t, 6>> states;  // t, r, e0, e1, e2, left per slot
  std::vector<double> rolls;                        // blocks × states
};

// The file's bytes.
std::string SerializeTable(const TableContents& contents);

// FNV-1a 64 of the rules string of docs/FORMAT.md for format `version` (1 or 2).
std::uint64_t TableRulesHash(const Rules& rules, int players, int version = 1);

// The bytes of a format version 2 ("values only") table: every context's
// vector of win probabilities (`win`, contexts x players, docs/FORMAT.md
// numbering; each clamped to [0, 1]), no positions or roll values.
std::string SerializeValuesTable(const Rules& rules, int players, double error_bound,
                                 const std::vector<double>& win);

}  // namespace martiandice::solver
