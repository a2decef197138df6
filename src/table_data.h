// Internal: a verified policy table decoded into memory (docs/FORMAT.md), the
// index arithmetic that finds a context's record and a position's slot, and
// the format's constants and checksums.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "canonical_index.h"
#include "martiandice/rules.h"

namespace martiandice::internal {

inline constexpr char kTableMagic[8] = {'M', 'D', 'P', 'O', 'L', 'I', 'C', 'Y'};
// Version 1: win probabilities plus roll-value blocks (two-player tables).
// Version 2: win probabilities only; queries solve the turn (N-player tables).
inline constexpr std::uint32_t kTableVersion = 1;
inline constexpr std::uint32_t kTableVersionValuesOnly = 2;
inline constexpr std::uint32_t kNewestTableVersion = 2;
inline constexpr std::uint32_t kTableHeaderSize = 128;
// Files larger than this are refused before reading (no valid table comes near).
inline constexpr std::uint64_t kMaxTableFileSize = std::uint64_t{1} << 30;

// CRC-32 (IEEE 802.3, zlib's crc32) of `bytes`, continuing from `crc`
// (Crc32(a + b) == Crc32(b, Crc32(a))). Uses carry-less multiplication
// (PCLMULQDQ folding) on x86-64 CPUs that have it, else Crc32Portable.
std::uint32_t Crc32(std::string_view bytes, std::uint32_t crc = 0);
// The same, table-driven slicing-by-16: portable C++, any host.
std::uint32_t Crc32Portable(std::string_view bytes, std::uint32_t crc = 0);
// The same, one table lookup per byte: the plain reference the others are tested against.
std::uint32_t Crc32Bytewise(std::string_view bytes, std::uint32_t crc = 0);
// What Crc32 runs on this CPU: "pclmulqdq folding" or "slicing-by-16".
const char* Crc32Implementation();
// FNV-1a 64 of `bytes`.
std::uint64_t Fnv1a64(std::string_view bytes);
// Index of the first value that is not a probability (NaN, infinite, below 0
// or above 1), or values.size() if all are.
size_t FirstNonProbability(std::span<const double> values);
// Reverses the bytes of every value (file order <-> native on big-endian hosts).
void ByteSwapEach(std::span<double> values);
// Version 1: "martiandice-policy v1 dice=13 bonus=3 target=25 players=2
// states=canonical-v1"; version 2: "martiandice-policy v2 dice=13 bonus=3
// target=25 players=3 values-only ties=stop,rays,most-dice,human-cow-chicken".
std::string TableRulesString(const Rules& rules, int players, int version = 1);

class TurnCache;  // table_turns.h

// A STATES record: a canonical position whose roll value is stored.
struct StoredState {
  std::uint8_t tanks = 0;
  std::uint8_t rays = 0;
  std::uint8_t earth[3] = {0, 0, 0};  // sorted descending
  std::uint8_t left = 0;
};

// The canonical positions STATES must list for `dice`, in slot order, and how many.
std::vector<StoredState> ExpectedStoredStates(int dice);
size_t ExpectedStoredStateCount(int dice);

// Everything a loaded table holds, decoded and verified.
struct TableData {
  int format_version = 1;
  Rules rules;
  int players = 0;
  int max_turn_score = 0;  // M
  int score_limit = 0;     // A = target + M: totals are below it
  double error_bound = 0;
  int tie_tolerance_e = 12;
  double tie_tolerance = 1e-12;  // 10^-tie_tolerance_e
  std::uint64_t rules_hash = 0;
  std::int64_t context_count = 0;
  std::int64_t block_count = 0;
  std::vector<std::int64_t> mover_offset;  // first context index of each mover
  std::vector<double> win;                 // context_count x players
  std::vector<std::uint32_t> block;        // per context
  std::vector<StoredState> states;         // slot order
  // The file's bytes (8-byte aligned): ROLLS is used where it lies, converted
  // to native byte order in place on big-endian hosts.
  std::unique_ptr<double[]> file;
  std::span<const double> rolls;  // block_count x states.size(), inside `file`
  CanonicalIndex index;
  std::vector<std::int32_t> slot_of;  // per canonical id: slot, or -1 if not stored
  // Version 2: the turns solved on demand from the stored vectors (bounded cache).
  std::shared_ptr<TurnCache> turns;

  // Index of the context (`scores`, `seat`); the context must be valid.
  std::int64_t ContextIndex(std::span<const int> scores, int seat) const;
  std::span<const double> Win(std::int64_t context) const {
    return {win.data() + context * players, static_cast<size_t>(players)};
  }
  // Stored roll value of `slot` in the block of `context`.
  double Roll(std::int64_t context, int slot) const {
    return rolls[static_cast<size_t>(block[context]) * states.size() + slot];
  }
  // Slot of a canonical position, or -1 when its roll value is not stored.
  int Slot(int tanks, int rays, int e0, int e1, int e2) const {
    return slot_of[index.Id(tanks, rays, e0, e1, e2)];
  }
};

}  // namespace martiandice::internal
