// The solve's extended precision, Wide: x87's 80-bit long double where the
// compiler's long double is that (x86-64: the tables in data/ were made so),
// else SoftX87, the same arithmetic in software (a 64-bit significand, every
// result rounded to nearest, ties to even), so that a build without it (the
// WebAssembly module) solves the same tables, bit for bit. Internal.
#pragma once

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

// SoftX87 compiles for a CUDA device too (the GPU's settling passes,
// solver/score_law_kernel.h).
#if defined(__CUDACC__)
#define MARTIANDICE_WIDE_HD __host__ __device__
#else
#define MARTIANDICE_WIDE_HD
#endif

namespace martiandice::internal {

namespace wide_detail {
__extension__ typedef unsigned __int128 U128;  // GCC's and Clang's, wasm32's too
}  // namespace wide_detail

// A finite number with x87 extended precision's significand (64 bits) and an
// exponent range no probability leaves: +, -, *, / and the conversion to
// double round exactly as x87 does with its precision set to 64 bits (Linux's
// default); the conversions from double and from integers of up to 64 bits are
// exact. No infinities, NaNs or subnormals: the solve's values never reach
// them. A value type; thread-safe as an int.
class SoftX87 {
 public:
  MARTIANDICE_WIDE_HD SoftX87() = default;
  MARTIANDICE_WIDE_HD SoftX87(double x);  // NOLINT: as long double converts
  MARTIANDICE_WIDE_HD SoftX87(int x) : SoftX87(static_cast<long long>(x)) {}   // NOLINT
  MARTIANDICE_WIDE_HD SoftX87(long x) : SoftX87(static_cast<long long>(x)) {}  // NOLINT
  MARTIANDICE_WIDE_HD SoftX87(long long x);                                    // NOLINT
  MARTIANDICE_WIDE_HD SoftX87(unsigned long long x) : SoftX87(false, x) {}     // NOLINT
  MARTIANDICE_WIDE_HD SoftX87(unsigned long x) : SoftX87(false, x) {}          // NOLINT
  MARTIANDICE_WIDE_HD SoftX87(unsigned x) : SoftX87(false, x) {}               // NOLINT
  // man * 2^(exp - 63), man's top bit set: a constant as x87 holds it.
  MARTIANDICE_WIDE_HD static SoftX87 FromParts(std::int32_t exp, std::uint64_t man) {
    SoftX87 r;
    r.exp_ = exp;
    r.man_ = man;
    return r;
  }

  MARTIANDICE_WIDE_HD explicit operator double() const;
  // The parts: the value is (-1)^negative() * significand() * 2^(exponent() - 63).
  MARTIANDICE_WIDE_HD bool negative() const { return neg_; }
  MARTIANDICE_WIDE_HD std::int32_t exponent() const { return exp_; }
  MARTIANDICE_WIDE_HD std::uint64_t significand() const { return man_; }

  MARTIANDICE_WIDE_HD friend SoftX87 operator+(const SoftX87& a, const SoftX87& b) {
    return Add(a, b, false);
  }
  MARTIANDICE_WIDE_HD friend SoftX87 operator-(const SoftX87& a, const SoftX87& b) {
    return Add(a, b, true);
  }
  MARTIANDICE_WIDE_HD friend SoftX87 operator*(const SoftX87& a, const SoftX87& b);
  MARTIANDICE_WIDE_HD friend SoftX87 operator/(const SoftX87& a, const SoftX87& b);
  MARTIANDICE_WIDE_HD SoftX87 operator-() const {
    SoftX87 r = *this;
    if (r.man_ != 0) r.neg_ = !r.neg_;
    return r;
  }
  MARTIANDICE_WIDE_HD SoftX87& operator+=(const SoftX87& b) { return *this = *this + b; }
  MARTIANDICE_WIDE_HD SoftX87& operator-=(const SoftX87& b) { return *this = *this - b; }
  MARTIANDICE_WIDE_HD SoftX87& operator*=(const SoftX87& b) { return *this = *this * b; }
  MARTIANDICE_WIDE_HD SoftX87& operator/=(const SoftX87& b) { return *this = *this / b; }

  MARTIANDICE_WIDE_HD friend bool operator==(const SoftX87& a, const SoftX87& b) {
    return a.man_ == b.man_ && (a.man_ == 0 || (a.neg_ == b.neg_ && a.exp_ == b.exp_));
  }
  MARTIANDICE_WIDE_HD friend bool operator!=(const SoftX87& a, const SoftX87& b) {
    return !(a == b);
  }
  MARTIANDICE_WIDE_HD friend bool operator<(const SoftX87& a, const SoftX87& b) {
    return Compare(a, b) < 0;
  }
  MARTIANDICE_WIDE_HD friend bool operator>(const SoftX87& a, const SoftX87& b) {
    return Compare(a, b) > 0;
  }
  MARTIANDICE_WIDE_HD friend bool operator<=(const SoftX87& a, const SoftX87& b) {
    return Compare(a, b) <= 0;
  }
  MARTIANDICE_WIDE_HD friend bool operator>=(const SoftX87& a, const SoftX87& b) {
    return Compare(a, b) >= 0;
  }

 private:
  // value = (-1)^neg * man * 2^(exp - 63); man's top bit set, or man == 0 for 0.
  MARTIANDICE_WIDE_HD SoftX87(bool neg, std::uint64_t magnitude);
  MARTIANDICE_WIDE_HD static SoftX87 Add(const SoftX87& a, const SoftX87& b, bool subtract);
  MARTIANDICE_WIDE_HD static int Compare(const SoftX87& a, const SoftX87& b);
  // The number (-1)^neg * wide * 2^(exp - 127), rounded to 64 bits.
  MARTIANDICE_WIDE_HD static SoftX87 Round(bool neg, std::int32_t exp, wide_detail::U128 wide);
  // man * 2^(exp - 63) plus low / 2^64 of its last place, man's top bit set.
  MARTIANDICE_WIDE_HD static SoftX87 RoundParts(bool neg, std::int32_t exp, std::uint64_t man,
                                                std::uint64_t low);

  bool neg_ = false;
  std::int32_t exp_ = 0;
  std::uint64_t man_ = 0;
};

// ---------------------------------------------------------------------------
// SoftX87's arithmetic, inline (the solve's inner loops call it). Every
// operation forms the exact result (or, where it has more than 128 bits, the
// bits a correct rounding needs, the rest "jammed" into a sticky bit) and
// rounds it once to a 64-bit significand, to nearest, ties to even.
namespace wide_detail {

// std::countl_zero of a nonzero x (a device's own instruction there).
MARTIANDICE_WIDE_HD inline int Clz(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(x));
#else
  return std::countl_zero(x);
#endif
}

MARTIANDICE_WIDE_HD inline int LeadingZeros(wide_detail::U128 x) {
  const auto high = static_cast<std::uint64_t>(x >> 64);
  return high != 0 ? Clz(high) : 64 + Clz(static_cast<std::uint64_t>(x));
}

}  // namespace wide_detail

MARTIANDICE_WIDE_HD inline SoftX87::SoftX87(bool neg, std::uint64_t magnitude) {
  if (magnitude == 0) return;
  const int shift = wide_detail::Clz(magnitude);
  neg_ = neg;
  man_ = magnitude << shift;
  exp_ = 63 - shift;
}

MARTIANDICE_WIDE_HD inline SoftX87::SoftX87(long long x)
    : SoftX87(x < 0, x < 0 ? 0 - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x)) {}

MARTIANDICE_WIDE_HD inline SoftX87::SoftX87(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const bool neg = (bits >> 63) != 0;
  const int e = static_cast<int>((bits >> 52) & 0x7FF);
  const std::uint64_t f = bits & ((std::uint64_t{1} << 52) - 1);
  if (e == 0) {  // zero or subnormal: f * 2^-1074
    *this = SoftX87(neg, f);
    if (man_ != 0) exp_ -= 1074;
    return;
  }
  neg_ = neg;
  man_ = ((std::uint64_t{1} << 52) | f) << 11;
  exp_ = e - 1023;
}

MARTIANDICE_WIDE_HD inline SoftX87::operator double() const {
  if (man_ == 0) return 0.0;
  // Bits kept: 53, fewer below double's normal range (its subnormals).
  const int drop = 11 + (exp_ < -1022 ? -1022 - exp_ : 0);
  if (drop > 64) return neg_ ? -0.0 : 0.0;
  std::uint64_t kept = drop == 64 ? 0 : man_ >> drop;
  const wide_detail::U128 rest =
      static_cast<wide_detail::U128>(man_) & ((static_cast<wide_detail::U128>(1) << drop) - 1);
  const wide_detail::U128 half = static_cast<wide_detail::U128>(1) << (drop - 1);
  if (rest > half || (rest == half && (kept & 1) != 0)) ++kept;
#if defined(__CUDA_ARCH__)
  const double magnitude = ::ldexp(static_cast<double>(kept), exp_ - 63 + drop);
#else
  const double magnitude = std::ldexp(static_cast<double>(kept), exp_ - 63 + drop);
#endif
  return neg_ ? -magnitude : magnitude;
}

MARTIANDICE_WIDE_HD inline SoftX87 SoftX87::Round(bool neg, std::int32_t exp,
                                                  wide_detail::U128 wide) {
  if (wide == 0) return SoftX87();
  const int shift = wide_detail::LeadingZeros(wide);
  wide <<= shift;
  return RoundParts(neg, exp - shift, static_cast<std::uint64_t>(wide >> 64),
                    static_cast<std::uint64_t>(wide));
}

MARTIANDICE_WIDE_HD inline SoftX87 SoftX87::RoundParts(bool neg, std::int32_t exp,
                                                       std::uint64_t man, std::uint64_t low) {
  constexpr std::uint64_t kHalf = std::uint64_t{1} << 63;
  if (low > kHalf || (low == kHalf && (man & 1) != 0)) {
    if (++man == 0) {  // carried out of 64 bits: 2^64 = 2^63 * 2
      man = kHalf;
      ++exp;
    }
  }
  SoftX87 r;
  r.neg_ = neg;
  r.exp_ = exp;
  r.man_ = man;
  return r;
}

MARTIANDICE_WIDE_HD inline int SoftX87::Compare(const SoftX87& a, const SoftX87& b) {
  const int sa = a.man_ == 0 ? 0 : (a.neg_ ? -1 : 1);
  const int sb = b.man_ == 0 ? 0 : (b.neg_ ? -1 : 1);
  if (sa != sb || sa == 0) return sa < sb ? -1 : (sa > sb ? 1 : 0);
  int magnitude = 0;
  if (a.exp_ != b.exp_) {
    magnitude = a.exp_ < b.exp_ ? -1 : 1;
  } else if (a.man_ != b.man_) {
    magnitude = a.man_ < b.man_ ? -1 : 1;
  }
  return sa * magnitude;
}

MARTIANDICE_WIDE_HD inline SoftX87 SoftX87::Add(const SoftX87& a, const SoftX87& b, bool subtract) {
  SoftX87 other = b;
  if (subtract) other = -other;
  if (a.man_ == 0) return other;
  if (other.man_ == 0) return a;
  const bool a_bigger = a.exp_ != other.exp_ ? a.exp_ > other.exp_ : a.man_ >= other.man_;
  const SoftX87& big = a_bigger ? a : other;
  const SoftX87& small = a_bigger ? other : a;
  // The smaller significand aligned to the larger's: high.low, 128 bits, in
  // 64-bit halves (wasm32's 128-bit shifts are calls), bits shifted out of
  // them or-ed into the last one.
  const int d = big.exp_ - small.exp_;
  std::uint64_t y_high = 0, y_low = 0;
  if (d == 0) {
    y_high = small.man_;
  } else if (d < 64) {
    y_high = small.man_ >> d;
    y_low = small.man_ << (64 - d);
  } else if (d == 64) {
    y_low = small.man_;
  } else if (d < 128) {
    y_low = (small.man_ >> (d - 64)) | ((small.man_ << (128 - d)) != 0 ? 1 : 0);
  } else {
    y_low = 1;
  }
  constexpr std::uint64_t kTop = std::uint64_t{1} << 63;
  std::int32_t exp = big.exp_;
  if (big.neg_ == small.neg_) {
    std::uint64_t high = big.man_ + y_high;
    std::uint64_t low = y_low;
    if (high < big.man_) {  // a carry: 65 bits, one right
      low = (low >> 1) | (high << 63) | (low & 1);
      high = (high >> 1) | kTop;
      ++exp;
    }
    return RoundParts(big.neg_, exp, high, low);
  }
  std::uint64_t low = 0 - y_low;
  std::uint64_t high = big.man_ - y_high - (y_low != 0 ? 1 : 0);
  if (high == 0 && low == 0) return SoftX87();
  // Cancellation: shift left until the top bit is set (exact: only d >= 64
  // jammed a bit, and then at most one place is lost).
  const int shift = high != 0 ? wide_detail::Clz(high) : 64 + wide_detail::Clz(low);
  if (shift >= 64) {
    high = low << (shift - 64);
    low = 0;
  } else if (shift > 0) {
    high = (high << shift) | (low >> (64 - shift));
    low <<= shift;
  }
  return RoundParts(big.neg_, exp - shift, high, low);
}

MARTIANDICE_WIDE_HD inline SoftX87 operator*(const SoftX87& a, const SoftX87& b) {
  if (a.man_ == 0 || b.man_ == 0) return SoftX87();
  // The 128-bit product from 32-bit halves: wasm32 has no 64x64 -> 128
  // multiply, and its generic 128-bit one is a call.
  const std::uint64_t a0 = a.man_ & 0xFFFFFFFFu, a1 = a.man_ >> 32;
  const std::uint64_t b0 = b.man_ & 0xFFFFFFFFu, b1 = b.man_ >> 32;
  const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const std::uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
  std::uint64_t low = (mid << 32) | (p00 & 0xFFFFFFFFu);
  std::uint64_t high = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  // man_a * man_b * 2^(exp_a + exp_b - 126), its top bit at 127 or 126.
  std::int32_t exp = a.exp_ + b.exp_ + 1;
  if ((high >> 63) == 0) {
    high = (high << 1) | (low >> 63);
    low <<= 1;
    --exp;
  }
  return SoftX87::RoundParts(a.neg_ != b.neg_, exp, high, low);
}

MARTIANDICE_WIDE_HD inline SoftX87 operator/(const SoftX87& a, const SoftX87& b) {
  if (a.man_ == 0 || b.man_ == 0) return SoftX87();  // x / 0 never happens in the solve
  // Two 64-bit "digits" of man_a / man_b: q * 2^64 + q2 (+ a remainder).
  const wide_detail::U128 numerator = static_cast<wide_detail::U128>(a.man_) << 64;
  const wide_detail::U128 q = numerator / b.man_;
  const wide_detail::U128 r = numerator % b.man_;
  const wide_detail::U128 q2 = (r << 64) / b.man_;
  const bool sticky = (r << 64) % b.man_ != 0;
  const bool neg = a.neg_ != b.neg_;
  // man_a / man_b = (q + q2 / 2^64) / 2^64; q has 65 bits when man_a >= man_b.
  if ((q >> 64) != 0) {
    const wide_detail::U128 w = (q << 63) | (q2 >> 1) | ((q2 & 1) != 0 || sticky ? 1 : 0);
    return SoftX87::Round(neg, a.exp_ - b.exp_, w);  // w * 2^-127 = man_a / man_b
  }
  const wide_detail::U128 w = (q << 64) | q2 | (sticky ? 1 : 0);
  return SoftX87::Round(neg, a.exp_ - b.exp_ - 1, w);  // w * 2^-128
}

#if LDBL_MANT_DIG == 64 && !defined(MARTIANDICE_SOFT_WIDE)
using Wide = long double;
#else
using Wide = SoftX87;
#endif

inline double WideAbs(double x) { return std::fabs(x); }
inline long double WideAbs(long double x) { return std::fabs(x); }
MARTIANDICE_WIDE_HD inline SoftX87 WideAbs(const SoftX87& x) { return x < 0 ? -x : x; }

// man * 2^(exp - 63) exactly, as a Wide.
inline Wide WideFromParts(std::int32_t exp, std::uint64_t man) {
#if LDBL_MANT_DIG == 64 && !defined(MARTIANDICE_SOFT_WIDE)
  return std::ldexp(static_cast<long double>(man), exp - 63);
#else
  return SoftX87::FromParts(exp, man);
#endif
}

// x exactly, as SoftX87 (the GPU's settling passes compute in it), and back.
inline SoftX87 ToSoftX87(const SoftX87& x) { return x; }
#if LDBL_MANT_DIG == 64
inline SoftX87 ToSoftX87(long double x) {
  if (x == 0) return SoftX87();
  int e = 0;
  const long double m = std::frexp(std::fabs(x), &e);  // x = m * 2^e, m in [1/2, 1)
  const SoftX87 r = SoftX87::FromParts(e - 1, static_cast<std::uint64_t>(std::ldexp(m, 64)));
  return x < 0 ? -r : r;
}
#endif
inline Wide WideFromSoftX87(const SoftX87& x) {
  if (x.significand() == 0) return Wide(0);
  const Wide r = WideFromParts(x.exponent(), x.significand());
  return x.negative() ? -r : r;
}

// The solve's decimal constants as x87 rounds them (the long double literals
// 1e-7L, ...; tests/library/wide_test.cpp checks that they are).
inline const Wide kWide1e7 = WideFromParts(-24, 0xd6bf94d5e57a42bcull);   // 1e-7L
inline const Wide kWide1e9 = WideFromParts(-30, 0x89705f4136b4a597ull);   // 1e-9L
inline const Wide kWide1e12 = WideFromParts(-40, 0x8cbccc096f5088ccull);  // 1e-12L
inline const Wide kWide1e13 = WideFromParts(-44, 0xe12e13424bb40e13ull);  // 1e-13L
inline const Wide kWide1e15 = WideFromParts(-50, 0x901d7cf73ab0acd9ull);  // 1e-15L
inline const Wide kWide1e18 = WideFromParts(-60, 0x9392ee8e921d5d07ull);  // 1e-18L

}  // namespace martiandice::internal
