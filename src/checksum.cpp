// The checksums (checksum.h). CRC-32/IEEE as zlib computes it: reflected polynomial 0xEDB88320,
// initial value and final xor 0xFFFFFFFF. Three implementations of the same
// function: the plain byte-at-a-time loop (the reference), slicing-by-16
// (portable, ~16x fewer dependent steps), and PCLMULQDQ folding (x86-64,
// checked at run time), which carries 64 bytes per step through four
// independent lanes.
#include "checksum.h"

#include <array>
#include <cstddef>

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define MARTIANDICE_CRC32_PCLMUL 1
#include <immintrin.h>
#endif

namespace martiandice::internal {
namespace {

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

}  // namespace martiandice::internal
