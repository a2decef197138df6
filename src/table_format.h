// Internal: everything the policy table format (docs/FORMAT.md) knows, in one
// place for its writer (the solver) and its reader (GameTable): the magic, the
// version, the header layout, the rules string and its hash, the numbering of
// turn-start contexts, the checksums, and the parse of a whole file into the
// decoded table.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"

namespace martiandice::internal {

inline constexpr std::string_view kTableMagic = "MDPOLICY";
// The one format version written and read; version 1 (roll-value blocks) is
// refused with a message naming the command that regenerates the table.
inline constexpr std::uint32_t kTableVersion = kTableFormatVersion;
inline constexpr std::uint32_t kTableHeaderSize = 128;
// Values within 10^-kTableTieExponent of each other are tied.
inline constexpr std::uint32_t kTableTieExponent = 12;
// Files larger than this are refused unread (no valid table comes near).
inline constexpr std::uint64_t kMaxTableFileSize = kMaxTableBytes;

// "martiandice-policy v2 dice=13 bonus=3 target=25 players=3 values-only
// ties=stop,rays,most-dice,human-cow-chicken", and its FNV-1a 64 hash.
std::string TableRulesString(const Rules& rules, int players);
std::uint64_t TableRulesHash(const Rules& rules, int players);

// The numbering of turn-start contexts (docs/FORMAT.md, "Contexts"): mover
// major, then mixed radix over the totals, seat 0 most significant; seats
// before the mover range over [0, target + max turn score), the others over
// [0, target).
class ContextNumbering {
 public:
  ContextNumbering() = default;
  // Rules valid and players in kMinPlayers..kMaxPlayers (see ValidateRules).
  ContextNumbering(const Rules& rules, int players);

  int players() const { return players_; }
  // Number of contexts.
  std::int64_t size() const { return offset_.back(); }
  // Index of the context where `seat` moves with totals `scores` (in range).
  std::int64_t Index(int seat, const int* scores) const {
    std::int64_t index = 0;
    for (int j = 0; j < players_; ++j) index = index * Radix(seat, j) + scores[j];
    return offset_[seat] + index;
  }
  std::int64_t Index(int seat, std::span<const int> scores) const {
    return Index(seat, scores.data());
  }
  // The mover of context `index` (in range), and every seat's total into `scores`.
  int Decode(std::int64_t index, int* scores) const;

 private:
  int Radix(int seat, int j) const { return j < seat ? wide_ : target_; }

  int players_ = 0, target_ = 0, wide_ = 0;
  std::vector<std::int64_t> offset_{0};  // per mover, plus the end
};

class TurnCache;  // table_turns.h

// A verified table decoded into memory.
struct TableData {
  int format_version = static_cast<int>(kTableVersion);
  Rules rules;
  int players = 0;
  int max_turn_score = 0;  // M
  double error_bound = 0;
  int tie_tolerance_e = static_cast<int>(kTableTieExponent);
  double tie_tolerance = 1e-12;  // 10^-tie_tolerance_e
  std::uint64_t rules_hash = 0;
  ContextNumbering contexts;
  std::vector<double> win;  // context_count x players
  // The turns solved on demand from the stored vectors (bounded cache).
  std::shared_ptr<TurnCache> turns;

  std::int64_t context_count() const { return contexts.size(); }
  std::span<const double> Win(std::int64_t context) const {
    return {win.data() + context * players, static_cast<size_t>(players)};
  }
};

// What the library's own code reads of a GameTable (table.h keeps it private).
struct TableAccess {
  static const TableData& Data(const GameTable& table) { return *table.data_; }
};

// The bytes of a table: every context's vector of win probabilities (`win`,
// context_count x players in ContextNumbering order; each clamped to [0, 1],
// where only rounding can have put it outside).
std::string SerializeTable(const Rules& rules, int players, double error_bound,
                           std::span<const double> win);

// What a table may hold as a context's vector `win` (players values) under
// `error_bound`: each a probability, summing to 1 within players times
// (error_bound + 8 epsilon). The problem ("seat 1's win probability 1.2 is not
// a probability"), or "" if none. (The checkpoints' records are held to it.)
std::string WinVectorProblem(const double* win, int players, double error_bound);

// The header's size checks alone: `header` (at least kTableHeaderSize bytes, else
// DataLoss) holds a table's magic, a version this library reads, consistent
// fields and a valid header checksum, and announces exactly `file_size` bytes.
// Errors name `source`: DataLoss for a corrupt or truncated file,
// FailedPrecondition for another version, rules string or hash.
absl::Status CheckTableHeader(std::string_view header, std::uint64_t file_size,
                              const std::string& source);

// Parses and verifies a whole file (header, layout, checksums, exact end of
// file, every stored probability). Errors as CheckTableHeader's.
absl::StatusOr<std::shared_ptr<const TableData>> ParseTable(std::string_view bytes,
                                                            const std::string& source);

}  // namespace martiandice::internal
