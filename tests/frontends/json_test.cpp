// The command line's JSON writing (app/json.h): AppendPrintfG17 checked
// against the C library's own "%.17g" over many kinds of doubles.
#include "json.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "doctest/doctest.h"

namespace martiandice {
namespace {

std::string Printf17(double x) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

std::string Fast17(double x) {
  std::string out = "[";
  AppendPrintfG17(out, x);
  return out.substr(1);
}

// Counts the doubles of `make(i)`, i < n, whose texts differ (the first shown).
template <typename Make>
int Mismatches(int n, Make make) {
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const double x = make(i);
    const std::string want = Printf17(x), got = Fast17(x);
    if (want != got && bad++ == 0) MESSAGE("x = " << want << ": got " << got);
  }
  return bad;
}

TEST_CASE("AppendPrintfG17 writes what printf's %.17g writes") {
  std::mt19937_64 rng(20261124);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  SUBCASE("probabilities") {
    CHECK(Mismatches(300000, [&](int) { return unit(rng); }) == 0);
  }
  SUBCASE("every exponent, inside and outside the exact range, both signs") {
    std::uniform_int_distribution<int> exponent(-80, 70);
    CHECK(Mismatches(300000, [&](int i) {
            const double x = std::ldexp(0.5 + unit(rng) / 2, exponent(rng));
            return i % 2 == 0 ? x : -x;
          }) == 0);
  }
  SUBCASE("random bit patterns") {
    CHECK(Mismatches(300000, [&](int) {
            std::uint64_t bits = rng();
            double x = 0;
            std::memcpy(&x, &bits, sizeof x);
            return x;
          }) == 0);
  }
  SUBCASE("ties at the 17th digit round to even") {
    // 2^50 <= k < 2^51 and a quarter: 16 digits before the point, then 25 or
    // 75, exactly halfway between two 17-digit values.
    std::uniform_int_distribution<std::int64_t> whole(std::int64_t{1} << 50,
                                                      (std::int64_t{1} << 51) - 1);
    CHECK(Mismatches(100000, [&](int i) {
            return static_cast<double>(whole(rng)) + (i % 2 == 0 ? 0.25 : 0.75);
          }) == 0);
    CHECK(Fast17(1234567890123456.25) == "1234567890123456.2");
    CHECK(Fast17(1234567890123456.75) == "1234567890123456.8");
  }
  SUBCASE("powers of ten, their neighbours, and short decimals") {
    CHECK(Mismatches(2 * 45 * 3, [&](int i) {
            const double p = std::pow(10.0, i / 6 - 22);
            const int side = i % 3;
            return side == 0 ? p : std::nextafter(p, side == 1 ? 0.0 : HUGE_VAL);
          }) == 0);
    CHECK(Mismatches(20000, [&](int i) { return (i - 10000) / 1000.0; }) == 0);
    CHECK(Fast17(0.1) == "0.10000000000000001");
    CHECK(Fast17(2.5e-5) == "2.5000000000000001e-05");
    CHECK(Fast17(1e16) == "10000000000000000");
  }
  SUBCASE("zero, infinities and NaN as printf writes them") {
    CHECK(Fast17(0.0) == "0");
    CHECK(Fast17(-0.0) == "-0");
    CHECK(Fast17(HUGE_VAL) == Printf17(HUGE_VAL));
  }
}

}  // namespace
}  // namespace martiandice
