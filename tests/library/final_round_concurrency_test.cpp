// Concurrency: threads sharing one FinalRoundSolver, its cache small enough
// that they evict each other's states, get the single-threaded answers bit for
// bit. tools/test.sh also runs this case under ThreadSanitizer.
#include <doctest/doctest.h>

#include <latch>
#include <random>
#include <thread>
#include <vector>

#include "martiandice/final_round.h"

namespace md = martiandice;

TEST_CASE("final round concurrency: threads sharing a small cache get one thread's answers") {
  const md::Rules rules;
  constexpr int kPlayers = 4, kThreads = 4, kContexts = 24;
  std::mt19937_64 rng(3);
  auto uniform = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
  std::vector<md::GameContext> contexts;
  for (int i = 0; i < kContexts; ++i) {
    const int seat = uniform(1, kPlayers - 1);
    std::vector<int> scores(kPlayers);
    for (int j = 0; j < kPlayers; ++j) scores[j] = j < seat ? uniform(0, 40) : uniform(10, 24);
    scores[0] = uniform(25, 33);
    contexts.push_back({scores, seat});
  }
  auto alone = md::FinalRoundSolver::Create(rules, kPlayers);
  REQUIRE(alone.ok());
  std::vector<std::vector<double>> want;
  for (const md::GameContext& context : contexts) {
    auto chances = alone->WinProbabilities(context);
    REQUIRE(chances.ok());
    want.push_back(*chances);
  }
  md::FinalRoundSolver::Options small;
  small.max_value_bytes = 4096;  // 32 states
  auto shared = md::FinalRoundSolver::Create(rules, kPlayers, small);
  REQUIRE(shared.ok());
  std::vector<int> mismatches(kThreads, 0);
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      for (int round = 0; round < 2; ++round) {
        for (int i = 0; i < kContexts; ++i) {
          const int k = (i * (t + 1) + round) % kContexts;  // each thread its own order
          auto chances = shared->WinProbabilities(contexts[k]);
          if (!chances.ok() || *chances != want[k]) ++mismatches[t];
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) CHECK(mismatches[t] == 0);
  CHECK(shared->stats().states <= 32);
}
