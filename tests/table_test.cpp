// Policy table reader: loading hand-built tables (tests/table_builder.h) and
// refusing every kind of damage with its own clear message, file handling,
// table location and file names; the fast CRC-32s and the vectorized
// probability check against plain references.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <new>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "martiandice/game.h"
#include "table_builder.h"
#include "checksum.h"  // the reader's internals: CRC-32s, probability check
#include "test_util.h"

using namespace martiandice;
namespace tb = table_builder;

// The largest single allocation since the last reset (for "no huge allocation").
static std::atomic<std::size_t> g_largest_allocation{0};

void* operator new(std::size_t size) {
  std::size_t seen = g_largest_allocation.load(std::memory_order_relaxed);
  while (size > seen && !g_largest_allocation.compare_exchange_weak(seen, size)) {
  }
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
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
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

const Rules kSmall{3, 0, 5};  // M = 3, A = 8: 25 + 40 contexts for 2 players

std::string SmallTable(int players = 2, std::uint64_t seed = 7) {
  return tb::WriteTable(tb::RandomSpec(kSmall, players, seed, false));
}

// The refusal of `bytes` (must be refused).
absl::Status Refusal(const std::string& bytes) {
  absl::StatusOr<GameTable> table = GameTable::FromBytes(bytes);
  REQUIRE_FALSE(table.ok());
  return table.status();
}

bool Contains(const absl::Status& s, const std::string& text) {
  return std::string(s.message()).find(text) != std::string::npos;
}

// Applies `edit`, refreshes both checksums and returns the refusal.
template <typename Edit>
absl::Status RefusalAfter(Edit edit, int players = 2) {
  std::string bytes = SmallTable(players);
  edit(bytes);
  tb::RefreshChecksums(bytes);
  return Refusal(bytes);
}

std::string TempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("martiandice-table-test-" + std::to_string(::getpid()) + "-" + name);
  std::filesystem::create_directories(dir);
  return dir.string();
}

using test_util::WriteFile;

size_t StatesOffset(const std::string& bytes) {
  return tb::GetU64(bytes, tb::offset::kStatesOffset);
}
size_t RollsOffset(const std::string& bytes) { return tb::GetU64(bytes, tb::offset::kRollsOffset); }

}  // namespace

TEST_CASE("table: the reference checksums of the test writer") {
  CHECK(tb::Crc32("123456789", 0, 9) == 0xCBF43926u);  // zlib's crc32 check value
  CHECK(tb::Fnv1a64("") == 14695981039346656037ull);
  CHECK(tb::Fnv1a64("a") == 0xaf63dc4c8601ec8cull);
}

TEST_CASE("table: the fast CRC-32s equal the plain one at every length and alignment") {
  namespace in = internal;
  INFO("Crc32 runs " << in::Crc32Implementation());
  for (auto crc : {in::Crc32, in::Crc32Portable, in::Crc32Bytewise}) {
    CHECK(crc("123456789", 0) == 0xCBF43926u);  // zlib's crc32 check value
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

TEST_CASE("table: the probability check finds the first bad value anywhere") {
  namespace in = internal;
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr double kTiny = std::numeric_limits<double>::denorm_min();
  constexpr double kSignalingNaN = std::numeric_limits<double>::signaling_NaN();
  const double not_finite[] = {kNaN, -kNaN, kSignalingNaN, kInf, -kInf};
  const double outside[] = {-kTiny, -1e-300, -0.5, std::nextafter(1.0, 2.0), 1.5, 1e300};
  std::vector<double> bad(std::begin(not_finite), std::end(not_finite));
  bad.insert(bad.end(), std::begin(outside), std::end(outside));
  const double good[] = {0.0, -0.0, kTiny, 1e-300, 0.5, std::nextafter(1.0, 0.0), 1.0};
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> values(4 * 512 + 77);
  for (double& v : values) v = unit(rng);
  for (size_t i = 0; i < values.size(); i += 97) values[i] = good[i % std::size(good)];
  for (size_t n : {0, 1, 2, 3, 4, 511, 512, 513, 1024, 1500, 2048, 4 * 512 + 77}) {
    for (size_t offset : {0, 1}) {  // the span need not start on 16 bytes
      if (offset + n > values.size()) continue;
      const std::span<const double> span(values.data() + offset, n);
      CHECK(in::FirstNonProbability(span) == n);
    }
  }
  std::vector<size_t> positions = {0, 1, 2, 3, 255, 510, 511, 512, 513, 1023, 1024, 2047, 2048};
  positions.push_back(values.size() - 2);
  positions.push_back(values.size() - 1);
  for (size_t at : positions) {
    for (double b : bad) {
      std::vector<double> damaged = values;
      damaged[at] = b;
      CHECK_MESSAGE(in::FirstNonProbability(damaged) == at, "value ", b, " at ", at);
      if (at + 600 < damaged.size()) {  // a second bad value later: the first is reported
        damaged[at + 600] = kNaN;
        CHECK(in::FirstNonProbability(damaged) == at);
      }
    }
  }
}

TEST_CASE("table: byte swapping for big-endian hosts, and the stored-state count") {
  namespace in = internal;
  std::vector<double> v = {1.0, -2.5, std::bit_cast<double>(std::uint64_t{0x7FF4000000000001})};
  const std::vector<double> original = v;
  in::ByteSwapEach(v);
  CHECK(std::bit_cast<std::uint64_t>(v[0]) == 0x000000000000F03Full);
  CHECK(std::bit_cast<std::uint64_t>(v[2]) == 0x010000000000F47Full);  // no NaN is touched
  in::ByteSwapEach(v);
  for (size_t i = 0; i < v.size(); ++i) {
    CHECK(std::bit_cast<std::uint64_t>(v[i]) == std::bit_cast<std::uint64_t>(original[i]));
  }
  for (int dice = 1; dice <= 20; ++dice) {
    CHECK(in::ExpectedStoredStateCount(dice) == in::ExpectedStoredStates(dice).size());
    CHECK(in::ExpectedStoredStateCount(dice) == tb::StoredStates(dice).size());
  }
}

TEST_CASE("table: a valid hand-built table loads with its rules and values") {
  for (int players : {2, 3}) {
    tb::TableSpec spec = tb::RandomSpec(kSmall, players, 11, true);
    spec.error_bound = 1e-13;
    auto table = GameTable::FromBytes(tb::WriteTable(spec));
    REQUIRE(table.ok());
    CHECK(table->rules() == kSmall);
    CHECK(table->players() == players);
    CHECK(table->error_bound() == 1e-13);
    tb::ForEachContext(kSmall, players, [&](std::int64_t, int mover, const std::vector<int>& s) {
      auto win = table->WinProbabilities(GameContext{s, mover});
      if (!ValidateContext(kSmall, players, GameContext{s, mover}).ok()) {
        CHECK_FALSE(win.ok());  // a seat at or after the mover past the target
        return;
      }
      REQUIRE(win.ok());
      CHECK(*win == spec.win(mover, s));
    });
  }
}

TEST_CASE("table: context and state counts follow the format's formulas") {
  CHECK(tb::ContextCount(Rules{}, 2) == 1650);  // the doc's example: 625 + 1025
  CHECK(tb::ContextIndex(Rules{}, 2, 1, {3, 4}) == 625 + 25 * 3 + 4);
  CHECK(tb::ContextCount(kSmall, 3) == 125 + 8 * 25 + 64 * 5);
  // 3 dice: (0,1,0,0,0) ... every stored state has dice left and a choice made.
  for (const tb::StateRecord& s : tb::StoredStates(3)) {
    CHECK(s.left > 0);
    CHECK(s.rays + s.e0 >= 1);
    CHECK(s.tanks <= s.rays + s.left);
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
  REQUIRE(GameTable::FromBytes(bytes).ok());
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string damaged = bytes;
      damaged[i] = static_cast<char>(damaged[i] ^ (1 << bit));
      absl::Status s = Refusal(damaged);
      if (i < 8) {
        CHECK(Contains(s, "not a martiandice policy table"));
      } else if (i < 12) {
        CHECK(Contains(s, "format version"));  // read before anything else is trusted
      } else {
        CHECK(s.code() == absl::StatusCode::kDataLoss);
        CHECK_MESSAGE(Contains(s, "checksum mismatch"), i, ":", bit, ": ", s.message());
      }
    }
  }
}

TEST_CASE("table: the magic and the format version") {
  std::string bytes = SmallTable();
  bytes[0] = 'X';
  CHECK(Refusal(bytes).message() ==
        "policy table: not a martiandice policy table (the file does not start with MDPOLICY)");
  CHECK(Contains(Refusal("hello, world"), "not a martiandice policy table"));
  absl::Status future =
      RefusalAfter([](std::string& b) { tb::PutU32(b, tb::offset::kVersion, 3); });
  CHECK(future.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(Contains(future, "format version 3 is newer than this library's 2"));
  // Version 2 exists (values only): a version 1 table relabelled 2 fails its rules hash.
  absl::Status relabelled =
      RefusalAfter([](std::string& b) { tb::PutU32(b, tb::offset::kVersion, 2); });
  CHECK(relabelled.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(Contains(relabelled, "rules hash"));
  absl::Status zero = RefusalAfter([](std::string& b) { tb::PutU32(b, tb::offset::kVersion, 0); });
  CHECK(zero.code() == absl::StatusCode::kDataLoss);
  CHECK(Contains(zero, "format version 0 is invalid"));
}

TEST_CASE("table: header fields are checked one by one") {
  using namespace tb::offset;
  struct Case {
    int at;
    std::uint32_t value;
    const char* message;
  };
  const Case cases[] = {
      {kHeaderSize, 120, "header_size 120, expected 128"},
      {kReserved, 1, "reserved field is 1"},
      {kDice, 0, "dice 0 is outside the supported range 1..20"},
      {kDice, 21, "dice 21 is outside"},
      {kBonus, 101, "bonus 101 is outside"},
      {kTarget, 0, "target 0 is outside"},
      {kPlayers, 1, "players 1 is outside the supported range 2..6"},
      {kPlayers, 7, "players 7 is outside"},
      {kTieTolerance, 0, "tie_tolerance_e 0 is outside"},
      {kMaxTurnScore, 4, "max_turn_score 4, but the rules give 3"},
      {kStateCount, 5, "state_count is 5, but 3 dice have"},
      {kContextCount, 64, "context_count is 64, but the rules and 2 players have 65"},
      {kBlockCount, 0, "block_count is 0"},
  };
  std::set<std::string> messages;
  for (const Case& c : cases) {
    absl::Status s = RefusalAfter([&](std::string& b) { tb::PutU32(b, c.at, c.value); });
    CHECK(s.code() == absl::StatusCode::kDataLoss);
    CHECK_MESSAGE(Contains(s, c.message), s.message());
    messages.insert(std::string(s.message()));
  }
  CHECK(messages.size() == std::size(cases));
  absl::Status nan_bound = RefusalAfter(
      [](std::string& b) { tb::PutF64(b, kErrorBound, std::numeric_limits<double>::quiet_NaN()); });
  CHECK(Contains(nan_bound, "error_bound nan is not a bound"));
}

TEST_CASE("table: section offsets and sizes must follow the layout") {
  using namespace tb::offset;
  for (int field :
       {kContextsOffset, kContextsSize, kStatesOffset, kStatesSize, kRollsOffset, kRollsSize}) {
    absl::Status s =
        RefusalAfter([&](std::string& b) { tb::PutU64(b, field, tb::GetU64(b, field) + 8); });
    CHECK(s.code() == absl::StatusCode::kDataLoss);
    CHECK_MESSAGE(Contains(s, "but the layout requires"), s.message());
  }
}

TEST_CASE("table: a size claiming gigabytes is refused without a huge allocation") {
  using namespace tb::offset;
  // A consistent header for 2^31 - 1 blocks (~20 GB of ROLLS) over a small file.
  std::string bytes = SmallTable();
  const std::uint64_t s = tb::GetU32(bytes, kStateCount), b = 0x7FFFFFFF;
  tb::PutU32(bytes, kBlockCount, static_cast<std::uint32_t>(b));
  tb::PutU64(bytes, kRollsSize, b * s * 8);
  tb::RefreshChecksums(bytes);
  g_largest_allocation = 0;
  absl::Status st = Refusal(bytes);
  CHECK(g_largest_allocation.load() < (1u << 20));
  CHECK(st.code() == absl::StatusCode::kDataLoss);
  CHECK(Contains(st, "truncated: the file has"));
  // An inconsistent one: the size field alone claims 2^60 bytes.
  std::string other = SmallTable();
  tb::PutU64(other, kRollsSize, std::uint64_t{1} << 60);
  tb::RefreshChecksums(other);
  g_largest_allocation = 0;
  CHECK(Contains(Refusal(other), "rolls_size is 1152921504606846976"));
  CHECK(g_largest_allocation.load() < (1u << 20));
}

TEST_CASE("table: trailing bytes after the last section are refused") {
  std::string bytes = SmallTable() + "garbage";
  tb::RefreshChecksums(bytes);
  absl::Status s = Refusal(bytes);
  CHECK(s.code() == absl::StatusCode::kDataLoss);
  CHECK(Contains(s, "7 trailing bytes after the last section"));
}

TEST_CASE("table: a damaged STATES list is refused with what is wrong") {
  auto state = [](std::string& b, int k) -> char* { return &b[StatesOffset(b) + 8 * k]; };
  // The first two records are (0,0,1,0,0) and (0,0,1,1,0) for 3 dice.
  absl::Status order = RefusalAfter(
      [&](std::string& b) { std::swap_ranges(state(b, 0), state(b, 0) + 8, state(b, 1)); });
  CHECK(Contains(order, "is out of order"));
  absl::Status canonical = RefusalAfter([&](std::string& b) {
    std::swap(state(b, 1)[3], state(b, 1)[4]);  // (0,0,1,0,1)
  });
  CHECK(Contains(canonical, "not sorted (not canonical)"));
  absl::Status reserved = RefusalAfter([&](std::string& b) { state(b, 0)[7] = 1; });
  CHECK(Contains(reserved, "STATES record 0 (t=0 r=0 e=1,0,0): reserved field is 256"));
  absl::Status left = RefusalAfter([&](std::string& b) { state(b, 0)[5] = 1; });
  CHECK(Contains(left, "dice left is 1, should be 2"));
  absl::Status too_many = RefusalAfter([&](std::string& b) {
    state(b, 0)[2] = 4;
    state(b, 0)[5] = 0;
  });
  CHECK(Contains(too_many, "4 dice set aside, the rules have 3"));
  absl::Status not_stored = RefusalAfter([&](std::string& b) {
    state(b, 0)[2] = 3;  // (0,0,3,0,0): no dice left
    state(b, 0)[5] = 0;
  });
  CHECK(Contains(not_stored, "roll value is given by rule, not stored"));
}

TEST_CASE("table: context records are checked") {
  const size_t record = 24;  // 2 players
  absl::Status block =
      RefusalAfter([&](std::string& b) { tb::PutU32(b, 128 + 3 * record + 16, 9); });
  CHECK(Contains(block, "context 3: block 9 is out of range"));
  absl::Status reserved =
      RefusalAfter([&](std::string& b) { tb::PutU32(b, 128 + 2 * record + 20, 5); });
  CHECK(Contains(reserved, "context 2: reserved field is 5"));
  absl::Status nan = RefusalAfter([&](std::string& b) {
    tb::PutF64(b, 128 + record + 8, std::numeric_limits<double>::quiet_NaN());
  });
  CHECK(nan.code() == absl::StatusCode::kDataLoss);
  CHECK(Contains(nan, "context 1: seat 1's win probability nan is not a probability"));
  absl::Status above = RefusalAfter([&](std::string& b) { tb::PutF64(b, 128, 1.5); });
  CHECK(Contains(above, "context 0: seat 0's win probability 1.5 is not a probability"));
  absl::Status sum = RefusalAfter([&](std::string& b) {
    tb::PutF64(b, 128, 0.25);
    tb::PutF64(b, 136, 0.25);
  });
  CHECK(Contains(sum, "context 0: the win probabilities sum to 0.5"));
}

TEST_CASE("table: roll values must be probabilities") {
  for (double bad :
       {std::numeric_limits<double>::quiet_NaN(), -0.25, std::numeric_limits<double>::infinity()}) {
    absl::Status s =
        RefusalAfter([&](std::string& b) { tb::PutF64(b, RollsOffset(b) + 8 * 2, bad); });
    CHECK(s.code() == absl::StatusCode::kDataLoss);
    CHECK_MESSAGE(Contains(s, "ROLLS block 0, slot 2: value"), s.message());
  }
}

TEST_CASE("table: a table for other rules or players is refused") {
  // Another state layout or rules string: the hash differs.
  absl::Status hash = RefusalAfter([](std::string& b) {
    tb::PutU64(b, tb::offset::kRulesHash, tb::GetU64(b, tb::offset::kRulesHash) ^ 1);
  });
  CHECK(hash.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(Contains(hash, "built under other rules or another state layout"));
  // The target changed without the hash.
  absl::Status target = RefusalAfter([](std::string& b) { tb::PutU32(b, tb::offset::kTarget, 6); });
  CHECK(target.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(Contains(target, "\"martiandice-policy v1 dice=3 bonus=0 target=6 players=2"));
  // A valid table, but for 3 players or other rules than the query's.
  auto three = GameTable::FromBytes(SmallTable(3));
  REQUIRE(three.ok());
  absl::Status players = CheckTableMatches(*three, kSmall, 2);
  CHECK(players.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(players.message() == "the table is for 3 players, but the game has 2");
  CHECK(CheckTableMatches(*three, kSmall, 3).ok());
  absl::Status rules = CheckTableMatches(*three, Rules{}, 3);
  CHECK(Contains(rules, "the table is for other rules (dice 3, bonus 0, target 5)"));
}

TEST_CASE("table: Open reads files and names the path in errors") {
  const std::string dir = TempDir("open");
  const std::string path = dir + "/small.mdt";
  WriteFile(path, SmallTable());
  auto table = GameTable::Open(path);
  REQUIRE(table.ok());
  CHECK(table->players() == 2);
  auto missing = GameTable::Open(dir + "/missing.mdt");
  CHECK(missing.status().code() == absl::StatusCode::kNotFound);
  CHECK(Contains(missing.status(), dir + "/missing.mdt"));
  auto directory = GameTable::Open(dir);
  CHECK(Contains(directory.status(), "is a directory"));
  auto device = GameTable::Open("/dev/zero");  // would never end
  CHECK(device.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(Contains(device.status(), "/dev/zero is not a regular file"));
  WriteFile(dir + "/bad.mdt", "MDPOLICY");
  auto bad = GameTable::Open(dir + "/bad.mdt");
  CHECK(bad.status().code() == absl::StatusCode::kDataLoss);
  CHECK(Contains(bad.status(), "policy table " + dir + "/bad.mdt: truncated"));
  if (::geteuid() != 0) {  // root reads anything
    ::chmod(path.c_str(), 0);
    auto denied = GameTable::Open(path);
    CHECK(denied.status().code() == absl::StatusCode::kPermissionDenied);
    CHECK(Contains(denied.status(), path));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("table: Open refuses a file over 1 GiB before reading it") {
  const std::string dir = TempDir("huge");
  const std::string path = dir + "/huge.mdt";
  WriteFile(path, SmallTable());
  std::filesystem::resize_file(path, (std::uint64_t{1} << 30) + 1);  // sparse
  g_largest_allocation = 0;
  auto huge = GameTable::Open(path);
  CHECK(g_largest_allocation.load() < (1u << 20));
  CHECK(huge.status().code() == absl::StatusCode::kFailedPrecondition);
  CHECK(Contains(huge.status(), "larger than 1 GiB"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("table: file names and the search for a table") {
  CHECK(TableFileName(Rules{}, 2) == "martiandice-p2-d13-b3-t25.mdt");
  CHECK(TableFileName(Rules{10, 2, 30}, 4) == "martiandice-p4-d10-b2-t30.mdt");
  const std::string dir = TempDir("locate");
  const std::string name = TableFileName(kSmall, 2);
  WriteFile(dir + "/" + name, SmallTable());
  // Explicit: a file as is, or a directory holding the table.
  CHECK(*LocateTable(kSmall, 2, dir + "/" + name) == dir + "/" + name);
  CHECK(*LocateTable(kSmall, 2, dir) == dir + "/" + name);
  auto absent = LocateTable(kSmall, 3, dir);
  CHECK(absent.status().code() == absl::StatusCode::kNotFound);
  CHECK(Contains(absent.status(), "no martiandice-p3-d3-b0-t5.mdt there"));
  CHECK(Contains(absent.status(),
                 "martiandice solve --players 3 --dice 3 --bonus 0 --target 5 --out " + dir));
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
  ::unsetenv("MARTIANDICE_DATA");
  CHECK(
      Contains(LocateTable(Rules{7, 1, 9}, 5, std::nullopt).status(), "$MARTIANDICE_DATA (unset)"));
  if (saved) ::setenv("MARTIANDICE_DATA", saved_value.c_str(), 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("table: the shipped table: Open and FromBytes read every value as the file holds it") {
  const std::string path = std::string(MARTIANDICE_DATA_DIR) + "/" + TableFileName(Rules{}, 2);
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE_MESSAGE(bytes.size() > 1000000, "missing " << path);
  auto opened = GameTable::Open(path);
  REQUIRE_MESSAGE(opened.ok(), opened.status());
  auto from_bytes = GameTable::FromBytes(bytes);
  REQUIRE(from_bytes.ok());
  const size_t rolls_offset = tb::GetU64(bytes, tb::offset::kRollsOffset);
  for (const GameTable* table : {&*opened, &*from_bytes}) {
    const internal::TableData& d = table->data();
    REQUIRE(d.rolls.size() * 8 == bytes.size() - rolls_offset);
    for (size_t k = 0; k < d.rolls.size(); ++k) {
      if (std::bit_cast<std::uint64_t>(d.rolls[k]) != tb::GetU64(bytes, rolls_offset + 8 * k)) {
        FAIL("roll value ", k, " differs from the file");
      }
    }
    for (std::int64_t c = 0; c < d.context_count; ++c) {
      const size_t at = 128 + 24 * c;
      REQUIRE(std::bit_cast<std::uint64_t>(d.Win(c)[0]) == tb::GetU64(bytes, at));
      REQUIRE(std::bit_cast<std::uint64_t>(d.Win(c)[1]) == tb::GetU64(bytes, at + 8));
      REQUIRE(d.block[c] == tb::GetU32(bytes, at + 16));
    }
  }
}
