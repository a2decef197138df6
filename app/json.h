// The command line's one JSON module. The writer, for every `--json` output:
// quoted strings, doubles that round-trip, and objects built one field at a
// time with keys in insertion order; it appends in place, so a response costs
// few allocations. The reader, for `serve`'s requests: one flat object per
// line, strictly (RFC 8259), with bounds on what it holds.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"

namespace martiandice {

// Length of the well-formed UTF-8 sequence at text[0..size) (size >= 1) of
// two to four bytes, or 0 (ASCII, or not well-formed).
std::size_t Utf8Length(const unsigned char* text, std::size_t size);

// True when the well-formed `length`-byte character at text[0] is a C1
// control (U+0080..U+009F): escaped like C0, never sent raw.
bool IsC1Control(const unsigned char* text, std::size_t length);

// True for the bytes a JSON string must escape (here: also DEL), and the
// first bytes of the characters that need a look (every non-ASCII byte).
inline bool JsonEscaped(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte >= 0x7f || c == '"' || c == '\\';
}

// Appends `text` as a JSON string (quotes and escapes included), valid UTF-8
// whatever `text` holds: control characters (C0, DEL, C1) escaped ("\u009b"),
// a byte that starts no well-formed UTF-8 character written as U+FFFD, so
// that neither a parser nor a terminal meets a raw control byte.
inline void AppendJsonString(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  bool plain_text = true;
  for (const char c : text) plain_text &= !JsonEscaped(c);
  if (plain_text && text.size() <= 62) {  // the usual case: one append
    char quoted[64];
    quoted[0] = '"';
    std::memcpy(quoted + 1, text.data(), text.size());
    quoted[text.size() + 1] = '"';
    out.append(quoted, text.size() + 2);
    return;
  }
  out += '"';
  std::size_t plain = 0;  // start of the run of characters copied as they are
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (!JsonEscaped(c)) continue;
    std::size_t length = 1;
    if (byte >= 0x80) {
      const auto* at = reinterpret_cast<const unsigned char*>(text.data() + i);
      length = Utf8Length(at, text.size() - i);
      if (length != 0 && !IsC1Control(at, length)) {  // a printable character: copied
        i += length - 1;
        continue;
      }
    }
    out.append(text.data() + plain, i - plain);
    if (length == 0) {  // not UTF-8: the replacement character
      out += "\xef\xbf\xbd";
      plain = i + 1;
      continue;
    }
    const unsigned code = length == 2 ? static_cast<unsigned char>(text[i + 1]) : byte;
    i += length - 1;
    plain = i + 1;
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += "\\u00";
      out += kHex[code >> 4];
      out += kHex[code & 15];
    }
  }
  out.append(text.data() + plain, text.size() - plain);
  out += '"';
}

inline std::string JsonString(std::string_view text) {
  std::string quoted;
  AppendJsonString(quoted, text);
  return quoted;
}

// Appends what printf's "%.17g" writes for `x`, computed exactly with 128-bit
// integers where 1e-6 <= |x| < 1e17 (probabilities and scores), by snprintf
// elsewhere: for a C++ library without floating-point std::to_chars (that of
// emscripten 3.1.6), whose snprintf takes several times as long.
void AppendPrintfG17(std::string& out, double x);

// Appends `x` with 17 significant digits (printf's "%.17g", so that the value
// round-trips); JSON has no NaN/inf, so those are null.
inline void AppendJsonDouble(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  // Whole numbers (scores) print as integers, as "%.17g" does, much faster.
  if (x != 0 && std::fabs(x) < 1e15 && x == std::trunc(x)) {
    char digits[24];
    const std::to_chars_result result =
        std::to_chars(digits, digits + sizeof digits, static_cast<std::int64_t>(x));
    out.append(digits, result.ptr);
    return;
  }
#if defined(__cpp_lib_to_chars)
  char buffer[40];
  const std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof buffer, x, std::chars_format::general, 17);
  out.append(buffer, result.ptr);
#else  // libc++ without floating-point to_chars (emscripten 3.1.6): the same digits
  AppendPrintfG17(out, x);
#endif
}

inline std::string JsonDouble(double x) {
  std::string text;
  AppendJsonDouble(text, x);
  return text;
}

// One JSON object, built field by field. Keys must be plain names (nothing
// JSON escapes: checked in debug builds), as the program's own field names are.
class JsonObject {
 public:
  // `reserve`: bytes to allocate up front (most objects fit 240: one allocation).
  explicit JsonObject(std::size_t reserve = 240) {
    body_.reserve(reserve);
    body_ += '{';
  }
  // `json` must be a JSON value.
  JsonObject& Raw(std::string_view key, std::string_view json) {
    Key(key);
    body_ += json;
    return *this;
  }
  JsonObject& Str(std::string_view key, std::string_view text) {
    Key(key);
    AppendJsonString(body_, text);
    return *this;
  }
  JsonObject& Int(std::string_view key, std::int64_t n) {
    Key(key);
    char digits[24];
    const std::to_chars_result result = std::to_chars(digits, digits + sizeof digits, n);
    body_.append(digits, result.ptr);
    return *this;
  }
  JsonObject& Double(std::string_view key, double x) {
    Key(key);
    AppendJsonDouble(body_, x);
    return *this;
  }
  JsonObject& Bool(std::string_view key, bool b) { return Raw(key, b ? "true" : "false"); }
  JsonObject& Null(std::string_view key) { return Raw(key, "null"); }
  // The object (a copy, or the buffer itself from an rvalue).
  std::string Build() const& { return body_ + "}"; }
  std::string Build() && {
    body_ += '}';
    return std::move(body_);
  }

 private:
  // Keys are the program's own field names, plain ASCII: never escaped.
  void Key(std::string_view key) {
    assert(std::none_of(key.begin(), key.end(), JsonEscaped));
    if (key.size() <= 60) {  // `,"key":` in one append
      char field[64];
      char* p = field;
      if (body_.size() > 1) *p++ = ',';
      *p++ = '"';
      std::memcpy(p, key.data(), key.size());
      p += key.size();
      *p++ = '"';
      *p++ = ':';
      body_.append(field, static_cast<std::size_t>(p - field));
      return;
    }
    if (body_.size() > 1) body_ += ',';
    AppendJsonString(body_, key);
    body_ += ':';
  }
  std::string body_;  // "{" and the fields so far
};

// "[a,b,...]" from JSON values.
inline std::string JsonArray(const std::vector<std::string>& items) {
  std::string json = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) json += ',';
    json += items[i];
  }
  return json + "]";
}

// "[a,b,...]" from doubles, each as AppendJsonDouble writes it.
inline std::string JsonDoubleArray(const std::vector<double>& values) {
  std::string json = "[";
  for (const double v : values) {
    if (json.size() > 1) json += ',';
    AppendJsonDouble(json, v);
  }
  json += ']';
  return json;
}

// "[a,b,...]" from integers.
inline std::string JsonIntArray(const std::vector<int>& values) {
  std::string json = "[";
  for (const int v : values) {
    if (json.size() > 1) json += ',';
    char digits[12];
    const std::to_chars_result result = std::to_chars(digits, digits + sizeof digits, v);
    json.append(digits, result.ptr);
  }
  json += ']';
  return json;
}

// ---------------------------------------------------------------------------
// The reader: flat JSON objects, strictly (RFC 8259). Values are strings,
// numbers, true/false/null and arrays of numbers; no nesting.

enum class JsonKind { kString, kNumber, kBool, kNull, kArray };

// "a string", "a number", ...: for messages.
std::string_view JsonKindName(JsonKind kind);

// One field of a flat object, pointing into the parsed text.
struct JsonField {
  std::string key;  // decoded
  JsonKind kind = JsonKind::kNull;
  // String: between the quotes, escapes not decoded (but checked); number:
  // the token; bool: "true" or "false"; array: between the brackets.
  std::string_view raw;
};

// Decodes a checked string body (JsonField::raw) into `out`. Errors
// (InvalidArgument): lone surrogates, NUL.
absl::Status DecodeJsonString(std::string_view raw, std::string& out);

// Parses one line as a flat JSON object; the fields are kept until the next
// Parse (their `raw` points into the text, which must outlive them). Errors
// (InvalidArgument) say "bad JSON at byte N: ..." or name the bound exceeded.
class FlatJsonParser {
 public:
  static constexpr std::size_t kMaxFields = 32;
  static constexpr std::size_t kMaxArrayItems = 64;
  static constexpr std::size_t kMaxNumberChars = 32;

  absl::Status Parse(std::string_view text);

  std::size_t size() const { return count_; }
  const JsonField& field(std::size_t i) const { return fields_[i]; }

 private:
  absl::Status Error(std::string_view what) const;
  void SkipSpace();
  bool Eat(char c);
  bool EatWord(std::string_view word);
  bool AtDigit() const { return pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9'; }
  void EatDigits();
  absl::Status ParseField();
  absl::Status ParseValue(JsonField& field);
  absl::Status ParseString(std::string_view* raw);
  absl::Status ParseNumber(std::string_view* raw);
  absl::Status ParseArray(JsonField& field);

  std::string_view text_;
  std::size_t pos_ = 0;
  std::array<JsonField, kMaxFields> fields_;
  std::size_t count_ = 0;
};

// One event line's object: {"event":EVENT, ...fields}, the fields (plain
// members of one object) spliced after "event" (play, coach, the wasm game).
std::string JsonEvent(std::string_view event, JsonObject&& fields);

}  // namespace martiandice
