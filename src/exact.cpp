// Printing exact rationals.
#include "martiandice/exact.h"

namespace martiandice {

std::string FormatRational(const Rational& value) {
  return boost::multiprecision::numerator(value).str() + "/" +
         boost::multiprecision::denominator(value).str();
}

}  // namespace martiandice
