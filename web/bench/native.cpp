// The benchmark's native side (web/bench/bench.mjs): runs a plan of timed
// steps through the binding (web/wasm/binding.cpp compiled natively), the same
// code the WebAssembly module runs, and prints one JSON line per step:
// {"name":...,"queries":N,"ms":T}, T the fastest timed pass over its N queries.
//
//   martiandice_web_bench PLAN TABLE_DIR
//
// PLAN is bench.mjs's text form, one record per line, fields separated by tabs
// (an empty field is an absent input):
//   step  NAME  WARMUP  REPEAT     a step: its queries run WARMUP times untimed,
//                                  then REPEAT times timed (the fastest counts)
//   table NAME  FILE               a step: registering TABLE_DIR/FILE (read first)
//   q     COMMAND OBJECTIVE EXACT ASIDE ROLL SCORES SEAT   a query of the last step
//   w     (as q)                   a query run once untimed before the step's
// A query is sent as the package sends it: its fields in the module's
// request slots (mdw_request), then mdw_query.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "binding.h"
#include "request.h"

extern "C" {
const char* mdw_result();
martiandice::web::RequestSlot* mdw_request();
int mdw_query();
int mdw_add_table(const unsigned char* bytes, std::size_t size);
}

namespace {

// A query: its fields' values by request slot (texts kept here; numbers).
struct Query {
  std::vector<std::pair<std::size_t, std::string>> texts;
  std::vector<std::pair<std::size_t, int>> numbers;
};

std::size_t SlotOf(std::string_view field) {
  return martiandice::app::FindRequestField(field) - martiandice::app::RequestFields().data();
}

struct Step {
  std::string name;
  int warmup = 0;
  int repeat = 1;
  std::string table;  // a table step: the file's bytes
  bool is_table = false;
  std::vector<Query> before;  // run once, untimed
  std::vector<Query> queries;
};

std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, '\t')) fields.push_back(field);
  if (!line.empty() && line.back() == '\t') fields.emplace_back();
  return fields;
}

std::optional<std::string> Optional(const std::vector<std::string>& f, std::size_t i) {
  if (i >= f.size() || f[i].empty()) return std::nullopt;
  return f[i];
}

// The request of a plan's q or w line.
Query ReadQuery(const std::vector<std::string>& f) {
  Query q;
  q.texts.emplace_back(SlotOf("command"), f[1] == "best" ? "best" : "eval");
  const std::pair<std::size_t, const char*> texts[] = {
      {2, "objective"}, {4, "aside"}, {5, "roll"}, {6, "scores"}};
  for (const auto& [column, field] : texts) {
    if (auto value = Optional(f, column)) q.texts.emplace_back(SlotOf(field), *value);
  }
  if (Optional(f, 3).value_or("0") == "1") q.numbers.emplace_back(SlotOf("exact"), 1);
  if (auto seat = Optional(f, 7)) q.numbers.emplace_back(SlotOf("seat"), std::stoi(*seat));
  return q;
}

void Run(const Query& q) {
  martiandice::web::RequestSlot* slots = mdw_request();
  for (const auto& [slot, text] : q.texts) slots[slot] = {text.c_str(), 0, 1};
  for (const auto& [slot, number] : q.numbers) slots[slot] = {nullptr, number, 1};
  if (mdw_query() != 0) {
    std::cerr << "martiandice_web_bench: query failed: " << mdw_result() << "\n";
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: martiandice_web_bench PLAN TABLE_DIR\n";
    return 2;
  }
  std::vector<Step> steps;
  std::ifstream plan(argv[1]);
  for (std::string line; std::getline(plan, line);) {
    const std::vector<std::string> f = Fields(line);
    if (f.empty()) continue;
    if (f[0] == "step" && f.size() >= 4) {
      steps.push_back({f[1], std::stoi(f[2]), std::stoi(f[3])});
    } else if (f[0] == "table" && f.size() >= 3) {
      std::ifstream file(std::filesystem::path(argv[2]) / f[2], std::ios::binary);
      Step step{f[1]};
      step.table.assign(std::istreambuf_iterator<char>(file), {});
      step.is_table = true;
      steps.push_back(std::move(step));
    } else if ((f[0] == "q" || f[0] == "w") && f.size() >= 2 && !steps.empty()) {
      (f[0] == "q" ? steps.back().queries : steps.back().before).push_back(ReadQuery(f));
    } else {
      std::cerr << "martiandice_web_bench: bad plan line: " << line << "\n";
      return 2;
    }
  }
  for (const Step& step : steps) {
    const auto start = std::chrono::steady_clock::now();
    int queries = 1;
    if (step.is_table) {
      if (mdw_add_table(reinterpret_cast<const unsigned char*>(step.table.data()),
                        step.table.size()) != 0) {
        std::cerr << "martiandice_web_bench: table refused: " << mdw_result() << "\n";
        return 1;
      }
    } else {
      for (const Query& q : step.before) Run(q);
      for (int w = 0; w < step.warmup; ++w) {
        for (const Query& q : step.queries) Run(q);
      }
      double ms = 1e300;  // the fastest pass over the queries
      for (int r = 0; r < step.repeat; ++r) {
        const auto timed = std::chrono::steady_clock::now();
        for (const Query& q : step.queries) Run(q);
        ms = std::min(ms, std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - timed)
                              .count());
      }
      queries = static_cast<int>(step.queries.size());
      std::printf("{\"name\":\"%s\",\"queries\":%d,\"ms\":%.6f}\n", step.name.c_str(), queries, ms);
      continue;
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("{\"name\":\"%s\",\"queries\":%d,\"ms\":%.6f}\n", step.name.c_str(), queries, ms);
  }
  return 0;
}
