// Shipped data: the official 2- and 3-player tables in data/ are what the
// solver produces, bit for bit, read back through the public reader,
// every decision they imply is certified, their final turns are the rules'
// (a turn solve), and data/SHA256SUMS lists them with their checksums.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <set>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "certify.h"
#include "game_solver.h"
#include "martiandice/advisor.h"
#include "martiandice/objective.h"
#include "martiandice/query.h"
#include "martiandice/state_space.h"
#include "martiandice/win_query.h"
#include "test_util.h"

using namespace martiandice;

#ifndef MARTIANDICE_DATA_DIR
#error "MARTIANDICE_DATA_DIR must point at the source tree's data/"
#endif

namespace {

using test_util::ReadFile;

std::string ShippedPath(int players = 2) {
  return std::string(MARTIANDICE_DATA_DIR) + "/" + TableFileName(Rules{}, players);
}

// SHA-256 (FIPS 180-4) of `bytes`, as lowercase hex: written here, so that
// the manifest check depends on no other code.
std::string Sha256Hex(const std::string& bytes) {
  static constexpr std::array<std::uint32_t, 64> k = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
      0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
      0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
      0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
      0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
      0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
      0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
      0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
      0xc67178f2};
  std::array<std::uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string m = bytes;
  const std::uint64_t bits = static_cast<std::uint64_t>(bytes.size()) * 8;
  m.push_back(static_cast<char>(0x80));
  while (m.size() % 64 != 56) m.push_back('\0');
  for (int i = 7; i >= 0; --i) m.push_back(static_cast<char>(bits >> (8 * i)));
  auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  for (size_t block = 0; block < m.size(); block += 64) {
    std::array<std::uint32_t, 64> w;
    for (int i = 0; i < 16; ++i) {
      w[i] = 0;
      for (int j = 0; j < 4; ++j) {
        w[i] = (w[i] << 8) | static_cast<unsigned char>(m[block + 4 * i + j]);
      }
    }
    for (int i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::array<std::uint32_t, 8> v = h;
    for (int i = 0; i < 64; ++i) {
      const std::uint32_t s1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
      const std::uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
      const std::uint32_t t1 = v[7] + s1 + ch + k[i] + w[i];
      const std::uint32_t s0 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
      const std::uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
      const std::uint32_t t2 = s0 + maj;
      for (int j = 7; j > 0; --j) v[j] = v[j - 1];
      v[4] += t1;
      v[0] = t1 + t2;
    }
    for (int j = 0; j < 8; ++j) h[j] += v[j];
  }
  std::ostringstream hex;
  for (std::uint32_t x : h) hex << std::hex << std::setw(8) << std::setfill('0') << x;
  return hex.str();
}

}  // namespace

TEST_CASE("data: the shipped 2-player table is regenerated bit for bit") {
  std::string shipped = ReadFile(ShippedPath());
  REQUIRE_MESSAGE(!shipped.empty(), "missing " << ShippedPath());
  solver::GameSolveReport report;
  const std::string fresh = test_util::SolveTinyTable(Rules{}, 2, &report);
  CHECK(fresh.size() == shipped.size());
  CHECK_MESSAGE(fresh == shipped, "data/ is stale: run tools/regenerate-data.sh");
  REQUIRE(report.start.size() == 2);
  MESSAGE("solve: " << report.seconds << " s, " << report.turn_solves
                    << " turn solves, seat 0 wins " << report.start[0] << ", error bound "
                    << report.error_bound);
  CHECK(report.error_bound <= 1e-13);
}

TEST_CASE("data: the shipped table reads back and is consistent") {
  auto table = GameTable::Open(ShippedPath());
  REQUIRE_MESSAGE(table.ok(), table.status());
  CHECK(table->format_version() == 3);
  CHECK(table->players() == 2);
  CHECK(table->rules() == Rules{});
  CHECK(table->context_count() == 1650);  // 25^2 + 41 * 25
  CHECK(table->error_bound() <= 1e-13);
  CHECK(CheckTableMatches(*table, Rules{}, 2).ok());
  CHECK_FALSE(CheckTableMatches(*table, Rules{}, 3).ok());
  // Zero-sum at every open-round context, and the first seat's start value.
  for (int s0 = 0; s0 < 25; ++s0) {
    for (int s1 = 0; s1 < 25; ++s1) {
      for (int seat = 0; seat < 2; ++seat) {
        auto w = table->WinProbabilities(GameContext{{s0, s1}, seat});
        REQUIRE(w.ok());
        CHECK((*w)[0] + (*w)[1] == doctest::Approx(1.0).epsilon(1e-13));
        CHECK((*w)[0] >= 0.0);
        CHECK((*w)[1] >= 0.0);
      }
    }
  }
  auto start = table->WinProbabilities(GameContext{{0, 0}, 0});
  REQUIRE(start.ok());
  MESSAGE("seat 0 wins the official 2-player game with probability " << (*start)[0]);
  CHECK((*start)[0] > 0.4);
  CHECK((*start)[0] < 0.5);  // the last seat's final turn is an advantage
}

namespace {

// The shipped table for `players`, read with the public reader, certified.
void CheckShippedCertified(int players) {
  auto table = GameTable::Open(ShippedPath(players));
  REQUIRE_MESSAGE(table.ok(), table.status());
  auto report = solver::CertifyTable(*table);
  REQUIRE(report.ok());
  MESSAGE(players << " players: decisions " << report->decisions << ", smallest margin "
                  << report->smallest_margin << ", ties " << report->ties << " ("
                  << report->symmetric_ties << " symmetric, " << report->exact_ties << " exact, "
                  << report->inexact_ties << " not exact), " << report->seconds << " s");
  CHECK(report->contexts == table->context_count());
  CHECK(report->error_bound == table->error_bound());
  CHECK(report->inexact_ties == 0);
  CHECK(report->kingmaking_ties == 0);
  CHECK(report->mixed_contexts == 0);
  CHECK(report->smallest_margin > report->margin_threshold);
  CHECK(report->margin_threshold >= 2 * report->error_bound);
  CHECK(report->certified);
}

}  // namespace

TEST_CASE("data: every decision of the shipped 2-player table is certified") {
  CheckShippedCertified(2);
}

// The suite's largest certification: every decision of 83,275 contexts.
TEST_CASE("data: every decision of the shipped 3-player table is certified" *
          doctest::test_suite("heavy")) {
  CheckShippedCertified(3);
}

// The 3-player solve's speed-ups must leave every byte as it was (the
// settling passes' stored laws among them: solver/score_law_cache.h).
TEST_CASE("data: the shipped 3-player table is regenerated bit for bit" *
          doctest::test_suite("heavy")) {
  const std::string path = std::string(MARTIANDICE_DATA_DIR) + "/" + TableFileName(Rules{}, 3);
  const std::string shipped = ReadFile(path);
  REQUIRE_MESSAGE(!shipped.empty(), "missing " << path);
  solver::GameSolveOptions options;
  options.players = 3;
  options.threads = 2;
  solver::GameSolveReport report;
  auto fresh = solver::SolveGameTable(options, &report);
  REQUIRE(fresh.ok());
  CHECK(fresh->size() == shipped.size());
  CHECK_MESSAGE(*fresh == shipped, "data/ is stale: run tools/regenerate-data.sh");
  // About half the settling passes play a policy an earlier one played.
  CHECK(report.settle_passes == 3 * report.cycles);
  CHECK(report.settle_reused > 0);
  CHECK(report.settle_reused < report.settle_passes);
  MESSAGE("3-player solve: " << report.seconds << " s, " << report.turn_solves << " turn solves, "
                             << report.settle_reused << " of " << report.settle_passes
                             << " settling passes reused");
}

// The last seat's final turn ends the game: its chance to win is the turn's
// chance to pass the leader's total L, a tie with k others at L counting
// 1/(k+1) (the duel, docs/RULES.md). That utility, written here from the
// rules and solved as a turn objective (the turn solver, not the game
// solver), gives the shipped tables' stop and roll values at every
// stop-or-roll position of sampled final turns: the tables' final-round
// outcomes and tie shares are the rules'. The fallback's final:M/K plays them
// alike.
TEST_CASE("data: the last seat's final turn in the shipped tables is the turn solve of the rules") {
  Advisor advisor;
  const absl::StatusOr<std::vector<Dice>> asides = ReachablePositions(Rules{});
  REQUIRE(asides.ok());
  std::vector<std::vector<int>> games;  // every seat's total, the mover (the last seat) last
  for (int own : {0, 9, 17, 24}) {
    for (int leader : {25, 28, 33, 40}) {
      games.push_back({leader, own});
      games.push_back({leader, leader, own});      // two leaders: a tie is a three-way duel
      games.push_back({leader - 6, leader, own});  // one leader
    }
  }
  double largest_gap = 0;
  long decisions = 0;
  for (const std::vector<int>& scores : games) {
    const int players = static_cast<int>(scores.size());
    const int own = scores.back();
    const int leader = *std::max_element(scores.begin(), scores.end() - 1);
    const int leaders = static_cast<int>(std::count(scores.begin(), scores.end() - 1, leader));
    const int pass = leader + 1 - own;  // the points that pass the leader
    std::vector<Rational> utility(pass + 1, 0);
    utility[pass - 1] = Rational(1, leaders + 1);
    utility[pass] = 1;
    const absl::StatusOr<Objective> chance = Objective::Custom("pass the leader", utility);
    REQUIRE(chance.ok());
    // The fallback (advisor.h), where no table covers a game, plays this turn
    // as the table does.
    const Objective fallback = FallbackTurnObjective(Rules{}, GameContext{scores, players - 1});
    CHECK(FallbackObjective(Rules{}, GameContext{scores, players - 1}).name() ==
          absl::StrCat("final:", pass, "/", leaders));
    for (const Dice& aside : *asides) {
      if (aside.empty() || aside.total() == Rules{}.dice) continue;  // no stop, or no roll
      Query win;
      win.goal = Goal::Win();
      win.aside = aside;
      win.context = GameContext{scores, players - 1};
      win.players = players;
      win.tables = MARTIANDICE_DATA_DIR;
      const absl::StatusOr<EvalAnswer> table = advisor.Evaluate(win);
      REQUIRE_MESSAGE(table.ok(), table.status());
      Query turn;
      turn.goal = Goal::ForTurn(*chance);
      turn.aside = aside;
      const absl::StatusOr<EvalAnswer> solved = advisor.Evaluate(turn);
      REQUIRE_MESSAGE(solved.ok(), solved.status());
      turn.goal = Goal::ForTurn(fallback);
      const absl::StatusOr<EvalAnswer> played = advisor.Evaluate(turn);
      REQUIRE_MESSAGE(played.ok(), played.status());
      const PositionEval& a = table->eval;
      for (const PositionEval* b : {&solved->eval, &played->eval}) {
        REQUIRE((a.stop && a.roll && b->stop && b->roll));
        largest_gap = std::max({largest_gap, std::abs(a.stop->approx - b->stop->approx),
                                std::abs(a.roll->approx - b->roll->approx)});
        if (std::abs(a.stop->approx - a.roll->approx) > 1e-9) CHECK(a.action == b->action);
      }
      ++decisions;
    }
  }
  CHECK(largest_gap < 1e-12);
  MESSAGE(decisions << " stop-or-roll decisions of final turns: largest gap to the tables "
                    << largest_gap);
}

// The shipped 3-player table (format version 3, values only), read with the
// reader: its signature (size, contexts, bound, start vector) and a query.
// Regenerate with tools/regenerate-data.sh when the solver's arithmetic changes.
TEST_CASE("data: the shipped 3-player table reads back with its signature") {
  const std::string path = std::string(MARTIANDICE_DATA_DIR) + "/" + TableFileName(Rules{}, 3);
  auto table = GameTable::Open(path);
  REQUIRE_MESSAGE(table.ok(), table.status());
  CHECK(table->format_version() == 3);
  CHECK(table->players() == 3);
  CHECK(table->rules() == Rules{});
  CHECK(table->context_count() == 83275);  // 25^3 + 41 * 25^2 + 41^2 * 25
  CHECK(table->error_bound() < 1e-13);
  CHECK(CheckTableMatches(*table, Rules{}, 3).ok());
  CHECK_FALSE(CheckTableMatches(*table, Rules{}, 2).ok());
  auto start = table->WinProbabilities(GameContext{{0, 0, 0}, 0});
  REQUIRE(start.ok());
  MESSAGE("3-player start vector " << std::setprecision(17) << (*start)[0] << ", " << (*start)[1]
                                   << ", " << (*start)[2] << ", error bound "
                                   << table->error_bound());
  // The N-player solve's start vector (docs/PLAYERS.md), within a few ulps of
  // rounding; later seats are favoured.
  const double expected[3] = {0.318491846082913, 0.33258283454013, 0.34892531937695653};
  for (int j = 0; j < 3; ++j) CHECK(std::abs((*start)[j] - expected[j]) <= 3e-15);
  CHECK(std::abs((*start)[0] + (*start)[1] + (*start)[2] - 1) <= 3 * table->error_bound());
  // A query solves the first turn: rolling is the only move, worth seat 0's chance.
  auto eval = EvaluateWin(*table, GameContext{{0, 0, 0}, 0}, Dice(0, 1, 0, 0, 0));
  REQUIRE(eval.ok());
  REQUIRE(eval->position.roll.has_value());
  CHECK(eval->position.action == Then::kRoll);
  CHECK(eval->position.roll->approx > (*start)[0] - 0.1);
}

TEST_CASE("data: SHA256SUMS lists every shipped table with its checksum") {
  // The checksum itself, on the standard's examples.
  CHECK(Sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(Sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  const std::string dir = MARTIANDICE_DATA_DIR;
  std::istringstream manifest(ReadFile(dir + "/SHA256SUMS"));
  std::set<std::string> listed;
  for (std::string line; std::getline(manifest, line);) {
    CAPTURE(line);
    // "<64 hex digits>  <name>" (sha256sum's text mode).
    REQUIRE(line.size() > 66);
    REQUIRE(line.substr(64, 2) == "  ");
    const std::string name = line.substr(66);
    const std::string bytes = ReadFile(dir + "/" + name);
    REQUIRE_MESSAGE(!bytes.empty(), "missing " << name);
    CHECK(Sha256Hex(bytes) == line.substr(0, 64));
    listed.insert(name);
  }
  std::set<std::string> tables;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".mdt") tables.insert(entry.path().filename().string());
  }
  CHECK(listed == tables);
  CHECK(tables.count(TableFileName(Rules{}, 2)) == 1);
  CHECK(tables.count(TableFileName(Rules{}, 3)) == 1);
}
