// SoftX87 (src/wide.h), the solve's extended precision where the compiler has
// no x87 long double (the WebAssembly module), against the x87 long double it
// stands for: every operation on random and on tie-making operands, the
// conversions, and the solve's decimal constants. Where long double is not
// x87's (no reference to compare with) the checks are skipped.
#include "wide.h"

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>

#if LDBL_MANT_DIG == 64
namespace {

using martiandice::internal::SoftX87;

// The exact value of `x` as a long double (64 bits hold any SoftX87).
long double Exact(const SoftX87& x) {
  const long double magnitude =
      std::ldexp(static_cast<long double>(x.significand()), x.exponent() - 63);
  return x.negative() ? -magnitude : magnitude;
}

// A long double with all 64 significand bits in use: a product and a quotient
// of doubles, computed both ways (and checked equal).
struct Pair {
  long double hard;
  SoftX87 soft;
};

Pair Make(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_int_distribution<int> scale(-40, 40);
  const double a = std::ldexp(unit(rng), scale(rng)), b = unit(rng), c = unit(rng) + 2;
  const long double hard = static_cast<long double>(a) * b / c;
  const SoftX87 soft = SoftX87(a) * SoftX87(b) / SoftX87(c);
  REQUIRE(Exact(soft) == hard);
  return {hard, soft};
}

void CheckSame(const SoftX87& soft, long double hard) {
  CHECK(Exact(soft) == hard);
  CHECK(static_cast<double>(soft) == static_cast<double>(hard));
}

}  // namespace

TEST_CASE("wide: SoftX87's +, -, *, / and comparisons are x87's, on random operands") {
  std::mt19937_64 rng(20261128);
  for (int i = 0; i < 200000; ++i) {
    const Pair x = Make(rng), y = Make(rng);
    CheckSame(x.soft + y.soft, x.hard + y.hard);
    CheckSame(x.soft - y.soft, x.hard - y.hard);
    CheckSame(x.soft * y.soft, x.hard * y.hard);
    if (y.hard != 0) CheckSame(x.soft / y.soft, x.hard / y.hard);
    CHECK((x.soft < y.soft) == (x.hard < y.hard));
    CHECK((x.soft == y.soft) == (x.hard == y.hard));
    CHECK((x.soft >= y.soft) == (x.hard >= y.hard));
    // Far apart: the smaller one only rounds.
    const SoftX87 tiny = y.soft * SoftX87(std::ldexp(1.0, -70));
    CheckSame(x.soft + tiny, x.hard + y.hard * std::ldexp(1.0L, -70));
    CheckSame(x.soft - tiny, x.hard - y.hard * std::ldexp(1.0L, -70));
  }
}

TEST_CASE("wide: SoftX87 breaks ties to even, as x87 does") {
  // 1 + 2^-64 lies half way between 1 (even) and 1 + 2^-63 (odd): down; 1 + 3 * 2^-64
  // between 1 + 2^-63 (odd) and 1 + 2^-62 (even): up; negative k: the borrow.
  const long double one = 1, half_ulp = std::ldexp(1.0L, -64);
  for (const int k : {1, 3, 5, -1, -3}) {
    CAPTURE(k);
    const long double hard = one + k * half_ulp;  // the sum rounds
    const SoftX87 soft = SoftX87(1.0) + SoftX87(k * std::ldexp(1.0, -64));
    CHECK(Exact(soft) == hard);
  }
  // Just above or below a tie by a bit the alignment shifts out: only the sticky
  // bit tells (1 + 2^-64 + 2^-127 rounds up, 1 + 2^-64 alone to even).
  for (const int e : {-64, -65, -63}) {
    for (const long double sign : {1.0L, -1.0L}) {
      CAPTURE(e);
      const long double hard = one + sign * (std::ldexp(1.0L, e) + std::ldexp(1.0L, e - 63));
      const SoftX87 y = SoftX87(std::ldexp(1.0, e)) + SoftX87(std::ldexp(1.0, e - 63));
      CHECK(Exact(SoftX87(1.0) + SoftX87(static_cast<double>(sign)) * y) == hard);
    }
  }
  // Conversions to double at the tie: 1 + 2^-53 (to 1), 1 + 3 * 2^-53 (up).
  for (const int k : {1, 3, 5, 7}) {
    const SoftX87 soft = SoftX87(1.0) + SoftX87(k * std::ldexp(1.0, -53));
    CHECK(static_cast<double>(soft) == static_cast<double>(one + k * std::ldexp(1.0L, -53)));
  }
  CHECK(static_cast<double>(SoftX87(0.0)) == 0.0);
  CHECK(static_cast<double>(SoftX87(-0.25)) == -0.25);
  CHECK(Exact(SoftX87(static_cast<long long>(-6'103'515'625))) == -6'103'515'625.0L);
  CHECK(Exact(SoftX87(std::ldexp(1.0, -1070))) == std::ldexp(1.0L, -1070));  // a subnormal double
}

TEST_CASE("wide: the solve's constants are the long double literals") {
  using namespace martiandice::internal;  // NOLINT: the constants
  CHECK(kWide1e7 == 1e-7L);
  CHECK(kWide1e9 == 1e-9L);
  CHECK(kWide1e12 == 1e-12L);
  CHECK(kWide1e13 == 1e-13L);
  CHECK(kWide1e15 == 1e-15L);
  CHECK(kWide1e18 == 1e-18L);
  CHECK(Exact(SoftX87::FromParts(-24, 0xd6bf94d5e57a42bcull)) == 1e-7L);
}
#endif
