// Policy table reading (docs/FORMAT.md): a hardened parser that checks every
// header field, the section layout against the formulas and the bytes present
// (before allocating), both CRC-32s, the exact end of file, the STATES list and
// every stored probability; and GameTable's loading entry points.
//
// Loading is fast: the file is read in one go into one aligned buffer, the
// CRC-32 folds 64 bytes per step (PCLMULQDQ) or slices 16 (portable), and
// ROLLS (nearly all the bytes) is used where it lies: no decoding on
// little-endian hosts, a byte swap in place on big-endian ones, then one
// vectorized pass checks every value.
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <new>
#include <span>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "martiandice/game.h"
#include "table_data.h"
#include "table_turns.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define MARTIANDICE_CRC32_PCLMUL 1
#include <immintrin.h>
#endif

namespace martiandice {
namespace internal {
namespace {

static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "mixed-endian hosts are not supported");
static_assert(std::numeric_limits<double>::is_iec559 && sizeof(double) == 8,
              "the format stores IEEE-754 binary64");

// ------------------------------------------------------------ CRC-32
//
// CRC-32/IEEE as zlib computes it: reflected polynomial 0xEDB88320, initial
// value and final xor 0xFFFFFFFF. Three implementations of the same function:
// the plain byte-at-a-time loop (the reference), slicing-by-16 (portable,
// ~16x fewer dependent steps), and PCLMULQDQ folding (x86-64, checked at run
// time), which carries 64 bytes per step through four independent lanes.

constexpr std::uint32_t kCrcPolynomial = 0xEDB88320u;  // x^32 + x^26 + ... + 1, reflected

// kCrcSlices[k][b]: the CRC register after byte b followed by k zero bytes
// (from a zero register). kCrcSlices[0] is the classic byte-at-a-time table.
constexpr std::array<std::array<std::uint32_t, 256>, 16> kCrcSlices = [] {
  std::array<std::array<std::uint32_t, 256>, 16> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int bit = 0; bit < 8; ++bit) c = (c & 1) ? kCrcPolynomial ^ (c >> 1) : c >> 1;
    t[0][i] = c;
  }
  for (int k = 1; k < 16; ++k) {
    for (int i = 0; i < 256; ++i) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF];
  }
  return t;
}();

std::uint32_t LoadLe32(const unsigned char* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
         std::uint32_t{p[3]} << 24;
}

constexpr std::uint32_t ByteSwap(std::uint32_t v) {
  return (v << 24) | ((v << 8) & 0x00FF0000u) | ((v >> 8) & 0x0000FF00u) | (v >> 24);
}
constexpr std::uint64_t ByteSwap(std::uint64_t v) {
  return (std::uint64_t{ByteSwap(static_cast<std::uint32_t>(v))} << 32) |
         ByteSwap(static_cast<std::uint32_t>(v >> 32));
}
static_assert(ByteSwap(std::uint64_t{0x0102030405060708}) == 0x0807060504030201);

// A little-endian value of the file in native order.
template <typename T>
constexpr T FromLittleEndian(T v) {
  if constexpr (std::endian::native == std::endian::big) return ByteSwap(v);
  return v;
}

#if MARTIANDICE_CRC32_PCLMUL

// The folding constants (Gopal et al., "Fast CRC Computation for Generic
// Polynomials Using PCLMULQDQ Instruction", Intel 2009): carry-less products
// with x^n mod P move a 128-bit lane's two halves forward by 512 bits (k1, k2:
// one step of four lanes) or 128 bits (k3, k4: one lane), then reduce the last
// 96 bits (k5), and Barrett's mu and P reduce 64 bits to the 32-bit CRC. In the
// bit-reflected domain each is (x^n mod P) reflected and shifted left by one;
// derived here from the polynomial and checked against the paper's values.
constexpr std::uint64_t ReflectedXPowModP(int n) {
  std::uint64_t c = 1;  // x^0, unreflected, in 33 bits
  for (int i = 0; i < n; ++i) {
    c <<= 1;
    if (c >> 32) c ^= 0x104C11DB7ull;
  }
  std::uint64_t r = 0;
  for (int bit = 0; bit < 32; ++bit) r |= ((c >> bit) & 1) << (31 - bit);
  return r << 1;
}
constexpr std::uint64_t kFold4Lo = ReflectedXPowModP(4 * 128 + 32);  // k1: 4 lanes of 128 bits
constexpr std::uint64_t kFold4Hi = ReflectedXPowModP(4 * 128 - 32);  // k2
constexpr std::uint64_t kFold1Lo = ReflectedXPowModP(128 + 32);      // k3: one lane
constexpr std::uint64_t kFold1Hi = ReflectedXPowModP(128 - 32);      // k4
constexpr std::uint64_t kFold64 = ReflectedXPowModP(64);             // k5: 96 -> 64 bits
constexpr std::uint64_t kBarrettMu = 0x1F7011641ull;  // (x^64 / P)', reflected in 33 bits
constexpr std::uint64_t kBarrettP = 0x1DB710641ull;   // P', reflected in 33 bits
static_assert(kFold4Lo == 0x154442BD4 && kFold4Hi == 0x1C6E41596 && kFold1Lo == 0x1751997D0 &&
              kFold1Hi == 0x0CCAA009E && kFold64 == 0x163CD6124);
static_assert(kBarrettP == ((std::uint64_t{kCrcPolynomial} << 1) | 1));

#define MARTIANDICE_PCLMUL __attribute__((target("pclmul")))

// Carries the 128-bit `lane` forward by the distance `k` encodes and adds `next`.
MARTIANDICE_PCLMUL inline __m128i FoldLane(__m128i lane, __m128i k, __m128i next) {
  const __m128i lo = _mm_clmulepi64_si128(lane, k, 0x00);  // lane.lo * k.lo
  const __m128i hi = _mm_clmulepi64_si128(lane, k, 0x11);  // lane.hi * k.hi
  return _mm_xor_si128(_mm_xor_si128(lo, hi), next);
}

MARTIANDICE_PCLMUL inline __m128i Load128(const unsigned char* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

// The CRC register (not inverted) after `n` bytes, n >= 64 and a multiple of 16.
MARTIANDICE_PCLMUL std::uint32_t Crc32Fold(const unsigned char* p, size_t n, std::uint32_t reg) {
  // Four lanes of 16 bytes; the register enters as the first 32 bits.
  __m128i x0 = _mm_xor_si128(Load128(p), _mm_cvtsi32_si128(static_cast<int>(reg)));
  __m128i x1 = Load128(p + 16), x2 = Load128(p + 32), x3 = Load128(p + 48);
  p += 64;
  n -= 64;
  const __m128i fold4 =
      _mm_set_epi64x(static_cast<long long>(kFold4Hi), static_cast<long long>(kFold4Lo));
  for (; n >= 64; p += 64, n -= 64) {
    x0 = FoldLane(x0, fold4, Load128(p));
    x1 = FoldLane(x1, fold4, Load128(p + 16));
    x2 = FoldLane(x2, fold4, Load128(p + 32));
    x3 = FoldLane(x3, fold4, Load128(p + 48));
  }
  // Four lanes into one, then the remaining 16-byte blocks.
  const __m128i fold1 =
      _mm_set_epi64x(static_cast<long long>(kFold1Hi), static_cast<long long>(kFold1Lo));
  __m128i x = FoldLane(FoldLane(FoldLane(x0, fold1, x1), fold1, x2), fold1, x3);
  for (; n >= 16; p += 16, n -= 16) x = FoldLane(x, fold1, Load128(p));
  // 128 -> 96 bits: the low half times x^(128-32) mod P, added to the high half.
  const __m128i low32 = _mm_setr_epi32(-1, 0, -1, 0);
  x = _mm_xor_si128(_mm_srli_si128(x, 8), _mm_clmulepi64_si128(x, fold1, 0x10));
  // 96 -> 64 bits.
  const __m128i fold64 = _mm_set_epi64x(0, static_cast<long long>(kFold64));
  x = _mm_xor_si128(_mm_srli_si128(x, 4),
                    _mm_clmulepi64_si128(_mm_and_si128(x, low32), fold64, 0x00));
  // Barrett reduction to 32 bits: x - floor(x * mu / x^64) * P.
  const __m128i barrett =
      _mm_set_epi64x(static_cast<long long>(kBarrettMu), static_cast<long long>(kBarrettP));
  __m128i q = _mm_clmulepi64_si128(_mm_and_si128(x, low32), barrett, 0x10);  // * mu
  q = _mm_clmulepi64_si128(_mm_and_si128(q, low32), barrett, 0x00);          // * P
  x = _mm_xor_si128(x, q);
  return static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_srli_si128(x, 4)));
}

#undef MARTIANDICE_PCLMUL

bool HavePclmul() {
  static const bool have = [] {
    __builtin_cpu_init();  // in case this runs before libgcc's constructor
    return __builtin_cpu_supports("pclmul") != 0;
  }();
  return have;
}

#endif  // MARTIANDICE_CRC32_PCLMUL

}  // namespace

std::uint32_t Crc32Bytewise(std::string_view bytes, std::uint32_t crc) {
  crc = ~crc;
  for (char ch : bytes) {
    crc = kCrcSlices[0][(crc ^ static_cast<std::uint8_t>(ch)) & 0xFF] ^ (crc >> 8);
  }
  return ~crc;
}

std::uint32_t Crc32Portable(std::string_view bytes, std::uint32_t crc) {
  const auto& t = kCrcSlices;
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  size_t n = bytes.size();
  crc = ~crc;
  // Byte i of a 16-byte block is followed by 15 - i more: table 15 - i.
  for (; n >= 16; p += 16, n -= 16) {
    const std::uint32_t w = crc ^ LoadLe32(p);
    crc = t[15][w & 0xFF] ^ t[14][(w >> 8) & 0xFF] ^ t[13][(w >> 16) & 0xFF] ^ t[12][w >> 24] ^
          t[11][p[4]] ^ t[10][p[5]] ^ t[9][p[6]] ^ t[8][p[7]] ^ t[7][p[8]] ^ t[6][p[9]] ^
          t[5][p[10]] ^ t[4][p[11]] ^ t[3][p[12]] ^ t[2][p[13]] ^ t[1][p[14]] ^ t[0][p[15]];
  }
  for (; n > 0; ++p, --n) crc = t[0][(crc ^ *p) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

std::uint32_t Crc32(std::string_view bytes, std::uint32_t crc) {
#if MARTIANDICE_CRC32_PCLMUL
  if (bytes.size() >= 64 && HavePclmul()) {
    const size_t folded = bytes.size() & ~size_t{15};
    crc = ~Crc32Fold(reinterpret_cast<const unsigned char*>(bytes.data()), folded, ~crc);
    bytes.remove_prefix(folded);
  }
#endif
  return Crc32Portable(bytes, crc);
}

const char* Crc32Implementation() {
#if MARTIANDICE_CRC32_PCLMUL
  if (HavePclmul()) return "pclmulqdq folding";
#endif
  return "slicing-by-16";
}

std::uint64_t Fnv1a64(std::string_view bytes) {
  std::uint64_t hash = 14695981039346656037ull;
  for (char ch : bytes) {
    hash ^= static_cast<std::uint8_t>(ch);
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string TableRulesString(const Rules& rules, int players, int version) {
  if (version == static_cast<int>(kTableVersionValuesOnly)) {
    return absl::StrFormat(
        "martiandice-policy v2 dice=%d bonus=%d target=%d players=%d values-only "
        "ties=stop,rays,most-dice,human-cow-chicken",
        rules.dice, rules.bonus, rules.target, players);
  }
  return absl::StrFormat(
      "martiandice-policy v1 dice=%d bonus=%d target=%d players=%d "
      "states=canonical-v1",
      rules.dice, rules.bonus, rules.target, players);
}

namespace {

// Calls fn(state) for each canonical position STATES lists for `dice`, in slot order.
template <typename Fn>
void ForEachStoredState(int dice, Fn fn) {
  for (int t = 0; t <= dice; ++t) {
    for (int r = 0; t + r <= dice; ++r) {
      for (int e0 = 0; t + r + e0 <= dice; ++e0) {
        for (int e1 = 0; e1 <= e0 && t + r + e0 + e1 <= dice; ++e1) {
          for (int e2 = 0; e2 <= e1 && t + r + e0 + e1 + e2 <= dice; ++e2) {
            int left = dice - t - r - e0 - e1 - e2;
            if (left == 0 || r + e0 == 0 || t > r + left) continue;
            fn(StoredState{static_cast<std::uint8_t>(t),
                           static_cast<std::uint8_t>(r),
                           {static_cast<std::uint8_t>(e0), static_cast<std::uint8_t>(e1),
                            static_cast<std::uint8_t>(e2)},
                           static_cast<std::uint8_t>(left)});
          }
        }
      }
    }
  }
}

}  // namespace

std::vector<StoredState> ExpectedStoredStates(int dice) {
  std::vector<StoredState> states;
  ForEachStoredState(dice, [&](const StoredState& s) { states.push_back(s); });
  return states;
}

size_t ExpectedStoredStateCount(int dice) {
  size_t count = 0;
  ForEachStoredState(dice, [&](const StoredState&) { ++count; });
  return count;
}

namespace {

bool IsProbability(double p) { return p >= 0 && p <= 1; }  // false for NaN

// Whether any of the kProbabilityBlock values at `v` is not a probability:
// branch-free over a fixed length. GCC does not vectorize the ordered
// comparisons of the plain loop for baseline x86-64, so SSE2 (always there
// on x86-64) does it by hand: two doubles per comparison, two accumulators.
constexpr size_t kProbabilityBlock = 512;  // 4 KiB
bool BlockHasNonProbability(const double* v) {
#if defined(__SSE2__)
  const __m128d zero = _mm_setzero_pd(), one = _mm_set1_pd(1.0);
  __m128d bad0 = zero, bad1 = zero;
  for (size_t k = 0; k < kProbabilityBlock; k += 4) {
    const __m128d x = _mm_loadu_pd(v + k), y = _mm_loadu_pd(v + k + 2);
    // "not >= 0" and "not <= 1" both hold for NaN.
    bad0 = _mm_or_pd(bad0, _mm_or_pd(_mm_cmpnge_pd(x, zero), _mm_cmpnle_pd(x, one)));
    bad1 = _mm_or_pd(bad1, _mm_or_pd(_mm_cmpnge_pd(y, zero), _mm_cmpnle_pd(y, one)));
  }
  return _mm_movemask_pd(_mm_or_pd(bad0, bad1)) != 0;
#else
  bool bad = false;
  for (size_t k = 0; k < kProbabilityBlock; ++k) bad |= !IsProbability(v[k]);
  return bad;
#endif
}

}  // namespace

size_t FirstNonProbability(std::span<const double> values) {
  const double* v = values.data();
  const size_t n = values.size();
  // Whole blocks until one holds a bad value; then value by value from there.
  size_t k = 0;
  while (k + kProbabilityBlock <= n && !BlockHasNonProbability(v + k)) k += kProbabilityBlock;
  for (; k < n; ++k) {
    if (!IsProbability(v[k])) return k;
  }
  return n;
}

void ByteSwapEach(std::span<double> values) {
  // Through integers, so no bit pattern (e.g. a signalling NaN) is ever altered.
  for (double& value : values) {
    std::uint64_t u;
    std::memcpy(&u, &value, sizeof u);
    u = ByteSwap(u);
    std::memcpy(&value, &u, sizeof u);
  }
}

std::int64_t TableData::ContextIndex(std::span<const int> scores, int seat) const {
  std::int64_t index = 0;
  for (int j = 0; j < players; ++j) {
    index = index * (j < seat ? score_limit : rules.target) + scores[j];
  }
  return mover_offset[seat] + index;
}

namespace {

// ------------------------------------------------------------ byte reading

std::uint32_t LoadU32(std::string_view b, size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return FromLittleEndian(v);
}

std::uint64_t LoadU64(std::string_view b, size_t at) {
  std::uint64_t v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return FromLittleEndian(v);
}

double LoadF64(std::string_view b, size_t at) { return std::bit_cast<double>(LoadU64(b, at)); }

// `count` little-endian f64 of the file at `src` into native doubles at `dst`:
// one memcpy on little-endian hosts.
void CopyF64(const char* src, size_t count, double* dst) {
  std::memcpy(dst, src, count * sizeof(double));
  if constexpr (std::endian::native == std::endian::big) ByteSwapEach({dst, count});
}

// A file's bytes in memory, 8-byte aligned (ROLLS is read in place as doubles).
struct FileBytes {
  std::unique_ptr<double[]> words;
  size_t size = 0;
  char* data() { return reinterpret_cast<char*>(words.get()); }
  std::string_view view() const { return {reinterpret_cast<const char*>(words.get()), size}; }
};

// Maps in the pages of fresh memory in one call, before it is filled: for a
// table's megabytes far cheaper than the page fault per 4 KiB that filling it
// would otherwise take (about half the time of reading the file). A hint only
// (Linux 5.14+); ignored where unsupported or when it fails.
void Prefault(char* data, size_t size) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  if (size < (size_t{1} << 20)) return;
  static const std::uintptr_t page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
  const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(data) + size) & ~(page - 1);
  if (begin < end) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
  (void)data;
  (void)size;
#endif
}

// Uninitialised room for `size` bytes (nullptr if the memory is not there).
FileBytes AllocateFileBytes(size_t size) {
  FileBytes bytes;
  bytes.words.reset(new (std::nothrow) double[(size + sizeof(double) - 1) / sizeof(double)]);
  bytes.size = bytes.words ? size : 0;
  if (bytes.words) Prefault(bytes.data(), size);
  return bytes;
}

// The raw header fields (offsets as in docs/FORMAT.md).
struct Header {
  std::uint32_t version, header_size, dice, bonus, target, players, max_turn_score;
  std::uint32_t state_count, context_count, block_count;
  std::uint64_t rules_hash, contexts_offset, contexts_size, states_offset, states_size;
  std::uint64_t rolls_offset, rolls_size;
  double error_bound;
  std::uint32_t tie_tolerance_e, reserved, payload_crc, header_crc;
};

Header LoadHeader(std::string_view b) {
  Header h;
  h.version = LoadU32(b, 8);
  h.header_size = LoadU32(b, 12);
  h.dice = LoadU32(b, 16);
  h.bonus = LoadU32(b, 20);
  h.target = LoadU32(b, 24);
  h.players = LoadU32(b, 28);
  h.max_turn_score = LoadU32(b, 32);
  h.state_count = LoadU32(b, 36);
  h.context_count = LoadU32(b, 40);
  h.block_count = LoadU32(b, 44);
  h.rules_hash = LoadU64(b, 48);
  h.contexts_offset = LoadU64(b, 56);
  h.contexts_size = LoadU64(b, 64);
  h.states_offset = LoadU64(b, 72);
  h.states_size = LoadU64(b, 80);
  h.rolls_offset = LoadU64(b, 88);
  h.rolls_size = LoadU64(b, 96);
  h.error_bound = LoadF64(b, 104);
  h.tie_tolerance_e = LoadU32(b, 112);
  h.reserved = LoadU32(b, 116);
  h.payload_crc = LoadU32(b, 120);
  h.header_crc = LoadU32(b, 124);
  return h;
}

// ------------------------------------------------------------ the checks

// Builds statuses prefixed with the table's name.
class Refuser {
 public:
  explicit Refuser(std::string source) : source_(std::move(source)) {}
  absl::Status Corrupt(const std::string& why) const {
    return absl::DataLossError(absl::StrCat(source_, ": ", why));
  }
  absl::Status Incompatible(const std::string& why) const {
    return absl::FailedPreconditionError(absl::StrCat(source_, ": ", why));
  }

 private:
  std::string source_;
};

// Magic, version and the header's presence, before any other field is trusted.
absl::Status CheckPreamble(std::string_view b, const Refuser& refuse) {
  const std::string_view magic(kTableMagic, sizeof(kTableMagic));
  if (b.size() < magic.size() && magic.substr(0, b.size()) == b) {
    return refuse.Corrupt(absl::StrFormat(
        "truncated: the file has %d bytes, not even the 8-byte magic MDPOLICY", b.size()));
  }
  if (b.substr(0, magic.size()) != magic) {
    return refuse.Corrupt("not a martiandice policy table (the file does not start with MDPOLICY)");
  }
  if (b.size() < 12) {
    return refuse.Corrupt(
        absl::StrFormat("truncated: the file has %d bytes, no format version", b.size()));
  }
  std::uint32_t version = LoadU32(b, 8);
  if (version > kNewestTableVersion) {
    return refuse.Incompatible(absl::StrFormat(
        "format version %d is newer than this library's %d; update martiandice or regenerate "
        "the table with this version",
        version, kNewestTableVersion));
  }
  if (version != kTableVersion && version != kTableVersionValuesOnly) {
    return refuse.Corrupt(absl::StrFormat("format version %d is invalid", version));
  }
  if (b.size() < kTableHeaderSize) {
    return refuse.Corrupt(absl::StrFormat(
        "truncated: the file has %d bytes, shorter than the 128-byte header", b.size()));
  }
  std::uint32_t stored = LoadU32(b, 124), computed = Crc32(b.substr(0, 124));
  if (stored != computed) {
    return refuse.Corrupt(absl::StrFormat(
        "header checksum mismatch (stored %08x, computed %08x): the header is corrupt", stored,
        computed));
  }
  return absl::OkStatus();
}

absl::Status CheckRange(const Refuser& refuse, const char* name, std::uint32_t value, int lo,
                        int hi) {
  if (value < static_cast<std::uint32_t>(lo) || value > static_cast<std::uint32_t>(hi)) {
    return refuse.Corrupt(absl::StrFormat("header: %s %d is outside the supported range %d..%d",
                                          name, value, lo, hi));
  }
  return absl::OkStatus();
}

// Header size, reserved field, rule constants, players, M, hash and tolerances.
absl::Status CheckHeaderFields(const Header& h, const Refuser& refuse) {
  if (h.header_size != kTableHeaderSize) {
    return refuse.Corrupt(absl::StrFormat("header: header_size %d, expected 128", h.header_size));
  }
  if (h.reserved != 0) {
    return refuse.Corrupt(absl::StrFormat("header: reserved field is %d, expected 0", h.reserved));
  }
  for (absl::Status s : {CheckRange(refuse, "dice", h.dice, kMinDice, kMaxDice),
                         CheckRange(refuse, "bonus", h.bonus, 0, kMaxBonus),
                         CheckRange(refuse, "target", h.target, kMinTarget, kMaxTarget),
                         CheckRange(refuse, "players", h.players, kMinPlayers, kMaxPlayers),
                         CheckRange(refuse, "tie_tolerance_e", h.tie_tolerance_e, 1, 17)}) {
    if (!s.ok()) return s;
  }
  const Rules rules{static_cast<int>(h.dice), static_cast<int>(h.bonus),
                    static_cast<int>(h.target)};
  if (h.max_turn_score != static_cast<std::uint32_t>(MaxTurnScore(rules))) {
    return refuse.Corrupt(absl::StrFormat("header: max_turn_score %d, but the rules give %d",
                                          h.max_turn_score, MaxTurnScore(rules)));
  }
  const std::string rules_string =
      TableRulesString(rules, static_cast<int>(h.players), static_cast<int>(h.version));
  if (h.rules_hash != Fnv1a64(rules_string)) {
    return refuse.Incompatible(absl::StrFormat(
        "the table was built under other rules or another state layout: its rules hash is "
        "%016x, but \"%s\" hashes to %016x",
        h.rules_hash, rules_string, Fnv1a64(rules_string)));
  }
  if (!std::isfinite(h.error_bound) || h.error_bound < 0 || h.error_bound >= 1) {
    return refuse.Corrupt(
        absl::StrFormat("header: error_bound %g is not a bound in [0, 1)", h.error_bound));
  }
  return absl::OkStatus();
}

// C from the formula (players and rules already in range: at most 6 * 320^6).
std::uint64_t ContextCountFormula(const Header& h, std::vector<std::int64_t>* mover_offset) {
  const std::uint64_t t = h.target, a = h.target + h.max_turn_score;
  std::uint64_t total = 0;
  for (std::uint32_t i = 0; i < h.players; ++i) {
    std::uint64_t size = 1;
    for (std::uint32_t j = 0; j < h.players; ++j) size *= j < i ? a : t;
    if (mover_offset) mover_offset->push_back(static_cast<std::int64_t>(total));
    total += size;
  }
  return total;
}

// Bytes of a CONTEXTS record: P probabilities, plus block and reserved in version 1.
std::uint64_t ContextRecordSize(const Header& h) {
  return 8 * std::uint64_t{h.players} + (h.version == kTableVersionValuesOnly ? 0 : 8);
}

absl::Status CheckField(const Refuser& refuse, const char* name, std::uint64_t value,
                        std::uint64_t expected) {
  if (value != expected) {
    return refuse.Corrupt(
        absl::StrFormat("header: %s is %d, but the layout requires %d", name, value, expected));
  }
  return absl::OkStatus();
}

// Counts and the section layout against the formulas, then against the file's
// real length (before anything is allocated from these numbers).
absl::Status CheckLayout(const Header& h, size_t file_size, const Refuser& refuse) {
  const bool values_only = h.version == kTableVersionValuesOnly;
  const std::uint64_t states = values_only ? 0 : ExpectedStoredStateCount(static_cast<int>(h.dice));
  if (values_only && h.state_count != 0) {
    return refuse.Corrupt(absl::StrFormat(
        "header: state_count is %d, but a version 2 table stores no positions (0)", h.state_count));
  }
  if (h.state_count != states) {
    return refuse.Corrupt(
        absl::StrFormat("header: state_count is %d, but %d dice have %d stored positions",
                        h.state_count, h.dice, states));
  }
  const std::uint64_t contexts = ContextCountFormula(h, nullptr);
  if (h.context_count != contexts) {
    return refuse.Corrupt(absl::StrFormat(
        "header: context_count is %d, but the rules and %d players have %d contexts",
        h.context_count, h.players, contexts));
  }
  if (values_only && h.block_count != 0) {
    return refuse.Corrupt(absl::StrFormat(
        "header: block_count is %d, but a version 2 table stores no roll values (0)",
        h.block_count));
  }
  if (!values_only && h.block_count == 0) return refuse.Corrupt("header: block_count is 0");
  const std::uint64_t contexts_size = contexts * ContextRecordSize(h);
  const std::uint64_t states_size = states * 8;
  const std::uint64_t rolls_size = std::uint64_t{h.block_count} * states * 8;  // < 2^32 * 2^20
  const std::uint64_t states_offset = kTableHeaderSize + contexts_size;
  const std::uint64_t rolls_offset = states_offset + states_size;
  for (absl::Status s : {CheckField(refuse, "contexts_offset", h.contexts_offset, 128),
                         CheckField(refuse, "contexts_size", h.contexts_size, contexts_size),
                         CheckField(refuse, "states_offset", h.states_offset, states_offset),
                         CheckField(refuse, "states_size", h.states_size, states_size),
                         CheckField(refuse, "rolls_offset", h.rolls_offset, rolls_offset),
                         CheckField(refuse, "rolls_size", h.rolls_size, rolls_size)}) {
    if (!s.ok()) return s;
  }
  const std::uint64_t length = rolls_offset + rolls_size;
  if (file_size < length) {
    return refuse.Corrupt(absl::StrFormat(
        "truncated: the file has %d bytes, but its layout requires %d", file_size, length));
  }
  if (file_size > length) {
    return refuse.Corrupt(absl::StrFormat(
        "%d trailing bytes after the last section (the file has %d bytes, the layout requires %d)",
        file_size - length, file_size, length));
  }
  return absl::OkStatus();
}

absl::Status LoadContexts(std::string_view b, const Header& h, TableData& d,
                          const Refuser& refuse) {
  const int p = d.players;
  const size_t record = ContextRecordSize(h);
  const bool values_only = h.version == kTableVersionValuesOnly;
  // Summing P values that are each within error_bound: allow that plus rounding.
  const double sum_tolerance = p * (d.error_bound + 8 * std::numeric_limits<double>::epsilon());
  d.win.resize(d.context_count * p);
  d.block.resize(values_only ? 0 : d.context_count);
  for (std::int64_t c = 0; c < d.context_count; ++c) {
    const size_t at = h.contexts_offset + c * record;
    double* win = d.win.data() + c * p;
    CopyF64(b.data() + at, p, win);
    double sum = 0;
    for (int j = 0; j < p; ++j) {
      if (!IsProbability(win[j])) {
        return refuse.Corrupt(absl::StrFormat(
            "context %d: seat %d's win probability %g is not a probability", c, j, win[j]));
      }
      sum += win[j];
    }
    if (std::abs(sum - 1) > sum_tolerance) {
      return refuse.Corrupt(absl::StrFormat(
          "context %d: the win probabilities sum to %.17g, not 1 within the error bound", c, sum));
    }
    if (values_only) continue;
    d.block[c] = LoadU32(b, at + 8 * p);
    if (d.block[c] >= h.block_count) {
      return refuse.Corrupt(absl::StrFormat("context %d: block %d is out of range (%d blocks)", c,
                                            d.block[c], h.block_count));
    }
    if (std::uint32_t reserved = LoadU32(b, at + 8 * p + 4); reserved != 0) {
      return refuse.Corrupt(
          absl::StrFormat("context %d: reserved field is %d, expected 0", c, reserved));
    }
  }
  return absl::OkStatus();
}

std::string FormatState(const StoredState& s) {
  return absl::StrFormat("(t=%d r=%d e=%d,%d,%d)", s.tanks, s.rays, s.earth[0], s.earth[1],
                         s.earth[2]);
}

// One STATES record on its own: reserved, canonical, within the dice, L, stored.
// (The record's description is formatted only for a refusal.)
absl::Status CheckState(const StoredState& s, std::uint32_t reserved, int dice, size_t k,
                        const Refuser& refuse) {
  auto where = [&] { return absl::StrFormat("STATES record %d %s", k, FormatState(s)); };
  if (reserved != 0) {
    return refuse.Corrupt(
        absl::StrFormat("%s: reserved field is %d, expected 0", where(), reserved));
  }
  if (s.earth[0] < s.earth[1] || s.earth[1] < s.earth[2]) {
    return refuse.Corrupt(
        absl::StrCat(where(), ": earthling counts are not sorted (not canonical)"));
  }
  const int used = s.tanks + s.rays + s.earth[0] + s.earth[1] + s.earth[2];
  if (used > dice) {
    return refuse.Corrupt(
        absl::StrFormat("%s: %d dice set aside, the rules have %d", where(), used, dice));
  }
  if (s.left != dice - used) {
    return refuse.Corrupt(
        absl::StrFormat("%s: dice left is %d, should be %d", where(), s.left, dice - used));
  }
  if (s.left == 0 || s.rays + s.earth[0] == 0 || s.tanks > s.rays + s.left) {
    return refuse.Corrupt(
        absl::StrCat(where(), ": this position's roll value is given by rule, not stored"));
  }
  return absl::OkStatus();
}

bool Before(const StoredState& a, const StoredState& b) {
  auto key = [](const StoredState& s) {
    return std::array<int, 5>{s.tanks, s.rays, s.earth[0], s.earth[1], s.earth[2]};
  };
  return key(a) < key(b);
}

// Every record valid and strictly increasing; with the count checked against
// the formula, that makes the list exactly the prescribed one.
absl::Status LoadStates(std::string_view b, const Header& h, TableData& d, const Refuser& refuse) {
  d.states.resize(h.state_count);
  for (size_t k = 0; k < d.states.size(); ++k) {
    const auto* r = reinterpret_cast<const unsigned char*>(b.data() + h.states_offset + 8 * k);
    StoredState& s = d.states[k];
    s.tanks = r[0];
    s.rays = r[1];
    for (int e = 0; e < 3; ++e) s.earth[e] = r[2 + e];
    s.left = r[5];
    const std::uint32_t reserved = r[6] | (std::uint32_t{r[7]} << 8);
    if (absl::Status st = CheckState(s, reserved, d.rules.dice, k, refuse); !st.ok()) return st;
    if (k > 0 && !Before(d.states[k - 1], s)) {
      return refuse.Corrupt(absl::StrFormat("STATES record %d %s is out of order (after %s)", k,
                                            FormatState(s), FormatState(d.states[k - 1])));
    }
  }
  return absl::OkStatus();
}

// ROLLS where it lies in the file's bytes: converted to native order in place
// (big-endian hosts only), then every value checked in one vectorized pass.
absl::Status LoadRolls(FileBytes& bytes, const Header& h, TableData& d, const Refuser& refuse) {
  const size_t s = d.states.size();
  static_assert(kTableHeaderSize % sizeof(double) == 0);
  // Sections are multiples of 8 bytes from 128, so ROLLS starts on a double.
  const std::span<double> rolls(bytes.words.get() + h.rolls_offset / sizeof(double),
                                static_cast<size_t>(d.block_count) * s);
  if constexpr (std::endian::native == std::endian::big) ByteSwapEach(rolls);
  if (const size_t k = FirstNonProbability(rolls); k < rolls.size()) {
    return refuse.Corrupt(absl::StrFormat("ROLLS block %d, slot %d: value %g is not a probability",
                                          k / s, k % s, rolls[k]));
  }
  d.rolls = rolls;
  d.file = std::move(bytes.words);
  bytes.size = 0;
  return absl::OkStatus();
}

void BuildSlotIndex(TableData& d) {
  d.index = CanonicalIndex(d.rules.dice);
  d.slot_of.assign(d.index.size(), -1);
  for (size_t k = 0; k < d.states.size(); ++k) {
    const StoredState& s = d.states[k];
    d.slot_of[d.index.Id(s.tanks, s.rays, s.earth[0], s.earth[1], s.earth[2])] =
        static_cast<std::int32_t>(k);
  }
}

absl::StatusOr<std::shared_ptr<const TableData>> Parse(FileBytes bytes, const Refuser& refuse) {
  const std::string_view b = bytes.view();
  if (absl::Status s = CheckPreamble(b, refuse); !s.ok()) return s;
  const Header h = LoadHeader(b);
  if (absl::Status s = CheckHeaderFields(h, refuse); !s.ok()) return s;
  if (absl::Status s = CheckLayout(h, b.size(), refuse); !s.ok()) return s;
  std::uint32_t computed = Crc32(b.substr(kTableHeaderSize));
  if (computed != h.payload_crc) {
    return refuse.Corrupt(absl::StrFormat(
        "payload checksum mismatch (stored %08x, computed %08x): the data is corrupt",
        h.payload_crc, computed));
  }
  auto d = std::make_shared<TableData>();
  d->format_version = static_cast<int>(h.version);
  d->rules = Rules{static_cast<int>(h.dice), static_cast<int>(h.bonus), static_cast<int>(h.target)};
  d->players = static_cast<int>(h.players);
  d->max_turn_score = static_cast<int>(h.max_turn_score);
  d->score_limit = d->rules.target + d->max_turn_score;
  d->error_bound = h.error_bound;
  d->tie_tolerance_e = static_cast<int>(h.tie_tolerance_e);
  d->tie_tolerance = std::pow(10.0, -d->tie_tolerance_e);
  d->rules_hash = h.rules_hash;
  d->context_count = ContextCountFormula(h, &d->mover_offset);
  d->block_count = h.block_count;
  if (absl::Status s = LoadContexts(b, h, *d, refuse); !s.ok()) return s;
  if (absl::Status s = LoadStates(b, h, *d, refuse); !s.ok()) return s;
  if (d->format_version == static_cast<int>(kTableVersion)) {
    if (absl::Status s = LoadRolls(bytes, h, *d, refuse); !s.ok()) return s;
  }
  BuildSlotIndex(*d);
  if (d->format_version == static_cast<int>(kTableVersionValuesOnly)) {
    d->turns = std::make_shared<TurnCache>(d->rules);
  }
  return std::shared_ptr<const TableData>(std::move(d));
}

// ------------------------------------------------------------ files

absl::Status OpenError(const std::string& path, int error) {
  std::string why = absl::StrFormat("cannot read policy table %s: %s", path, std::strerror(error));
  if (error == ENOENT || error == ENOTDIR) return absl::NotFoundError(why);
  if (error == EACCES || error == EPERM) return absl::PermissionDeniedError(why);
  return absl::UnavailableError(why);
}

// Checks that `path` is a regular file of at most kMaxTableFileSize bytes;
// returns its size.
absl::StatusOr<std::uint64_t> CheckFile(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found) return OpenError(path, ENOENT);
  if (ec) return OpenError(path, ec.value());
  if (std::filesystem::is_directory(status)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("policy table path %s is a directory, not a file", path));
  }
  if (!std::filesystem::is_regular_file(status)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("policy table path %s is not a regular file", path));
  }
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return OpenError(path, ec.value());
  if (size > kMaxTableFileSize) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "policy table %s is %d bytes, larger than 1 GiB: far beyond any table this library "
        "reads",
        path, size));
  }
  return static_cast<std::uint64_t>(size);
}

// The whole file: its size from the file system first (refusing more than
// kMaxTableFileSize bytes unread), then one allocation and one read.
absl::StatusOr<FileBytes> ReadFile(const std::string& path) {
  absl::StatusOr<std::uint64_t> size = CheckFile(path);
  if (!size.ok()) return size.status();
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return OpenError(path, errno);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(file, &std::fclose);
  std::setvbuf(file, nullptr, _IONBF, 0);  // straight into our buffer, no stdio copy
  FileBytes bytes = AllocateFileBytes(*size);
  if (!bytes.words) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("policy table %s: no memory for its %d bytes", path, *size));
  }
  // Fewer bytes if the file shrank since (the parser then finds it truncated).
  bytes.size = std::fread(bytes.data(), 1, bytes.size, file);
  if (std::ferror(file)) return OpenError(path, errno);
  if (bytes.size == *size && std::fgetc(file) != EOF) {
    return absl::DataLossError(
        absl::StrFormat("policy table %s grew while being read (it had %d bytes)", path, *size));
  }
  if (std::ferror(file)) return OpenError(path, errno);
  return bytes;
}

}  // namespace
}  // namespace internal

absl::StatusOr<GameTable> GameTable::Open(const std::string& path) {
  absl::StatusOr<internal::FileBytes> bytes = internal::ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  auto data =
      internal::Parse(*std::move(bytes), internal::Refuser(absl::StrCat("policy table ", path)));
  if (!data.ok()) return data.status();
  return GameTable(*std::move(data));
}

absl::StatusOr<GameTable> GameTable::FromBytes(std::string bytes) {
  // Copied into an 8-byte-aligned buffer, as Open reads a file.
  internal::FileBytes aligned = internal::AllocateFileBytes(bytes.size());
  if (!aligned.words) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("policy table: no memory for a copy of its %d bytes", bytes.size()));
  }
  std::memcpy(aligned.data(), bytes.data(), bytes.size());
  std::string().swap(bytes);
  auto data = internal::Parse(std::move(aligned), internal::Refuser("policy table"));
  if (!data.ok()) return data.status();
  return GameTable(*std::move(data));
}

const Rules& GameTable::rules() const { return data_->rules; }
int GameTable::players() const { return data_->players; }
double GameTable::error_bound() const { return data_->error_bound; }

}  // namespace martiandice
