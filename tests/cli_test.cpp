// Tests of the martiandice command line (tools/cli.h): the JSON contract of
// `eval`, `best` and `stats`, the human output, --help, every error path, and
// a few runs of the real executable. No JSON library is approved, so a tiny
// strict JSON parser below reads the output back.
#include "cli.h"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

// ---------------------------------------------------------------------------
// A tiny strict JSON parser (RFC 8259 subset: \u escapes only for ASCII).

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
        out += static_cast<char>(std::stoi(text_.substr(pos_, 4), nullptr, 16));
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

Json ParseJsonOrFail(const std::string& text) {
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

CliRun Run(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  CliRun run;
  run.code = martiandice::RunCli(args, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

Json RunJson(const std::vector<std::string>& args) {
  const CliRun run = Run(args);
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  CHECK(run.err.empty());
  // One object on one line.
  CHECK(std::count(run.out.begin(), run.out.end(), '\n') == 1);
  return ParseJsonOrFail(run.out);
}

bool Close(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

// "p/q" as a long double.
long double RationalValue(const std::string& text) {
  const auto slash = text.find('/');
  REQUIRE(slash != std::string::npos);
  const long double p = std::strtold(text.substr(0, slash).c_str(), nullptr);
  const long double q = std::strtold(text.substr(slash + 1).c_str(), nullptr);
  REQUIRE(q >= 1);
  return p / q;
}

// `key` is null or a number; with `exact`, `key_exact` is null exactly when
// `key` is, and otherwise a "p/q" string equal to the double.
void CheckValueField(const Json& object, const std::string& key, bool exact) {
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
void CheckStopRollValue(const Json& object, const std::string& decision_key, bool exact) {
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

void CheckRules(const Json& object, int dice, int bonus, int target) {
  const Json& rules = object["rules"];
  CHECK(rules["dice"].number == dice);
  CHECK(rules["bonus"].number == bonus);
  CHECK(rules["target"].number == target);
}

std::string TakeLabel(const std::string& face, int count) {
  return std::to_string(count) + " " + face + (count == 1 ? "" : "s");
}

// The options' checks of `best`; returns the largest option value.
double CheckOptions(const Json& best, bool exact) {
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

void CheckBestConsistent(const Json& best, bool exact) {
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

void CheckUsageError(const std::vector<std::string>& args, const std::string& names) {
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

const std::vector<std::string> kSampleBest = {"best",   "--aside",     "2T 4H",
                                              "--roll", "1T 2R 3C 1K", "--json"};

}  // namespace

// ---------------------------------------------------------------------------

TEST_CASE("cli eval json at the start of a turn") {
  const Json eval = RunJson({"eval", "--json"});
  CheckRules(eval, 13, 3, 25);
  CHECK(eval["aside"].text == "-");
  CHECK(eval["dice_left"].number == 13);
  CHECK(eval["objective"].text == "ev");
  CHECK(eval["stop"].is_null());
  CHECK(eval["action"].text == "roll");
  CheckStopRollValue(eval, "action", false);
  CHECK(eval["value"].number > 0);
  CHECK(eval["value"].number < 16);
}

TEST_CASE("cli eval json mid turn and with no dice left") {
  const Json mid = RunJson({"eval", "--aside", "3t 3r 4h 1k", "--json"});
  CHECK(mid["aside"].text == "3T 3R 4H 1K");
  CHECK(mid["dice_left"].number == 2);
  CHECK(mid["stop"].number == 5);
  CheckStopRollValue(mid, "action", false);

  const Json done = RunJson({"eval", "--aside", "6R 7H", "--json"});
  CHECK(done["dice_left"].number == 0);
  CHECK(done["roll"].is_null());
  CHECK(done["stop"].number == 7);
  CHECK(done["action"].text == "stop");
  CheckStopRollValue(done, "action", false);
}

TEST_CASE("cli eval exact strings agree with the doubles") {
  for (const char* aside : {"", "2T 4H", "3T 3R 4H 1K", "6R 7H"}) {
    INFO("aside: " << aside);
    const Json eval = RunJson({"eval", "--aside", aside, "--exact", "--json"});
    CHECK(eval["precision"].text == "exact");
    CheckStopRollValue(eval, "action", true);
  }
  const Json start = RunJson({"eval", "--exact", "--json"});
  CHECK(start["stop_exact"].is_null());
  const Json approx = RunJson({"eval", "--json"});
  CHECK(Close(approx["value"].number, start["value"].number));
}

TEST_CASE("cli best json for the rulebook's sample roll") {
  const Json best = RunJson(kSampleBest);
  CheckRules(best, 13, 3, 25);
  CHECK(best["aside"].text == "2T 4H");
  CHECK(best["rolled"].text == "1T 2R 3C 1K");
  CHECK(best["aside_after_tanks"].text == "3T 4H");
  CHECK_FALSE(best["turn_over"].boolean);
  const Json& options = best["options"];
  REQUIRE(options.items.size() == 3);
  CHECK(options.items[0]["take"].text == "ray");
  CHECK(options.items[0]["count"].number == 2);
  CHECK(options.items[1]["take"].text == "cow");
  CHECK(options.items[1]["count"].number == 3);
  CHECK(options.items[2]["take"].text == "chicken");
  CHECK(options.items[2]["count"].number == 1);
  CheckBestConsistent(best, false);
}

TEST_CASE("cli best json exact agrees with double") {
  std::vector<std::string> args = kSampleBest;
  args.push_back("--exact");
  const Json exact = RunJson(args);
  CheckBestConsistent(exact, true);
  const Json approx = RunJson(kSampleBest);
  CHECK(Close(exact["value"].number, approx["value"].number));
  CHECK(exact["best"]["take"].text == approx["best"]["take"].text);
}

TEST_CASE("cli best json when the turn is over or no dice are left") {
  // No ray and every earthling already taken: no legal take; 1 tank vs 1 ray.
  const Json over = RunJson({"best", "--aside", "1R 2H 2C 2K", "--roll", "1T 2H 2C 1K", "--json"});
  CHECK(over["turn_over"].boolean);
  CHECK(over["turn_over_score"].number == 9);
  CHECK(over["value"].number == 9);
  CheckBestConsistent(over, false);

  const Json last = RunJson({"best", "--aside", "4R 4H", "--roll", "5C", "--json", "--exact"});
  REQUIRE(last["options"].items.size() == 1);
  const Json& option = last["options"].items[0];
  CHECK(option["take"].text == "cow");
  CHECK(option["roll"].is_null());
  CHECK(option["roll_exact"].is_null());
  CHECK(option["then"].text == "stop");
  CHECK(option["stop_exact"].text == "9/1");
  CheckBestConsistent(last, true);
}

TEST_CASE("cli objectives and rule variants are echoed and respected") {
  const Json reach = RunJson({"eval", "--objective", "reach:10", "--json"});
  CHECK(reach["objective"].text == "reach:10");
  CHECK(reach["value"].number >= 0);
  CHECK(reach["value"].number <= 1);
  const Json capped = RunJson({"best", "--roll", "13R", "--objective", "capped:5", "--json"});
  CHECK(capped["value"].number <= 5);
  CheckBestConsistent(capped, false);
  const Json small = RunJson({"eval", "--dice", "6", "--bonus", "0", "--target", "10", "--json"});
  CheckRules(small, 6, 0, 10);
  CHECK(small["dice_left"].number == 6);
  CHECK(small["value"].number <= 6);
}

TEST_CASE("cli stats json counts roll outcomes") {
  const Json stats = RunJson({"stats", "--json"});
  CheckRules(stats, 13, 3, 25);
  CHECK(stats["max_turn_score"].number == 16);
  CHECK(stats["positions"].number > 1);
  CHECK(stats["canonical_positions"].number <= stats["positions"].number);
  CHECK(stats["terminal_positions"].number > 0);
  CHECK(stats["roll_pairs"].number > 0);
  const Json& rolls = stats["roll_outcomes"];
  REQUIRE(rolls.items.size() == 13);
  for (int n = 1; n <= 13; ++n) {
    const Json& roll = rolls.items[n - 1];
    CHECK(roll["dice"].number == n);
    // Multisets of n dice over 5 faces: C(n + 4, 4).
    CHECK(roll["outcomes"].number == (n + 1) * (n + 2) * (n + 3) * (n + 4) / 24);
    CHECK(roll["ordered_results"].number == std::pow(6.0, n));
  }
  const CliRun text = Run({"stats", "--dice", "4"});
  CHECK(text.code == 0);
  CHECK(text.out.find("4 dice") != std::string::npos);
}

TEST_CASE("cli human output names the best move") {
  const Json json = RunJson(kSampleBest);
  const std::string take =
      TakeLabel(json["best"]["take"].text, static_cast<int>(json["best"]["count"].number));
  const CliRun text = Run({"best", "--aside", "2T 4H", "--roll", "1T 2R 3C 1K"});
  CHECK(text.code == 0);
  CHECK(text.err.empty());
  CHECK(text.out.find("Best: take " + take + ", then ") != std::string::npos);
  CHECK(text.out.find("3 cows") != std::string::npos);
  CHECK(text.out.find("1 chicken ") != std::string::npos);
  CHECK(text.out.find('*') != std::string::npos);

  const CliRun exact = Run({"best", "--aside", "2T 4H", "--roll", "1T 2R 3C 1K", "--exact"});
  CHECK(exact.code == 0);
  CHECK(exact.out.find("exactly") != std::string::npos);
  CHECK(exact.out.find("Best: take " + take) != std::string::npos);

  const CliRun over = Run({"best", "--aside", "1R 2H 2C 2K", "--roll", "1T 2H 2C 1K"});
  CHECK(over.out.find("Turn over: no legal take; the turn scores 9.") != std::string::npos);
}

TEST_CASE("cli human eval shows stop, roll and the decision") {
  const CliRun start = Run({"eval"});
  CHECK(start.code == 0);
  CHECK(start.out.find("not allowed") != std::string::npos);
  CHECK(start.out.find("Decision: roll") != std::string::npos);
  const CliRun mid = Run({"eval", "--aside", "3T 3R 4H 1K", "--exact"});
  CHECK(mid.code == 0);
  CHECK(mid.out.find("exactly 5/1") != std::string::npos);
  CHECK(mid.out.find("Decision: ") != std::string::npos);
  const CliRun done = Run({"eval", "--aside", "6R 7H"});
  CHECK(done.out.find("Decision: stop") != std::string::npos);
}

TEST_CASE("cli help goes to stdout, exit 0, and explains the fields") {
  const CliRun app = Run({"--help"});
  CHECK(app.code == 0);
  CHECK(app.err.empty());
  for (const char* word : {"eval", "best", "stats", "reach:K", "Tank"}) {
    CHECK(app.out.find(word) != std::string::npos);
  }
  const CliRun best = Run({"best", "--help"});
  CHECK(best.code == 0);
  for (const char* word :
       {"--roll", "take", "stop", "roll", "value", "then", "optimal", "turn_over"}) {
    CHECK(best.out.find(word) != std::string::npos);
  }
  const CliRun eval = Run({"eval", "-h"});
  CHECK(eval.code == 0);
  CHECK(eval.out.find("action") != std::string::npos);
  CHECK(Run({"stats", "--help"}).code == 0);
}

TEST_CASE("cli bad input: one line on stderr, exit 2, nothing on stdout") {
  CheckUsageError({"eval", "--aside", "2X"}, "--aside");                       // unknown letter
  CheckUsageError({"eval", "--aside", "21R"}, "--aside");                      // notation overflow
  CheckUsageError({"eval", "--aside", "14R"}, "--aside");                      // more than 13 dice
  CheckUsageError({"eval", "--aside", "3T"}, "--aside");                       // tanks only
  CheckUsageError({"best", "--aside", "2T 4H", "--roll", "1T 2R"}, "--roll");  // wrong count
  CheckUsageError({"best", "--aside", "6R 7H", "--roll", "R"}, "--roll");      // no dice left
  CheckUsageError({"best", "--roll", "13Q"}, "--roll");
  CheckUsageError({"eval", "--objective", "bogus"}, "--objective");
  CheckUsageError({"eval", "--objective", "reach:abc"}, "--objective");
  CheckUsageError({"eval", "--dice", "0"}, "dice");
  CheckUsageError({"eval", "--dice", "21"}, "dice");
  CheckUsageError({"eval", "--dice", "abc"}, "--dice");
  CheckUsageError({"stats", "--dice", "-3"}, "dice");
  CheckUsageError({"eval", "--bonus", "-1"}, "bonus");
  CheckUsageError({"eval", "--target", "0"}, "target");
  CheckUsageError({"eval", "--bogus"}, "--bogus");          // unknown flag
  CheckUsageError({"best", "--aside", "2T 4H"}, "--roll");  // missing --roll
  CheckUsageError({"eval", "extra"}, "extra");              // extra positional
  CheckUsageError({"eval", "--aside"}, "--aside");          // missing value
  CheckUsageError({"eval", "best"}, "best");
  CheckUsageError({"stats", "--exact"}, "--exact");
  CheckUsageError({}, "eval, best, stats");  // no subcommand
  CheckUsageError({"frobnicate"}, "frobnicate");
  CheckUsageError({"--json"}, "--json");
}

#ifdef MARTIANDICE_CLI_PATH
namespace {

// Runs the real executable through the shell; stderr is dropped.
CliRun RunProcess(const std::string& args) {
  const std::string command =
      std::string("'") + MARTIANDICE_CLI_PATH + "' " + args + " 2>/dev/null";
  CliRun run;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, n);
  const int status = pclose(pipe);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace

TEST_CASE("cli executable runs with exit statuses") {
  const CliRun best = RunProcess("best --aside '2T 4H' --roll '1T 2R 3C 1K' --json");
  CHECK(best.code == 0);
  CheckBestConsistent(ParseJsonOrFail(best.out), false);
  const CliRun eval = RunProcess("eval --exact");
  CHECK(eval.code == 0);
  CHECK(eval.out.find("Decision: roll") != std::string::npos);
  const CliRun help = RunProcess("--help");
  CHECK(help.code == 0);
  CHECK(help.out.find("best") != std::string::npos);
  const CliRun bad = RunProcess("best --roll 'XYZ'");
  CHECK(bad.code == 2);
  CHECK(bad.out.empty());
  const CliRun none = RunProcess("");
  CHECK(none.code == 2);
  CHECK(none.out.empty());
}
#endif  // MARTIANDICE_CLI_PATH
