// Test helper: an independent writer of policy table files built from
// docs/FORMAT.md alone (own CRC-32, FNV-1a and layout arithmetic), with any
// chosen probabilities, so reader and query tests need no game solver. It
// also writes the layout of format version 1, which readers must refuse.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "martiandice/rules.h"

namespace table_builder {

// What goes into a table.
struct TableSpec {
  martiandice::Rules rules{3, 0, 5};
  int players = 2;
  double error_bound = 0;
  // Every seat's win probability at the context where `mover` moves with totals `scores`.
  std::function<std::vector<double>(int mover, const std::vector<int>& scores)> win;
};

// Field offsets of the header (docs/FORMAT.md).
namespace offset {
inline constexpr int kVersion = 8, kHeaderSize = 12, kDice = 16, kBonus = 20, kTarget = 24;
inline constexpr int kPlayers = 28, kMaxTurnScore = 32, kBlockContexts = 36, kContextCount = 40;
inline constexpr int kRulesHash = 48, kContextsOffset = 56, kContextsSize = 64;
inline constexpr int kChecksumsOffset = 72, kChecksumsSize = 80, kBlockCount = 88;
inline constexpr int kFileSize = 96, kErrorBound = 104, kTieTolerance = 112, kReserved = 116;
inline constexpr int kChecksumsCrc = 120, kHeaderCrc = 124;
}  // namespace offset
// The header of format versions 1 and 2, where it differs (u32 counts, one payload checksum).
namespace v1_offset {
inline constexpr int kStateCount = 36, kContextCount = 40, kBlockCount = 44;
inline constexpr int kStatesOffset = 72, kStatesSize = 80, kRollsOffset = 88, kRollsSize = 96;
inline constexpr int kPayloadCrc = 120;
}  // namespace v1_offset
// Contexts per checksummed block.
inline constexpr int kBlockContexts = 1024;
std::uint32_t Crc32(const std::string& bytes, size_t begin, size_t end);
std::uint64_t Fnv1a64(const std::string& text);

// The rules string of docs/FORMAT.md, and the max turn score M.
std::string RulesString(const martiandice::Rules& rules, int players);
int MaxTurnScore(const martiandice::Rules& rules);

// Number of contexts, and the context index of (mover, scores).
std::int64_t ContextCount(const martiandice::Rules& rules, int players);
std::int64_t ContextIndex(const martiandice::Rules& rules, int players, int mover,
                          const std::vector<int>& scores);
// The mover of context `index` (in range), and every seat's total into `scores`.
int DecodeContext(const martiandice::Rules& rules, int players, std::int64_t index,
                  std::vector<int>& scores);
// Every context's (mover, scores) in index order.
void ForEachContext(const martiandice::Rules& rules, int players,
                    const std::function<void(std::int64_t, int, const std::vector<int>&)>& fn);

// The file's bytes for `spec` (format version 3).
std::string WriteTable(const TableSpec& spec);

// Writes `spec`'s table (format version 3) to `path` for a table too large to
// write whole: only the records of the blocks `blocks` (block b: contexts
// 1024b onwards) are written; every other block is a hole of the file (no disk
// space), read as zeros, which are no probabilities, so a reader refuses a
// block it reads there. Every checksum is that of the bytes the file holds.
// Returns false when the file cannot be written.
bool WriteSparseTable(const std::string& path, const TableSpec& spec,
                      const std::vector<std::int64_t>& blocks);

// A table where seat 0's first turn is worth reach:`k` to it: where seat 1
// moves after that turn (seat 0 at its score s, every other seat at 0), seat 0
// wins if s >= k, else seat 1; at every other context the seats' chances are
// 1/2, 1/4, 1/8, ..., the last two seats sharing the rest equally.
TableSpec FirstTurnReachSpec(const martiandice::Rules& rules, int players, int k);
// The blocks a query about the game's first turn reads: the first context's
// and those of the contexts after the turn (for WriteSparseTable).
std::vector<std::int64_t> FirstTurnBlocks(const martiandice::Rules& rules, int players);

// A file in the layout of format version 1, which readers refuse: the version
// 1 rules string ("... states=canonical-v1"), CONTEXTS records of 8P + 8
// bytes (P probabilities, a block index 0, a reserved 0), a STATES section
// listing the canonical positions with stored roll values, and one ROLLS block
// holding `roll_value` for each.
std::string WriteVersion1Table(const TableSpec& spec, double roll_value = 0.5);

// Rewrites the checksums after a deliberate edit of `bytes`: for version 1 (at
// offset 8) the payload's and the header's; else every block's, the CHECKSUMS
// section's and the header's, as far as the header's layout fields lie within
// the bytes (the header's alone otherwise).
void RefreshChecksums(std::string& bytes);

void PutU32(std::string& bytes, size_t at, std::uint32_t value);
void PutU64(std::string& bytes, size_t at, std::uint64_t value);
void PutF64(std::string& bytes, size_t at, double value);
std::uint32_t GetU32(const std::string& bytes, size_t at);
std::uint64_t GetU64(const std::string& bytes, size_t at);
double GetF64(const std::string& bytes, size_t at);

// A table with pseudo-random values from `seed`: win probabilities multiples
// of 1/16 summing to 1 (exact ties are common), plus with `jitter`, at about
// half the contexts, a multiple of 0.4e-12 (up to 1.6e-12) moved from one
// seat to another (near-ties around the tolerance 1e-12).
TableSpec RandomSpec(const martiandice::Rules& rules, int players, std::uint64_t seed, bool jitter);

}  // namespace table_builder
