// `martiandice simulate`: parses the policies, prepares what they need once
// (the policy table and the turn objectives' solved turns, from the advisor),
// plays seeded games on worker threads, adds up exact win shares, and prints
// the win rates as text or JSON.
#include "simulate.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "answers.h"
#include "commands.h"
#include "json.h"
#include "martiandice/dice.h"
#include "martiandice/objective.h"
#include "martiandice/query.h"
#include "martiandice/solver.h"
#include "support.h"
#include "workers.h"

namespace martiandice {
namespace {

// A game that has not ended after this many rounds never will: its policies
// do not score (e.g. reach:K with an unreachable K).
constexpr int kMaxRounds = 10000;
// Win shares are counted in 60ths (1/k for k <= 6 tied leaders is a whole
// number of them), so the totals are exact integers and their sum does not
// depend on the order in which threads add them.
constexpr std::int64_t kShareUnit = 60;
constexpr std::int64_t kGamesPerBlock = 128;
constexpr double kZ95 = 1.959963984540054;

// ---------------------------------------------------------------------------
// Policies.

absl::StatusOr<int> ParseStopThreshold(std::string_view spec, std::string_view number) {
  int k = 0;
  if (!absl::SimpleAtoi(std::string(number), &k) || k < 0 || k > 1000) {
    return absl::InvalidArgumentError(
        absl::StrCat("policy '", std::string(spec), "': stop:K needs an integer K in 0..1000"));
  }
  return k;
}

absl::Status UnknownPolicy(std::string_view spec, const absl::Status& why) {
  return absl::InvalidArgumentError(
      absl::StrCat("unknown policy '", std::string(spec),
                   "' (use win, ev, capped:M, reach:K, random or stop:K): ", why.message()));
}

// ---------------------------------------------------------------------------
// Dice and legal takes.

// Draws below `n` without bias.
std::uint64_t UniformBelow(std::mt19937_64& rng, std::uint64_t n) {
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
  std::uint64_t r = rng();
  while (r >= limit) r = rng();
  return r % n;
}

Dice RollDice(int n, std::mt19937_64& rng) {
  static constexpr std::array<Face, kDieSides> kSides = {Face::kTank,  Face::kRay, Face::kRay,
                                                         Face::kHuman, Face::kCow, Face::kChicken};
  Dice roll;
  for (int i = 0; i < n; ++i) roll.add(kSides[UniformBelow(rng, kDieSides)], 1);
  return roll;
}

// The faces that may be set aside from `roll`, in face order.
struct Takes {
  std::array<Face, 4> faces{};
  int size = 0;
  bool Contains(Face face) const {
    return std::find(faces.begin(), faces.begin() + size, face) != faces.begin() + size;
  }
};

Takes LegalTakes(const Dice& aside, const Dice& roll) {
  Takes takes;
  if (roll.count(Face::kRay) > 0) takes.faces[takes.size++] = Face::kRay;
  for (Face face : kEarthlings) {
    if (roll.count(face) > 0 && aside.count(face) == 0) takes.faces[takes.size++] = face;
  }
  return takes;
}

// ---------------------------------------------------------------------------
// What every game shares: the rules, the table and turn solutions.

struct Player {
  PolicySpec spec;
  std::optional<TurnSolution> solution;  // kObjective only
};

struct Setup {
  Rules rules;
  int players = 0;
  std::uint64_t seed = 0;
  bool alternate_seats = true;
  const GameTable* table = nullptr;           // win policies: the table used
  std::shared_ptr<const LoadedTable> loaded;  // the advisor's, unless given in memory
  std::vector<Player> policies;               // in the order given

  // The policy in `seat` in game `game`: seat - g mod P, or seat itself.
  int PolicyIndex(std::int64_t game, int seat) const {
    if (!alternate_seats) return seat;
    return static_cast<int>((seat - game % players + players) % players);
  }
};

absl::Status PrepareSolutions(const std::vector<PolicySpec>& specs, Advisor& advisor,
                              Setup& setup) {
  for (const PolicySpec& spec : specs) {
    Player player{spec, std::nullopt};
    if (spec.kind == PolicySpec::Kind::kObjective) {
      if (!spec.objective) {
        return absl::InvalidArgumentError(
            absl::StrCat("policy '", spec.name, "' has no objective (ParsePolicy sets it)"));
      }
      absl::StatusOr<TurnSolution> solution =
          advisor.Turn(setup.rules, *spec.objective, Precision::kDouble);
      if (!solution.ok()) return solution.status();
      player.solution = *std::move(solution);
    }
    setup.policies.push_back(std::move(player));
  }
  return absl::OkStatus();
}

bool NeedsTable(const std::vector<PolicySpec>& specs) {
  return std::any_of(specs.begin(), specs.end(),
                     [](const PolicySpec& s) { return s.kind == PolicySpec::Kind::kWin; });
}

absl::Status PrepareTable(const SimulationOptions& options, Advisor& advisor, Setup& setup,
                          SimulationResult& result) {
  if (!NeedsTable(options.policies)) return absl::OkStatus();
  if (options.table) {
    if (absl::Status status = CheckTableMatches(*options.table, setup.rules, setup.players);
        !status.ok()) {
      return cli::TableError(setup.rules, setup.players, status);
    }
    setup.table = &*options.table;
    return absl::OkStatus();
  }
  absl::StatusOr<std::shared_ptr<const LoadedTable>> loaded =
      cli::LoadTable(advisor, setup.rules, setup.players, options.tables_path);
  if (!loaded.ok()) return loaded.status();
  setup.loaded = *std::move(loaded);
  setup.table = &setup.loaded->table;
  result.table_path = setup.loaded->path;
  return absl::OkStatus();
}

absl::Status CheckOptions(const SimulationOptions& options) {
  if (absl::Status status = cli::CheckRules(options.rules); !status.ok()) return status;
  const int players = static_cast<int>(options.policies.size());
  if (players < kMinPlayers || players > kMaxPlayers) {
    return absl::InvalidArgumentError(absl::StrCat("a game needs ", kMinPlayers, " to ",
                                                   kMaxPlayers, " policies, one per seat; got ",
                                                   players));
  }
  if (options.games < 1) return absl::InvalidArgumentError("--games must be at least 1");
  if (options.threads < 1) return absl::InvalidArgumentError("--threads must be at least 1");
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Playing a turn.

struct Decision {
  Face take = Face::kRay;
  bool stop = false;
};

// The advised move, checked against our own reading of the rules.
absl::StatusOr<Decision> FromAdvice(const RollAdvice& advice, const Takes& legal) {
  if (advice.turn_over || !advice.best || *advice.best >= static_cast<int>(advice.options.size())) {
    return absl::InternalError("the library found no legal take where the rules allow one");
  }
  const TakeOption& option = advice.options[*advice.best];
  if (!legal.Contains(option.take)) {
    return absl::InternalError("the library advised a take the rules do not allow");
  }
  return Decision{option.take, option.then != Then::kRoll};
}

// stop:K's take: the biggest group; among equal groups rays when the tanks
// outnumber the rays, else the first earthling (human, cow, chicken).
Face BiggestGroup(const Dice& after_tanks, const Dice& roll, const Takes& legal) {
  int most = 0;
  for (int i = 0; i < legal.size; ++i) most = std::max(most, roll.count(legal.faces[i]));
  const bool rays_tied = legal.Contains(Face::kRay) && roll.count(Face::kRay) == most;
  const bool danger = after_tanks.count(Face::kTank) > after_tanks.count(Face::kRay);
  if (rays_tied && danger) return Face::kRay;
  for (int i = 0; i < legal.size; ++i) {
    if (legal.faces[i] != Face::kRay && roll.count(legal.faces[i]) == most) return legal.faces[i];
  }
  return Face::kRay;
}

absl::StatusOr<Decision> Decide(const Setup& setup, const Player& player,
                                const GameContext& context, const Dice& aside, const Dice& roll,
                                const Takes& legal, std::mt19937_64& rng) {
  switch (player.spec.kind) {
    case PolicySpec::Kind::kWin: {
      absl::StatusOr<WinAdvice> advice = AdviseWin(*setup.table, context, aside, roll);
      if (!advice.ok()) return advice.status();
      return FromAdvice(advice->advice, legal);
    }
    case PolicySpec::Kind::kObjective: {
      absl::StatusOr<RollAdvice> advice = AdviseRoll(*player.solution, aside, roll);
      if (!advice.ok()) return advice.status();
      return FromAdvice(*advice, legal);
    }
    case PolicySpec::Kind::kRandom: {
      const Face take = legal.faces[UniformBelow(rng, legal.size)];
      return Decision{take, UniformBelow(rng, 2) == 0};
    }
    case PolicySpec::Kind::kStopAt: {
      Dice after = aside;
      after.add(Face::kTank, roll.count(Face::kTank));
      const Face take = BiggestGroup(after, roll, legal);
      after.add(take, roll.count(take));
      return Decision{take, TurnScore(setup.rules, after) >= player.spec.param};
    }
  }
  return absl::InternalError("unknown policy kind");
}

// Plays the turn of `context.seat`; returns its score.
absl::StatusOr<int> PlayTurn(const Setup& setup, const Player& player, const GameContext& context,
                             std::mt19937_64& rng) {
  Dice aside;
  while (true) {
    const int left = setup.rules.dice - aside.total();
    if (left == 0) return TurnScore(setup.rules, aside);
    const Dice roll = RollDice(left, rng);
    const Takes legal = LegalTakes(aside, roll);
    Dice after = aside;
    after.add(Face::kTank, roll.count(Face::kTank));
    if (legal.size == 0) return TurnScore(setup.rules, after);
    absl::StatusOr<Decision> decision = Decide(setup, player, context, aside, roll, legal, rng);
    if (!decision.ok()) return decision.status();
    after.add(decision->take, roll.count(decision->take));
    aside = after;
    if (decision->stop) return TurnScore(setup.rules, aside);
  }
}

// ---------------------------------------------------------------------------
// Playing games and adding up the results.

struct Totals {
  std::vector<std::int64_t> seat_share, seat_square;      // in kShareUnit, kShareUnit^2
  std::vector<std::int64_t> policy_share, policy_square;  // by policy index
  std::int64_t turns = 0;
  std::int64_t tied = 0;

  explicit Totals(int players)
      : seat_share(players), seat_square(players), policy_share(players), policy_square(players) {}
  void Add(const Totals& other) {
    for (std::size_t i = 0; i < seat_share.size(); ++i) {
      seat_share[i] += other.seat_share[i];
      seat_square[i] += other.seat_square[i];
      policy_share[i] += other.policy_share[i];
      policy_square[i] += other.policy_square[i];
    }
    turns += other.turns;
    tied += other.tied;
  }
};

std::uint64_t GameSeed(std::uint64_t seed, std::int64_t game) {
  // SplitMix64's finaliser over the seed and the game number.
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(game) + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Splits the win among the seats with the highest total.
void Score(const Setup& setup, const std::vector<int>& scores, std::int64_t game, Totals& totals) {
  const int players = static_cast<int>(scores.size());
  const int best = *std::max_element(scores.begin(), scores.end());
  const auto leaders = std::count(scores.begin(), scores.end(), best);
  if (leaders > 1) ++totals.tied;
  const std::int64_t share = kShareUnit / leaders;
  for (int seat = 0; seat < players; ++seat) {
    if (scores[seat] != best) continue;
    const int policy = setup.PolicyIndex(game, seat);
    totals.seat_share[seat] += share;
    totals.seat_square[seat] += share * share;
    totals.policy_share[policy] += share;
    totals.policy_square[policy] += share * share;
  }
}

absl::Status PlayGame(const Setup& setup, std::int64_t game, Totals& totals) {
  std::mt19937_64 rng(GameSeed(setup.seed, game));
  const int players = setup.players;
  GameContext context;
  context.scores.assign(players, 0);
  bool final_round = false;
  for (int round = 0; !final_round; ++round) {
    if (round == kMaxRounds) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a game did not end in ", kMaxRounds, " rounds: these policies never reach the target"));
    }
    for (int seat = 0; seat < players; ++seat) {
      context.seat = seat;
      const Player& player = setup.policies[setup.PolicyIndex(game, seat)];
      absl::StatusOr<int> score = PlayTurn(setup, player, context, rng);
      if (!score.ok()) return score.status();
      context.scores[seat] += *score;
      ++totals.turns;
      if (context.scores[seat] >= setup.rules.target) final_round = true;
    }
  }
  Score(setup, context.scores, game, totals);
  return absl::OkStatus();
}

// Games handed out in blocks to the workers; the first error (lowest game) wins.
class GameRunner {
 public:
  GameRunner(const Setup& setup, std::int64_t games) : setup_(setup), games_(games) {}

  absl::StatusOr<Totals> Run(int threads) {
    std::vector<Totals> partial(threads, Totals(setup_.players));
    if (absl::Status status = solver::RunWorkers(threads, [&](int t) { Work(partial[t]); });
        !status.ok()) {
      return status;
    }
    if (!error_.ok()) return error_;
    Totals totals(setup_.players);
    for (const Totals& part : partial) totals.Add(part);
    return totals;
  }

 private:
  void Work(Totals& totals) {
    try {
      WorkBlocks(totals);
    } catch (const std::exception& e) {
      Fail(-1, absl::InternalError(absl::StrCat("simulation failed: ", e.what())));
    }
  }

  void WorkBlocks(Totals& totals) {
    while (!failed_.load(std::memory_order_relaxed)) {
      const std::int64_t first = next_.fetch_add(kGamesPerBlock);
      if (first >= games_) return;
      const std::int64_t end = std::min(games_, first + kGamesPerBlock);
      for (std::int64_t game = first; game < end; ++game) {
        if (absl::Status status = PlayGame(setup_, game, totals); !status.ok()) {
          Fail(game, status);
          return;
        }
      }
    }
  }

  void Fail(std::int64_t game, const absl::Status& status) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_.ok() || game < error_game_) {
      error_ = status;
      error_game_ = game;
    }
    failed_.store(true);
  }

  const Setup& setup_;
  const std::int64_t games_;
  std::atomic<std::int64_t> next_{0};
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  absl::Status error_;
  std::int64_t error_game_ = 0;
};

// Mean and 95% half-width of per-game shares from their exact sums.
std::pair<double, double> MeanAndHalfWidth(std::int64_t share, std::int64_t square,
                                           std::int64_t games) {
  const long double n = static_cast<long double>(games);
  const long double sum = static_cast<long double>(share) / kShareUnit;
  const long double sum_sq = static_cast<long double>(square) / (kShareUnit * kShareUnit);
  const long double mean = sum / n;
  if (games < 2) return {static_cast<double>(mean), std::numeric_limits<double>::quiet_NaN()};
  const long double variance = std::max(0.0L, (sum_sq - sum * mean) / (n - 1));
  return {static_cast<double>(mean), static_cast<double>(kZ95 * std::sqrt(variance / n))};
}

void Summarise(const Totals& totals, std::int64_t games, SimulationResult& result) {
  for (int i = 0; i < result.players; ++i) {
    const auto [seat_mean, seat_half] =
        MeanAndHalfWidth(totals.seat_share[i], totals.seat_square[i], games);
    result.seat_win_rate.push_back(seat_mean);
    result.seat_ci95.push_back(seat_half);
    const auto [policy_mean, policy_half] =
        MeanAndHalfWidth(totals.policy_share[i], totals.policy_square[i], games);
    result.policy_win_rate.push_back(policy_mean);
    result.policy_ci95.push_back(policy_half);
  }
  result.games = games;
  result.mean_turns = static_cast<double>(totals.turns) / static_cast<double>(games);
  result.tied_games = totals.tied;
}

}  // namespace

// ---------------------------------------------------------------------------

absl::StatusOr<PolicySpec> ParsePolicy(std::string_view spec) {
  PolicySpec policy;
  policy.name = std::string(spec);
  absl::StatusOr<Goal> goal = Goal::Parse(spec);
  if (goal.ok()) {
    if (goal->is_win()) return policy;
    policy.kind = PolicySpec::Kind::kObjective;
    policy.objective = goal->objective();
    policy.name = goal->name();
    return policy;
  }
  if (spec == "random") {
    policy.kind = PolicySpec::Kind::kRandom;
    return policy;
  }
  if (spec.substr(0, 5) == "stop:") {
    absl::StatusOr<int> k = ParseStopThreshold(spec, spec.substr(5));
    if (!k.ok()) return k.status();
    policy.kind = PolicySpec::Kind::kStopAt;
    policy.param = *k;
    return policy;
  }
  return UnknownPolicy(spec, goal.status());
}

absl::StatusOr<std::vector<PolicySpec>> ParsePolicies(std::string_view list) {
  std::vector<PolicySpec> policies;
  for (absl::string_view piece : absl::StrSplit(absl::string_view(list.data(), list.size()), ',')) {
    absl::StatusOr<PolicySpec> policy = ParsePolicy(std::string_view(piece.data(), piece.size()));
    if (!policy.ok()) return policy.status();
    policies.push_back(*std::move(policy));
  }
  return policies;
}

absl::StatusOr<SimulationResult> Simulate(const SimulationOptions& options) {
  if (absl::Status status = CheckOptions(options); !status.ok()) return status;
  Setup setup;
  setup.rules = options.rules;
  setup.players = static_cast<int>(options.policies.size());
  setup.seed = options.seed;
  setup.alternate_seats = options.alternate_seats;
  SimulationResult result;
  result.players = setup.players;
  std::optional<Advisor> own_advisor;
  Advisor& advisor = options.advisor != nullptr ? *options.advisor : own_advisor.emplace();
  if (absl::Status status = PrepareTable(options, advisor, setup, result); !status.ok()) {
    return status;
  }
  if (absl::Status status = PrepareSolutions(options.policies, advisor, setup); !status.ok()) {
    return status;
  }
  const auto start = std::chrono::steady_clock::now();
  const int threads = static_cast<int>(std::min<std::int64_t>(
      options.threads, (options.games + kGamesPerBlock - 1) / kGamesPerBlock));
  GameRunner runner(setup, options.games);
  absl::StatusOr<Totals> totals = runner.Run(std::max(1, threads));
  if (!totals.ok()) return totals.status();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Summarise(*totals, options.games, result);
  return result;
}

// ---------------------------------------------------------------------------
// The subcommand.

namespace cli {
namespace {

absl::StatusOr<std::uint64_t> ReadSeed(const std::string& text) {
  std::uint64_t seed = 0;
  if (!absl::SimpleAtoi(text, &seed) || text.find('-') != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("--seed: expected an integer in 0..2^64-1, got '", text, "'"));
  }
  return seed;
}

absl::StatusOr<SimulationOptions> ReadSimulation(const CommandOptions& options,
                                                 const CommandContext& context) {
  SimulationOptions simulation;
  simulation.rules = options.query.rules;
  if (absl::Status status = CheckRules(simulation.rules); !status.ok()) return status;
  absl::StatusOr<std::vector<PolicySpec>> policies = ParsePolicies(options.policies);
  if (!policies.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--policies: ", policies.status().message()));
  }
  simulation.policies = *std::move(policies);
  const int counted = static_cast<int>(simulation.policies.size());
  const std::optional<int>& players = options.query.players;
  if (players && *players != counted) {
    return absl::InvalidArgumentError(absl::StrCat("--players ", *players, " does not match the ",
                                                   counted, " entries of --policies"));
  }
  if (absl::Status status = CheckPlayers(counted, players ? "--players" : "--policies");
      !status.ok()) {
    return status;
  }
  // A billion games take hours: larger requests are refused rather than started.
  constexpr std::int64_t kMaxGames = 1'000'000'000;
  std::int64_t games = 0;
  if (!absl::SimpleAtoi(options.games, &games) || games < 1 || games > kMaxGames) {
    return absl::InvalidArgumentError(
        absl::StrCat("--games: expected a whole number of games in 1..", kMaxGames, ", got '",
                     options.games, "'"));
  }
  simulation.games = games;
  absl::StatusOr<std::uint64_t> seed = ReadSeed(options.seed);
  if (!seed.ok()) return seed.status();
  simulation.seed = *seed;
  absl::StatusOr<int> threads = ReadThreads(options.threads);
  if (!threads.ok()) return threads.status();
  simulation.threads = *threads;
  simulation.tables_path = options.query.tables;
  simulation.alternate_seats = !options.no_alternate;
  simulation.advisor = &context.advisor;
  return simulation;
}

std::vector<std::string> PolicyNames(const SimulationOptions& simulation) {
  std::vector<std::string> names;
  for (const PolicySpec& policy : simulation.policies) names.push_back(policy.name);
  return names;
}

std::string SimulateJson(const SimulationOptions& simulation, const SimulationResult& result) {
  std::vector<std::string> names;
  for (const std::string& name : PolicyNames(simulation)) names.push_back(JsonString(name));
  const std::string ci95 = JsonObject()
                               .Raw("seat", JsonDoubleArray(result.seat_ci95))
                               .Raw("policy", JsonDoubleArray(result.policy_ci95))
                               .Build();
  JsonObject object;
  object.Raw("rules", RulesJson(simulation.rules))
      .Int("players", result.players)
      .Int("games", result.games)
      .Raw("seed", absl::StrCat(simulation.seed))
      .Raw("policies", JsonArray(names))
      .Bool("alternate_seats", simulation.alternate_seats)
      .Raw("seat_win_rate", JsonDoubleArray(result.seat_win_rate))
      .Raw("policy_win_rate", JsonDoubleArray(result.policy_win_rate))
      .Raw("ci95", ci95)
      .Raw("mean_turns", JsonDouble(result.mean_turns))
      .Int("tied_games", result.tied_games);
  if (result.table_path.empty()) {
    object.Null("table");
  } else {
    object.Str("table", result.table_path);
  }
  return object.Build() + "\n";
}

std::string RateText(double rate, double half_width) {
  if (!std::isfinite(half_width)) return absl::StrFormat("%.4f", rate);
  return absl::StrFormat("%.4f ± %.4f", rate, half_width);
}

std::string SimulateText(const SimulationOptions& simulation, const SimulationResult& result) {
  const std::vector<std::string> names = PolicyNames(simulation);
  std::string text =
      absl::StrFormat("Simulated %d games of %d players (%s), seed %d.\n", result.games,
                      result.players, RulesText(simulation.rules), simulation.seed);
  absl::StrAppend(
      &text,
      simulation.alternate_seats
          ? absl::StrFormat(
                "Seats alternate: in game g (from 0), policy k sits in seat (k + g) mod %d.\n",
                result.players)
          : "Seats fixed (--no-alternate): policy k sits in seat k in every game.\n",
      "Win rates (ties split: 1/k to each of k tied leaders; ± = 95% confidence half-width):\n");
  for (int seat = 0; seat < result.players; ++seat) {
    absl::StrAppend(&text,
                    absl::StrFormat("  %-22s %s\n", absl::StrCat("seat ", seat),
                                    RateText(result.seat_win_rate[seat], result.seat_ci95[seat])));
  }
  for (int k = 0; k < result.players; ++k) {
    absl::StrAppend(&text,
                    absl::StrFormat("  %-22s %s\n", absl::StrCat("policy ", k, " ", names[k]),
                                    RateText(result.policy_win_rate[k], result.policy_ci95[k])));
  }
  absl::StrAppend(&text, absl::StrFormat("Turns per game: %.2f on average (all seats). Games with "
                                         "tied leaders: %d.\n",
                                         result.mean_turns, result.tied_games));
  if (!result.table_path.empty()) absl::StrAppend(&text, "Table: ", result.table_path, ".\n");
  absl::StrAppend(
      &text, absl::StrFormat("Time: %.2f s (%.0f games/s, %d threads).\n", result.seconds,
                             static_cast<double>(result.games) / std::max(result.seconds, 1e-9),
                             simulation.threads));
  return text;
}

}  // namespace

const std::string_view kSimulateHelp = R"(
Plays whole games with seeded random dice. Policies (--policies, one per seat,
comma-separated):
  win        maximise the chance to win the game (needs the policy table)
  ev         maximise the expected turn score
  capped:M   maximise the expected min(turn score, M)
  reach:K    maximise the chance to score at least K this turn
  random     a uniformly random legal take, then stop or roll with chance 1/2
  stop:K     take the biggest group (ties: rays when tanks outnumber rays,
             else the first earthling), stop once the turn scores K or more
Ties between stop and roll (values within 1e-12) are played as stop.
In game g (from 0) policy k sits in seat (k + g) mod P, so each policy plays
each seat equally often; with --no-alternate policy k sits in seat k in every
game (one seating measured alone). Each game has its own random stream from
(seed, g): the result depends on --seed only, not on --threads.
Output fields (same names in --json): games, seat_win_rate (per seat),
policy_win_rate (per policy, --policies order), ci95 {seat, policy} (95%
half-widths, normal approximation), mean_turns (turns per game, all seats),
tied_games, seed, policies, alternate_seats, players, rules, table (null if
no win policy).
A win is shared 1/k by k seats tied for the highest total.
)";

absl::StatusOr<std::string> RunSimulate(const CommandOptions& options,
                                        const CommandContext& context) {
  absl::StatusOr<SimulationOptions> simulation = ReadSimulation(options, context);
  if (!simulation.ok()) return simulation.status();
  absl::StatusOr<SimulationResult> result = Simulate(*simulation);
  if (!result.ok()) return result.status();
  return options.json ? SimulateJson(*simulation, *result) : SimulateText(*simulation, *result);
}

}  // namespace cli
}  // namespace martiandice
