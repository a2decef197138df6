// The terminal-safe writer (tools/terminal.h): what it escapes and keeps, a
// character split over writes, a failing sink; and 10,000 hostile input lines
// (control bytes, escape sequences, C1 controls, broken UTF-8) through every
// command that reads lines or arguments, no byte of whose output may act on a
// terminal: nothing below 0x20 but newline and tab, no DEL, no C1, only
// well-formed UTF-8; and every --json line still parses.
#include "terminal.h"

#include <doctest/doctest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "cli_test_util.h"
#include "terminal_check.h"

namespace {

using martiandice::AppendTerminalSafe;
using martiandice::TerminalSafeBuffer;

std::string Safe(std::string_view text) {
  std::string out;
  CHECK(AppendTerminalSafe(&out, text, false) == text.size());
  return out;
}

void CheckTerminalSafe(const std::string& what, const std::string& text) {
  const std::size_t at = terminal_check::FirstUnsafe(text);
  INFO(what << ": unsafe byte at " << at << " in: "
            << Safe(text.substr(at == std::string::npos ? 0
                                : at > 40               ? at - 40
                                                        : 0,
                                80)));
  CHECK(at == std::string::npos);
}

}  // namespace

TEST_CASE("terminal: control bytes, C1 and broken UTF-8 are escaped, text, newline, tab kept") {
  CHECK(Safe("plain text\n\ttabbed") == "plain text\n\ttabbed");
  CHECK(Safe("caf\xc3\xa9 \xe2\x80\x93 \xf0\x9f\x8e\xb2") ==
        "caf\xc3\xa9 \xe2\x80\x93 \xf0\x9f\x8e\xb2");
  CHECK(Safe("\x1b[2J") == "\\x1b[2J");
  CHECK(Safe(std::string("a\rb\x7f\0\0", 6)) == "a\\x0db\\x7f\\x00\\x00");
  CHECK(Safe("\xc2\x9b"
             "31m") == "\\xc2\\x9b31m");  // U+009B, the one-byte CSI
  CHECK(Safe("\x9b\xff\xc0\xaf") == "\\x9b\\xff\\xc0\\xaf");
  CHECK(Safe("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a surrogate
  CHECK(Safe("end \xe2\x80") == "end \\xe2\\x80");   // cut short, nothing more to come
  std::string out;  // more to come: the start of a character is left
  CHECK(AppendTerminalSafe(&out, "end \xe2\x80", true) == 4);
  CHECK(out == "end ");
}

TEST_CASE("terminal: the stream buffer joins a character split over writes, fails with its sink") {
  std::ostringstream sink;
  {
    TerminalSafeBuffer buffer(sink.rdbuf());
    std::ostream out(&buffer);
    out << "a\xe2";
    out << "\x80";
    CHECK(sink.str() == "a");
    out << "\x93 b\x1b" << 'c' << '\xc3';
    out.put('\xa9');
    out << std::flush;
    martiandice::WriteRaw(out, "\r");
    out << "z\xe2";
    CHECK(out.good());
  }  // the unfinished character: escaped at the end
  CHECK(sink.str() == "a\xe2\x80\x93 b\\x1bc\xc3\xa9\rz\\xe2");
  std::ostringstream failed;
  failed.setstate(std::ios::badbit);
  std::ostringstream full;  // a sink that refuses everything
  struct Refusing : std::streambuf {
    int_type overflow(int_type) override { return traits_type::eof(); }
  } refusing;
  TerminalSafeBuffer buffer(&refusing);
  std::ostream out(&buffer);
  out << "text";
  CHECK(out.bad());
}

namespace {

// A hostile line: words a command knows, mixed with escape sequences, C0 and
// C1 controls, DEL, bytes that are not UTF-8 and characters that are.
std::string HostileLine(std::mt19937& random, const std::vector<std::string>& words) {
  static const std::vector<std::string> kHostile = {"\x1b[2J",
                                                    "\x1b]0;title\x07",
                                                    "\x9b"
                                                    "31m",
                                                    "\xc2\x9b"
                                                    "1m",
                                                    "\xc2\x85",
                                                    "\x7f",
                                                    "\r",
                                                    "\t",
                                                    std::string(1, '\0'),
                                                    "\x01",
                                                    "\x08\x08",
                                                    "\xff",
                                                    "\xfe\xfe",
                                                    "\xc0\xaf",
                                                    "\xe2\x80",
                                                    "\xed\xa0\x80",
                                                    "\xf4\x90\x80\x80",
                                                    "\xc3\xa9",
                                                    "\xe2\x80\x93",
                                                    "\xf0\x9f\x8e\xb2",
                                                    "\\u001b",
                                                    "\"",
                                                    "\\"};
  std::string line;
  const int parts = 1 + static_cast<int>(random() % 6);
  for (int i = 0; i < parts; ++i) {
    const unsigned pick = random() % 10;
    if (pick < 4) {
      line += words[random() % words.size()];
    } else if (pick < 8) {
      line += kHostile[random() % kHostile.size()];
    } else {
      line += static_cast<char>(random() % 256);
    }
    if (random() % 2) line += ' ';
  }
  return line;
}

std::string HostileLines(std::mt19937& random, const std::vector<std::string>& words, int count) {
  std::string lines;
  for (int i = 0; i < count; ++i) lines += HostileLine(random, words) + "\n";
  return lines;
}

cli_test::CliRun RunWithInput(const std::vector<std::string>& args, const std::string& input) {
  std::istringstream in(input);
  martiandice::CliEnvironment environment;
  environment.in = &in;
  return cli_test::Run(args, environment);
}

void CheckJsonLines(const std::string& what, const std::string& out) {
  std::istringstream lines(out);
  int bad = 0;
  for (std::string line; std::getline(lines, line);) {
    if (!cli_test::JsonParser(line).ParseDocument()) {
      if (bad++ == 0) MESSAGE(what << ": not JSON: " << Safe(line.substr(0, 120)));
    }
  }
  CHECK(bad == 0);
}

// A JSON string holding `text` as a hostile client writes it: its bytes as
// they are, but quotes, backslashes and a few controls as \u escapes.
std::string ClientString(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\' || byte < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      quoted += "\\u00";
      quoted += kHex[byte >> 4];
      quoted += kHex[byte & 15];
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

}  // namespace

TEST_CASE("terminal: 10,000 hostile lines reach no terminal through any command") {
  std::mt19937 random(20261127);
  const std::vector<std::string> game_words = {
      "roll", "take",  "stop",  "humans",         "h",
      "cows", "R",     "score", "scores",         "seat",
      "undo", "state", "help",  "2T 3R 4H 3C 1K", "roll 1T 2R 3C 1K take R",
      "7",    "12,20", "quit"};
  int lines = 0;
  for (const bool json : {false, true}) {
    std::vector<std::string> coach = {"coach"};
    std::vector<std::string> play = {"play", "--humans", "0", "--seed", "3"};
    if (json) {
      coach.push_back("--json");
      play.push_back("--json");
    }
    for (const auto& args : {coach, play}) {
      CAPTURE(args[0]);
      CAPTURE(json);
      const cli_test::CliRun run = RunWithInput(args, HostileLines(random, game_words, 2000));
      lines += 2000;
      CheckTerminalSafe("stdout", run.out);
      CheckTerminalSafe("stderr", run.err);
      if (json) CheckJsonLines(args[0], run.out);
    }
  }
  // serve: hostile request lines, and hostile strings inside well-formed requests.
  std::string requests;
  const std::vector<std::string> fields = {"aside", "roll", "command", "objective", "id", "tables"};
  for (int i = 0; i < 1000; ++i) {
    const std::string text = HostileLine(random, game_words);
    if (i % 2 == 0) {
      requests += R"({"command":"best","aside":"2T","roll":"1T 2R 3C 1K",")" +
                  fields[random() % fields.size()] + "\":" + ClientString(text) + "}\n";
    } else {
      requests += text + "\n";
    }
  }
  lines += 1000;
  const cli_test::CliRun served = RunWithInput({"serve"}, requests);
  CheckTerminalSafe("serve stdout", served.out);
  CheckTerminalSafe("serve stderr", served.err);
  CheckJsonLines("serve", served.out);
  // review: a log with hostile lines.
  const cli_test::CliRun reviewed =
      RunWithInput({"review", "-"}, HostileLines(random, game_words, 500));
  lines += 500;
  CheckTerminalSafe("review stdout", reviewed.out);
  CheckTerminalSafe("review stderr", reviewed.err);
  // Arguments: hostile values of options that are echoed in errors and results.
  for (int i = 0; i < 500; ++i) {
    const std::string text = HostileLine(random, game_words);
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"eval", "--aside", text},
                                               {"best", "--aside", "2T", "--roll", text},
                                               {"eval", "--objective", text},
                                               {"eval", "--tables", text, "--objective", "win"}}) {
      const cli_test::CliRun run = cli_test::Run(args);
      CheckTerminalSafe("stdout of " + args[0], run.out);
      CheckTerminalSafe("stderr of " + args[0], run.err);
    }
    ++lines;
  }
  CHECK(lines == 10000);
}
