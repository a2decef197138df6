// Printing exact rationals.
#include "martiandice/exact.h"

#include "absl/strings/str_cat.h"

namespace martiandice {

std::string FormatRational(const Rational& value) {
  // StrCat rather than operator+: GCC 12 warns falsely (-Wrestrict) on the latter.
  return absl::StrCat(boost::multiprecision::numerator(value).str(), "/",
                      boost::multiprecision::denominator(value).str());
}

}  // namespace martiandice
