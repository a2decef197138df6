// Policy table reader (docs/FORMAT.md, format version 3): tables from the
// independent test writer (tests/support/table_builder.h) and from the game solver
// load with their values; every refusal of the reader is tested at its
// boundary (the first value refused, the control just inside accepted);
// other format versions, a large file that is no table, mapped tables and
// their blocks verified on first use, the streamed writer, file handling,
// table location and file names; win queries against the naive reference
// (tests/support/nplayer_naive.h), the tie convention and the bounded turn cache;
// the CRC-32s against plain references.
#include <doctest/doctest.h>
#include <malloc.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <new>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "checksum.h"  // the library's CRC-32s, checked against the plain ones
#include "martiandice/state_space.h"
#include "martiandice/turn_query.h"
#include "martiandice/win_query.h"
#include "nplayer_naive.h"
#include "table_builder.h"
#include "table_format.h"  // TableAccess: the turn cache's counters
#include "table_turns.h"
#include "test_util.h"

using namespace martiandice;
namespace tb = table_builder;

// The largest single allocation since the last reset (for "no huge allocation").
static std::atomic<std::size_t> g_largest_allocation{0};
// The bytes held through operator new, as the allocator counts them: each
// block's usable size and its header (for the turn cache's bound).
static std::atomic<std::int64_t> g_live_bytes{0};
static std::int64_t BlockBytes(void* p) {
  return static_cast<std::int64_t>(malloc_usable_size(p) + sizeof(std::size_t));
}

void* operator new(std::size_t size) {
  std::size_t seen = g_largest_allocation.load(std::memory_order_relaxed);
  while (size > seen && !g_largest_allocation.compare_exchange_weak(seen, size)) {
  }
  if (void* p = std::malloc(size == 0 ? 1 : size)) {
    g_live_bytes.fetch_add(BlockBytes(p), std::memory_order_relaxed);
    return p;
  }
  throw std::bad_alloc();
}
// The nothrow forms too (std::stable_sort's buffer uses them): they must pair
// with the delete above, which a sanitizer's own nothrow new would not.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return ::operator new(size);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept {
  if (p != nullptr) g_live_bytes.fetch_sub(BlockBytes(p), std::memory_order_relaxed);
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { ::operator delete(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { ::operator delete(p); }

namespace {

using test_util::SolveTinyTable;
using test_util::TempDir;
using test_util::WriteFile;

const Rules kSmall{3, 0, 5};  // M = 3, A = 8: 25 + 40 contexts for 2 players

std::string SmallTable(int players = 2, std::uint64_t seed = 7) {
  return tb::WriteTable(tb::RandomSpec(kSmall, players, seed, false));
}

bool Contains(const absl::Status& s, const std::string& text) {
  return std::string(s.message()).find(text) != std::string::npos;
}

// The refusal of `bytes` (must be refused).
absl::Status Refusal(const std::string& bytes) {
  absl::StatusOr<GameTable> table = GameTable::FromBytes(bytes);
  REQUIRE_FALSE(table.ok());
  return table.status();
}

// Whether `bytes` is accepted (the refusal is shown otherwise).
bool Accepted(const std::string& bytes) {
  absl::StatusOr<GameTable> table = GameTable::FromBytes(bytes);
  INFO("refused: " << table.status());
  CHECK(table.ok());
  return table.ok();
}

// `bytes` with a field set and both checksums refreshed.
std::string WithU32(std::string bytes, size_t at, std::uint32_t value) {
  tb::PutU32(bytes, at, value);
  tb::RefreshChecksums(bytes);
  return bytes;
}
std::string WithU64(std::string bytes, size_t at, std::uint64_t value) {
  tb::PutU64(bytes, at, value);
  tb::RefreshChecksums(bytes);
  return bytes;
}
std::string WithF64(std::string bytes, size_t at, double value) {
  tb::PutF64(bytes, at, value);
  tb::RefreshChecksums(bytes);
  return bytes;
}

// The offset of seat `seat`'s probability in context `context`'s record.
size_t At(const std::string& bytes, std::int64_t context, int seat) {
  const size_t players = tb::GetU32(bytes, tb::offset::kPlayers);
  return 128 + 8 * (static_cast<size_t>(context) * players + seat);
}

// `bytes` with context `context`'s record replaced by `win` (checksums refreshed).
std::string WithRecord(std::string bytes, std::int64_t context, const std::vector<double>& win) {
  for (size_t j = 0; j < win.size(); ++j) tb::PutF64(bytes, At(bytes, context, j), win[j]);
  tb::RefreshChecksums(bytes);
  return bytes;
}

GameTable Load(const std::string& bytes) {
  auto table = GameTable::FromBytes(bytes);
  REQUIRE_MESSAGE(table.ok(), table.status());
  return *std::move(table);
}

// Bytes this process has read with read() and the like, from /proc/self/io (-1 if unknown).
std::int64_t BytesRead() {
  std::ifstream io("/proc/self/io");
  std::string key;
  std::int64_t value = -1;
  while (io >> key >> value) {
    if (key == "rchar:") return value;
  }
  return -1;
}

// The version 1 refusal's message for a table of `players` ("P" when unknown).
std::string Version1Message(const std::string& players) {
  return "format version 1 (roll values stored) is no longer read; regenerate the table in "
         "format version 3 with `martiandice solve --players " +
         players + " --out FILE`";
}
std::string Version2Message(const std::string& players) {
  return "format version 2 (one payload checksum) is no longer read; regenerate the table in "
         "format version 3 with `martiandice solve --players " +
         players + " --out FILE`";
}

}  // namespace

// ------------------------------------------------------------ checksums

TEST_CASE("table: the reference checksums of the test writer") {
  CHECK(tb::Crc32("123456789", 0, 9) == 0xCBF43926u);  // zlib's crc32 check value
  CHECK(tb::Crc32("a", 0, 1) == 0xE8B7BE43u);
  CHECK(tb::Crc32("The quick brown fox jumps over the lazy dog", 0, 43) == 0x414FA339u);
  CHECK(tb::Fnv1a64("") == 14695981039346656037ull);
  CHECK(tb::Fnv1a64("a") == 0xaf63dc4c8601ec8cull);
}

TEST_CASE("table: the fast CRC-32s equal the plain one at every length and alignment") {
  namespace in = internal;
  INFO("Crc32 runs " << in::Crc32Implementation());
  for (auto crc : {in::Crc32, in::Crc32Portable, in::Crc32Bytewise}) {
    // zlib's crc32 of known strings.
    CHECK(crc("123456789", 0) == 0xCBF43926u);
    CHECK(crc("a", 0) == 0xE8B7BE43u);
    CHECK(crc("The quick brown fox jumps over the lazy dog", 0) == 0x414FA339u);
    CHECK(crc(std::string(32, '\0'), 0) == 0x190A55ADu);
    CHECK(crc("", 0) == 0);
    CHECK(crc("", 0x12345678u) == 0x12345678u);
  }
  std::mt19937_64 rng(20261121);
  std::string pool((1 << 20) + 64, '\0');
  for (char& c : pool) c = static_cast<char>(rng());
  std::vector<size_t> lengths;
  for (size_t n = 0; n <= 300; ++n) lengths.push_back(n);
  for (size_t n : {511, 512, 513, 1000, 4095, 4096, 4097, 65536 + 13, 1 << 20}) {
    lengths.push_back(n);
  }
  for (size_t n : lengths) {
    for (size_t align = 0; align < 16; ++align) {
      if (n > 4097 && align % 5 != 0) continue;  // the long ones at a few alignments
      const std::string_view bytes(pool.data() + align, n);
      const std::uint32_t start = align % 3 == 0 ? 0 : static_cast<std::uint32_t>(rng());
      const std::uint32_t expected = in::Crc32Bytewise(bytes, start);
      CHECK_MESSAGE(in::Crc32(bytes, start) == expected, "length ", n, " align ", align);
      CHECK_MESSAGE(in::Crc32Portable(bytes, start) == expected, "length ", n, " align ", align);
      if (start == 0 && n <= 4097) {
        CHECK(tb::Crc32(std::string(bytes), 0, n) == expected);  // the test writer's own
      }
    }
  }
  // Continuing from a previous CRC: any split gives the CRC of the whole.
  const std::string_view whole(pool.data() + 3, 10000);
  const std::uint32_t expected = in::Crc32Bytewise(whole);
  for (size_t split : {0, 1, 15, 16, 17, 63, 64, 65, 200, 4999, 9999, 10000}) {
    CHECK(in::Crc32(whole.substr(split), in::Crc32(whole.substr(0, split))) == expected);
    CHECK(in::Crc32Portable(whole.substr(split), in::Crc32Portable(whole.substr(0, split))) ==
          expected);
  }
  // One bit flipped anywhere in a long buffer changes the CRC.
  std::string flipped(pool.data(), 5000);
  const std::uint32_t clean = in::Crc32(flipped);
  for (size_t at : {0, 1, 63, 64, 2500, 4991, 4999}) {
    flipped[at] = static_cast<char>(flipped[at] ^ 0x10);
    CHECK(in::Crc32(flipped) != clean);
    CHECK(in::Crc32(flipped) == in::Crc32Bytewise(flipped));
    flipped[at] = static_cast<char>(flipped[at] ^ 0x10);
  }
}

// ------------------------------------------------------------ valid tables

TEST_CASE("table: context counts and indices follow the format's formulas") {
  CHECK(tb::ContextCount(Rules{}, 2) == 1650);  // the doc's example: 625 + 1025
  CHECK(tb::ContextIndex(Rules{}, 2, 1, {3, 4}) == 625 + 25 * 3 + 4);
  CHECK(tb::ContextCount(Rules{}, 3) == 83275);
  CHECK(tb::ContextCount(kSmall, 3) == 125 + 8 * 25 + 64 * 5);
  CHECK(tb::RulesString(Rules{}, 3) ==
        "martiandice-policy v2 dice=13 bonus=3 target=25 players=3 values-only "
        "ties=stop,rays,most-dice,human-cow-chicken");
  // The test writer's file is exactly the header, C records of 8P bytes and a
  // checksum per block of 1,024 contexts (4 players: 3,125 + ... = 23,157 contexts).
  for (int players : {2, 3, 4}) {
    const std::string bytes = SmallTable(players);
    const std::int64_t contexts = tb::ContextCount(kSmall, players);
    CHECK(bytes.size() == 128 + 8 * players * contexts + 4 * ((contexts + 1023) / 1024));
  }
}

TEST_CASE("table: a valid hand-built table loads with its rules and values") {
  for (int players : {2, 3, 6}) {
    CAPTURE(players);
    tb::TableSpec spec = tb::RandomSpec(kSmall, players, 11, true);
    spec.error_bound = 1e-13;
    const GameTable table = Load(tb::WriteTable(spec));
    CHECK(table.rules() == kSmall);
    CHECK(table.players() == players);
    CHECK(table.error_bound() == 1e-13);
    CHECK(table.format_version() == 3);
    CHECK(table.format_version() == kTableFormatVersion);
    CHECK(table.tie_tolerance_exponent() == 12);
    CHECK(table.context_count() == tb::ContextCount(kSmall, players));
    tb::ForEachContext(kSmall, players,
                       [&](std::int64_t index, int mover, const std::vector<int>& s) {
                         // Every record in file order, as stored.
                         auto record = table.Context(index);
                         REQUIRE(record.ok());
                         CHECK(record->context.seat == mover);
                         CHECK(record->context.scores == s);
                         CHECK(record->win_probabilities == spec.win(mover, s));
                         auto win = table.WinProbabilities(GameContext{s, mover});
                         if (!ValidateContext(kSmall, players, GameContext{s, mover}).ok()) {
                           CHECK_FALSE(win.ok());  // a seat at or after the mover past the target
                           return;
                         }
                         REQUIRE(win.ok());
                         CHECK(*win == spec.win(mover, s));
                       });
    for (std::int64_t index : {std::int64_t{-1}, table.context_count()}) {
      CHECK(table.Context(index).status().code() == absl::StatusCode::kOutOfRange);
    }
  }
}

TEST_CASE("table: a solver-written table has the documented header and layout") {
  for (int players : {2, 3}) {
    CAPTURE(players);
    const Rules rules{3, 3, 5};
    solver::GameSolveReport report;
    const std::string bytes = SolveTinyTable(rules, players, &report);
    const std::uint64_t contexts = tb::ContextCount(rules, players);
    const std::uint64_t blocks = (contexts + 1023) / 1024;
    CHECK(bytes.size() == 128 + contexts * 8 * players + 4 * blocks);
    CHECK(bytes.substr(0, 8) == "MDPOLICY");
    namespace off = tb::offset;
    const std::pair<int, std::uint32_t> u32[] = {
        {off::kVersion, 3},       {off::kHeaderSize, 128},
        {off::kDice, 3},          {off::kBonus, 3},
        {off::kTarget, 5},        {off::kPlayers, static_cast<std::uint32_t>(players)},
        {off::kMaxTurnScore, 6},  {off::kBlockContexts, 1024},
        {off::kTieTolerance, 12}, {off::kReserved, 0}};
    for (const auto& f : u32) CHECK_MESSAGE(tb::GetU32(bytes, f.first) == f.second, f.first);
    const std::uint64_t sums = 128 + contexts * 8 * players;
    const std::pair<int, std::uint64_t> u64[] = {
        {off::kContextCount, contexts},    {off::kContextsOffset, 128},
        {off::kContextsSize, sums - 128},  {off::kChecksumsOffset, sums},
        {off::kChecksumsSize, 4 * blocks}, {off::kBlockCount, blocks},
        {off::kFileSize, bytes.size()}};
    for (const auto& f : u64) CHECK_MESSAGE(tb::GetU64(bytes, f.first) == f.second, f.first);
    // The hash of the documented rules string, computed by the test writer.
    CHECK(tb::GetU64(bytes, off::kRulesHash) == tb::Fnv1a64(tb::RulesString(rules, players)));
    CHECK(tb::GetF64(bytes, off::kErrorBound) == report.error_bound);
    CHECK(tb::Crc32(bytes, 0, 124) == tb::GetU32(bytes, off::kHeaderCrc));
    CHECK(tb::Crc32(bytes, sums, bytes.size()) == tb::GetU32(bytes, off::kChecksumsCrc));
    for (std::uint64_t b = 0; b < blocks; ++b) {
      const std::uint64_t end = std::min(sums, 128 + (b + 1) * 1024 * 8 * players);
      CHECK(tb::Crc32(bytes, 128 + b * 1024 * 8 * players, end) == tb::GetU32(bytes, sums + 4 * b));
    }
    const GameTable table = Load(bytes);
    CHECK(table.error_bound() == report.error_bound);
    for (std::int64_t c = 0; c < table.context_count(); ++c) {
      auto record = table.Context(c);
      REQUIRE(record.ok());
      for (int j = 0; j < players; ++j) {
        REQUIRE(std::bit_cast<std::uint64_t>(record->win_probabilities[j]) ==
                tb::GetU64(bytes, At(bytes, c, j)));
      }
    }
  }
}

TEST_CASE("table: the shipped tables: Open and FromBytes read every value as the file holds it") {
  struct Shipped {
    int players;
    std::int64_t contexts;
    size_t bytes;
  };
  for (const Shipped& shipped : {Shipped{2, 1650, 26536}, Shipped{3, 83275, 1999056}}) {
    const int p = shipped.players;
    CAPTURE(p);
    const std::string path = std::string(MARTIANDICE_DATA_DIR) + "/" + TableFileName(Rules{}, p);
    const std::string bytes = test_util::ReadFile(path);
    REQUIRE_MESSAGE(bytes.size() == shipped.bytes, "missing or resized: " << path);
    CHECK(tb::GetU32(bytes, tb::offset::kVersion) == 3);
    auto opened = GameTable::Open(path);
    REQUIRE_MESSAGE(opened.ok(), opened.status());
    auto from_bytes = GameTable::FromBytes(bytes);
    REQUIRE(from_bytes.ok());
    for (const GameTable* table : {&*opened, &*from_bytes}) {
      CHECK(table->format_version() == 3);
      CHECK(table->players() == p);
      CHECK(table->rules() == Rules{});
      CHECK(table->error_bound() == tb::GetF64(bytes, tb::offset::kErrorBound));
      REQUIRE(table->context_count() == shipped.contexts);
      for (std::int64_t c = 0; c < table->context_count(); ++c) {
        auto record = table->Context(c);
        REQUIRE(record.ok());
        for (int j = 0; j < p; ++j) {
          if (std::bit_cast<std::uint64_t>(record->win_probabilities[j]) !=
              tb::GetU64(bytes, At(bytes, c, j))) {
            FAIL("context ", c, " seat ", j, " differs from the file");
          }
        }
      }
    }
  }
}

// ------------------------------------------------------------ versions

TEST_CASE(
    "table: the format version: 3 read, 1 and 2 refused with the command, 4 newer, 0 "
    "invalid") {
  for (int players : {2, 3}) {
    CAPTURE(players);
    const std::string good = SmallTable(players);
    CHECK(Accepted(good));
    CHECK(tb::GetU32(good, tb::offset::kVersion) == 3);
    absl::Status v1 = Refusal(WithU32(good, tb::offset::kVersion, 1));
    CHECK(v1.code() == absl::StatusCode::kFailedPrecondition);
    CHECK(v1.message() == "policy table: " + Version1Message(std::to_string(players)));
    absl::Status v2 = Refusal(WithU32(good, tb::offset::kVersion, 2));
    CHECK(v2.code() == absl::StatusCode::kFailedPrecondition);
    CHECK(v2.message() == "policy table: " + Version2Message(std::to_string(players)));
    for (std::uint32_t newer : {4u, 5u, 255u}) {
      absl::Status s = Refusal(WithU32(good, tb::offset::kVersion, newer));
      CHECK(s.code() == absl::StatusCode::kFailedPrecondition);
      CHECK(s.message() == "policy table: format version " + std::to_string(newer) +
                               " is newer than this library's 3; update martiandice or "
                               "regenerate the table with this version (martiandice solve)");
    }
    // Past 255 no version: damage (MDPOLICY, then bytes that are no header).
    for (std::uint32_t damaged : {256u, 2021161080u, 0xFFFFFFFFu}) {
      absl::Status s = Refusal(WithU32(good, tb::offset::kVersion, damaged));
      CHECK(s.code() == absl::StatusCode::kDataLoss);
      CHECK(s.message() == "policy table: format version " + std::to_string(damaged) +
                               " is no version of the format (1..255): the header is corrupt");
    }
    absl::Status zero = Refusal(WithU32(good, tb::offset::kVersion, 0));
    CHECK(zero.code() == absl::StatusCode::kDataLoss);
    CHECK(zero.message() == "policy table: format version 0 is invalid");
  }
  // The version is read before anything else is trusted: a bare version 1
  // preamble (no players field) names the command with P; a player count out
  // of range too.
  std::string bare = "MDPOLICY";
  bare += std::string("\x01\0\0\0", 4);
  CHECK(Refusal(bare).message() == "policy table: " + Version1Message("P"));
  CHECK(Refusal(WithU32(WithU32(SmallTable(), tb::offset::kVersion, 1), tb::offset::kPlayers, 7))
            .message() == "policy table: " + Version1Message("P"));
  // With a damaged header checksum, still the version's message.
  std::string damaged = WithU32(SmallTable(), tb::offset::kVersion, 1);
  damaged[tb::offset::kHeaderCrc] ^= 1;
  CHECK(Refusal(damaged).message() == "policy table: " + Version1Message("2"));
}

TEST_CASE("table: a version 1 file of the real layout is refused naming the command") {
  for (int players : {2, 3}) {
    CAPTURE(players);
    const tb::TableSpec spec = tb::RandomSpec(kSmall, players, 5, false);
    const std::string v1 = tb::WriteVersion1Table(spec);
    // The version 1 layout: records of 8P + 8 bytes, then STATES and one ROLLS block.
    const std::uint64_t contexts = tb::ContextCount(kSmall, players);
    const std::uint64_t states = tb::GetU32(v1, tb::v1_offset::kStateCount);
    CHECK(states > 0);
    CHECK(tb::GetU32(v1, tb::v1_offset::kBlockCount) == 1);
    CHECK(v1.size() == 128 + contexts * (8 * players + 8) + states * 8 + states * 8);
    absl::Status s = Refusal(v1);
    CHECK(s.code() == absl::StatusCode::kFailedPrecondition);
    CHECK(s.message() == "policy table: " + Version1Message(std::to_string(players)));
    // Relabelled version 3 (with the version 3 rules hash): its layout is not version 3's
    // (its u32 context and block counts read as one u64 count).
    std::string relabelled = v1;
    tb::PutU32(relabelled, tb::offset::kVersion, 3);
    tb::PutU64(relabelled, tb::offset::kRulesHash, tb::Fnv1a64(tb::RulesString(kSmall, players)));
    tb::RefreshChecksums(relabelled);
    absl::Status layout = Refusal(relabelled);
    CHECK(layout.code() == absl::StatusCode::kDataLoss);
    CHECK(Contains(layout, "header: context_count is " +
                               std::to_string((std::uint64_t{1} << 32) + contexts) +
                               ", but the rules and " + std::to_string(players) + " players have " +
                               std::to_string(contexts) + " contexts"));
    // ... and with the version 1 hash left: the rules hash differs.
    std::string v1_hash = v1;
    tb::PutU32(v1_hash, tb::offset::kVersion, 3);
    tb::RefreshChecksums(v1_hash);
    absl::Status hash = Refusal(v1_hash);
    CHECK(hash.code() == absl::StatusCode::kFailedPrecondition);
    CHECK(Contains(hash, "rules hash"));
  }
  // Open names the path and the command alike.
  const TempDir dir;
  const std::string path = dir.File(TableFileName(kSmall, 2));
  WriteFile(path, tb::WriteVersion1Table(tb::RandomSpec(kSmall, 2, 5, false)));
  auto opened = GameTable::Open(path);
  CHECK(opened.status().code() == absl::StatusCode::kFailedPrecondition);
  CHECK(opened.status().message() == "policy table " + path + ": " + Version1Message("2"));
}

// ------------------------------------------------------------ the header

TEST_CASE("table: tie_tolerance_e: 12 is read, 11 and 13 are refused") {
  const std::string good = SmallTable();
  CHECK(tb::GetU32(good, tb::offset::kTieTolerance) == 12);
  CHECK(Accepted(WithU32(good, tb::offset::kTieTolerance, 12)));
  for (std::uint32_t e : {11u, 13u, 0u, 0xFFFFFFFFu}) {
    absl::Status s = Refusal(WithU32(good, tb::offset::kTieTolerance, e));
    CHECK(s.code() == absl::StatusCode::kDataLoss);
    CHECK(s.message() == "policy table: header: tie_tolerance_e is " + std::to_string(e) +
                             ", the format fixes 12");
  }
}

TEST_CASE("table: the rule fields: the supported ranges' ends are read, one beyond refused") {
  // Tables at the ends of the ranges (tiny targets keep them small).
  struct Edge {
    Rules rules;
    int players;
  };
  for (const Edge& edge :
       {Edge{Rules{1, 0, 1}, 2}, Edge{Rules{20, 0, 1}, 2}, Edge{Rules{3, 100, 1}, 2},
        Edge{Rules{1, 0, 200}, 2}, Edge{Rules{1, 0, 1}, 6}}) {
    CAPTURE(edge.rules.dice);
    CAPTURE(edge.rules.bonus);
    CAPTURE(edge.rules.target);
    CAPTURE(edge.players);
    const std::string bytes = tb::WriteTable(tb::RandomSpec(edge.rules, edge.players, 3, false));
    REQUIRE(Accepted(bytes));
    CHECK(Load(bytes).rules() == edge.rules);
  }
  using namespace tb::offset;
  struct Case {
    int at;
    std::uint32_t value;
    const char* message;
  };
  const Case cases[] = {
      {kDice, 0, "header: dice 0 is outside the supported range 1..20"},
      {kDice, 21, "header: dice 21 is outside the supported range 1..20"},
      {kBonus, 101, "header: bonus 101 is outside the supported range 0..100"},
      {kTarget, 0, "header: target 0 is outside the supported range 1..200"},
      {kTarget, 201, "header: target 201 is outside the supported range 1..200"},
      {kPlayers, 1, "header: players 1 is outside the supported range 2..6"},
      {kPlayers, 7, "header: players 7 is outside the supported range 2..6"},
      {kHeaderSize, 127, "header: header_size 127, expected 128"},
      {kHeaderSize, 129, "header: header_size 129, expected 128"},
      {kReserved, 1, "header: reserved field is 1, expected 0"},
      {kMaxTurnScore, 2, "header: max_turn_score 2, but the rules give 3"},
      {kMaxTurnScore, 4, "header: max_turn_score 4, but the rules give 3"},
  };
  const std::string good = SmallTable();
  for (const Case& c : cases) {
    absl::Status s = Refusal(WithU32(good, c.at, c.value));
    CHECK(s.code() == absl::StatusCode::kDataLoss);
    CHECK(s.message() == std::string("policy table: ") + c.message);
  }
}

TEST_CASE("table: context_count: the formula's count is read, one more or less refused") {
  for (int players : {2, 3}) {
    const std::string good = SmallTable(players);
    const std::uint64_t count = tb::GetU64(good, tb::offset::kContextCount);
    CHECK(count == static_cast<std::uint64_t>(tb::ContextCount(kSmall, players)));
    CHECK(Accepted(WithU64(good, tb::offset::kContextCount, count)));
    for (std::uint64_t wrong : {count - 1, count + 1, count + (std::uint64_t{1} << 32)}) {
      absl::Status s = Refusal(WithU64(good, tb::offset::kContextCount, wrong));
      CHECK(s.code() == absl::StatusCode::kDataLoss);
      CHECK(s.message() == "policy table: header: context_count is " + std::to_string(wrong) +
                               ", but the rules and " + std::to_string(players) + " players have " +
                               std::to_string(count) + " contexts");
    }
  }
}

TEST_CASE("table: the section fields must have the layout's values") {
  using namespace tb::offset;
  const std::string good = tb::WriteTable(tb::RandomSpec(Rules{3, 0, 10}, 3, 7, false));
  const std::uint64_t end = good.size();
  const std::uint64_t blocks = 4;  // 3,990 contexts
  const std::uint64_t sums = end - 4 * blocks;
  REQUIRE(sums == 128 + 3990 * 24);
  // Field, its value (the control), the next value refused.
  struct Field {
    const char* name;
    int at;
    bool wide;
    std::uint64_t value;
  };
  const Field fields[] = {
      {"block_contexts", kBlockContexts, false, 1024},
      {"contexts_offset", kContextsOffset, true, 128},
      {"contexts_size", kContextsSize, true, sums - 128},
      {"checksums_offset", kChecksumsOffset, true, sums},
      {"checksums_size", kChecksumsSize, true, 4 * blocks},
      {"block_count", kBlockCount, true, blocks},
      {"file_size", kFileSize, true, end},
  };
  for (const Field& f : fields) {
    CAPTURE(f.name);
    auto with = [&](std::uint64_t v) {
      return f.wide ? WithU64(good, f.at, v) : WithU32(good, f.at, static_cast<std::uint32_t>(v));
    };
    CHECK((f.wide ? tb::GetU64(good, f.at) : tb::GetU32(good, f.at)) == f.value);
    CHECK(Accepted(with(f.value)));
    std::vector<std::uint64_t> wrong = {f.value + 1, f.value + 8};
    if (f.value > 0) wrong.push_back(f.value - 1);
    if (f.wide) wrong.push_back(std::uint64_t{1} << 60);  // no allocation follows it
    for (std::uint64_t v : wrong) {
      g_largest_allocation = 0;
      absl::Status s = Refusal(with(v));
      CHECK(g_largest_allocation.load() < (1u << 20));
      CHECK(s.code() == absl::StatusCode::kDataLoss);
      CHECK(s.message() == "policy table: header: " + std::string(f.name) + " is " +
                               std::to_string(v) + ", but the layout requires " +
                               std::to_string(f.value));
    }
  }
}

TEST_CASE("table: error_bound: 0 up to just below 1 is read, negative, 1, NaN, infinite refused") {
  const std::string good = SmallTable();
  CHECK(tb::GetF64(good, tb::offset::kErrorBound) == 0);
  const double max = std::numeric_limits<double>::max();
  for (double bound : {0.0, -0.0, std::numeric_limits<double>::denorm_min(), 1e-13, 0.5,
                       std::nextafter(1.0, 0.0)}) {
    CAPTURE(bound);
    const std::string bytes = WithF64(good, tb::offset::kErrorBound, bound);
    REQUIRE(Accepted(bytes));
    CHECK(Load(bytes).error_bound() == bound);
  }
  const double refused[] = {-std::numeric_limits<double>::denorm_min(),
                            -1e-13,
                            1.0,
                            std::nextafter(1.0, 2.0),
                            max,
                            std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::quiet_NaN()};
  for (double bound : refused) {
    CAPTURE(bound);
    absl::Status s = Refusal(WithF64(good, tb::offset::kErrorBound, bound));
    CHECK(s.code() == absl::StatusCode::kDataLoss);
    CHECK(Contains(s, "header: error_bound "));
    CHECK(Contains(s, " is not a bound in [0, 1)"));
  }
}

TEST_CASE("table: the rules hash names the rules string it expects") {
  const std::string good = SmallTable();
  absl::Status hash =
      Refusal(WithU64(good, tb::offset::kRulesHash, tb::GetU64(good, tb::offset::kRulesHash) ^ 1));
  CHECK(hash.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(Contains(hash, "built under other rules or another state layout"));
  // The target changed without the hash.
  absl::Status target = Refusal(WithU32(good, tb::offset::kTarget, 6));
  CHECK(target.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(Contains(target, "\"" + tb::RulesString(Rules{3, 0, 6}, 2) + "\" hashes to"));
  // Another player count with the same records: the hash differs too.
  absl::Status players = Refusal(WithU32(good, tb::offset::kPlayers, 3));
  CHECK(players.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(Contains(players, "players=3"));
}

TEST_CASE("table: a table for other rules or players is refused by the query check") {
  const GameTable three = Load(SmallTable(3));
  absl::Status players = CheckTableMatches(three, kSmall, 2);
  CHECK(players.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(players.message() == "the table is for 3 players, but the game has 2");
  CHECK(CheckTableMatches(three, kSmall, 3).ok());
  absl::Status rules = CheckTableMatches(three, Rules{}, 3);
  CHECK(rules.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(Contains(rules, "the table is for other rules (3 dice, bonus 0, target 5)"));
  CHECK_FALSE(CheckTableMatches(three, Rules{3, 0, 6}, 3).ok());
  // A context of the wrong size is refused by the query itself.
  CHECK(EvaluateWin(three, GameContext{{0, 0}, 0}, Dice()).status().code() ==
        absl::StatusCode::kInvalidArgument);
  CHECK(three.WinProbabilities(GameContext{{0, 0, 0, 0}, 0}).status().code() ==
        absl::StatusCode::kInvalidArgument);
}

// ------------------------------------------------------------ length and checksums

TEST_CASE("table: the file length: exact is read, one byte short or one more refused") {
  for (int players : {2, 3}) {
    CAPTURE(players);
    const std::string good = SmallTable(players);
    const size_t n = good.size();
    CHECK(Accepted(good));
    std::string short_one = good.substr(0, n - 1);
    tb::RefreshChecksums(short_one);
    absl::Status truncated = Refusal(short_one);
    CHECK(truncated.code() == absl::StatusCode::kDataLoss);
    CHECK(truncated.message() == "policy table: truncated: the file has " + std::to_string(n - 1) +
                                     " bytes, but its layout requires " + std::to_string(n));
    std::string long_one = good + '\0';
    tb::RefreshChecksums(long_one);
    absl::Status trailing = Refusal(long_one);
    CHECK(trailing.code() == absl::StatusCode::kDataLoss);
    CHECK(trailing.message() ==
          "policy table: 1 trailing byte after the last section (the file "
          "has " +
              std::to_string(n + 1) + " bytes, the layout requires " + std::to_string(n) + ")");
    // The same through Open, whose header check compares the declared length with the file's.
    const TempDir dir;
    WriteFile(dir.File("exact.mdt"), good);
    WriteFile(dir.File("short.mdt"), short_one);
    WriteFile(dir.File("long.mdt"), long_one);
    CHECK(GameTable::Open(dir.File("exact.mdt")).ok());
    auto short_file = GameTable::Open(dir.File("short.mdt"));
    CHECK(short_file.status().code() == absl::StatusCode::kDataLoss);
    CHECK(Contains(short_file.status(), dir.File("short.mdt") + ": truncated: the file has"));
    auto long_file = GameTable::Open(dir.File("long.mdt"));
    CHECK(long_file.status().code() == absl::StatusCode::kDataLoss);
    CHECK(Contains(long_file.status(), dir.File("long.mdt") + ": 1 trailing byte "));
  }
}

TEST_CASE("table: every truncation is refused as truncated") {
  const std::string bytes = SmallTable();
  for (size_t n = 0; n < bytes.size(); ++n) {
    absl::Status s = Refusal(bytes.substr(0, n));
    CHECK(s.code() == absl::StatusCode::kDataLoss);
    CHECK_MESSAGE(Contains(s, "truncated"), n, ": ", s.message());
  }
}

TEST_CASE("table: every single-bit flip is refused") {
  const std::string bytes = SmallTable();
  REQUIRE(Accepted(bytes));
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string damaged = bytes;
      damaged[i] = static_cast<char>(damaged[i] ^ (1 << bit));
      absl::Status s = Refusal(damaged);
      if (i < 8) {
        CHECK(Contains(s, "not a martiandice policy table"));
      } else if (i < 12) {
        CHECK(Contains(s, "format version"));  // read before anything else is trusted
      } else if (i < 128) {
        CHECK(s.code() == absl::StatusCode::kDataLoss);
        CHECK_MESSAGE(Contains(s, "header checksum mismatch"), i, ":", bit, ": ", s.message());
      } else if (i < bytes.size() - 4) {
        CHECK(s.code() == absl::StatusCode::kDataLoss);
        CHECK_MESSAGE(Contains(s, "block 0 (contexts 0..64) checksum mismatch"), i, ":", bit, ": ",
                      s.message());
      } else {
        CHECK(s.code() == absl::StatusCode::kDataLoss);
        CHECK_MESSAGE(Contains(s, "checksums section mismatch"), i, ":", bit, ": ", s.message());
      }
    }
  }
}

TEST_CASE("table: the magic") {
  std::string bytes = SmallTable();
  bytes[0] = 'X';
  CHECK(Refusal(bytes).message() ==
        "policy table: not a martiandice policy table (the file does not start with MDPOLICY)");
  CHECK(Contains(Refusal("hello, world"), "not a martiandice policy table"));
  CHECK(Refusal("MDPOL").message() ==
        "policy table: truncated: the file has 5 bytes, not even the 8-byte magic MDPOLICY");
  CHECK(Refusal("MDPOLICY").message() ==
        "policy table: truncated: the file has 8 bytes, no format version");
  CHECK(Refusal(SmallTable().substr(0, 127)).message() ==
        "policy table: truncated: the file has 127 bytes, shorter than the 128-byte header");
}

// ------------------------------------------------------------ the records

TEST_CASE("table: stored values: 0 and 1 are probabilities, the next doubles outside are not") {
  const std::string good = SmallTable();
  const double kTiny = std::numeric_limits<double>::denorm_min();
  // Seat 0 holds v, seat 1 holds 1 - v (exact for these v): the sums stay 1.
  for (double v : {0.0, -0.0, kTiny, 1e-300, 0.5, std::nextafter(1.0, 0.0), 1.0}) {
    CAPTURE(v);
    const std::string bytes = WithRecord(good, 4, {v, 1 - v});
    REQUIRE(Accepted(bytes));
    CHECK(Load(bytes).Context(4)->win_probabilities[0] == v);
  }
  // The first doubles outside [0, 1]: refused although the sum is 1 within the tolerance.
  absl::Status below = Refusal(WithRecord(good, 4, {1.0, -0x1p-1074}));
  CHECK(below.code() == absl::StatusCode::kDataLoss);
  CHECK(below.message() ==
        "policy table: context 4: seat 1's win probability -4.94066e-324 is not a probability");
  absl::Status above = Refusal(WithRecord(good, 4, {std::nextafter(1.0, 2.0), 0.0}));
  CHECK(above.code() == absl::StatusCode::kDataLoss);
  CHECK(above.message() ==
        "policy table: context 4: seat 0's win probability 1 is not a probability");
  // Every kind of non-probability, at the first, a middle and the last value;
  // a second bad value later does not change the report.
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double bad[] = {kNaN,    -kNaN, std::numeric_limits<double>::signaling_NaN(),
                        kInf,    -kInf, -kTiny,
                        -1e-300, -0.5,  std::nextafter(1.0, 2.0),
                        1.5,     1e300};
  const std::int64_t last = tb::ContextCount(kSmall, 2) - 1;
  for (const auto& row :
       std::vector<std::pair<std::int64_t, int>>{{0, 0}, {0, 1}, {30, 1}, {last, 0}, {last, 1}}) {
    const auto& context = row.first;  // named: clang 14 captures no binding
    const auto& seat = row.second;
    for (double b : bad) {
      CAPTURE(context);
      CAPTURE(seat);
      CAPTURE(b);
      std::string damaged = good;
      tb::PutF64(damaged, At(damaged, context, seat), b);
      if (context < last) tb::PutF64(damaged, At(damaged, last, 1), kNaN);
      tb::RefreshChecksums(damaged);
      absl::Status s = Refusal(damaged);
      CHECK(s.code() == absl::StatusCode::kDataLoss);
      CHECK(Contains(s, "context " + std::to_string(context) + ": seat " + std::to_string(seat) +
                            "'s win probability "));
      CHECK(Contains(s, " is not a probability"));
    }
  }
}

TEST_CASE("table: the sum of a record: 1 within P x (error_bound + 8 eps), not beyond") {
  const double eps = std::numeric_limits<double>::epsilon();
  SUBCASE("error bound 0, 2 players: the tolerance is 16 eps = 2^-48") {
    const std::string good = SmallTable(2);
    // 0.5 + d with d a multiple of 2^-53: the sums below are exact.
    CHECK(Accepted(WithRecord(good, 7, {0.5, 0.5 + 0x1p-48})));
    CHECK(Accepted(WithRecord(good, 7, {0.5, 0.5 - 0x1p-48})));
    absl::Status over = Refusal(WithRecord(good, 7, {0.5, 0.5 + 0x1p-48 + 0x1p-52}));
    CHECK(over.code() == absl::StatusCode::kDataLoss);
    CHECK(Contains(over,
                   "context 7: the win probabilities sum to 1.0000000000000038, not 1 "
                   "within the error bound"));
    absl::Status under = Refusal(WithRecord(good, 7, {0.5, 0.5 - 0x1p-48 - 0x1p-53}));
    CHECK(Contains(under, "context 7: the win probabilities sum to 0.99999999999999634"));
  }
  SUBCASE("error bound 1e-10, 3 players: the tolerance is 3 (1e-10 + 8 eps)") {
    tb::TableSpec spec = tb::RandomSpec(kSmall, 3, 7, false);
    spec.error_bound = 1e-10;
    const std::string good = tb::WriteTable(spec);
    const double tolerance = 3 * (1e-10 + 8 * eps);
    // The last context's record, every seat's share changed by a third of the excess.
    const std::int64_t c = tb::ContextCount(kSmall, 3) - 1;
    for (double factor : {0.999, -0.999}) {
      const double d = factor * tolerance / 3;
      CHECK(Accepted(WithRecord(good, c, {0.25 + d, 0.25 + d, 0.5 + d})));
    }
    for (double factor : {1.001, -1.001}) {
      const double d = factor * tolerance / 3;
      absl::Status s = Refusal(WithRecord(good, c, {0.25 + d, 0.25 + d, 0.5 + d}));
      CHECK(Contains(s, "context " + std::to_string(c) + ": the win probabilities sum to"));
    }
  }
  SUBCASE("a record summing to 0.5 or 1.5") {
    const std::string good = SmallTable(2);
    CHECK(Contains(Refusal(WithRecord(good, 0, {0.25, 0.25})),
                   "context 0: the win probabilities sum to 0.5,"));
    CHECK(Contains(Refusal(WithRecord(good, 0, {0.75, 0.75})),
                   "context 0: the win probabilities sum to 1.5,"));
  }
}

// ------------------------------------------------------------ files

TEST_CASE("table: a large file that is no table is refused from its header, unread") {
  constexpr std::uint64_t kSize = std::uint64_t{200} << 20;  // sparse
  const TempDir dir;
  std::mt19937_64 rng(99);
  std::string garbage(4096, '\0');
  for (char& c : garbage) c = static_cast<char>(rng());
  std::string looks_like_a_table = "MDPOLICY" + std::string("\x03\0\0\0", 4) + garbage;
  struct Case {
    const char* name;
    std::string start;
    absl::StatusCode code;
    std::string words;
  };
  const Case cases[] = {
      {"zeros", "", absl::StatusCode::kDataLoss, "not a martiandice policy table"},
      {"garbage", garbage, absl::StatusCode::kDataLoss, "not a martiandice policy table"},
      {"magic and version 3, then garbage", looks_like_a_table, absl::StatusCode::kDataLoss,
       "header checksum mismatch"},
      {"a valid table, then zeros", SmallTable(), absl::StatusCode::kDataLoss,
       std::to_string(kSize - SmallTable().size()) + " trailing bytes after the last section"},
      {"a version 1 table, then zeros", tb::WriteVersion1Table(tb::RandomSpec(kSmall, 2, 1, false)),
       absl::StatusCode::kFailedPrecondition, Version1Message("2")},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::string path = dir.File("large.mdt");
    WriteFile(path, c.start);
    REQUIRE(::truncate(path.c_str(), static_cast<off_t>(kSize)) == 0);
    REQUIRE(std::filesystem::file_size(path) == kSize);
    g_largest_allocation = 0;
    const std::int64_t read_before = BytesRead();
    auto table = GameTable::Open(path);
    const std::int64_t read_after = BytesRead();
    REQUIRE_FALSE(table.ok());
    CHECK(table.status().code() == c.code);
    CHECK_MESSAGE(Contains(table.status(), "policy table " + path + ": " + c.words),
                  table.status());
    CHECK(g_largest_allocation.load() < (1u << 20));
    if (read_before >= 0 && read_after >= 0) {
      CHECK(read_after - read_before < (1 << 20));  // far from the file's 200 MB
    } else {
      MESSAGE("/proc/self/io is not readable: bytes read not measured");
    }
  }
}

TEST_CASE("table: a file past kEagerTableBytes is checked from its header before it is mapped") {
  const TempDir dir;
  const std::string path = dir.File("huge.mdt");
  const std::string table = SmallTable();
  for (std::uint64_t size : {kEagerTableBytes + 1, std::uint64_t{1} << 33}) {
    CAPTURE(size);
    WriteFile(path, table);
    std::filesystem::resize_file(path, size);  // sparse
    g_largest_allocation = 0;
    const std::int64_t read_before = BytesRead();
    auto huge = GameTable::Open(path);
    const std::int64_t read_after = BytesRead();
    CHECK(g_largest_allocation.load() < (1u << 20));
    if (read_before >= 0 && read_after >= 0) CHECK(read_after - read_before < (1 << 20));
    CHECK(huge.status().code() == absl::StatusCode::kDataLoss);
    CHECK(Contains(huge.status(),
                   std::to_string(size - table.size()) + " trailing bytes after the last section"));
  }
}

// ------------------------------------------------------------ mapped tables

namespace {

// A table of several blocks: 3 players, dice 3, bonus 0, target 10 (3,990
// contexts in 4 blocks), from the test writer.
const Rules kBlocks{3, 0, 10};
std::string BlocksTable() { return tb::WriteTable(tb::RandomSpec(kBlocks, 3, 11, true)); }

// `path` opened mapped (every file past 0 bytes is), or the test stops.
GameTable OpenMapped(const std::string& path) {
  absl::StatusOr<std::shared_ptr<const internal::TableData>> data =
      internal::OpenTable(path, /*eager_bytes=*/0);
  REQUIRE_MESSAGE(data.ok(), data.status());
  // A GameTable over the mapped data, through the public reader for comparison below.
  return internal::TableAccess::Make(*std::move(data));
}

// Every context's answers: the win vector, and the evaluation of the turn's start.
std::vector<double> Answers(const GameTable& table) {
  std::vector<double> out;
  for (std::int64_t c = 0; c < table.context_count(); ++c) {
    auto record = table.Context(c);
    REQUIRE(record.ok());
    auto eval = EvaluateWin(table, record->context, Dice());
    REQUIRE_MESSAGE(eval.ok(), eval.status());
    out.insert(out.end(), record->win_probabilities.begin(), record->win_probabilities.end());
    out.push_back(eval->position.value.approx);
  }
  return out;
}

}  // namespace

TEST_CASE("table: a mapped table answers as the table read into memory, bit for bit") {
  const TempDir dir;
  const std::string path = dir.File("blocks.mdt");
  const std::string bytes = BlocksTable();
  WriteFile(path, bytes);
  const GameTable mapped = OpenMapped(path);
  CHECK(internal::TableAccess::Data(mapped).block_count() == 4);
  CHECK_FALSE(internal::TableAccess::Data(mapped).all_verified.load());
  const GameTable in_memory = Load(bytes);
  CHECK(in_memory.context_count() == 3990);
  CHECK(Answers(mapped) == Answers(in_memory));
  CHECK(mapped.Verify().ok());
  CHECK(internal::TableAccess::Data(mapped).all_verified.load());
}

TEST_CASE("table: a mapped table verifies each block on first use, a corrupt one is refused") {
  const TempDir dir;
  const std::string good = BlocksTable();
  const size_t record = 24;
  // A byte of context 2,500's record (block 2) changed, its checksum left as it was: only
  // the uses of block 2 fail. Its value stays a valid probability, so only the checksum tells.
  std::string damaged = good;
  damaged[128 + 2500 * record + 3] ^= 0x01;
  const std::string path = dir.File("damaged.mdt");
  WriteFile(path, damaged);
  CHECK(GameTable::FromBytes(damaged).status().code() == absl::StatusCode::kDataLoss);
  const GameTable mapped = OpenMapped(path);  // the header and CHECKSUMS are intact
  const std::string block2 =
      "policy table " + path + ": block 2 (contexts 2048..3071) checksum mismatch";
  auto in_block0 = mapped.Context(5);
  CHECK(in_block0.ok());
  auto in_block2 = mapped.Context(2500);
  CHECK(in_block2.status().code() == absl::StatusCode::kDataLoss);
  CHECK_MESSAGE(Contains(in_block2.status(), block2), in_block2.status());
  CHECK(mapped.Context(2047).ok());
  CHECK(mapped.Context(3072).ok());
  // Refused again at each use, never remembered as good.
  CHECK(mapped.Context(2048).status().code() == absl::StatusCode::kDataLoss);
  absl::Status all = mapped.Verify();
  CHECK(all.code() == absl::StatusCode::kDataLoss);
  CHECK(Contains(all, block2));
  // A query whose turn reads a record of block 2 fails; one that reads none answers.
  int failed = 0, answered = 0;
  const GameTable reference = Load(good);
  for (std::int64_t c = 0; c < mapped.context_count(); ++c) {
    const auto record = reference.Context(c);
    REQUIRE(record.ok());
    auto eval = EvaluateWin(mapped, record->context, Dice());
    if (eval.ok()) {
      ++answered;
    } else {
      ++failed;
      CHECK(eval.status().code() == absl::StatusCode::kDataLoss);
      CHECK(Contains(eval.status(), block2));
    }
  }
  CHECK(failed > 1024);  // block 2's own contexts, and those whose next contexts are there
  CHECK(answered > 1024);
  // A stored value out of range with its block checksum refreshed: refused by the record check.
  std::string bad_value = WithRecord(good, 3100, {1.5, -0.25, -0.25});
  WriteFile(path, bad_value);
  const GameTable remapped = OpenMapped(path);
  auto value = remapped.Context(3100);
  CHECK(value.status().code() == absl::StatusCode::kDataLoss);
  CHECK(Contains(value.status(),
                 "context 3100: seat 0's win probability 1.5 is not a "
                 "probability"));
  CHECK(remapped.Context(10).ok());
}

TEST_CASE("table: a mapped table's CHECKSUMS section is checked at Open") {
  const TempDir dir;
  const std::string path = dir.File("sums.mdt");
  std::string damaged = BlocksTable();
  damaged[damaged.size() - 6] ^= 0x10;  // block 2's checksum
  WriteFile(path, damaged);
  auto opened = internal::OpenTable(path, /*eager_bytes=*/0);
  CHECK(opened.status().code() == absl::StatusCode::kDataLoss);
  CHECK(Contains(opened.status(), "policy table " + path + ": checksums section mismatch"));
}

TEST_CASE("table: Open reads files and names the path in errors") {
  const TempDir dir;
  const std::string path = dir.File("small.mdt");
  WriteFile(path, SmallTable());
  auto table = GameTable::Open(path);
  REQUIRE(table.ok());
  CHECK(table->players() == 2);
  auto missing = GameTable::Open(dir.File("missing.mdt"));
  CHECK(missing.status().code() == absl::StatusCode::kNotFound);
  CHECK(Contains(missing.status(), dir.File("missing.mdt")));
  auto directory = GameTable::Open(dir.str());
  CHECK(directory.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(Contains(directory.status(), "is a directory"));
  auto device = GameTable::Open("/dev/zero");  // would never end
  CHECK(device.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(Contains(device.status(), "/dev/zero is not a regular file"));
  WriteFile(dir.File("bad.mdt"), "MDPOLICY");
  auto bad = GameTable::Open(dir.File("bad.mdt"));
  CHECK(bad.status().code() == absl::StatusCode::kDataLoss);
  CHECK(Contains(bad.status(), "policy table " + dir.File("bad.mdt") + ": truncated"));
  if (::geteuid() != 0) {  // root reads anything
    ::chmod(path.c_str(), 0);
    auto denied = GameTable::Open(path);
    CHECK(denied.status().code() == absl::StatusCode::kPermissionDenied);
    CHECK(Contains(denied.status(), path));
  }
}

TEST_CASE("table: file names and the search for a table") {
  CHECK(TableFileName(Rules{}, 2) == "martiandice-p2-d13-b3-t25.mdt");
  CHECK(TableFileName(Rules{10, 2, 30}, 4) == "martiandice-p4-d10-b2-t30.mdt");
  const TempDir temp;
  const std::string dir = temp.str();
  const std::string name = TableFileName(kSmall, 2);
  WriteFile(dir + "/" + name, SmallTable());
  // Explicit: a file as is, or a directory holding the table.
  CHECK(*LocateTable(kSmall, 2, dir + "/" + name) == dir + "/" + name);
  CHECK(*LocateTable(kSmall, 2, dir) == dir + "/" + name);
  auto absent = LocateTable(kSmall, 3, dir);
  CHECK(absent.status().code() == absl::StatusCode::kNotFound);
  // No table holds a game out of range: refused as such, no `solve` command offered.
  for (const auto& [rules, players] :
       {std::pair{Rules{0, 3, 25}, 2}, std::pair{Rules{}, 99}, std::pair{Rules{}, 1}}) {
    const absl::Status invalid = LocateTable(rules, players, dir).status();
    CHECK(invalid.code() == absl::StatusCode::kInvalidArgument);
    CHECK_FALSE(Contains(invalid, "martiandice solve"));
  }
  CHECK(Contains(absent.status(), "no martiandice-p3-d3-b0-t5.mdt there"));
  CHECK(Contains(absent.status(),
                 "martiandice solve --players 3 --dice 3 --bonus 0 --target 5 --out " + dir));
  // Written where it was looked for, it needs no naming after.
  CHECK_FALSE(Contains(absent.status(), "--tables"));
  // $MARTIANDICE_DATA, as a directory or a file; then the data directories.
  const char* saved = std::getenv("MARTIANDICE_DATA");
  const std::string saved_value = saved ? saved : "";
  ::setenv("MARTIANDICE_DATA", dir.c_str(), 1);
  CHECK(*LocateTable(kSmall, 2, std::nullopt) == dir + "/" + name);
  ::setenv("MARTIANDICE_DATA", (dir + "/" + name).c_str(), 1);
  CHECK(*LocateTable(kSmall, 2, std::nullopt) == dir + "/" + name);
  ::setenv("MARTIANDICE_DATA", dir.c_str(), 1);
  auto nowhere = LocateTable(Rules{7, 1, 9}, 5, std::nullopt);
  CHECK(nowhere.status().code() == absl::StatusCode::kNotFound);
  CHECK(Contains(nowhere.status(), "looked in $MARTIANDICE_DATA=" + dir));
  CHECK(Contains(nowhere.status(), "/data"));
  CHECK(Contains(nowhere.status(), "martiandice solve --players 5 --dice 7 --bonus 1 --target 9"));
  CHECK_FALSE(Contains(nowhere.status(), "--tables"));
  ::unsetenv("MARTIANDICE_DATA");
  // Nothing named: the command writes it here, which is not searched.
  const absl::Status unset = LocateTable(Rules{7, 1, 9}, 5, std::nullopt).status();
  CHECK(Contains(unset, "$MARTIANDICE_DATA (unset)"));
  CHECK(Contains(unset,
                 "--out martiandice-p5-d7-b1-t9.mdt` (a table of 58.4 MiB: minutes) and give its "
                 "path "
                 "(the command line's --tables) or set $MARTIANDICE_DATA to it"));
  // The size says how long the solve takes: seconds, minutes, hours.
  CHECK(Contains(LocateTable(Rules{6, 3, 25}, 2, std::nullopt).status(),
                 "(a table of 23 KiB: seconds)"));
  CHECK(Contains(LocateTable(Rules{}, 4, std::nullopt).status(), "(a table of 116 MiB: minutes)"));
  CHECK(Contains(LocateTable(Rules{}, 5, std::nullopt).status(), "(a table of 6.2 GiB: hours)"));
  if (saved) ::setenv("MARTIANDICE_DATA", saved_value.c_str(), 1);
}

// What is there instead of a table is named: a FIFO, a device, a symbolic
// link loop, a dangling link, a folder that cannot be searched; each through
// an explicit path, a directory holding it, and $MARTIANDICE_DATA, which is
// the only place searched when set (an unusable one is an error naming it).
TEST_CASE("table: the search names what is there instead of a table") {
  const TempDir temp;
  const std::string dir = temp.str();
  const std::string name = TableFileName(kSmall, 2);
  const std::string fifo = dir + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  std::filesystem::create_symlink(dir + "/loop", dir + "/loop");
  std::filesystem::create_symlink(dir + "/missing", dir + "/dangling");
  std::filesystem::create_directory(dir + "/holder");
  REQUIRE(::mkfifo((dir + "/holder/" + name).c_str(), 0644) == 0);
  struct Case {
    std::string path;
    absl::StatusCode code;
    std::string says;
  };
  const std::vector<Case> cases = {
      {fifo, absl::StatusCode::kInvalidArgument, fifo + " is a FIFO (named pipe)"},
      {"/dev/null", absl::StatusCode::kInvalidArgument, "/dev/null is a character device"},
      {dir + "/loop", absl::StatusCode::kInvalidArgument, "loop is a symbolic link loop"},
      {dir + "/holder", absl::StatusCode::kInvalidArgument,
       dir + "/holder/" + name + " is a FIFO (named pipe)"},
      {dir + "/dangling", absl::StatusCode::kNotFound, "(a symbolic link to a missing file"},
      {dir + "/missing", absl::StatusCode::kNotFound, "(no such file"},
      {fifo + "/x", absl::StatusCode::kInvalidArgument, "a part of its path is not a folder"},
  };
  const char* saved = std::getenv("MARTIANDICE_DATA");
  const std::string saved_value = saved ? saved : "";
  for (const Case& c : cases) {
    CAPTURE(c.path);
    const auto found = LocateTable(kSmall, 2, c.path);
    CHECK(found.status().code() == c.code);
    CHECK(Contains(found.status(), c.says));
    CHECK(Contains(found.status(), "no such file") == (c.says == "(no such file"));
    // The same through $MARTIANDICE_DATA, which is named; nothing else is searched.
    ::setenv("MARTIANDICE_DATA", c.path.c_str(), 1);
    const auto from_env = LocateTable(kSmall, 2, std::nullopt);
    CHECK(from_env.status().code() == c.code);
    CHECK(Contains(from_env.status(), "$MARTIANDICE_DATA"));
    CHECK(Contains(from_env.status(), c.says));
  }
  // A folder without the table: not a fallback to the shipped tables.
  ::setenv("MARTIANDICE_DATA", dir.c_str(), 1);
  const auto official = LocateTable(Rules{}, 2, std::nullopt);
  CHECK(official.status().code() == absl::StatusCode::kNotFound);
  CHECK(Contains(official.status(), "nothing else is searched while it is set"));
  ::unsetenv("MARTIANDICE_DATA");
  CHECK(LocateTable(Rules{}, 2, std::nullopt).ok());  // unset: the shipped table
  if (saved) ::setenv("MARTIANDICE_DATA", saved_value.c_str(), 1);
  // GameTable::Open names them too.
  auto opened = GameTable::Open(fifo);
  CHECK(opened.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(Contains(opened.status(), fifo + " is not a regular file: it is a FIFO (named pipe)"));
  opened = GameTable::Open(dir + "/loop");
  CHECK(Contains(opened.status(), "it is a symbolic link loop"));
}

// A folder that cannot be searched, for a user other than root (root
// searches anything): in a child process, as nobody if run as root.
TEST_CASE("table: a folder that cannot be searched is said to be unreachable") {
  const TempDir temp;
  const std::string locked = temp.File("locked");
  std::filesystem::create_directory(locked);
  WriteFile(locked + "/" + TableFileName(kSmall, 2), SmallTable());
  REQUIRE(::chmod(locked.c_str(), 0) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(10);
    const auto found = LocateTable(kSmall, 2, locked);
    if (found.status().code() != absl::StatusCode::kPermissionDenied) _exit(11);
    if (!Contains(found.status(), "unreachable: a folder on its path cannot be searched")) {
      _exit(12);
    }
    const auto opened = GameTable::Open(locked + "/" + TableFileName(kSmall, 2));
    if (opened.status().code() != absl::StatusCode::kPermissionDenied) _exit(13);
    if (!Contains(opened.status(), "it is unreachable: a folder on its path cannot be searched")) {
      _exit(14);
    }
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  ::chmod(locked.c_str(), 0700);
}

// ------------------------------------------------------------ win queries

namespace {

// Every concrete set-aside the rules allow (ValidateAside), start included.
std::vector<Dice> Asides(const Rules& rules) {
  std::vector<Dice> asides;
  const int n = rules.dice;
  for (int t = 0; t <= n; ++t)
    for (int r = 0; t + r <= n; ++r)
      for (int h = 0; t + r + h <= n; ++h)
        for (int c = 0; t + r + h + c <= n; ++c)
          for (int k = 0; t + r + h + c + k <= n; ++k) {
            Dice d(t, r, h, c, k);
            if (ValidateAside(rules, d).ok()) asides.push_back(d);
          }
  return asides;
}

// Every roll of `left` dice.
std::vector<Dice> Rolls(int left) {
  std::vector<Dice> rolls;
  for (int t = 0; t <= left; ++t)
    for (int r = 0; t + r <= left; ++r)
      for (int h = 0; t + r + h <= left; ++h)
        for (int c = 0; t + r + h + c <= left; ++c)
          rolls.emplace_back(t, r, h, c, left - t - r - h - c);
  return rolls;
}

std::array<int, 5> Counts(const Dice& d) {
  return {d.count(Face::kTank), d.count(Face::kRay), d.count(Face::kHuman), d.count(Face::kCow),
          d.count(Face::kChicken)};
}

// The naive reference's utility of ending the turn with x points (docs/FORMAT.md step 1),
// computed here from the naive values.
double NaiveUtility(const naive::NaiveGameResult& g, const naive::NaiveContext& c, int x) {
  const int p = g.players;
  std::vector<int> s = c.scores;
  s[c.mover] += x;
  bool final_round = false;
  for (int j = 0; j < c.mover; ++j) final_round = final_round || c.scores[j] >= g.rules.target;
  if (c.mover == p - 1 && (final_round || s[c.mover] >= g.rules.target)) {
    const int top = *std::max_element(s.begin(), s.end());
    if (s[c.mover] != top) return 0;
    return 1.0 / static_cast<double>(std::count(s.begin(), s.end(), top));
  }
  const std::int64_t next = naive::NaiveContextIndex(g.rules, p, (c.mover + 1) % p, s);
  REQUIRE(next >= 0);
  return g.values[next][c.mover];
}

// Every context, position and roll of the solver's table against the naive reference.
void CheckAgainstNaive(const Rules& rules, int players) {
  CAPTURE(rules.dice);
  CAPTURE(rules.bonus);
  CAPTURE(rules.target);
  CAPTURE(players);
  auto g = naive::NaiveGameValues(rules, players);
  REQUIRE(g.ok());
  REQUIRE(g->converged);
  const GameTable table = Load(SolveTinyTable(rules, players));
  CHECK(table.format_version() == 3);
  CHECK(table.players() == players);
  REQUIRE(table.context_count() == static_cast<std::int64_t>(g->contexts.size()));
  const std::vector<Dice> asides = Asides(rules);
  double worst = 0;
  long long positions = 0, rolls = 0;
  for (std::size_t ci = 0; ci < g->contexts.size(); ++ci) {
    const naive::NaiveContext& nc = g->contexts[ci];
    const GameContext context{nc.scores, nc.mover};
    if (!ValidateContext(rules, players, context).ok()) continue;  // unreachable records
    CAPTURE(ci);
    auto record = table.Context(static_cast<std::int64_t>(ci));
    REQUIRE(record.ok());
    CHECK(record->context.seat == nc.mover);
    CHECK(record->context.scores == nc.scores);
    auto win = table.WinProbabilities(context);
    REQUIRE(win.ok());
    for (int j = 0; j < players; ++j) CHECK(std::abs((*win)[j] - g->values[ci][j]) <= 1e-12);
    for (const Dice& aside : asides) {
      auto eval = EvaluateWin(table, context, aside);
      REQUIRE(eval.ok());
      CHECK(eval->win_probabilities == *win);
      const std::optional<double> naive_roll =
          g->RollValue(static_cast<std::int64_t>(ci), Counts(aside));
      const int left = rules.dice - aside.total();
      if (naive_roll && left > 0) {
        REQUIRE(eval->position.roll.has_value());
        worst = std::max(worst, std::abs(eval->position.roll->approx - *naive_roll));
        CHECK(std::abs(eval->position.roll->approx - *naive_roll) <= 1e-12);
        ++positions;
      }
      if (!aside.empty()) {
        REQUIRE(eval->position.stop.has_value());
        CHECK(std::abs(eval->position.stop->approx -
                       NaiveUtility(*g, nc, TurnScore(rules, aside))) <= 1e-12);
      }
      if (left == 0) continue;
      // The takes from every roll: stop values from the naive utilities, roll values from the
      // naive reference, and the advice's value their best.
      for (const Dice& roll : Rolls(left)) {
        auto advice = AdviseWin(table, context, aside, roll);
        if (!advice.ok()) continue;  // e.g. a roll at a position that cannot roll
        ++rolls;
        const RollAdvice& a = advice->advice;
        double best = -1;
        for (const TakeOption& o : a.options) {
          CHECK(std::abs(o.stop.approx - NaiveUtility(*g, nc, TurnScore(rules, o.aside_after))) <=
                1e-12);
          double value = o.stop.approx;
          if (o.roll) {
            const std::optional<double> r =
                g->RollValue(static_cast<std::int64_t>(ci), Counts(o.aside_after));
            REQUIRE(r.has_value());
            CHECK(std::abs(o.roll->approx - *r) <= 1e-12);
            value = std::max(value, *r);
          }
          CHECK(std::abs(o.value.approx - value) <= 1e-12);
          best = std::max(best, value);
        }
        if (a.turn_over) {
          CHECK(std::abs(a.value.approx - NaiveUtility(*g, nc, a.turn_over_score)) <= 1e-12);
        } else {
          CHECK(std::abs(a.value.approx - best) <= 1e-12);
          REQUIRE(a.best.has_value());
          CHECK(a.options[*a.best].optimal);
        }
      }
    }
  }
  MESSAGE(players << " players, " << rules.dice << " dice, target " << rules.target << ": "
                  << positions << " roll values and " << rolls
                  << " rolls checked, largest roll-value gap " << worst);
  CHECK(positions > 0);
  CHECK(rolls > 0);
}

}  // namespace

TEST_CASE("table: 2, 3 and 4 players, every query agrees with the naive reference") {
  CheckAgainstNaive(Rules{3, 3, 5}, 2);
  CheckAgainstNaive(Rules{4, 2, 7}, 2);
  CheckAgainstNaive(Rules{3, 3, 5}, 3);
  CheckAgainstNaive(Rules{3, 1, 4}, 3);
  CheckAgainstNaive(Rules{3, 1, 3}, 4);
}

TEST_CASE("table: the convention picks the best take among tied ones, for 2 and 3 players") {
  // Final round, the last seat cannot reach the leader: every take is worth 0
  // (tied); the convention picks rays, else the earthling type showing the
  // most dice, else Human before Cow before Chicken.
  const Rules rules{4, 2, 6};  // M = 6
  for (int players : {2, 3}) {
    CAPTURE(players);
    const GameTable table = Load(SolveTinyTable(rules, players));
    GameContext context{std::vector<int>(players, 0), players - 1};
    context.scores[0] = 9;
    struct Case {
      Dice roll;
      Face pick;
    };
    for (const Case& c :
         {Case{Dice(0, 1, 1, 2, 0), Face::kRay}, Case{Dice(0, 0, 1, 3, 0), Face::kCow},
          Case{Dice(0, 0, 2, 2, 0), Face::kHuman}, Case{Dice(1, 0, 0, 1, 2), Face::kChicken}}) {
      CAPTURE(FormatDice(c.roll));
      auto a = AdviseWin(table, context, Dice(), c.roll);
      REQUIRE(a.ok());
      CHECK(a->advice.value.approx == 0);
      for (const TakeOption& o : a->advice.options) CHECK(o.optimal);
      REQUIRE(a->advice.best.has_value());
      CHECK(a->advice.options[*a->advice.best].take == c.pick);
    }
  }
}

TEST_CASE("table: the bounded turn cache, many threads get the single-thread answers") {
  // 13 dice (turns of about 17 KB) and target 30: more contexts than the cache holds.
  const Rules rules{13, 3, 30};
  const GameTable table = Load(tb::WriteTable(tb::RandomSpec(rules, 2, 21, true)));
  const internal::TurnCache& cache = *internal::TableAccess::Data(table).turns;
  CHECK(cache.capacity() >= 16);
  std::vector<GameContext> contexts;
  for (std::int64_t i = 0; i < table.context_count(); ++i) {
    GameContext c = table.Context(i)->context;
    if (ValidateContext(rules, 2, c).ok()) contexts.push_back(c);
  }
  REQUIRE(static_cast<int>(contexts.size()) > cache.capacity());
  // Every context's advice from the first position with dice left: entries are
  // evicted and solved again.
  const Dice aside(0, 1, 0, 0, 0);
  const Dice roll(1, 1, 1, 2, 7);
  std::vector<WinAdvice> expected;
  for (const GameContext& c : contexts) {
    auto a = AdviseWin(table, c, aside, roll);
    REQUIRE(a.ok());
    expected.push_back(*std::move(a));
  }
  CHECK(cache.misses() >= static_cast<std::int64_t>(contexts.size()));
  auto same = [](const WinAdvice& a, const WinAdvice& b) {
    if (a.advice.options.size() != b.advice.options.size() || a.advice.best != b.advice.best ||
        a.advice.value.approx != b.advice.value.approx) {
      return false;
    }
    for (std::size_t i = 0; i < a.advice.options.size(); ++i) {
      const TakeOption &x = a.advice.options[i], &y = b.advice.options[i];
      if (x.value.approx != y.value.approx || x.roll.has_value() != y.roll.has_value() ||
          (x.roll && x.roll->approx != y.roll->approx) || x.then != y.then ||
          x.optimal != y.optimal) {
        return false;
      }
    }
    return true;
  };
  const std::int64_t before_threads = cache.misses();
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t k = 0; k < contexts.size(); ++k) {
        const std::size_t i = (k * 7 + t * 13) % contexts.size();
        auto a = AdviseWin(table, contexts[i], aside, roll);
        if (!a.ok() || !same(*a, expected[i])) ++mismatches[t];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int m : mismatches) CHECK(m == 0);
  // The cache cannot hold every turn: a pass over the contexts solves again at
  // least those beyond its capacity, and no lookup solves more than once.
  const std::int64_t solved = cache.misses() - before_threads;
  CHECK(solved >= static_cast<std::int64_t>(contexts.size()) - cache.capacity());
  CHECK(solved <= static_cast<std::int64_t>(4 * contexts.size()));
  // Repeated queries at one context are served from the cache.
  const std::int64_t before = cache.misses();
  for (int i = 0; i < 10; ++i) REQUIRE(AdviseWin(table, contexts[0], aside, roll).ok());
  CHECK(cache.misses() - before <= 1);
}

TEST_CASE("table: the turn cache holds at most its bound, bookkeeping included") {
  // Tiny turns (1 die: the bookkeeping outweighs the values) and the
  // official ones, in slots (few contexts) and in shards (many): every
  // context solved once, the heap measured by the allocator's own counts.
  struct Case {
    Rules rules;
    std::int64_t contexts;
  };
  for (const Case& c : {Case{Rules{1, 3, 25}, 1000}, Case{Rules{1, 3, 25}, 400000},
                        Case{Rules{}, 1500}, Case{Rules{}, 4000}}) {
    CAPTURE(c.rules.dice);
    CAPTURE(c.contexts);
    const int top = MaxTurnScore(c.rules);
    internal::TurnModel::Get(c.rules);  // built once, shared: not the cache's
    const std::int64_t before = g_live_bytes.load();
    auto cache = std::make_unique<internal::TurnCache>(c.rules, c.contexts);
    for (std::int64_t i = 0; i < c.contexts; ++i) {
      internal::TurnCache::Turn turn = cache->Rolls(i, [&](std::vector<double>* u) {
        for (int x = 0; x <= top; ++x) (*u)[x] = double(x + i % 5) / (top + 5);
      });
      REQUIRE(turn.rolls != nullptr);
    }
    CHECK(cache->misses() == c.contexts);
    const std::int64_t held = g_live_bytes.load() - before;
    INFO("held " << held << " bytes for " << cache->capacity() << " turns");
    CHECK(held > 0);
    CHECK(held <= static_cast<std::int64_t>(internal::TurnCache::kMaxBytes));
    CHECK(cache->capacity() >= std::min<std::int64_t>(c.contexts, 1000));
  }
}

TEST_CASE("table: the turn cache evicts the least recently used turn") {
  const Rules rules{1, 3, 25};  // tiny turns: the shards' most entries
  const std::int64_t capacity =
      std::int64_t{internal::TurnCache::kShards} * internal::TurnCache::kMaxEntriesPerShard;
  internal::TurnCache cache(rules, 1'000'000'000);  // too many contexts for slots
  REQUIRE(cache.capacity() == capacity);
  const int top = MaxTurnScore(rules);
  auto utility = [&](std::vector<double>* u) {
    for (int x = 0; x <= top; ++x) (*u)[x] = double(x) / top;
  };
  auto query = [&](std::int64_t context) {
    REQUIRE(cache.Rolls(context, utility).rolls != nullptr);
  };
  // Contexts land in shard context % kShards: 0..capacity-1 fill every shard.
  for (std::int64_t c = 0; c < capacity; ++c) query(c);
  CHECK(cache.misses() == capacity);
  query(0);  // used again: now its shard's most recent
  CHECK(cache.misses() == capacity);
  query(capacity);  // shard 0 is full: evicts its least recently used, 16, not 0
  CHECK(cache.misses() == capacity + 1);
  query(0);
  query(capacity);
  CHECK(cache.misses() == capacity + 1);
  query(internal::TurnCache::kShards);
  CHECK(cache.misses() == capacity + 2);
}

TEST_CASE("table: every context of the official 2-player table fits the turn cache") {
  const GameTable table = test_util::ShippedTable(2);
  const internal::TurnCache& cache = *internal::TableAccess::Data(table).turns;
  // One query per valid context solves each turn once ...
  std::vector<GameContext> contexts;
  for (std::int64_t i = 0; i < table.context_count(); ++i) {
    GameContext c = table.Context(i)->context;
    if (ValidateContext(Rules{}, 2, c).ok()) contexts.push_back(c);
  }
  const Dice aside(0, 1, 0, 0, 0);
  for (const GameContext& c : contexts) REQUIRE(EvaluateWin(table, c, aside).ok());
  const std::int64_t misses = cache.misses();
  CHECK(misses == static_cast<std::int64_t>(contexts.size()));
  // ... and a second pass is all hits.
  for (const GameContext& c : contexts) REQUIRE(EvaluateWin(table, c, aside).ok());
  CHECK(cache.misses() == misses);
}
