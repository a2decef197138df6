// Helpers shared by the command-line tests (cli_test.cpp, cli_game_test.cpp):
// a tiny strict JSON parser to read the output back (no JSON library is
// approved), RunCli wrappers, and checks of the eval/best JSON contract.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"

namespace cli_test {

// ---------------------------------------------------------------------------
// A tiny strict JSON parser (RFC 8259 subset: \u escapes only below U+0800).

struct Json {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<Json> items;        // array elements, or object values
  std::vector<std::string> keys;  // object keys, parallel to items

  bool is_null() const { return kind == Kind::kNull; }
  bool Has(const std::string& key) const {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  }
  const Json& operator[](const std::string& key) const {
    const auto it = std::find(keys.begin(), keys.end(), key);
    REQUIRE_MESSAGE(it != keys.end(), "missing JSON key: " << key);
    return items[it - keys.begin()];
  }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& text) : text_(text) {}

  std::optional<Json> ParseDocument() {
    std::optional<Json> value = ParseValue();
    SkipSpace();
    if (!value || pos_ != text_.size()) return std::nullopt;
    return value;
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && std::string(" \t\r\n").find(text_[pos_]) != std::string::npos) {
      ++pos_;
    }
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool ConsumeWord(const std::string& word) {
    if (text_.compare(pos_, word.size(), word) != 0) return false;
    pos_ += word.size();
    return true;
  }

  std::optional<Json> ParseValue() {
    SkipSpace();
    if (pos_ >= text_.size()) return std::nullopt;
    const char c = text_[pos_];
    Json json;
    if (c == '{') return ParseObject();
    if (c == '[') return ParseArray();
    if (c == '"') {
      std::optional<std::string> s = ParseString();
      if (!s) return std::nullopt;
      json.kind = Json::Kind::kString;
      json.text = *s;
      return json;
    }
    if (ConsumeWord("null")) return json;
    json.kind = Json::Kind::kBool;
    if (ConsumeWord("true")) return json.boolean = true, json;
    if (ConsumeWord("false")) return json;
    return ParseNumber();
  }

  std::optional<Json> ParseNumber() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() &&
           std::string("+-0123456789.eE").find(text_[pos_]) != std::string::npos) {
      ++pos_;
    }
    if (pos_ == start) return std::nullopt;
    const std::string token = text_.substr(start, pos_ - start);
    char* end = nullptr;
    Json json;
    json.kind = Json::Kind::kNumber;
    json.number = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size()) return std::nullopt;
    return json;
  }

  std::optional<std::string> ParseString() {
    if (!Consume('"')) return std::nullopt;
    std::string out;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) return std::nullopt;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) return std::nullopt;
      const char e = text_[pos_++];
      const std::string simple = "\"\\/bfnrt";
      const std::string decoded = "\"\\/\b\f\n\r\t";
      if (const auto at = simple.find(e); at != std::string::npos) {
        out += decoded[at];
      } else if (e == 'u' && pos_ + 4 <= text_.size()) {
        const int code = std::stoi(text_.substr(pos_, 4), nullptr, 16);
        if (code >= 0x800) return std::nullopt;
        if (code < 0x80) {
          out += static_cast<char>(code);
        } else {  // two bytes of UTF-8 (C1 controls come escaped)
          out += static_cast<char>(0xc0 | (code >> 6));
          out += static_cast<char>(0x80 | (code & 0x3f));
        }
        pos_ += 4;
      } else {
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  std::optional<Json> ParseArray() {
    Consume('[');
    Json json;
    json.kind = Json::Kind::kArray;
    if (Consume(']')) return json;
    do {
      std::optional<Json> item = ParseValue();
      if (!item) return std::nullopt;
      json.items.push_back(*item);
    } while (Consume(','));
    if (!Consume(']')) return std::nullopt;
    return json;
  }

  std::optional<Json> ParseObject() {
    Consume('{');
    Json json;
    json.kind = Json::Kind::kObject;
    if (Consume('}')) return json;
    do {
      SkipSpace();
      std::optional<std::string> key = ParseString();
      if (!key || !Consume(':')) return std::nullopt;
      std::optional<Json> value = ParseValue();
      if (!value || json.Has(*key)) return std::nullopt;
      json.keys.push_back(*key);
      json.items.push_back(*value);
    } while (Consume(','));
    if (!Consume('}')) return std::nullopt;
    return json;
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

inline Json ParseJsonOrFail(const std::string& text) {
  std::optional<Json> json = JsonParser(text).ParseDocument();
  REQUIRE_MESSAGE(json.has_value(), "not one JSON value: " << text);
  REQUIRE(json->kind == Json::Kind::kObject);
  return *json;
}

// ---------------------------------------------------------------------------
// Running the CLI.

struct CliRun {
  int code = -1;
  std::string out;
  std::string err;
};

inline CliRun Run(const std::vector<std::string>& args,
                  const martiandice::CliEnvironment& environment = {}) {
  std::ostringstream out;
  std::ostringstream err;
  CliRun run;
  run.code = martiandice::RunCli(args, out, err, environment);
  run.out = out.str();
  run.err = err.str();
  return run;
}

inline Json RunJson(const std::vector<std::string>& args) {
  const CliRun run = Run(args);
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  CHECK(run.err.empty());
  // One object on one line.
  CHECK(std::count(run.out.begin(), run.out.end(), '\n') == 1);
  return ParseJsonOrFail(run.out);
}

inline bool Close(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

// "p/q" as a long double.
inline long double RationalValue(const std::string& text) {
  const auto slash = text.find('/');
  REQUIRE(slash != std::string::npos);
  const long double p = std::strtold(text.substr(0, slash).c_str(), nullptr);
  const long double q = std::strtold(text.substr(slash + 1).c_str(), nullptr);
  REQUIRE(q >= 1);
  return p / q;
}

// `key` is null or a number; with `exact`, `key_exact` is null exactly when
// `key` is, and otherwise a "p/q" string equal to the double.
inline void CheckValueField(const Json& object, const std::string& key, bool exact) {
  const Json& value = object[key];
  CHECK((value.is_null() || value.kind == Json::Kind::kNumber));
  CHECK(object.Has(key + "_exact") == exact);
  if (!exact) return;
  const Json& text = object[key + "_exact"];
  CHECK(text.is_null() == value.is_null());
  if (value.is_null()) return;
  REQUIRE(text.kind == Json::Kind::kString);
  CHECK(Close(static_cast<double>(RationalValue(text.text)), value.number));
}

// value == max(stop, roll) and the decision matches: for eval and for each take.
inline void CheckStopRollValue(const Json& object, const std::string& decision_key, bool exact) {
  for (const char* key : {"stop", "roll", "value"}) CheckValueField(object, key, exact);
  const Json& stop = object["stop"];
  const Json& roll = object["roll"];
  const double value = object["value"].number;
  const std::string decision = object[decision_key].text;
  if (stop.is_null()) {
    CHECK(Close(value, roll.number));
    CHECK(decision == "roll");
    return;
  }
  if (roll.is_null()) {
    CHECK(Close(value, stop.number));
    CHECK(decision == "stop");
    return;
  }
  CHECK(Close(value, std::max(stop.number, roll.number)));
  if (!Close(stop.number, roll.number)) {
    CHECK(decision == (stop.number > roll.number ? "stop" : "roll"));
  }
  if (exact) {
    const std::string value_exact = object["value_exact"].text;
    CHECK((value_exact == object["stop_exact"].text || value_exact == object["roll_exact"].text));
    const bool tied = object["stop_exact"].text == object["roll_exact"].text;
    CHECK((decision == "either") == tied);
  }
}

inline void CheckRules(const Json& object, int dice, int bonus, int target) {
  const Json& rules = object["rules"];
  CHECK(rules["dice"].number == dice);
  CHECK(rules["bonus"].number == bonus);
  CHECK(rules["target"].number == target);
}

// The options' checks of `best`; returns the largest option value.
inline double CheckOptions(const Json& best, bool exact) {
  const Json& options = best["options"];
  REQUIRE(options.kind == Json::Kind::kArray);
  double top = -1e300;
  for (const Json& option : options.items) {
    CheckStopRollValue(option, "then", exact);
    top = std::max(top, option["value"].number);
  }
  for (const Json& option : options.items) {
    CHECK(option["optimal"].boolean == Close(option["value"].number, top));
    if (exact) {
      CHECK(option["optimal"].boolean == (option["value_exact"].text == best["value_exact"].text));
    }
  }
  return top;
}

inline void CheckBestConsistent(const Json& best, bool exact) {
  const double top = CheckOptions(best, exact);
  CheckValueField(best, "value", exact);
  if (best["turn_over"].boolean) {
    CHECK(best["best"].is_null());
    CHECK(best["options"].items.empty());
    CHECK(best["turn_over_score"].kind == Json::Kind::kNumber);
    return;
  }
  CHECK(best["turn_over_score"].is_null());
  CHECK(Close(best["value"].number, top));
  const Json& first_optimal =
      *std::find_if(best["options"].items.begin(), best["options"].items.end(),
                    [](const Json& option) { return option["optimal"].boolean; });
  CHECK(best["best"]["take"].text == first_optimal["take"].text);
  CHECK(best["best"]["then"].text == first_optimal["then"].text);
  CHECK(best["best"]["count"].number == first_optimal["count"].number);
}

inline void CheckUsageError(const std::vector<std::string>& args, const std::string& names) {
  std::string joined;
  for (const std::string& arg : args) joined += "[" + arg + "] ";
  INFO("args: " << joined);
  const CliRun run = Run(args);
  INFO("stderr: " << run.err);
  CHECK(run.code == 2);
  CHECK(run.out.empty());
  CHECK(run.err.rfind("martiandice: error: ", 0) == 0);
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK(!run.err.empty());
  CHECK(run.err.back() == '\n');
  CHECK(run.err.find(names) != std::string::npos);
}

}  // namespace cli_test
