// Test tool for tests/scripts/check_table_reader.py: writes policy tables (hand-built
// by tests/support/table_builder.h, or the game solver's when it is built in) and
// answers win queries with the C++ API as JSON, one line per query, so the
// independent Python reader (tests/scripts/table_reader.py) can be compared with it.
//
//   table_tool synth DICE BONUS TARGET PLAYERS SEED JITTER(0|1) OUT
//   table_tool solve DICE BONUS TARGET PLAYERS OUT      (exit 3: built without the solver)
//   table_tool answer TABLE < queries
//       best|S0,S1,...|SEAT|ASIDE|ROLL   or   eval|S0,S1,...|SEAT|ASIDE
//   table_tool bench TABLE SEAT|S0,S1,...|ASIDE|ROLL   (AdviseWin timing)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "martiandice/win_query.h"
#include "table_builder.h"

#ifdef MARTIANDICE_HAVE_GAME_SOLVER
#include "game_solver.h"
#endif

namespace {

using namespace martiandice;

std::string Num(double x) { return std::isfinite(x) ? absl::StrFormat("%.17g", x) : "null"; }

std::string Opt(const std::optional<Value>& v) { return v ? Num(v->approx) : "null"; }

std::string Str(const std::string& s) { return absl::StrCat("\"", s, "\""); }

std::string Doubles(const std::vector<double>& values) {
  std::vector<std::string> items;
  for (double v : values) items.push_back(Num(v));
  return absl::StrCat("[", absl::StrJoin(items, ","), "]");
}

std::string OptionJson(const TakeOption& o) {
  return absl::StrCat("{\"take\":", Str(std::string(FaceName(o.take))), ",\"count\":", o.count,
                      ",\"aside_after\":", Str(FormatDice(o.aside_after)),
                      ",\"stop\":", Num(o.stop.approx), ",\"roll\":", Opt(o.roll),
                      ",\"value\":", Num(o.value.approx),
                      ",\"then\":", Str(std::string(ThenName(o.then))),
                      ",\"optimal\":", o.optimal ? "true" : "false", "}");
}

std::string BestJson(const WinAdvice& w) {
  const RollAdvice& a = w.advice;
  std::vector<std::string> options;
  for (const TakeOption& o : a.options) options.push_back(OptionJson(o));
  std::string best = "null";
  if (a.best) {
    const TakeOption& o = a.options[*a.best];
    best = absl::StrCat("{\"take\":", Str(std::string(FaceName(o.take))), ",\"count\":", o.count,
                        ",\"then\":", Str(std::string(ThenName(o.then))), "}");
  }
  return absl::StrCat(
      "{\"aside_after_tanks\":", Str(FormatDice(a.aside_after_tanks)),
      ",\"turn_over\":", a.turn_over ? "true" : "false",
      ",\"turn_over_score\":", a.turn_over ? absl::StrCat(a.turn_over_score) : "null",
      ",\"value\":", Num(a.value.approx), ",\"best\":", best, ",\"options\":[",
      absl::StrJoin(options, ","), "],\"win_probabilities\":", Doubles(w.win_probabilities), "}");
}

std::string EvalJson(const WinEval& w) {
  const PositionEval& e = w.position;
  return absl::StrCat("{\"dice_left\":", e.dice_left, ",\"value\":", Num(e.value.approx),
                      ",\"stop\":", Opt(e.stop), ",\"roll\":", Opt(e.roll),
                      ",\"action\":", Str(std::string(ThenName(e.action))),
                      ",\"win_probabilities\":", Doubles(w.win_probabilities), "}");
}

std::string ErrorJson(const absl::Status& s) {
  std::string message(s.message());
  for (char& c : message) {
    if (c == '"' || c == '\\') c = '\'';
  }
  return absl::StrCat("{\"error\":", Str(message), "}");
}

// One query line -> one JSON line.
std::string Answer(const GameTable& table, const std::string& line) {
  std::vector<std::string> f = absl::StrSplit(line, '|');
  if (f.size() < 4) return ErrorJson(absl::InvalidArgumentError("malformed query"));
  auto scores = ParseScores(f[1]);
  auto aside = ParseDice(f[3]);
  if (!scores.ok()) return ErrorJson(scores.status());
  if (!aside.ok()) return ErrorJson(aside.status());
  const GameContext context{*scores, std::atoi(f[2].c_str())};
  if (f[0] == "eval") {
    auto eval = EvaluateWin(table, context, *aside);
    return eval.ok() ? EvalJson(*eval) : ErrorJson(eval.status());
  }
  if (f.size() < 5) return ErrorJson(absl::InvalidArgumentError("best needs a roll"));
  auto roll = ParseDice(f[4]);
  if (!roll.ok()) return ErrorJson(roll.status());
  auto advice = AdviseWin(table, context, *aside, *roll);
  return advice.ok() ? BestJson(*advice) : ErrorJson(advice.status());
}

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "table_tool: %s\n", s.ToString().c_str());
  return 1;
}

int WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  return out ? 0 : Fail(absl::UnavailableError("cannot write " + path));
}

int Synth(char** argv) {
  const Rules rules{std::atoi(argv[0]), std::atoi(argv[1]), std::atoi(argv[2])};
  const int players = std::atoi(argv[3]);
  table_builder::TableSpec spec = table_builder::RandomSpec(
      rules, players, std::strtoull(argv[4], nullptr, 10), std::atoi(argv[5]) != 0);
  return WriteBytes(argv[6], table_builder::WriteTable(spec));
}

int Solve(char** argv) {
#ifdef MARTIANDICE_HAVE_GAME_SOLVER
  solver::GameSolveOptions options;
  options.rules = Rules{std::atoi(argv[0]), std::atoi(argv[1]), std::atoi(argv[2])};
  options.players = std::atoi(argv[3]);
  absl::StatusOr<std::string> bytes = solver::SolveGameTable(options, nullptr);
  if (!bytes.ok()) return Fail(bytes.status());
  return WriteBytes(argv[4], *bytes);
#else
  (void)argv;
  std::fprintf(stderr, "table_tool: built without the game solver\n");
  return 3;
#endif
}

int AnswerAll(const std::string& path) {
  auto table = GameTable::Open(path);
  if (!table.ok()) return Fail(table.status());
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty()) std::cout << Answer(*table, line) << "\n";
  }
  return 0;
}

int Bench(const std::string& path, const std::string& query) {
  auto table = GameTable::Open(path);
  if (!table.ok()) return Fail(table.status());
  std::vector<std::string> f = absl::StrSplit(query, '|');
  if (f.size() != 4) return Fail(absl::InvalidArgumentError("SEAT|SCORES|ASIDE|ROLL"));
  const GameContext context{*ParseScores(f[1]), std::atoi(f[0].c_str())};
  const Dice aside = *ParseDice(f[2]), roll = *ParseDice(f[3]);
  constexpr int kRuns = 200000;
  double sink = 0;
  for (int i = 0; i < 1000; ++i)
    sink += AdviseWin(*table, context, aside, roll)->advice.value.approx;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kRuns; ++i)
    sink += AdviseWin(*table, context, aside, roll)->advice.value.approx;
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  std::printf("AdviseWin: %.3f us per query (checksum %g)\n", elapsed.count() / kRuns * 1e6, sink);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "synth" && argc == 9) return Synth(argv + 2);
  if (command == "solve" && argc == 7) return Solve(argv + 2);
  if (command == "answer" && argc == 3) return AnswerAll(argv[2]);
  if (command == "bench" && argc == 4) return Bench(argv[2], argv[3]);
  std::fprintf(stderr, "usage: see the comment at the top of tests/support/table_tool.cpp\n");
  return 2;
}
