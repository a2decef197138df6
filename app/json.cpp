// The JSON reader (app/json.h): flat objects, strictly; and printf's
// "%.17g" for numbers where no floating-point std::to_chars exists.
#include "json.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "utf8.h"  // the library's internal reading of UTF-8

namespace martiandice {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The code unit of the 4 hex digits at `text` (already checked).
std::uint32_t Hex4(const char* text) {
  std::uint32_t unit = 0;
  for (int i = 0; i < 4; ++i) unit = unit * 16 + static_cast<std::uint32_t>(HexDigit(text[i]));
  return unit;
}

void AppendUtf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xc0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3f));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xe0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code & 0x3f));
  }
}

}  // namespace

// The library's one reading of UTF-8 (src/utf8.h), for the bytes past ASCII.
std::size_t Utf8Length(const unsigned char* text, std::size_t size) {
  if (text[0] < 0x80) return 0;
  return internal::Utf8CharLength(std::string_view(reinterpret_cast<const char*>(text), size), 0);
}

bool IsC1Control(const unsigned char* text, std::size_t length) {
  return internal::IsC1Control(std::string_view(reinterpret_cast<const char*>(text), length), 0,
                               length);
}

std::string_view JsonKindName(JsonKind kind) {
  switch (kind) {
    case JsonKind::kString:
      return "a string";
    case JsonKind::kNumber:
      return "a number";
    case JsonKind::kBool:
      return "a boolean";
    case JsonKind::kNull:
      return "null";
    case JsonKind::kArray:
      return "an array";
  }
  return "a value";
}

absl::Status DecodeJsonString(std::string_view raw, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < raw.size();) {
    if (raw[i] != '\\') {  // copy up to the next escape
      const std::size_t next = std::min(raw.find('\\', i), raw.size());
      out.append(raw.data() + i, next - i);
      i = next;
      continue;
    }
    const char e = raw[i + 1];
    i += 2;
    switch (e) {
      case 'b':
        out += '\b';
        continue;
      case 'f':
        out += '\f';
        continue;
      case 'n':
        out += '\n';
        continue;
      case 'r':
        out += '\r';
        continue;
      case 't':
        out += '\t';
        continue;
      case 'u':
        break;
      default:  // " \ /
        out += e;
        continue;
    }
    std::uint32_t code = Hex4(raw.data() + i);
    i += 4;
    if (code >= 0xdc00 && code <= 0xdfff) {
      return absl::InvalidArgumentError("bad JSON: lone low surrogate in a \\u escape");
    }
    if (code >= 0xd800 && code <= 0xdbff) {
      if (i + 6 > raw.size() || raw[i] != '\\' || raw[i + 1] != 'u') {
        return absl::InvalidArgumentError("bad JSON: lone high surrogate in a \\u escape");
      }
      const std::uint32_t low = Hex4(raw.data() + i + 2);
      if (low < 0xdc00 || low > 0xdfff) {
        return absl::InvalidArgumentError("bad JSON: lone high surrogate in a \\u escape");
      }
      code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
      i += 6;
    }
    if (code == 0) return absl::InvalidArgumentError("strings may not contain NUL (\\u0000)");
    AppendUtf8(out, code);
  }
  return absl::OkStatus();
}

absl::Status FlatJsonParser::Parse(std::string_view text) {
  text_ = text;
  pos_ = 0;
  count_ = 0;
  SkipSpace();
  if (!Eat('{')) return Error("a request is one JSON object: expected '{'");
  SkipSpace();
  if (!Eat('}')) {
    for (;;) {
      if (absl::Status status = ParseField(); !status.ok()) return status;
      SkipSpace();
      if (Eat('}')) break;
      if (!Eat(',')) return Error("expected ',' or '}'");
      SkipSpace();
    }
  }
  SkipSpace();
  if (pos_ != text_.size()) return Error("unexpected text after the object");
  return absl::OkStatus();
}

absl::Status FlatJsonParser::Error(std::string_view what) const {
  return absl::InvalidArgumentError(
      absl::StrCat("bad JSON at byte ", pos_ + 1, ": ", std::string(what)));
}

void FlatJsonParser::SkipSpace() {
  while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r' ||
                                 text_[pos_] == '\n')) {
    ++pos_;
  }
}

bool FlatJsonParser::Eat(char c) {
  if (pos_ < text_.size() && text_[pos_] == c) {
    ++pos_;
    return true;
  }
  return false;
}

bool FlatJsonParser::EatWord(std::string_view word) {
  if (text_.substr(pos_, word.size()) != word) return false;
  pos_ += word.size();
  return true;
}

void FlatJsonParser::EatDigits() {
  while (AtDigit()) ++pos_;
}

absl::Status FlatJsonParser::ParseField() {
  if (count_ == kMaxFields) {
    return Error(absl::StrCat("more than ", kMaxFields, " fields"));
  }
  JsonField& field = fields_[count_];
  std::string_view key;
  if (absl::Status status = ParseString(&key); !status.ok()) return status;
  if (absl::Status status = DecodeJsonString(key, field.key); !status.ok()) return status;
  for (std::size_t i = 0; i < count_; ++i) {
    if (fields_[i].key == field.key) {
      return Error(absl::StrCat("duplicate field ", JsonString(field.key)));
    }
  }
  SkipSpace();
  if (!Eat(':')) return Error("expected ':' after a field name");
  SkipSpace();
  if (absl::Status status = ParseValue(field); !status.ok()) return status;
  ++count_;
  return absl::OkStatus();
}

absl::Status FlatJsonParser::ParseValue(JsonField& field) {
  if (pos_ >= text_.size()) return Error("expected a value");
  const char c = text_[pos_];
  if (c == '"') {
    field.kind = JsonKind::kString;
    return ParseString(&field.raw);
  }
  if (c == '-' || (c >= '0' && c <= '9')) {
    field.kind = JsonKind::kNumber;
    return ParseNumber(&field.raw);
  }
  if (c == '[') return ParseArray(field);
  if (c == '{') return Error("nested objects are not supported");
  const std::size_t start = pos_;
  if (EatWord("true") || EatWord("false")) {
    field.kind = JsonKind::kBool;
  } else if (EatWord("null")) {
    field.kind = JsonKind::kNull;
  } else {
    return Error("expected a value");
  }
  field.raw = text_.substr(start, pos_ - start);
  return absl::OkStatus();
}

// A string; `raw` gets its body (escapes checked, not decoded).
absl::Status FlatJsonParser::ParseString(std::string_view* raw) {
  if (!Eat('"')) return Error("expected a string");
  const std::size_t start = pos_;
  while (pos_ < text_.size()) {
    const auto c = static_cast<unsigned char>(text_[pos_]);
    if (c == '"') {
      *raw = text_.substr(start, pos_ - start);
      ++pos_;
      return absl::OkStatus();
    }
    if (c < 0x20) return Error("control character in a string (escape it)");
    if (c == '\\') {
      if (pos_ + 1 >= text_.size()) break;
      const char e = text_[pos_ + 1];
      if (e == 'u') {
        if (pos_ + 6 > text_.size()) return Error("bad \\u escape");
        for (std::size_t i = pos_ + 2; i < pos_ + 6; ++i) {
          if (HexDigit(text_[i]) < 0) return Error("bad \\u escape");
        }
        pos_ += 6;
      } else if (std::strchr("\"\\/bfnrt", e) != nullptr && e != '\0') {
        pos_ += 2;
      } else {
        return Error("bad escape in a string");
      }
      continue;
    }
    if (c >= 0x80) {
      const std::size_t length = Utf8Length(
          reinterpret_cast<const unsigned char*>(text_.data() + pos_), text_.size() - pos_);
      if (length == 0) return Error("invalid UTF-8 in a string");
      pos_ += length;
      continue;
    }
    ++pos_;
  }
  return Error("unterminated string");
}

// A number as RFC 8259 writes it; `raw` gets the token.
absl::Status FlatJsonParser::ParseNumber(std::string_view* raw) {
  const std::size_t start = pos_;
  Eat('-');
  if (Eat('0')) {
    if (AtDigit()) return Error("numbers have no leading zeros");
  } else if (AtDigit()) {
    EatDigits();
  } else {
    return Error("bad number");
  }
  if (Eat('.')) {
    if (!AtDigit()) return Error("bad number");
    EatDigits();
  }
  if (Eat('e') || Eat('E')) {
    if (!Eat('+')) Eat('-');
    if (!AtDigit()) return Error("bad number");
    EatDigits();
  }
  if (pos_ - start > kMaxNumberChars) {
    return Error(absl::StrCat("number longer than ", kMaxNumberChars, " characters"));
  }
  *raw = text_.substr(start, pos_ - start);
  return absl::OkStatus();
}

absl::Status FlatJsonParser::ParseArray(JsonField& field) {
  Eat('[');
  field.kind = JsonKind::kArray;
  const std::size_t start = pos_;
  SkipSpace();
  std::size_t items = 0;
  if (!Eat(']')) {
    for (;;) {
      if (!(pos_ < text_.size() && (text_[pos_] == '-' || AtDigit()))) {
        return Error("arrays may only hold numbers");
      }
      if (++items > kMaxArrayItems) {
        return Error(absl::StrCat("array longer than ", kMaxArrayItems, " items"));
      }
      std::string_view number;
      if (absl::Status status = ParseNumber(&number); !status.ok()) return status;
      SkipSpace();
      if (Eat(']')) break;
      if (!Eat(',')) return Error("expected ',' or ']'");
      SkipSpace();
    }
  }
  field.raw = text_.substr(start, pos_ - 1 - start);
  return absl::OkStatus();
}

std::string JsonEvent(std::string_view event, JsonObject&& fields) {
  JsonObject object;
  object.Str("event", event);
  std::string body = std::move(fields).Build();
  std::string head = std::move(object).Build();
  head.pop_back();
  if (body.size() > 2) head += ",";
  head.append(body, 1, std::string::npos);
  return head;
}

namespace {

__extension__ typedef unsigned __int128 Uint128;  // NOLINT: GCC and Clang both have it

// 10^0 .. 10^19, all that fit in 64 bits.
constexpr std::array<std::uint64_t, 20> kPow10 = [] {
  std::array<std::uint64_t, 20> powers{};
  powers[0] = 1;
  for (std::size_t i = 1; i < powers.size(); ++i) powers[i] = powers[i - 1] * 10;
  return powers;
}();

Uint128 Pow10(int n) { return n <= 19 ? Uint128{kPow10[n]} : Uint128{kPow10[19]} * kPow10[n - 19]; }

// m * 2^e * 10^s, m < 2^53 and 0 <= s <= 22 (so m * 10^s < 2^127), e in
// -127..10: its integer part, and it rounded to the nearest integer, ties to
// even (printf's rounding of the exact value).
struct Scaled {
  Uint128 floor, rounded;
};
Scaled Scale(std::uint64_t m, int e, int s) {
  const Uint128 n = Uint128{m} * Pow10(s);
  if (e >= 0) return {n << e, n << e};
  const int shift = -e;
  const Uint128 q = n >> shift;
  const Uint128 rest = n - (q << shift);
  const Uint128 half = Uint128{1} << (shift - 1);
  return {q, q + ((rest > half || (rest == half && (q & 1) != 0)) ? 1 : 0)};
}

// The 17 significant digits of v > 0 (1e-6 <= v < 1e17) and its decimal
// exponent; false outside the range this computes exactly.
bool Digits17(double v, char digits[17], int* exponent) {
  int binary = 0;
  const double fraction = std::frexp(v, &binary);  // v = fraction * 2^binary
  const auto m = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  const int e = binary - 53;
  if (e > 10 || e < -127) return false;
  int decimal = static_cast<int>(std::floor(std::log10(v)));
  for (int tries = 0; tries < 3; ++tries) {
    const int s = 16 - decimal;
    if (s < 0 || s > 22) return false;
    const Scaled scaled = Scale(m, e, s);
    const Uint128 d = scaled.rounded;
    if (scaled.floor < Pow10(16)) {
      --decimal;  // the estimate was high
    } else if (d >= Pow10(17)) {
      ++decimal;  // the estimate was low, or rounding carried into a new digit
    } else {
      auto rest = static_cast<std::uint64_t>(d);
      for (int i = 16; i >= 0; --i, rest /= 10) digits[i] = static_cast<char>('0' + rest % 10);
      *exponent = decimal;
      return true;
    }
  }
  return false;
}

}  // namespace

void AppendPrintfG17(std::string& out, double x) {
  char digits[17];
  int exponent = 0;
  if (x == 0) {
    out += std::signbit(x) ? "-0" : "0";
    return;
  }
  if (!std::isfinite(x) || !Digits17(std::fabs(x), digits, &exponent)) {
    char buffer[40];
    out.append(buffer, static_cast<std::size_t>(std::snprintf(buffer, sizeof buffer, "%.17g", x)));
    return;
  }
  if (x < 0) out += '-';
  int last = 16;  // %g drops trailing zeros, and a point with nothing after it
  while (last > 0 && digits[last] == '0') --last;
  if (exponent < -4) {  // %e: d.ddde-0X (exponent at least two digits)
    out += digits[0];
    if (last > 0) out.append(".").append(digits + 1, last);
    out.append(exponent > -10 ? "e-0" : "e-");
    out += std::to_string(-exponent);
    return;
  }
  if (exponent < 0) {  // 0.000ddd
    out.append("0.").append(static_cast<std::size_t>(-exponent - 1), '0').append(digits, last + 1);
    return;
  }
  out.append(digits, exponent + 1);
  if (last > exponent) out.append(".").append(digits + exponent + 1, last - exponent);
}

}  // namespace martiandice
