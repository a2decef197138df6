// Internal: everything the policy table format (docs/FORMAT.md) knows, in one
// place for its writer (the solver) and its reader (GameTable): the magic, the
// version, the header layout, the rules string and its hash, the numbering of
// turn-start contexts, the blocks and their checksums, the encoder a writer
// streams a file with, and the reader's table over the file's bytes (in
// memory or mapped), its blocks checked all at once or each on first use.
#pragma once

#include <atomic>
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
// The one format version written and read; versions 1 (roll-value blocks) and
// 2 (one payload checksum) are refused with a message naming the command that
// regenerates the table.
inline constexpr std::uint32_t kTableVersion = kTableFormatVersion;
// Versions run 1 to 255 (docs/FORMAT.md): a larger field is damage, not a newer file.
inline constexpr std::uint32_t kLastTableVersion = 255;
inline constexpr std::uint32_t kTableHeaderSize = 128;
// Contexts per checksummed block (the last block may hold fewer).
inline constexpr std::uint32_t kBlockContexts = 1024;
// Values within 10^-kTableTieExponent of each other are tied.
inline constexpr std::uint32_t kTableTieExponent = 12;

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
  // The totals seat 0 ranges over where `seat` moves, [0, SeatZeroTotals), and
  // the contexts where `seat` moves and seat 0 has `total` (in range): the
  // run [first, end), seat 0 being most significant.
  int SeatZeroTotals(int seat) const { return Radix(seat, 0); }
  std::int64_t SeatZeroRun(int seat, int total, std::int64_t* end) const {
    std::int64_t run = offset_[seat + 1] - offset_[seat];
    run /= Radix(seat, 0);
    *end = offset_[seat] + (total + 1) * run;
    return offset_[seat] + total * run;
  }

 private:
  int Radix(int seat, int j) const { return j < seat ? wide_ : target_; }

  int players_ = 0, target_ = 0, wide_ = 0;
  std::vector<std::int64_t> offset_{0};  // per mover, plus the end
};

class TurnCache;  // table_turns.h

// A table file's bytes: owned in memory or mapped from the file.
class TableFile {
 public:
  virtual ~TableFile() = default;
  virtual std::string_view bytes() const = 0;
};
// `bytes`, owned.
std::shared_ptr<const TableFile> OwnedTableFile(std::string bytes);

// A table over a verified header: its records are read from the file's bytes
// and each block is verified (checksum, then every vector) before any of its
// records is used, all at load or each on first use (VerifyContext).
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
  std::string source;  // "policy table PATH", for messages
  std::shared_ptr<const TableFile> file;
  std::string_view records;    // the CONTEXTS section
  std::string_view checksums;  // the CHECKSUMS section
  // Per block: 0 unchecked, 1 verified (a corrupt block stays 0 and is refused at each use).
  std::unique_ptr<std::atomic<std::uint8_t>[]> verified;
  mutable std::atomic<bool> all_verified{false};  // every block: no check left
  // The turns solved on demand from the stored vectors (bounded cache).
  std::shared_ptr<TurnCache> turns;

  std::int64_t context_count() const { return contexts.size(); }
  std::int64_t block_count() const {
    return (context_count() + kBlockContexts - 1) / kBlockContexts;
  }
  // Seat `seat`'s stored probability at `context` (its block verified).
  double Win(std::int64_t context, int seat) const;
  // Every seat's (players values), into `out`.
  void Win(std::int64_t context, double* out) const;
  // Verifies the block holding `context` unless done: DataLoss naming the
  // table, the block and the problem when it is corrupt. Thread-safe.
  absl::Status VerifyContext(std::int64_t context) const;
  // Verifies every block not verified yet, in order.
  absl::Status VerifyAll() const;

 private:
  absl::Status VerifyBlock(std::int64_t block) const;
};

// What the library's own code reads of a GameTable (table.h keeps it private).
struct TableAccess {
  static const TableData& Data(const GameTable& table) { return *table.data_; }
  static GameTable Make(std::shared_ptr<const TableData> data) {
    return GameTable(std::move(data));
  }
};

// The encoder of a table file (docs/FORMAT.md) for `rules`, `players` and
// `error_bound`, for a writer that streams it: the header's room, then each
// block's records in order, then the CHECKSUMS section, then the header, now
// complete, over its room. Memory: 4 bytes a block.
class TableEncoder {
 public:
  TableEncoder(const Rules& rules, int players, double error_bound);

  std::uint64_t file_size() const;
  std::int64_t context_count() const { return contexts_; }
  std::int64_t block_count() const { return static_cast<std::int64_t>(crcs_.size()); }
  // Contexts [first, end) of block `block`.
  std::int64_t BlockBegin(std::int64_t block) const { return block * kBlockContexts; }
  std::int64_t BlockEnd(std::int64_t block) const;
  // The bytes of block `block` from its contexts' vectors `win` (players values
  // each; each clamped to [0, 1], where only rounding can have put it outside),
  // its checksum noted. Blocks may be encoded in any order, each once.
  std::string Block(std::int64_t block, std::span<const double> win);
  // Or, for a writer whose parts write the records (EncodeRecords) and read
  // the blocks back: block `block`'s checksum, of its bytes in the file.
  void SetChecksum(std::int64_t block, std::uint32_t crc) { crcs_[block] = crc; }
  // The CHECKSUMS section and the header (every block encoded).
  std::string Checksums() const;
  std::string Header() const;

 private:
  Rules rules_;
  int players_;
  double error_bound_;
  std::int64_t contexts_;
  std::vector<std::uint32_t> crcs_;
};

// The CONTEXTS records of vectors `win` (players values each, clamped as
// TableEncoder::Block clamps them), for any run of contexts.
std::string EncodeRecords(std::span<const double> win);

// The bytes of a whole table in memory: every context's vector (`win`,
// context_count x players in ContextNumbering order).
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

// The table in `file` (its header checked as CheckTableHeader does, then the
// CHECKSUMS section against its checksum), every block verified now when
// `verify_all`, else each on first use. Errors as CheckTableHeader's.
absl::StatusOr<std::shared_ptr<const TableData>> LoadTable(std::shared_ptr<const TableFile> file,
                                                           const std::string& source,
                                                           bool verify_all);

// Opens the table file at `path`: read into memory and verified whole when at
// most `eager_bytes` long, else mapped and verified block by block on first
// use. Errors as GameTable::Open's.
absl::StatusOr<std::shared_ptr<const TableData>> OpenTable(const std::string& path,
                                                           std::uint64_t eager_bytes);

}  // namespace martiandice::internal
