// `martiandice simulate`: parses the policies, prepares the bots once (the
// policy table and the solved turns, from the advisor; martiandice/policy.h),
// plays seeded games (martiandice/game_state.h) on worker threads, adds up
// exact win shares, and prints the win rates as text or JSON.
#include "simulate.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/numeric/int128.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "answers.h"
#include "commands.h"
#include "exit_codes.h"
#include "interrupt.h"
#include "json.h"
#include "martiandice/game_state.h"
#include "martiandice/policy.h"
#include "martiandice/rules.h"
#include "martiandice/turn_query.h"
#include "martiandice/win_query.h"
#include "rating.h"
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
// Workers take games in blocks of about kBlockTime (1 to kMaxGamesPerBlock
// games): short enough that a stop or a progress report waits for little,
// long enough that handing them out costs nothing.
constexpr std::int64_t kMaxGamesPerBlock = 128;
constexpr std::chrono::milliseconds kBlockTime{50};
constexpr double kZ95 = 1.959963984540054;
// Rated losses are summed in units of 2^-48 of a chance to win, as integers,
// so the sums do not depend on the order in which threads add them.
constexpr double kLossUnit = 0x1p48;

// ---------------------------------------------------------------------------
// What every game shares: the rules, the table and the bots.

struct Setup {
  Rules rules;
  int players = 0;
  std::uint64_t seed = 0;
  bool alternate_seats = true;
  std::optional<GameTable> table;  // win policies and rating: the table used
  std::vector<Bot> bots;           // the policies, in the order given
  bool rate = false;               // each take reviewed against the table's advice
};

bool NeedsTable(const std::vector<PolicySpec>& specs) {
  return std::any_of(specs.begin(), specs.end(),
                     [](const PolicySpec& s) { return s.kind == PolicySpec::Kind::kWin; });
}

absl::Status PrepareTable(const SimulationOptions& options, Advisor& advisor, Setup& setup,
                          SimulationResult& result) {
  if (!NeedsTable(options.policies) && !options.rate) return absl::OkStatus();
  if (options.table) {
    if (absl::Status status = CheckTableMatches(*options.table, setup.rules, setup.players);
        !status.ok()) {
      return app::TableError(setup.rules, setup.players, status);
    }
    setup.table = options.table;
    return absl::OkStatus();
  }
  absl::StatusOr<std::shared_ptr<const LoadedTable>> loaded =
      advisor.Table(setup.rules, setup.players, options.tables_path);
  if (!loaded.ok()) {
    const absl::Status error = app::TableError(setup.rules, setup.players, loaded.status());
    if (!NeedsTable(options.policies)) {
      return absl::Status(error.code(), absl::StrCat("--rate reviews decisions against a table: ",
                                                     error.message()));
    }
    if (!absl::IsNotFound(loaded.status())) return error;
    // None found: the fallback bot plays without one.
    return absl::Status(error.code(), absl::StrCat(error.message(),
                                                   "; or play the policy fallback in the place of "
                                                   "win (what win advises where no table covers "
                                                   "the game)"));
  }
  setup.table = (*loaded)->table;
  result.table_path = (*loaded)->path;
  return absl::OkStatus();
}

// The bots, with the table PrepareTable found for `win`.
absl::Status PrepareBots(const std::vector<PolicySpec>& specs, Advisor& advisor, Setup& setup) {
  BotOptions options;
  options.table = setup.table;
  for (const PolicySpec& spec : specs) {
    absl::StatusOr<Bot> bot = Bot::Create(spec, advisor, setup.rules, setup.players, options);
    if (!bot.ok()) return bot.status();
    setup.bots.push_back(*std::move(bot));
  }
  return absl::OkStatus();
}

absl::Status CheckOptions(const SimulationOptions& options) {
  if (absl::Status status = app::CheckRules(options.rules); !status.ok()) return status;
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
// Playing games and adding up the results.

// A policy's rated decisions, the loss in kLossUnit.
struct RatedDecisions {
  std::int64_t decisions = 0;
  std::array<std::int64_t, app::kDecisionClasses> classes{};
  absl::int128 loss = 0;

  void Add(const RatedDecisions& other) {
    decisions += other.decisions;
    for (int c = 0; c < app::kDecisionClasses; ++c) classes[c] += other.classes[c];
    loss += other.loss;
  }
  app::RatingTally Tally() const {
    app::RatingTally tally;
    tally.decisions = decisions;
    tally.classes = classes;
    tally.total_loss = static_cast<double>(loss) / kLossUnit;
    return tally;
  }
};

struct Totals {
  std::vector<std::int64_t> seat_share, seat_square;      // in kShareUnit, kShareUnit^2
  std::vector<std::int64_t> policy_share, policy_square;  // by policy index
  std::vector<RatedDecisions> rated;                      // by policy index
  std::int64_t turns = 0;
  std::int64_t tied = 0;

  explicit Totals(int players)
      : seat_share(players),
        seat_square(players),
        policy_share(players),
        policy_square(players),
        rated(players) {}
  void Add(const Totals& other) {
    for (std::size_t i = 0; i < seat_share.size(); ++i) {
      seat_share[i] += other.seat_share[i];
      seat_square[i] += other.seat_square[i];
      policy_share[i] += other.policy_share[i];
      policy_square[i] += other.policy_square[i];
      rated[i].Add(other.rated[i]);
    }
    turns += other.turns;
    tied += other.tied;
  }
};

// Splits the win among the seats with the highest total.
void Score(const std::vector<int>& seated, const std::vector<int>& scores, Totals& totals) {
  const int players = static_cast<int>(scores.size());
  const int leaders = LeaderCount(scores);  // the rule's split, counted exactly
  if (leaders > 1) ++totals.tied;
  const std::int64_t share = kShareUnit / leaders;
  for (int seat = 0; seat < players; ++seat) {
    if (WinShare(scores, seat) == 0.0) continue;
    const int policy = seated[seat];
    totals.seat_share[seat] += share;
    totals.seat_square[seat] += share * share;
    totals.policy_share[policy] += share;
    totals.policy_square[policy] += share * share;
  }
}

// The bot's take at `state` (phase kTake), reviewed against the table's win
// advice (the takes of a game's advice, without its chances to score 0), then
// its moves applied: the same moves, from the same random draws, as
// Bot::PlayStep's. Returns whether they ended the turn.
absl::StatusOr<bool> RatedStep(const Setup& setup, const Bot& bot, GameState& state, DiceRng& rng,
                               RatedDecisions& rated) {
  absl::StatusOr<WinAdvice> advice =
      AdviseWin(*setup.table, state.context(), state.aside_before_roll(), state.roll());
  if (!advice.ok()) return advice.status();
  absl::StatusOr<Bot::Step> step = bot.NextStep(state, rng);
  if (!step.ok()) return step.status();
  const Then then =
      step->then && step->then->kind == Move::Kind::kRollOn ? Then::kRoll : Then::kStop;
  absl::StatusOr<ChoiceReview> review = ReviewChoice(advice->advice, step->move.face, then);
  if (!review.ok()) return review.status();
  if (app::IsDecision(advice->advice)) {  // else nothing to choose: not rated
    ++rated.decisions;
    ++rated.classes[static_cast<int>(app::ClassOf(review->optimal, review->loss.approx))];
    if (!review->optimal) {
      rated.loss += static_cast<absl::int128>(std::llround(review->loss.approx * kLossUnit));
    }
  }
  bool ended = false;
  for (const std::optional<Move>& move : {std::optional<Move>(step->move), step->then}) {
    if (!move) continue;
    absl::StatusOr<MoveResult> result = state.Apply(*move);
    if (!result.ok()) return result.status();
    ended = result->turn_end.has_value();
  }
  return ended;
}

// A turn of the seat to move; when rating, its takes reviewed (RatedStep).
absl::Status PlayTurn(const Setup& setup, const Bot& bot, GameState& state, DiceRng& rng,
                      RatedDecisions& rated) {
  if (!setup.rate) return bot.PlayTurn(state, rng).status();
  for (bool ended = false; !ended;) {
    if (state.phase() == Phase::kTake) {
      absl::StatusOr<bool> step = RatedStep(setup, bot, state, rng, rated);
      if (!step.ok()) return step.status();
      ended = *step;
    } else {
      absl::StatusOr<MoveResult> result = bot.PlayStep(state, rng);
      if (!result.ok()) return result.status();
      ended = result->turn_end.has_value();
    }
  }
  return absl::OkStatus();
}

absl::Status PlayGame(const Setup& setup, std::int64_t game, Totals& totals) {
  DiceRng rng = SeededRng(setup.seed, game);
  absl::StatusOr<GameState> state = GameState::New(setup.rules, setup.players);
  if (!state.ok()) return state.status();
  std::vector<int> seated(setup.players);  // the policy in each seat
  if (setup.alternate_seats) {
    seated = SeatedPolicies(setup.players, game);
  } else {
    std::iota(seated.begin(), seated.end(), 0);
  }
  std::int64_t turns = 0;
  while (!state->over()) {
    if (state->seat() == 0 && turns == std::int64_t{kMaxRounds} * setup.players) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a game did not end in ", kMaxRounds, " rounds: these policies never reach the target"));
    }
    const int policy = seated[state->seat()];
    if (absl::Status status =
            PlayTurn(setup, setup.bots[policy], *state, rng, totals.rated[policy]);
        !status.ok()) {
      return status;
    }
    ++turns;
  }
  totals.turns += turns;
  Score(seated, state->scores(), totals);
  return absl::OkStatus();
}

// Games handed out in blocks to the workers; the first error (lowest game) wins.
class GameRunner {
 public:
  GameRunner(const Setup& setup, const SimulationOptions& options)
      : setup_(setup), games_(options.games), stop_(options.stop), progress_(options.progress) {}

  absl::StatusOr<Totals> Run(int threads) {
    std::vector<Totals> partial(threads, Totals(setup_.players));
    if (absl::Status status = solver::RunWorkers(threads, [&](int t) { Work(partial[t], t == 0); });
        !status.ok()) {
      return status;
    }
    if (!error_.ok()) return error_;
    Totals totals(setup_.players);
    for (const Totals& part : partial) totals.Add(part);
    return totals;
  }

  // Games 0..n-1 were played (all asked, or those begun before a stop).
  std::int64_t Played() const { return std::min(games_, next_.load()); }

 private:
  void Work(Totals& totals, bool reports) {
    try {
      WorkBlocks(totals, reports);
    } catch (const std::exception& e) {
      Fail(-1, absl::InternalError(absl::StrCat("simulation failed: ", e.what())));
    }
  }

  // Blocks in order; once stopped none is begun, those begun are finished:
  // the games played stay a prefix.
  void WorkBlocks(Totals& totals, bool reports) {
    std::int64_t block = 1;  // games, grown or shrunk toward kBlockTime
    while (!failed_.load(std::memory_order_relaxed)) {
      if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) return;
      const auto begun = std::chrono::steady_clock::now();
      const std::int64_t first = next_.fetch_add(block);
      if (first >= games_) return;
      const std::int64_t end = std::min(games_, first + block);
      for (std::int64_t game = first; game < end; ++game) {
        if (absl::Status status = PlayGame(setup_, game, totals); !status.ok()) {
          Fail(game, status);
          return;
        }
      }
      const std::int64_t done = done_.fetch_add(end - first) + (end - first);
      if (reports && progress_) progress_(static_cast<double>(done) / static_cast<double>(games_));
      const auto took = std::chrono::steady_clock::now() - begun;
      if (took < kBlockTime / 2 && block < kMaxGamesPerBlock) block *= 2;
      if (took > kBlockTime && block > 1) block /= 2;
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
  const std::atomic<bool>* const stop_;
  const std::function<void(double)>& progress_;
  std::atomic<std::int64_t> next_{0};
  std::atomic<std::int64_t> done_{0};  // games played, for the progress
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  absl::Status error_;
  std::int64_t error_game_ = 0;
};

// Mean and 95% half-width of per-game shares from their exact sums: the
// normal approximation, except where every game gave the same share, 0 or 1
// (a policy that never or always wins), which it would call ±0: there the
// exact binomial (Clopper-Pearson) bound on the other side, 1 - 0.025^(1/n).
std::pair<double, double> MeanAndHalfWidth(std::int64_t share, std::int64_t square,
                                           std::int64_t games) {
  const long double n = static_cast<long double>(games);
  const long double sum = static_cast<long double>(share) / kShareUnit;
  const long double sum_sq = static_cast<long double>(square) / (kShareUnit * kShareUnit);
  const long double mean = sum / n;
  if (games < 2) return {static_cast<double>(mean), std::numeric_limits<double>::quiet_NaN()};
  if (share == 0 || share == games * kShareUnit) {
    return {static_cast<double>(mean), static_cast<double>(-std::expm1(std::log(0.025L) / n))};
  }
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
  for (const RatedDecisions& rated : totals.rated) result.policy_rating.push_back(rated.Tally());
  result.games = games;
  result.mean_turns = static_cast<double>(totals.turns) / static_cast<double>(games);
  result.tied_games = totals.tied;
}

}  // namespace

// ---------------------------------------------------------------------------

std::vector<int> SeatedPolicies(int players, std::int64_t game) {
  std::int64_t orders = 1;  // (players - 1)!, then the orders per choice left
  for (int k = 2; k < players; ++k) orders *= k;
  std::int64_t index = (game / players) % orders;  // the circular order, in lexicographic order
  std::vector<int> others(players - 1);
  std::iota(others.begin(), others.end(), 1);
  std::vector<int> order = {0};
  for (int left = players - 1; left > 0; --left) {  // index in the factorial number system
    orders /= left;
    const auto next = others.begin() + index / orders;
    index %= orders;
    order.push_back(*next);
    others.erase(next);
  }
  std::vector<int> seated(players);
  for (int i = 0; i < players; ++i) seated[(i + game % players) % players] = order[i];
  return seated;
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
  if (absl::Status status = PrepareBots(options.policies, advisor, setup); !status.ok()) {
    return status;
  }
  setup.rate = options.rate;
  const auto start = std::chrono::steady_clock::now();
  result.threads = static_cast<int>(std::min<std::int64_t>(options.threads, options.games));
  GameRunner runner(setup, options);
  absl::StatusOr<Totals> totals = runner.Run(result.threads);
  if (!totals.ok()) return totals.status();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::int64_t played = runner.Played();
  if (played == 0) return absl::CancelledError("simulation interrupted before any game was played");
  Summarise(*totals, played, result);
  result.games_asked = options.games;
  result.interrupted = played < options.games;
  return result;
}

// ---------------------------------------------------------------------------
// The subcommand.

namespace cli {

namespace {

absl::StatusOr<SimulationOptions> ReadSimulation(const CommandOptions& options,
                                                 const CommandContext& context) {
  SimulationOptions simulation;
  simulation.rules = options.request.query.rules;
  if (absl::Status status = app::CheckRules(simulation.rules); !status.ok()) return status;
  absl::StatusOr<std::vector<PolicySpec>> policies = ParsePolicies(options.policies);
  if (!policies.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--policies: ", policies.status().message()));
  }
  simulation.policies = *std::move(policies);
  const int counted = static_cast<int>(simulation.policies.size());
  const std::optional<int>& players = options.request.query.players;
  if (players && *players != counted) {
    return absl::InvalidArgumentError(absl::StrCat("--players ", *players, " does not match the ",
                                                   counted, counted == 1 ? " entry" : " entries",
                                                   " of --policies"));
  }
  if (absl::Status status = app::CheckPlayers(counted, players ? "players" : "policies");
      !status.ok()) {
    return status;
  }
  // A billion games take hours: larger requests are refused rather than started.
  constexpr std::uint64_t kMaxGames = 1'000'000'000;
  const std::optional<std::uint64_t> games = app::ReadDigits(options.games);
  if (!games || *games < 1 || *games > kMaxGames) {
    return absl::InvalidArgumentError(
        absl::StrCat("--games: expected a whole number of games in 1..", kMaxGames, ", got '",
                     options.games, "'"));
  }
  simulation.games = static_cast<std::int64_t>(*games);
  absl::StatusOr<std::uint64_t> seed = app::ReadSeed(options.seed, "seed");
  if (!seed.ok()) return seed.status();
  simulation.seed = *seed;
  absl::StatusOr<int> threads = ReadThreads(options.threads);
  if (!threads.ok()) return threads.status();
  simulation.threads = *threads;
  simulation.tables_path = options.request.query.tables;
  simulation.alternate_seats = !options.no_alternate;
  simulation.rate = options.rate;
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
  object.Raw("rules", app::RulesJson(simulation.rules))
      .Int("players", result.players)
      .Int("games", result.games)
      .Int("games_asked", result.games_asked)
      .Bool("interrupted", result.interrupted)
      .Str("seed", absl::StrCat(simulation.seed))  // text: exact past 2^53
      .Raw("policies", JsonArray(names))
      .Bool("alternate_seats", simulation.alternate_seats)
      .Raw("seat_win_rate", JsonDoubleArray(result.seat_win_rate))
      .Raw("policy_win_rate", JsonDoubleArray(result.policy_win_rate))
      .Raw("ci95", ci95)
      .Raw("mean_turns", JsonDouble(result.mean_turns))
      .Int("tied_games", result.tied_games);
  if (simulation.rate) {
    std::vector<std::string> ratings;
    for (const app::RatingTally& tally : result.policy_rating)
      ratings.push_back(app::RatingJson(tally));
    object.Raw("rating", JsonArray(ratings));
  } else {
    object.Null("rating");
  }
  if (result.table_path.empty()) {
    object.Null("table");
  } else {
    object.Str("table", result.table_path);
  }
  return object.Build() + "\n";
}

std::string RateText(double rate, double half_width) {
  if (!std::isfinite(half_width)) return absl::StrFormat("%.4f", rate);
  // A rate of 0 or 1: the exact bound on its one side (MeanAndHalfWidth).
  if (rate == 0) return absl::StrFormat("%.4f (≤ %.4f)", rate, half_width);
  if (rate == 1) return absl::StrFormat("%.4f (≥ %.4f)", rate, 1 - half_width);
  return absl::StrFormat("%.4f ± %.4f", rate, half_width);
}

std::string SeatingText(bool alternate_seats, int players) {
  if (!alternate_seats)
    return "Seats fixed (--no-alternate): policy k sits in seat k in every game.\n";
  if (players == 2)
    return "Seats alternate: in game g (from 0), policy k sits in seat (k + g) mod 2.\n";
  int seatings = 1;  // players!
  for (int k = 2; k <= players; ++k) seatings *= k;
  return absl::StrFormat(
      "Seats alternate: each policy sits once in each seat every %d games, each seating once "
      "every %d.\n",
      players, seatings);
}

std::string SimulateText(const SimulationOptions& simulation, const SimulationResult& result) {
  const std::vector<std::string> names = PolicyNames(simulation);
  std::string text;
  if (result.interrupted) {
    text = absl::StrFormat(
        "Interrupted after %d of %d games: the result below is that of --games %d (the same "
        "games).\n",
        result.games, result.games_asked, result.games);
  }
  absl::StrAppend(&text, absl::StrFormat("Simulated %d game%s of %d players (%s), seed %d.\n",
                                         result.games, result.games == 1 ? "" : "s", result.players,
                                         RulesText(simulation.rules), simulation.seed));
  absl::StrAppend(
      &text, SeatingText(simulation.alternate_seats, result.players),
      "Win rates (a tie of k leaders gives each 1/k; ± = 95% confidence half-width):\n");
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
  if (simulation.rate) {
    absl::StrAppend(&text, "Decisions rated against the win table (docs/RATING.md):\n");
    for (int k = 0; k < result.players; ++k) {
      absl::StrAppend(&text,
                      absl::StrFormat("  %-22s %s\n", absl::StrCat("policy ", k, " ", names[k]),
                                      app::TallyText(result.policy_rating[k])));
    }
  }
  if (!result.table_path.empty()) absl::StrAppend(&text, "Table: ", result.table_path, ".\n");
  absl::StrAppend(
      &text, absl::StrFormat("Time: %.2f s (%.0f games/s, %d thread%s).\n", result.seconds,
                             static_cast<double>(result.games) / std::max(result.seconds, 1e-9),
                             result.threads, result.threads == 1 ? "" : "s"));
  return app::WrapColumns(text);  // a rating's line passes 80 columns
}

}  // namespace

const std::string_view kSimulateHelp = R"(
Plays whole games with seeded random dice. Policies (--policies, one per seat,
comma-separated):
  win        maximise the chance to win the game (needs the policy table)
  ev         maximise the expected turn score
  capped:M   maximise the expected min(turn score, M)
  capped     capped:M with M the points the mover still needs: to reach the
             target, or in the final round to overtake the leader
  fallback   what win plays where no table covers the game: capped, but in
             the final round final:M/K, the chance to pass the leader (a
             tie with K seats at its total counting 1/(K+1))
  reach:K    maximise the chance to score at least K this turn
  random     a uniformly random legal take, then stop or roll with chance 1/2
  stop:K     take the biggest group (ties: rays when tanks outnumber rays,
             else the first earthling), stop once the turn scores K or more
  cautious   take the rays while tanks are set aside and level with them or
             ahead, else the biggest new earthling group; stop as soon as
             the turn scores 5 or more
  bold       take the biggest new earthling group whenever there is one,
             rays otherwise; roll on until the turn scores 10 or more
Ties between stop and roll (values within 1e-12) are played as stop.
Seats change from game to game: game g (from 0) seats the policies in the
circular order c numbered floor(g / P) mod (P-1)! (policy 0, then an order
of the others; numbered in lexicographic order), rotated by g mod P: policy
c[i] sits in seat (i + g) mod P. So every P games each policy sits once in
each seat, and every P! games each seating is played once (2 players: policy
k sits in seat (k + g) mod 2). With --no-alternate policy k sits in seat k in
every game (one seating measured alone). Each game has its own random stream from
(seed, g): the result depends on --seed only, not on --threads.
Output fields (same names in --json): games, seat_win_rate (per seat),
policy_win_rate (per policy, --policies order), ci95 {seat, policy} (95%
half-widths, normal approximation; for a rate of 0 or 1, the exact binomial
bound b = 1 - 0.025^(1/games) on the other side; shown as ≤ b or ≥ 1 - b;
none, null in --json, from a single game),
mean_turns (turns per game, all seats), tied_games, seed (in --json a
decimal string, exact past 2^53), policies,
alternate_seats, players, rules, table (null if no win policy), rating (null
without --rate).
--rate reviews every decision of every policy against the win table (the
chance to win each choice gives away, as `review` does) and rates each policy
on the scale of docs/RATING.md; it needs a table for the game, and each
decision costs a query of the table (about 25 microseconds with 3 players).
A win is shared 1/k by k seats tied for the highest total.
A simulation that takes more than a second shows its progress on stderr
(--quiet: none). Ctrl-C (or SIGTERM) finishes the games in flight and prints
the result of the games played, which are games 0..n-1: the result of
--games n (interrupted true, games_asked in --json), then exits with 130.
)";

absl::StatusOr<int> RunSimulate(const CommandOptions& options, const CommandContext& context,
                                std::ostream& out) {
  absl::StatusOr<SimulationOptions> simulation = ReadSimulation(options, context);
  if (!simulation.ok()) return simulation.status();
  Progress progress(context.err, context.stderr_is_terminal, options.quiet,
                    absl::StrFormat("simulating %d games", simulation->games));
  InterruptFlag interrupt(
      InterruptNotice(kSimulateInterruptNotice, options.quiet, context.stderr_is_terminal));
  simulation->stop = interrupt.flag();
  bool shown = false;  // a simulation done within a second shows no progress
  simulation->progress = [&](double fraction) {
    if (!shown && progress.Seconds() < 1) return;
    shown = true;
    progress.Update(fraction);
  };
  absl::StatusOr<SimulationResult> result = Simulate(*simulation);
  if (!result.ok()) return result.status();
  if (shown && !result->interrupted) progress.Finish();
  out << (options.json ? SimulateJson(*simulation, *result) : SimulateText(*simulation, *result));
  if (result->interrupted) {
    return absl::CancelledError(absl::StrFormat(
        "simulation interrupted after %d of %d games; the result above is that of --games %d",
        result->games, result->games_asked, result->games));
  }
  return kCliExitOk;
}

}  // namespace cli
}  // namespace martiandice
