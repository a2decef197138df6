// Concurrency of the C API (martiandice_c.h): threads share one md_handle while
// its caches fill and overflow (more objectives than it keeps), and every
// answer must equal, bit for bit, the single-threaded one; each thread sees
// its own md_last_error. tools/test.sh also runs these cases under TSan.
#include <doctest/doctest.h>

#include <cstring>
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "martiandice/martiandice_c.h"

#ifndef MARTIANDICE_DATA_DIR
#error "MARTIANDICE_DATA_DIR must point at the source tree's data/"
#endif

namespace {

struct Case {
  std::string objective;
  std::vector<int> scores;  // empty: a turn objective
  int seat = 0;
  const char* aside;
  const char* roll;
};

// What a query answers, compared bit for bit.
struct Answer {
  md_status eval_status, best_status;
  md_eval_result eval;
  md_best_result best;
};

Answer Ask(md_handle* md, const Case& c) {
  md_query query;
  md_query_init(&query);
  query.objective = c.objective.c_str();
  if (!c.scores.empty()) {
    query.scores = c.scores.data();
    query.players = static_cast<int>(c.scores.size());
    query.seat = c.seat;
  }
  Answer answer{};
  std::memset(&answer, 0, sizeof answer);
  answer.eval_status = md_eval(md, &query, c.aside, &answer.eval);
  answer.best_status = md_best(md, &query, c.aside, c.roll, &answer.best);
  return answer;
}

bool Same(const Answer& a, const Answer& b) {
  return a.eval_status == b.eval_status && a.best_status == b.best_status &&
         std::memcmp(&a.eval, &b.eval, sizeof a.eval) == 0 &&
         std::memcmp(&a.best, &b.best, sizeof a.best) == 0;
}

}  // namespace

TEST_CASE("concurrency: 4 threads share one C API handle (caches filling and overflowing)") {
  std::vector<Case> cases;
  // 80 distinct turn objectives: more than the 64 solved turns a handle keeps.
  for (int k = 0; k < 40; ++k) {
    cases.push_back({"reach:" + std::to_string(k), {}, 0, "3T 2R 4H 1K", "1R 1H 1C"});
    cases.push_back({"capped:" + std::to_string(k), {}, 0, "2T 4H", "1T 2R 3C 1K"});
  }
  for (int s = 0; s < 20; ++s) {
    cases.push_back({"win", {s, 24 - s}, s % 2, "3T 2R 4H 1K", "1R 1H 1C"});
    // Three players: the version 3 table, whose turns the handle solves and caches.
    cases.push_back({"win", {s, 24 - s, 10}, s % 3, "2T 4H", "1T 2R 3C 1K"});
  }
  md_handle* md = nullptr;
  REQUIRE(md_open(MARTIANDICE_DATA_DIR, &md) == MD_OK);
  std::vector<Answer> expected;
  for (const Case& c : cases) {
    expected.push_back(Ask(md, c));
    REQUIRE(expected.back().eval_status == MD_OK);
    REQUIRE(expected.back().best_status == MD_OK);
  }
  md_close(md);
  REQUIRE(md_open(MARTIANDICE_DATA_DIR, &md) == MD_OK);  // fresh caches

  constexpr int kThreads = 4;
  std::vector<int> mismatches(kThreads, 0);
  std::vector<int> error_mixups(kThreads, 0);
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      for (int round = 0; round < 2; ++round) {
        for (std::size_t i = 0; i < cases.size(); ++i) {
          const std::size_t j = (i * (t + 1) + static_cast<std::size_t>(round * 7)) % cases.size();
          if (!Same(Ask(md, cases[j]), expected[j])) ++mismatches[t];
          // Odd threads fail a call, even threads succeed: each must see its own last error.
          md_query query;
          md_query_init(&query);
          md_eval_result eval;
          if (t % 2 == 1) {
            const std::string bad = "2Q" + std::to_string(t);
            if (md_eval(md, &query, bad.c_str(), &eval) != MD_ERR_INVALID_ARGUMENT ||
                std::strstr(md_last_error(), bad.c_str()) == nullptr) {
              ++error_mixups[t];
            }
          } else if (md_eval(md, &query, "4H", &eval) != MD_OK || *md_last_error() != '\0') {
            ++error_mixups[t];
          }
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  md_close(md);
  for (int t = 0; t < kThreads; ++t) {
    CAPTURE(t);
    CHECK(mismatches[t] == 0);
    CHECK(error_mixups[t] == 0);
  }
}
