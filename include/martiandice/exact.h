// Exact rational numbers used for exact values (Boost.Multiprecision).
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <string>

namespace martiandice {

using Rational = boost::multiprecision::cpp_rational;
using BigInt = boost::multiprecision::cpp_int;

// "p/q" in lowest terms, q >= 1 always printed ("5/1" for 5).
std::string FormatRational(const Rational& value);

}  // namespace martiandice
