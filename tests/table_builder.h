// Test helper: an independent writer of policy table files built from
// docs/FORMAT.md alone (own CRC-32, FNV-1a and layout arithmetic), with any
// chosen probabilities, so reader and query tests need no game solver.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "martiandice/rules.h"

namespace table_builder {

// A STATES record (canonical position with a stored roll value).
struct StateRecord {
  int tanks, rays, e0, e1, e2, left;
};

// What goes into a table. Callbacks see the context index, its mover and scores.
struct TableSpec {
  martiandice::Rules rules{3, 0, 5};
  int players = 2;
  int blocks = 1;
  double error_bound = 0;
  std::uint32_t tie_tolerance_e = 12;
  // Every seat's win probability at a context.
  std::function<std::vector<double>(int mover, const std::vector<int>& scores)> win;
  // The block of a context (< blocks).
  std::function<std::uint32_t(std::int64_t context)> block;
  // The roll value stored in block b for a state.
  std::function<double(int block, const StateRecord& state)> roll;
};

// Field offsets of the header (docs/FORMAT.md).
namespace offset {
inline constexpr int kVersion = 8, kHeaderSize = 12, kDice = 16, kBonus = 20, kTarget = 24;
inline constexpr int kPlayers = 28, kMaxTurnScore = 32, kStateCount = 36, kContextCount = 40;
inline constexpr int kBlockCount = 44, kRulesHash = 48, kContextsOffset = 56;
inline constexpr int kContextsSize = 64, kStatesOffset = 72, kStatesSize = 80;
inline constexpr int kRollsOffset = 88, kRollsSize = 96, kErrorBound = 104;
inline constexpr int kTieTolerance = 112, kReserved = 116, kPayloadCrc = 120, kHeaderCrc = 124;
}  // namespace offset

std::uint32_t Crc32(const std::string& bytes, size_t begin, size_t end);
std::uint64_t Fnv1a64(const std::string& text);

// The stored positions for `dice`, in slot order.
std::vector<StateRecord> StoredStates(int dice);
// Number of contexts, and the context index of (mover, scores).
std::int64_t ContextCount(const martiandice::Rules& rules, int players);
std::int64_t ContextIndex(const martiandice::Rules& rules, int players, int mover,
                          const std::vector<int>& scores);
// Every context's (mover, scores) in index order.
void ForEachContext(const martiandice::Rules& rules, int players,
                    const std::function<void(std::int64_t, int, const std::vector<int>&)>& fn);

// The file's bytes for `spec`.
std::string WriteTable(const TableSpec& spec);

// Rewrites both checksums after a deliberate edit of `bytes`.
void RefreshChecksums(std::string& bytes);

void PutU32(std::string& bytes, size_t at, std::uint32_t value);
void PutU64(std::string& bytes, size_t at, std::uint64_t value);
void PutF64(std::string& bytes, size_t at, double value);
std::uint32_t GetU32(const std::string& bytes, size_t at);
std::uint64_t GetU64(const std::string& bytes, size_t at);

// A table with pseudo-random values from `seed`: win probabilities multiples
// of 1/16 summing to 1, roll values multiples of 1/16 (ties are common), plus
// with `jitter` a few multiples of 0.4e-12 (near-ties around the tolerance).
TableSpec RandomSpec(const martiandice::Rules& rules, int players, std::uint64_t seed, bool jitter);

}  // namespace table_builder
