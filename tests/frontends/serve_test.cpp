// `martiandice serve` (tools/serve.h): responses equal the one-shot CLI's
// --json output, ids are echoed, bad requests get one error line and the
// service goes on, hostile input never crashes or hangs, long lines are
// refused, and output is flushed exactly when the service waits for input.
#include "serve.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "cli.h"
#include "cli_test_util.h"
#include "commands.h"
#include "json.h"
#include "martiandice/state_space.h"
#include "test_util.h"

namespace {

using cli_test::Json;
using cli_test::JsonParser;

struct ServeRun {
  int code = -1;
  std::vector<std::string> lines;  // response lines, newlines removed
  std::string out;
  std::string err;
};

ServeRun RunServe(const std::string& input) {
  std::istringstream in(input);
  martiandice::CliEnvironment environment;
  environment.in = &in;
  std::ostringstream out;
  std::ostringstream err;
  ServeRun run;
  run.code = martiandice::RunCli({"serve"}, out, err, environment);
  run.out = out.str();
  run.err = err.str();
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) run.lines.push_back(line);
  return run;
}

// The one-shot CLI's --json output for `args`.
std::string CliJson(std::vector<std::string> args) {
  args.push_back("--json");
  const cli_test::CliRun run = cli_test::Run(args);
  INFO("stderr: " << run.err);
  REQUIRE(run.code == 0);
  return run.out;
}

struct Case {
  std::vector<std::string> args;  // the one-shot command line
  std::string request;            // the same request's fields, without command and id
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {{"eval"}, ""},
      {{"eval", "--aside", "3T 3R 4H 1K"}, R"("aside":"3T 3R 4H 1K")"},
      {{"eval", "--aside", "3T 3R 4H 1K", "--exact"}, R"("aside":"3T 3R 4H 1K","exact":true)"},
      {{"eval", "--objective", "reach:10", "--aside", "3T 3R 4H 1K"},
       R"("objective":"reach:10","aside":"3T 3R 4H 1K")"},
      {{"eval", "--objective", "capped:8", "--aside", "2T 4H"},
       R"("objective":"capped:8","aside":"2T 4H")"},
      {{"eval", "--dice", "6", "--bonus", "2", "--target", "12", "--aside", "1T 1R 1H"},
       R"("dice":6,"bonus":2,"target":12,"aside":"1T 1R 1H")"},
      {{"best", "--roll", "2T 3R 4H 3C 1K"}, R"("roll":"2T 3R 4H 3C 1K")"},
      {{"best", "--aside", "2T 4H", "--roll", "1T 2R 3C 1K"},
       R"("aside":"2T 4H","roll":"1T 2R 3C 1K")"},
      {{"best", "--aside", "3T 2R 4H", "--roll", "2H 1C 1K"},
       R"("aside":"3T 2R 4H","roll":"2H 1C 1K")"},
      {{"best", "--aside", "3T 2R 4H 1K", "--roll", "1R 1H 1C", "--exact"},
       R"("aside":"3T 2R 4H 1K","roll":"1R 1H 1C","exact":true)"},
      // No legal take: the turn is over.
      {{"best", "--aside", "2T 2R 4H 3C", "--roll", "1H 1C"},
       R"("aside":"2T 2R 4H 3C","roll":"1H 1C")"},
      {{"best", "--objective", "reach:6", "--aside", "1T 1R", "--roll", "2T 3R 3H 2C 1K"},
       R"("objective":"reach:6","aside":"1T 1R","roll":"2T 3R 3H 2C 1K")"},
      // The win objective, from the shipped table.
      {{"eval", "--objective", "win", "--scores", "0,0"}, R"("objective":"win","scores":[0,0])"},
      {{"best", "--objective", "win", "--scores", "18,22", "--seat", "0", "--aside", "3T 2R 4H 1K",
        "--roll", "1R 1H 1C"},
       R"("objective":"win","scores":[18,22],"seat":0,"aside":"3T 2R 4H 1K","roll":"1R 1H 1C")"},
      {{"eval", "--objective", "win", "--scores", "25,21", "--seat", "1", "--aside", "3T 3R 4H 1K"},
       R"("objective":"win","scores":"25,21","seat":1,"aside":"3T 3R 4H 1K")"},
      {{"eval", "--objective", "win", "--scores", "10,12", "--players", "2", "--tables",
        MARTIANDICE_DATA_DIR},
       R"("objective":"win","scores":[10,12],"players":2,"tables":")" MARTIANDICE_DATA_DIR "\""},
      // Three players: the shipped version 3 table (turns solved on demand).
      {{"best", "--objective", "win", "--scores", "10,12,8", "--seat", "1", "--roll",
        "2T 2R 3H 4C 2K"},
       R"("objective":"win","scores":[10,12,8],"seat":1,"roll":"2T 2R 3H 4C 2K")"},
      {{"eval", "--objective", "win", "--scores", "30,12,20", "--seat", "2", "--aside", "2T 3R 4H"},
       R"("objective":"win","scores":[30,12,20],"seat":2,"aside":"2T 3R 4H")"},
      // No table named and none found: the fallback, as the CLI answers.
      {{"eval", "--objective", "win", "--scores", "1,2", "--dice", "6"},
       R"("objective":"win","scores":[1,2],"dice":6)"},
      {{"best", "--objective", "win", "--scores", "1,2,3,4", "--roll", "2T 3R 4H 3C 1K"},
       R"("objective":"win","scores":[1,2,3,4],"roll":"2T 3R 4H 3C 1K")"},
      {{"stats"}, ""},
      {{"stats", "--dice", "6"}, R"("dice":6)"},
  };
  return cases;
}

std::string Request(const Case& c, const std::string& id) {
  std::string request = "{";
  if (!id.empty()) request += "\"id\":" + id + ",";
  request += "\"command\":\"" + c.args.front() + "\"";
  if (!c.request.empty()) request += "," + c.request;
  return request + "}";
}

// `json` (one object, newline included) with "id":ID as its first field.
std::string WithId(const std::string& json, const std::string& id) {
  return "{\"id\":" + id + "," + json.substr(1);
}

Json ParseLine(const std::string& line) {
  std::optional<Json> json = JsonParser(line).ParseDocument();
  REQUIRE_MESSAGE(json.has_value(), "not JSON: " << line);
  REQUIRE(json->kind == Json::Kind::kObject);
  return *json;
}

// An error line: {"id":ID,"error":"..."} with `id` ("null" if none). The
// message names no command-line option: a field's name starts it.
void CheckError(const std::string& line, const std::string& id, const std::string& names = "") {
  INFO("response: " << line);
  CHECK(line.rfind("{\"id\":" + id + ",\"error\":\"", 0) == 0);
  const Json json = ParseLine(line);
  CHECK(json.keys.size() == 2);
  CHECK(json["error"].kind == Json::Kind::kString);
  CHECK(!json["error"].text.empty());
  CHECK(json["error"].text.find(names) != std::string::npos);
  CHECK(json["error"].text.rfind("--", 0) == std::string::npos);
}

}  // namespace

TEST_CASE("serve: each response equals the one-shot CLI's --json output") {
  std::string input;
  std::vector<std::string> expected;
  int n = 0;
  for (const Case& c : Cases()) {
    const std::string json = CliJson(c.args);
    input += Request(c, "") + "\n";  // without an id: the CLI's object as it is
    expected.push_back(json);
    const std::string id = (n++ % 2 == 0) ? std::to_string(n) : "\"req-" + std::to_string(n) + "\"";
    input += Request(c, id) + "\n";  // with an id: echoed first
    expected.push_back(WithId(json, id));
  }
  const ServeRun run = RunServe(input);
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  REQUIRE(run.lines.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("request: " << Request(Cases()[i / 2], i % 2 ? "ID" : ""));
    CHECK(run.lines[i] + "\n" == expected[i]);
  }
}

TEST_CASE("serve: the rulebook's last decision, exactly") {
  const ServeRun run = RunServe(R"({"id":9,"command":"eval","exact":true,"aside":"3T 3R 4H 1K"})"
                                "\n");
  REQUIRE(run.lines.size() == 1);
  const Json json = ParseLine(run.lines[0]);
  CHECK(json["id"].number == 9);
  CHECK(json["roll_exact"].text == "281/54");
  CHECK(json["stop_exact"].text == "5/1");
  CHECK(json["action"].text == "roll");
}

TEST_CASE("serve: ids are echoed as given (strings re-encoded, numbers verbatim, null)") {
  const ServeRun run = RunServe(
      "{\"id\":\"a\\\"b\\u00e9\",\"command\":\"eval\"}\n"
      "{\"id\":-12.5e3,\"command\":\"eval\"}\n"
      "{\"id\":null,\"command\":\"eval\"}\n"
      "{\"command\":\"eval\",\"id\":\"last\"}\n");
  REQUIRE(run.lines.size() == 4);
  CHECK(run.lines[0].rfind("{\"id\":\"a\\\"b\xc3\xa9\",\"rules\"", 0) == 0);
  CHECK(run.lines[1].rfind("{\"id\":-12.5e3,\"rules\"", 0) == 0);
  CHECK(run.lines[2].rfind("{\"id\":null,\"rules\"", 0) == 0);
  CHECK(run.lines[3].rfind("{\"id\":\"last\",\"rules\"", 0) == 0);
}

TEST_CASE("serve: bad requests get one error line each and the service goes on") {
  struct Bad {
    std::string line;
    std::string id;     // echoed id, "null" if none
    std::string names;  // part of the message
  };
  const std::string long_string(100, 'x');
  std::string many_fields = "{\"command\":\"eval\"";
  for (int i = 0; i < 40; ++i) many_fields += ",\"f" + std::to_string(i) + "\":1";
  many_fields += "}";
  std::string long_array = "{\"command\":\"eval\",\"scores\":[";
  for (int i = 0; i < 70; ++i) long_array += (i ? ",1" : "1");
  long_array += "]}";
  const std::vector<Bad> bad = {
      // Not JSON, or not a flat object.
      {"nope", "null", "bad JSON"},
      {"{", "null", "bad JSON"},
      {"[1,2]", "null", "expected '{'"},
      {"\"eval\"", "null", "expected '{'"},
      {R"({"command":"eval"}})", "null", "after the object"},
      {R"({"command":"eval",})", "null", "bad JSON"},
      {R"({"command" "eval"})", "null", "expected ':'"},
      {R"({"command":"eval" "dice":6})", "null", "expected ','"},
      {R"({"command":'eval'})", "null", "bad JSON"},
      {R"({"command":"eval","dice":013})", "null", "leading zeros"},
      {R"({"command":"eval","dice":-})", "null", "bad number"},
      {R"({"command":"eval","dice":1.})", "null", "bad number"},
      {R"({"command":"eval","dice":tru})", "null", "expected a value"},
      {R"({"command":"eval","x":{"y":1}})", "null", "nested objects"},
      {R"({"command":"eval","scores":[1,[2]]})", "null", "only hold numbers"},
      {R"({"command":"eval","scores":["1"]})", "null", "only hold numbers"},
      {R"({"command":"eval","aside":"unterminated})", "null", "unterminated"},
      {"{\"command\":\"eval\",\"aside\":\"a\x01\"}", "null", "control character"},
      {"{\"command\":\"eval\",\"aside\":\"\xff\"}", "null", "UTF-8"},
      {"{\"command\":\"eval\",\"aside\":\"\xc0\xaf\"}", "null", "UTF-8"},      // overlong
      {"{\"command\":\"eval\",\"aside\":\"\xed\xa0\x80\"}", "null", "UTF-8"},  // surrogate
      {R"({"command":"eval","aside":"\q"})", "null", "bad escape"},
      {R"({"command":"eval","aside":"\u12"})", "null", "bad \\u escape"},
      {R"({"command":"eval","dice":123456789012345678901234567890123})", "null", "longer than"},
      {R"({"id":1,"command":"eval","command":"best"})", "null", "duplicate field"},
      {many_fields, "null", "more than 32 fields"},
      {long_array, "null", "longer than 64 items"},
      // JSON, but not a request.
      {R"({"id":2,"aside":"-"})", "2", "missing field \"command\""},
      {R"({"id":3,"command":"solve"})", "3", "unknown command"},
      {R"({"id":4,"command":7})", "4", "expected a string, got a number"},
      {R"({"id":[1],"command":"eval"})", "null", "id"},
      {R"({"id":5,"command":"eval","bogus":1})", "5", "unknown field \"bogus\""},
      {R"({"id":6,"command":"eval","roll":"2T"})", "6", "does not apply to eval"},
      {R"({"id":7,"command":"stats","aside":"2T"})", "7", "does not apply to stats"},
      {R"({"id":8,"command":"best"})", "8", "missing field \"roll\""},
      {R"({"id":9,"command":"eval","dice":"13"})", "9", "expected an integer, got a string"},
      {R"({"id":10,"command":"eval","dice":13.5})", "10", "expected an integer"},
      {R"({"id":11,"command":"eval","dice":1e1})", "11", "expected an integer"},
      {R"({"id":12,"command":"eval","dice":99999999999})", "12", "32 bits"},
      {R"({"id":130,"command":"open","tables":""})", "130",
       "field \"tables\": expected a table file or a directory, got an empty path"},
      {R"({"id":13,"command":"eval","exact":1})", "13", "expected true or false"},
      {R"({"id":14,"command":"eval","aside":null})", "14", "got null"},
      {R"({"id":15,"command":"eval","aside":"\ud800"})", "15", "surrogate"},
      {R"({"id":16,"command":"eval","aside":"\u0000"})", "16", "NUL"},
      {R"({"id":17,"command":"eval","scores":[]})", "17", "at least one score"},
      {R"({"id":18,"command":"eval","objective":"win","scores":[1,2.5]})", "18", "integers"},
      // Valid JSON requests with bad inputs: the advisor's messages, which
      // start with the field's name.
      {R"({"id":19,"command":"eval","aside":"2X"})", "19", "aside: "},
      {R"({"id":20,"command":"best","roll":"2T 3R"})", "20", "roll: "},
      {R"({"id":21,"command":"best","aside":"2T 4H","roll":"2H 6R"})", "21", "roll: "},
      {R"({"id":22,"command":"eval","dice":0})", "22", "invalid rules"},
      {R"({"id":23,"command":"eval","objective":"max"})", "23", "objective: "},
      {R"({"id":24,"command":"eval","objective":"win"})", "24",
       "scores: the win objective needs scores, every seat's total"},
      {R"({"id":25,"command":"eval","objective":"ev","scores":[1,2]})", "25",
       "scores: goes with the win objective"},
      {R"({"id":26,"command":"eval","objective":"win","scores":[1,2],"exact":true})", "26",
       "exact: "},
      {R"({"id":27,"command":"eval","objective":"win","scores":[1,2],"seat":2})", "27",
       "seat: seat 2 is out of range"},
      {R"({"id":28,"command":"eval","objective":"win","scores":[1,2],"tables":"/nonexistent/t.mdt"})",
       "28", "martiandice solve"},
      // A folder named holds no table for the game (unnamed, the fallback answers).
      {R"({"id":29,"command":"eval","objective":"win","scores":[1,2],"dice":6,"tables":")" MARTIANDICE_DATA_DIR
       R"("})",
       "29", "martiandice solve"},
      // A game's named table must be there too (unnamed, the game plays the fallback).
      {R"({"id":291,"command":"open","dice":6,"tables":")" MARTIANDICE_DATA_DIR R"("})", "291",
       "martiandice solve"},
      {R"({"id":30,"command":"stats","dice":21})", "30", "invalid rules"},
      {"{\"id\":31,\"command\":\"eval\",\"aside\":\"" + long_string + "\"}", "31", "aside: "},
      {R"({"id":32,"command":"eval","objective":"win","scores":[1,2],"players":3})", "32",
       "players: 3 does not match the 2 totals of scores"},
  };
  const std::string good = R"({"id":"ok","command":"best","roll":"2T 3R 4H 3C 1K"})";
  const std::string good_json = WithId(CliJson({"best", "--roll", "2T 3R 4H 3C 1K"}), "\"ok\"");
  std::string input;
  for (const Bad& b : bad) input += b.line + "\n" + good + "\n";
  const ServeRun run = RunServe(input);
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  REQUIRE(run.lines.size() == 2 * bad.size());
  for (std::size_t i = 0; i < bad.size(); ++i) {
    INFO("request: " << bad[i].line);
    CheckError(run.lines[2 * i], bad[i].id, bad[i].names);
    CHECK(run.lines[2 * i + 1] + "\n" == good_json);
  }
}

TEST_CASE("serve: every command of the table is named by --help, errors and docs, and answered") {
  const std::vector<std::string_view> names = martiandice::ServeCommandNames();
  REQUIRE(names.size() >= 6);
  for (const char* name : {"eval", "best", "stats", "open", "enter", "close"}) {
    CHECK(std::find(names.begin(), names.end(), name) != names.end());
  }
  // serve --help: one line per command, in the table's order.
  const cli_test::CliRun help = cli_test::Run({"serve", "--help"});
  REQUIRE(help.code == 0);
  const std::size_t commands = help.out.find("\nCommands (the field \"command\", required):\n");
  REQUIRE(commands != std::string::npos);
  std::istringstream lines(help.out.substr(help.out.find('\n', commands + 1) + 1));
  std::vector<std::string> listed;
  for (std::string line; std::getline(lines, line) && line.rfind("  ", 0) == 0;) {
    listed.push_back(line.substr(2, line.find(' ', 2) - 2));
  }
  CHECK(listed == std::vector<std::string>(names.begin(), names.end()));
  // The errors list them: "eval, best, ... or close".
  std::string choices;
  for (std::size_t i = 0; i < names.size(); ++i) {
    choices += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
  }
  const ServeRun run = RunServe("{\"command\":\"frob\"}\n{}\n");
  REQUIRE(run.lines.size() == 2);
  CHECK(run.lines[0] ==
        "{\"id\":null,\"error\":\"field \\\"command\\\": unknown command \\\"frob\\\"; use " +
            choices + "\"}");
  CHECK(run.lines[1] ==
        "{\"id\":null,\"error\":\"missing field \\\"command\\\" (" + choices + ")\"}");
  // Each is dispatched (answered, or refused for its own missing fields), and
  // docs/SERVE.md describes it.
  std::ifstream doc_file(MARTIANDICE_DATA_DIR "/../docs/SERVE.md");
  const std::string doc((std::istreambuf_iterator<char>(doc_file)), {});
  REQUIRE(!doc.empty());
  for (const std::string_view name : names) {
    INFO("command: " << name);
    const ServeRun one = RunServe("{\"id\":7,\"command\":\"" + std::string(name) + "\"}\n");
    REQUIRE(one.lines.size() == 1);
    CHECK(one.lines[0].rfind("{\"id\":7,", 0) == 0);
    CHECK(one.lines[0].find("unknown command") == std::string::npos);
    CHECK(doc.find("`" + std::string(name) + "`") != std::string::npos);
  }
}

TEST_CASE("serve: blank lines are skipped, CRLF and a last line without newline are answered") {
  const ServeRun run =
      RunServe("\n  \n{\"id\":1,\"command\":\"eval\"}\r\n\t\n{\"id\":2,\"command\":\"eval\"}");
  CHECK(run.code == 0);
  REQUIRE(run.lines.size() == 2);
  CHECK(ParseLine(run.lines[0])["id"].number == 1);
  CHECK(ParseLine(run.lines[1])["id"].number == 2);
  CHECK(RunServe("").lines.empty());
  CHECK(RunServe("").code == 0);
  // No input stream at all reads as an empty input.
  std::ostringstream out;
  std::ostringstream err;
  CHECK(martiandice::RunCli({"serve"}, out, err, {}) == 0);
  CHECK(out.str().empty());
}

TEST_CASE("serve: lines over the limit are refused unread, and the service goes on") {
  const std::size_t limit = martiandice::kServeMaxLineBytes;
  const std::string good = R"({"id":1,"command":"eval"})";
  std::string padded = R"({"id":2,"command":"eval","aside":"-")";
  padded += std::string(limit - padded.size() - 1, ' ') + "}";  // exactly at the limit
  REQUIRE(padded.size() == limit);
  const std::string over = padded + " ";
  const std::string huge(5 * limit + 17, 'x');
  // The limit does not count a "\r" before the newline; "\r" then more is over.
  const ServeRun run = RunServe(padded + "\n" + over + "\n" + good + "\n" + huge + "\n" + good +
                                "\n" + padded + "\r\n" + padded + "\r \n" + huge + "\n" + padded +
                                "\r");  // the last one with no newline
  CHECK(run.code == 0);
  REQUIRE(run.lines.size() == 9);
  CHECK(ParseLine(run.lines[0])["id"].number == 2);
  CheckError(run.lines[1], "null", "longer than 16384 bytes");
  CHECK(ParseLine(run.lines[2])["id"].number == 1);
  CheckError(run.lines[3], "null", "longer than");
  CHECK(ParseLine(run.lines[4])["id"].number == 1);
  CHECK(ParseLine(run.lines[5])["id"].number == 2);
  CheckError(run.lines[6], "null", "longer than");
  CheckError(run.lines[7], "null", "longer than");
  CHECK(ParseLine(run.lines[8])["id"].number == 2);
}

TEST_CASE("serve: hostile input never crashes or hangs, and each request line gets one JSON line") {
  std::mt19937_64 rng(20261121);
  const std::vector<std::string> seeds = {
      R"({"id":1,"command":"best","aside":"2T 4H","roll":"1T 2R 3C 1K"})",
      R"({"id":"x","command":"eval","objective":"win","scores":[18,22],"seat":1,"aside":"3T 2R"})",
      R"({"command":"stats","dice":7,"bonus":1,"target":9})",
      R"({"id":3,"command":"eval","exact":true,"objective":"capped:5","aside":"\u0031T"})",
  };
  const std::string alphabet =
      "{}[]\":,\\u0123456789-+.eE truefalsnl TRHCKbest\x01\x7f\xc3\xa9\xff\n";
  std::string input;
  int requests = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string line = seeds[rng() % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng() % (line.size() + 1);
      switch (rng() % 3) {
        case 0:  // insert
          line.insert(at, 1, alphabet[rng() % alphabet.size()]);
          break;
        case 1:  // delete
          if (at < line.size()) line.erase(at, 1);
          break;
        default:  // replace
          if (at < line.size()) line[at] = alphabet[rng() % alphabet.size()];
      }
    }
    if (i % 10 == 0) {  // pure noise
      line.clear();
      for (int k = static_cast<int>(rng() % 200); k > 0; --k) {
        line += static_cast<char>(rng() % 256);
      }
    }
    // Count the request lines the service will see (non-blank).
    std::istringstream pieces(line);
    for (std::string piece; std::getline(pieces, piece);) {
      if (piece.find_first_not_of(" \t\r") != std::string::npos) ++requests;
    }
    input += line + "\n";
  }
  const ServeRun run = RunServe(input);
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  CHECK(static_cast<int>(run.lines.size()) == requests);
  int errors = 0;
  for (const std::string& line : run.lines) {
    INFO("response: " << line);
    const Json json = ParseLine(line);
    errors += json.Has("error");
  }
  CHECK(errors > 0);
  CHECK(errors < requests);  // some mutations stay valid requests
}

namespace {

// An output buffer that records how much of it was flushed (sync).
class RecordingOut : public std::stringbuf {
 public:
  std::size_t flushed = 0;
  int syncs = 0;

 protected:
  int sync() override {
    flushed = str().size();
    ++syncs;
    return 0;
  }
};

// An input that hands out one chunk per read, and at every read checks that
// all the output so far was flushed (a frontend waiting for its answer).
class ChunkedIn : public std::streambuf {
 public:
  ChunkedIn(std::vector<std::string> chunks, const RecordingOut& out)
      : chunks_(std::move(chunks)), out_(out) {}
  int reads = 0;
  bool unflushed_at_read = false;

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (out_.flushed != out_.str().size()) unflushed_at_read = true;
    if (next_ == chunks_.size()) return traits_type::eof();
    ++reads;
    current_ = chunks_[next_++];
    setg(current_.data(), current_.data(), current_.data() + current_.size());
    return traits_type::to_int_type(*gptr());
  }
  std::streamsize showmanyc() override { return next_ == chunks_.size() ? -1 : 0; }

 private:
  std::vector<std::string> chunks_;
  std::size_t next_ = 0;
  std::string current_;
  const RecordingOut& out_;
};

}  // namespace

TEST_CASE("serve: output is flushed before every wait for input, not per line of a batch") {
  const std::string request = R"({"id":1,"command":"best","roll":"2T 3R 4H 3C 1K"})";
  SUBCASE("a frontend: one request at a time, split across reads") {
    RecordingOut out_buffer;
    ChunkedIn in_buffer({request.substr(0, 10), request.substr(10) + "\n", request + "\n",
                         "{\"command\":", "\"eval\"}\n"},
                        out_buffer);
    std::istream in(&in_buffer);
    std::ostream out(&out_buffer);
    std::ostringstream err;
    CHECK(martiandice::Serve(in, out, err) == 0);
    CHECK_FALSE(in_buffer.unflushed_at_read);
    CHECK(in_buffer.reads == 5);
    const std::string written = out_buffer.str();
    CHECK(std::count(written.begin(), written.end(), '\n') == 3);
    CHECK(out_buffer.flushed == out_buffer.str().size());
  }
  SUBCASE("a batch already buffered: answered with one flush") {
    std::string batch;
    for (int i = 0; i < 200; ++i) batch += request + "\n";
    RecordingOut out_buffer;
    ChunkedIn in_buffer({batch}, out_buffer);
    std::istream in(&in_buffer);
    std::ostream out(&out_buffer);
    std::ostringstream err;
    CHECK(martiandice::Serve(in, out, err) == 0);
    CHECK_FALSE(in_buffer.unflushed_at_read);
    const std::string written = out_buffer.str();
    CHECK(std::count(written.begin(), written.end(), '\n') == 200);
    CHECK(out_buffer.syncs <= 3);  // before the first read, at the end of input, at exit
  }
}

namespace {

// Serve with `args` (after "serve") over `input`, in process.
ServeRun RunServeWith(const std::vector<std::string>& args, const std::string& input) {
  std::istringstream in(input);
  martiandice::CliEnvironment environment;
  environment.in = &in;
  std::vector<std::string> command = {"serve"};
  command.insert(command.end(), args.begin(), args.end());
  const cli_test::CliRun cli = cli_test::Run(command, environment);
  ServeRun run{cli.code, {}, cli.out, cli.err};
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) run.lines.push_back(line);
  return run;
}

std::string WinRequest(const std::string& tables) {
  std::string request = R"({"command":"eval","objective":"win","scores":[1,2],"tables":)";
  martiandice::AppendJsonString(request, tables);
  return request + "}\n";
}

}  // namespace

// Varying the target or the bonus of `stats` costs no enumeration: the size
// of a turn depends on the dice alone, and each number of dice is enumerated
// once in a process.
TEST_CASE("serve: stats floods are answered from one enumeration per number of dice") {
  std::string input;
  for (int i = 1; i <= 20; ++i) {
    input += absl::StrFormat(R"({"id":%d,"command":"stats","dice":20,"target":%d,"bonus":%d})", i,
                             5 * i, i % 7) +
             "\n";
  }
  const std::int64_t before = martiandice::cli::TurnEnumerations();
  const ServeRun run = RunServe(input);
  CHECK(martiandice::cli::TurnEnumerations() - before <= 1);
  REQUIRE(run.lines.size() == 20);
  const Json first = ParseLine(run.lines[0]);
  for (int i = 1; i <= 20; ++i) {
    const Json json = ParseLine(run.lines[i - 1]);
    CHECK(json["rules"]["target"].number == 5 * i);
    CHECK(json["rules"]["bonus"].number == i % 7);
    CHECK(json["positions"].number == first["positions"].number);
    CHECK(json["roll_pairs"].number == first["roll_pairs"].number);
  }
  // Every number of dice, twice over: at most one enumeration each.
  input.clear();
  for (int round = 0; round < 2; ++round) {
    for (int dice = 1; dice <= 20; ++dice) {
      input +=
          absl::StrFormat(R"({"command":"stats","dice":%d,"target":%d})", dice, 7 + round) + "\n";
    }
  }
  const std::int64_t all_before = martiandice::cli::TurnEnumerations();
  CHECK(RunServe(input).lines.size() == 40);
  CHECK(martiandice::cli::TurnEnumerations() - all_before <= 20);
  CHECK(martiandice::cli::TurnEnumerations() <= 20);
}

// The size of a turn does not depend on the bonus or the target: what the
// stats cache relies on.
TEST_CASE("serve: a turn's size depends on the number of dice alone") {
  for (int dice : {1, 4, 7}) {
    const auto official = martiandice::ComputeStateSpaceStats({dice, 3, 25});
    for (const martiandice::Rules rules :
         {martiandice::Rules{dice, 0, 1}, martiandice::Rules{dice, 100, 200}}) {
      const auto other = martiandice::ComputeStateSpaceStats(rules);
      REQUIRE(other.ok());
      CHECK(other->positions == official->positions);
      CHECK(other->canonical_positions == official->canonical_positions);
      CHECK(other->terminal_positions == official->terminal_positions);
      CHECK(other->roll_pairs == official->roll_pairs);
    }
  }
}

// A request's `tables` is read only from the data search path and the
// --tables-dir folders; outside them it is refused by its name alone, with
// the same message whether the path exists or not.
TEST_CASE("serve: tables only from the data search path and --tables-dir") {
  test_util::TempDir allowed;
  test_util::TempDir outside;
  const std::string name = "martiandice-p2-d13-b3-t25.mdt";
  std::filesystem::copy_file(MARTIANDICE_DATA_DIR "/" + name, allowed.File(name));
  std::filesystem::copy_file(MARTIANDICE_DATA_DIR "/" + name, outside.File(name));
  std::filesystem::create_directory(allowed.File("sub"));
  const std::vector<std::string> refused = {
      outside.File(name),                                           // a table, outside
      outside.str(),                                                // its folder
      outside.File("missing.mdt"),                                  // nothing there
      "/etc/passwd",                                                // any file
      allowed.str() + "/../" + outside.path().filename().string(),  // out by ".."
      allowed.str() + "x/" + name,                                  // a sibling sharing the prefix
  };
  std::string input;
  for (const std::string& path : refused) input += WinRequest(path);
  input += WinRequest(allowed.str()) + WinRequest(allowed.File(name)) +
           WinRequest(MARTIANDICE_DATA_DIR) + WinRequest(allowed.str() + "/./sub/../" + name);
  const ServeRun run = RunServeWith({"--tables-dir", allowed.str()}, input);
  CHECK(run.code == 0);
  REQUIRE(run.lines.size() == refused.size() + 4);
  std::string message;  // the refusal, with the path taken out
  for (std::size_t i = 0; i < refused.size(); ++i) {
    INFO("tables: " << refused[i]);
    CheckError(run.lines[i], "null", "is outside the folders this service reads tables from");
    std::string text = ParseLine(run.lines[i])["error"].text;
    const std::size_t at = text.find(refused[i]);
    REQUIRE(at != std::string::npos);
    text.erase(at, refused[i].size());
    if (i == 0) message = text;
    CHECK(text == message);
  }
  for (std::size_t i = refused.size(); i < run.lines.size(); ++i) {
    INFO("response: " << run.lines[i]);
    CHECK(!ParseLine(run.lines[i]).Has("error"));
  }
  // Without --tables-dir the folder is refused too; a --tables-dir that is no folder is an error.
  CheckError(RunServeWith({}, WinRequest(allowed.str())).lines.at(0), "null",
             "is outside the folders");
  const ServeRun bad = RunServeWith({"--tables-dir", allowed.File(name)}, "");
  CHECK(bad.code == 2);
  CHECK(bad.err.find("--tables-dir: '" + allowed.File(name) + "' is not a directory") !=
        std::string::npos);
  const ServeRun empty = RunServeWith({"--tables-dir", ""}, "");
  CHECK(empty.code == 2);
  CHECK(empty.err.find("--tables-dir: give a folder") != std::string::npos);
}

// Input given one line at a time, calling `between(i)` before line i > 0 is
// read: the service has answered the lines before (it flushes before waiting).
class LineFeeder : public std::streambuf {
 public:
  LineFeeder(std::vector<std::string> lines, std::function<void(std::size_t)> between)
      : lines_(std::move(lines)), between_(std::move(between)) {}

 private:
  int_type underflow() override {
    if (next_ >= lines_.size()) return traits_type::eof();
    if (next_ > 0) between_(next_);
    current_ = lines_[next_++];
    setg(current_.data(), current_.data(), current_.data() + current_.size());
    return traits_type::to_int_type(current_[0]);
  }

  std::vector<std::string> lines_;
  std::function<void(std::size_t)> between_;
  std::size_t next_ = 0;
  std::string current_;
};

// A table file refused for its content is remembered: asked again while it is
// the same file, the answer is the same failure, without reading it again; once
// the file changes (repaired, regenerated), the next request reads it.
TEST_CASE("serve: a damaged table is not read again until the file changes") {
  test_util::TempDir dir;
  const std::string name = "martiandice-p2-d13-b3-t25.mdt";
  const std::string table = dir.File(name);
  const std::string good = test_util::ReadFile(MARTIANDICE_DATA_DIR "/" + name);
  REQUIRE(good.size() > 1000);
  std::string damaged = good;
  damaged[damaged.size() / 2] ^= 1;  // a checksum now fails
  test_util::WriteFile(table, damaged);
  const std::filesystem::file_time_type written = std::filesystem::last_write_time(table);
  std::string open = R"({"command":"open","tables":)";
  martiandice::AppendJsonString(open, table);
  open += "}\n";
  LineFeeder feeder({WinRequest(table), WinRequest(table), open, WinRequest(table)},
                    [&](std::size_t line) {
                      if (line == 1) {  // good bytes in place, the same file to the service
                        test_util::WriteFile(table, good);
                        std::filesystem::last_write_time(table, written);
                      }
                      if (line == 2) {  // now changed
                        std::filesystem::last_write_time(table, written + std::chrono::seconds(1));
                      }
                    });
  std::istream in(&feeder);
  martiandice::CliEnvironment environment;
  environment.in = &in;
  const cli_test::CliRun run = cli_test::Run({"serve", "--tables-dir", dir.str()}, environment);
  CHECK(run.code == 0);
  std::istringstream lines(run.out);
  std::vector<std::string> responses;
  for (std::string line; std::getline(lines, line);) responses.push_back(line);
  REQUIRE(responses.size() == 4);
  CheckError(responses[0], "null", "checksum");
  CHECK(responses[1] == responses[0]);           // remembered: the good bytes were not read
  CHECK(!ParseLine(responses[2]).Has("error"));  // a game's table, read now the file changed
  CHECK(!ParseLine(responses[3]).Has("error"));
}

TEST_CASE("serve: a failing output stream ends the service with exit 1") {
  // Serve stops reading at the failure; the command line reports it.
  std::istringstream in(R"({"command":"eval"})"
                        "\n"
                        R"({"command":"eval"})"
                        "\n");
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  std::ostringstream err;
  CHECK(martiandice::Serve(in, out, err) == martiandice::kCliExitOk);
  CHECK(err.str().empty());
  std::istringstream again(in.str());
  martiandice::CliEnvironment environment;
  environment.in = &again;
  std::ostringstream failing, cli_err;
  failing.setstate(std::ios::badbit);
  CHECK(martiandice::RunCli({"serve"}, failing, cli_err, environment) == 1);
  const std::string line = cli_err.str();
  CHECK(line.rfind("martiandice: error: cannot write the results to standard output", 0) == 0);
  CHECK(std::count(line.begin(), line.end(), '\n') == 1);
}

TEST_CASE("JSON writer: doubles are printf's %.17g, strings escaped") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int i = 0; i < 20000; ++i) {
    const double x = i % 3 == 0   ? unit(rng)
                     : i % 3 == 1 ? std::ldexp(unit(rng), static_cast<int>(rng() % 200) - 100)
                                  : static_cast<double>(rng() % 1000) / 8;
    CHECK(martiandice::JsonDouble(x) == absl::StrFormat("%.17g", x));
    CHECK(martiandice::JsonDouble(-x) == absl::StrFormat("%.17g", -x));
  }
  CHECK(martiandice::JsonDouble(0.0) == "0");
  CHECK(martiandice::JsonDouble(1e300 * 1e300) == "null");
  CHECK(martiandice::JsonString("a\"b\\c\n\t\r\x01\x7f\xc3\xa9") ==
        "\"a\\\"b\\\\c\\n\\t\\r\\u0001\\u007f\xc3\xa9\"");
  CHECK(martiandice::JsonString(std::string(100, 'z')) == "\"" + std::string(100, 'z') + "\"");
}

#ifdef MARTIANDICE_CLI_PATH
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// The real executable as a frontend drives it: one request written, then
// wait for its answer (a missing flush would leave the frontend waiting: the
// guard below fails the test instead of hanging it).
class ServeProcess {
 public:
  ServeProcess() {
    int in_pipe[2], out_pipe[2];
    REQUIRE(pipe(in_pipe) == 0);
    REQUIRE(pipe(out_pipe) == 0);
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {  // child: only async-signal-safe calls
      if (dup2(in_pipe[0], 0) < 0 || dup2(out_pipe[1], 1) < 0) _exit(127);
      for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) close(fd);
      char program[] = MARTIANDICE_CLI_PATH;
      char command[] = "serve";
      char* argv[] = {program, command, nullptr};
      execv(program, argv);
      _exit(127);
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    to_ = in_pipe[1];
    from_ = out_pipe[0];
  }
  ~ServeProcess() {
    if (to_ >= 0) close(to_);
    close(from_);
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }

  void Write(const std::string& text) {
    REQUIRE(write(to_, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  }

  // The next response line, or "" if none comes within the hang guard.
  std::string ReadLine() {
    for (;;) {
      const std::size_t newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        std::string line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        return line;
      }
      pollfd fd = {from_, POLLIN, 0};
      if (poll(&fd, 1, 10000) <= 0) return "";  // hang guard, not a timing check
      char chunk[4096];
      const ssize_t n = read(from_, chunk, sizeof chunk);
      if (n <= 0) return "";
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  // Closes stdin (EOF) and returns the exit status (-1 if it does not exit).
  int Finish() {
    close(to_);
    to_ = -1;
    for (int i = 0; i < 1000; ++i) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        reaped_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      usleep(10000);
    }
    return -1;
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1;
  int from_ = -1;
  bool reaped_ = false;
  std::string buffer_;
};

}  // namespace

TEST_CASE("serve: the executable answers each request as soon as it is written") {
  signal(SIGPIPE, SIG_IGN);  // a dead child must fail the checks, not kill the tests
  ServeProcess serve;
  for (int i = 0; i < 20; ++i) {
    serve.Write(R"({"id":)" + std::to_string(i) +
                R"(,"command":"best","aside":"2T 4H","roll":"1T 2R 3C 1K"})" + "\n");
    const std::string line = serve.ReadLine();
    REQUIRE_MESSAGE(!line.empty(), "no answer to request " << i);
    CHECK(ParseLine(line)["id"].number == i);
  }
  serve.Write(R"({"id":"bad","command":"nope"})"
              "\n");
  CheckError(serve.ReadLine(), "\"bad\"", "unknown command");
  // One request in two writes: answered once complete.
  serve.Write(R"({"id":"split","comm)");
  serve.Write(R"(and":"eval"})"
              "\n");
  CHECK(ParseLine(serve.ReadLine())["id"].text == "split");
  CHECK(serve.Finish() == 0);
}
#endif  // MARTIANDICE_CLI_PATH

namespace {

ServeRun RunServeWith(const std::string& input, const martiandice::ServeOptions& options) {
  std::istringstream in(input);
  std::ostringstream out;
  std::ostringstream err;
  ServeRun run;
  run.code = martiandice::Serve(in, out, err, options);
  run.out = out.str();
  run.err = err.str();
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) run.lines.push_back(line);
  return run;
}

std::vector<Json> ParseAll(const ServeRun& run) {
  std::vector<Json> responses;
  for (const std::string& line : run.lines) {
    std::optional<Json> json = JsonParser(line).ParseDocument();
    REQUIRE_MESSAGE(json.has_value(), line);
    responses.push_back(*json);
  }
  return responses;
}

std::string Enter(int game, const std::string& entry) {
  return absl::StrFormat(R"({"command":"enter","game":%d,"entry":"%s"})", game, entry) + "\n";
}

}  // namespace

TEST_CASE("serve games: interleaved games by id, each followed as coach follows it") {
  // Game 1: the rulebook's sample turn; game 2 (3 players): seat 0 enters 9;
  // their entries interleaved, and each answer the game's state and advice.
  const std::string input = std::string(R"({"id":"a","command":"open"})") + "\n" +
                            R"({"id":"b","command":"open","players":3,"scores":[4,0,2],"seat":1})" +
                            "\n" + Enter(1, "roll 2T 3R 4H 3C 1K") + Enter(2, "score 9") +
                            Enter(1, "take humans") + Enter(1, "roll 1T 2R 3C 1K take R") +
                            Enter(2, "roll 13R") + Enter(1, "take cows") +
                            Enter(1, "roll 2H 1C 1K take K") + Enter(1, "roll 1R 1H 1C take R") +
                            Enter(1, "stop") + R"({"command":"close","game":1})" + "\n" +
                            Enter(1, "roll 13R") + R"({"command":"close","game":2})" + "\n";
  const ServeRun run = RunServe(input);
  REQUIRE(run.code == 0);
  const std::vector<Json> r = ParseAll(run);
  REQUIRE(r.size() == 14);
  CHECK(r[0]["id"].text == "a");
  CHECK(r[0]["game"].number == 1);
  CHECK(r[1]["game"].number == 2);
  CHECK(r[1]["state"]["seat"].number == 1);
  CHECK(!r[1]["table"].is_null());
  // Game 1's take advice is best's.
  const Json best = JsonParser(CliJson({"best", "--scores", "0,0", "--roll", "2T 3R 4H 3C 1K"}))
                        .ParseDocument()
                        .value();
  CHECK(r[2]["step"].text == "applied");
  CHECK(r[2]["advice"]["best"]["take"].text == best["best"]["take"].text);
  CHECK(r[2]["advice"]["value"].number == best["value"].number);
  // Game 2: seat 1's 9 points, seat 2 to move.
  CHECK(r[3]["turn_ends"].items.at(0)["score"].number == 9);
  CHECK(r[3]["state"]["seat"].number == 2);
  CHECK(r[6]["state"]["phase"].text == "take");  // game 2's roll of 13 rays
  // A bad entry (game 1 waits for stop or roll on): an error, nothing changed.
  CHECK(r[7].Has("error"));
  CHECK(r[7]["error"].text.find("entry: cannot take now") == 0);
  CHECK(r[10]["turn_ends"].items.at(0)["score"].number == 5);
  CHECK(r[10]["state"]["scores"].items[0].number == 5);
  CHECK(r[11]["closed"].boolean);
  CHECK(r[11]["log"].text ==
        "scores 0,0 seat 0\nroll 2T 3R 4H 3C 1K take H\nroll 1T 2R 3C 1K take R\n"
        "roll 2H 1C 1K take K\nroll 1R 1H 1C take R\nstop\n");
  CHECK(r[12]["error"].text.find("game: no open game 1") == 0);  // closed
  CHECK(r[13]["closed"].boolean);
  CHECK(!r[13]["over"].boolean);
}

TEST_CASE("serve games: the open games and their idle time are bounded, unknown ids") {
  auto clock = std::make_shared<std::chrono::steady_clock::time_point>();
  martiandice::ServeOptions options;
  options.max_games = 2;
  options.max_idle = std::chrono::seconds(60);
  options.now = [clock] { return *clock; };
  const std::string open = std::string(R"({"command":"open"})") + "\n";
  // Three opens: the third is refused while two are open.
  ServeRun run = RunServeWith(open + open + open, options);
  std::vector<Json> r = ParseAll(run);
  REQUIRE(r.size() == 3);
  CHECK(r[2]["error"].text.find("open: 2 games are open, the most this service keeps") == 0);
  // Closing one makes room.
  run = RunServeWith(open + open + R"({"command":"close","game":1})" + "\n" + open, options);
  r = ParseAll(run);
  CHECK(r[3]["game"].number == 3);
  // Unknown ids, and the fields each command needs.
  run = RunServeWith(
      Enter(7, "roll 13R") + R"({"command":"close","game":7})" + "\n" +
          R"({"command":"enter","entry":"stop"})" + "\n" + R"({"command":"enter","game":1})" +
          "\n" + R"({"command":"open","entry":"stop"})" + "\n" +
          R"({"command":"open","players":7})" + "\n" + R"({"command":"open","scores":[30,30]})" +
          "\n" + R"({"command":"open","tables":"/etc"})" + "\n",
      options);
  r = ParseAll(run);
  REQUIRE(r.size() == 8);
  CHECK(r[0]["error"].text.find("game: no open game 7") == 0);
  CHECK(r[1]["error"].text.find("game: no open game 7") == 0);
  CHECK(r[2]["error"].text.find("enter: missing field \"game\"") == 0);
  CHECK(r[3]["error"].text.find("enter: missing field \"entry\"") == 0);
  CHECK(r[4]["error"].text.find("field \"entry\": does not apply to open") == 0);
  CHECK(r[5]["error"].text.find("players: a game has 2 to 6 players") == 0);
  CHECK(r[6]["error"].text.find("scores: ") == 0);
  // A game's tables, as every request's, only from the service's folders.
  CHECK(r[7]["error"].text.find("tables: /etc is outside the folders this service reads") == 0);
}

TEST_CASE("serve games: a game's log is bounded") {
  martiandice::ServeOptions options;
  options.max_log_bytes = 100;
  std::string input = std::string(R"({"command":"open"})") + "\n";
  for (int i = 0; i < 6; ++i) input += Enter(1, "roll 13T");  // a turn over, 0 points
  const std::vector<Json> r = ParseAll(RunServeWith(input, options));
  REQUIRE(r.size() == 7);
  // 27 bytes a turn ("scores 0,0 seat 0\nroll 13T\n"): the fourth goes over 100.
  for (int i = 1; i <= 4; ++i) CHECK(r[i]["step"].text == "applied");
  CHECK(r[5]["error"].text.find("entry: the game's log is over 100 bytes") == 0);
  CHECK(r[6]["error"].text.find("entry: the game's log is over 100 bytes") == 0);
}

TEST_CASE("serve games: a game idle too long is closed") {
  // The clock moves as the requests are answered: each `open` reads it.
  auto clock = std::make_shared<std::chrono::steady_clock::time_point>();
  auto reads = std::make_shared<int>(0);
  martiandice::ServeOptions options;
  options.max_idle = std::chrono::seconds(60);
  // Requests 1 and 2 at t=0, request 3 at t=30 s, the others at t=80 s.
  options.now = [clock, reads] {
    const int n = ++*reads;
    return *clock + std::chrono::seconds(n <= 2 ? 0 : n == 3 ? 30 : 80);
  };
  const ServeRun run =
      RunServeWith(std::string(R"({"command":"open"})") + "\n" + R"({"command":"open"})" + "\n" +
                       Enter(2, "score 5") + Enter(1, "score 5") + Enter(2, "state"),
                   options);
  const std::vector<Json> r = ParseAll(run);
  REQUIRE(r.size() == 5);
  CHECK(r[2]["step"].text == "applied");  // game 2 used at 30 s
  // At 80 s game 1 (last used at 0) is closed; game 2 (50 s idle) is kept.
  CHECK(r[3]["error"].text.find("game: no open game 1 (never opened, closed, or idle for over "
                                "60 s)") == 0);
  CHECK(r[4]["step"].text == "state");
}

TEST_CASE("serve games: a bad entry changes nothing, undo, the game's end") {
  const std::string input = std::string(R"({"command":"open","scores":[20,24],"seat":1})") + "\n" +
                            Enter(1, "roll 2T 3R 4H 3C 1K") + Enter(1, "take tanks") +
                            Enter(1, "stop") + Enter(1, "take H") + Enter(1, "undo") +
                            Enter(1, "state") + Enter(1, "help") + Enter(1, "quit") +
                            Enter(1, "score 16");
  const ServeRun run = RunServe(input);
  const std::vector<Json> r = ParseAll(run);
  REQUIRE(r.size() == 10);
  CHECK(r[2]["error"].text.find("entry: tanks are set aside automatically") == 0);
  CHECK(r[3]["error"].text.find("entry: cannot stop now") == 0);
  CHECK(r[4]["state"]["aside"].text == "2T 4H");
  CHECK(r[5]["step"].text == "undone");
  CHECK(r[5]["entry"].text == "take H");
  CHECK(r[5]["state"]["phase"].text == "take");
  CHECK(r[6]["step"].text == "state");
  CHECK(r[7]["step"].text == "help");
  CHECK(r[8]["error"].text.find("entry: quit is not an entry here") == 0);
  CHECK(r[9]["error"].text.find("entry: cannot enter a whole turn now") == 0);
}
