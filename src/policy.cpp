// The bots (martiandice/policy.h): policy specs, their preparation from the
// advisor (the table, the solved turns), and their choices at a GameState.
#include "martiandice/policy.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "fallback_turn.h"
#include "martiandice/turn_query.h"
#include "martiandice/win_query.h"

namespace martiandice {
namespace {

constexpr char kPolicyList[] =
    "win, ev, capped, capped:M, fallback, reach:K, random, stop:K, cautious or bold";
// cautious stops at this score or more, bold rolls on below this one.
constexpr int kCautiousStop = 5;
constexpr int kBoldStop = 10;

absl::StatusOr<int> ParseStopThreshold(std::string_view spec, std::string_view number) {
  int k = 0;
  if (!absl::SimpleAtoi(std::string(number), &k) || k < 0 || k > 1000) {
    return absl::InvalidArgumentError(
        absl::StrCat("policy '", std::string(spec), "': stop:K needs an integer K in 0..1000"));
  }
  return k;
}

// The faces `state` allows to take, in face order.
struct Takes {
  std::array<Face, 4> faces{};
  int size = 0;
  bool Contains(Face face) const {
    return std::find(faces.begin(), faces.begin() + size, face) != faces.begin() + size;
  }
};

Takes LegalTakes(const GameState& state) {
  Takes takes;
  for (Face face : {Face::kRay, Face::kHuman, Face::kCow, Face::kChicken}) {
    if (state.can_take(face)) takes.faces[takes.size++] = face;
  }
  return takes;
}

// The advised move, checked against the rules as the bot reads them.
absl::StatusOr<Bot::Choice> FromAdvice(const RollAdvice& advice, const Takes& legal) {
  if (advice.turn_over || !advice.best || *advice.best >= static_cast<int>(advice.options.size())) {
    return absl::InternalError("the library found no legal take where the rules allow one");
  }
  const TakeOption& option = advice.options[*advice.best];
  if (!legal.Contains(option.take)) {
    return absl::InternalError("the library advised a take the rules do not allow");
  }
  return Bot::Choice{option.take, option.then != Then::kRoll};
}

// The biggest group of a new earthling type (ties: human, cow, chicken), if any.
std::optional<Face> BiggestEarthling(const Dice& roll, const Takes& legal) {
  std::optional<Face> best;
  for (int i = 0; i < legal.size; ++i) {
    const Face face = legal.faces[i];
    if (face == Face::kRay) continue;
    if (!best || roll.count(face) > roll.count(*best)) best = face;
  }
  return best;
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

// cautious's take: rays while tanks are set aside and level with or ahead
// of the rays, else the biggest new earthling group, else rays.
Face CautiousTake(const Dice& after_tanks, const Dice& roll, const Takes& legal) {
  const int tanks = after_tanks.count(Face::kTank);
  if (legal.Contains(Face::kRay) && tanks > 0 && tanks >= after_tanks.count(Face::kRay)) {
    return Face::kRay;
  }
  return BiggestEarthling(roll, legal).value_or(Face::kRay);
}

// The score at which a heuristic policy stops.
int StopScore(const PolicySpec& policy) {
  switch (policy.kind) {
    case PolicySpec::Kind::kCautious:
      return kCautiousStop;
    case PolicySpec::Kind::kBold:
      return kBoldStop;
    default:
      return policy.param;
  }
}

}  // namespace

absl::StatusOr<PolicySpec> ParsePolicy(std::string_view spec) {
  PolicySpec policy;
  policy.name = std::string(spec);
  const std::pair<std::string_view, PolicySpec::Kind> named[] = {
      {"capped", PolicySpec::Kind::kCappedNeeded},
      {"fallback", PolicySpec::Kind::kFallback},
      {"random", PolicySpec::Kind::kRandom},
      {"cautious", PolicySpec::Kind::kCautious},
      {"bold", PolicySpec::Kind::kBold}};
  for (const auto& [name, kind] : named) {
    if (spec == name) {
      policy.kind = kind;
      return policy;
    }
  }
  if (spec.substr(0, 5) == "stop:") {
    absl::StatusOr<int> k = ParseStopThreshold(spec, spec.substr(5));
    if (!k.ok()) return k.status();
    policy.kind = PolicySpec::Kind::kStopAt;
    policy.param = *k;
    return policy;
  }
  absl::StatusOr<Goal> goal = Goal::Parse(spec);
  if (!goal.ok()) {
    // The objective's own words only for a name with a parameter ("reach:x"),
    // where they say what is wrong with it.
    const bool parameter = spec.find(':') != std::string_view::npos;
    return absl::InvalidArgumentError(
        absl::StrCat("unknown policy '", std::string(spec), "' (use ", kPolicyList, ")",
                     parameter ? absl::StrCat(": ", goal.status().message()) : ""));
  }
  if (goal->is_win()) return policy;
  policy.kind = PolicySpec::Kind::kObjective;
  policy.objective = goal->objective();
  policy.name = goal->name();
  return policy;
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

absl::StatusOr<Bot> Bot::Create(const PolicySpec& policy, Advisor& advisor, const Rules& rules,
                                int players, const BotOptions& options) {
  if (absl::Status status = ValidateRules(rules); !status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("invalid rules: ", status.message()));
  }
  if (absl::Status status = ValidatePlayers(players); !status.ok()) return status;
  if (policy.kind < PolicySpec::Kind::kWin || policy.kind > PolicySpec::Kind::kBold) {
    return absl::InvalidArgumentError(absl::StrCat("policy ", policy.name, ": kind ",
                                                   static_cast<int>(policy.kind),
                                                   " is none of PolicySpec::Kind's"));
  }
  Bot bot;
  bot.policy_ = policy;
  bot.rules_ = rules;
  bot.players_ = players;
  bool capped =
      policy.kind == PolicySpec::Kind::kCappedNeeded || policy.kind == PolicySpec::Kind::kFallback;
  bool final_round = policy.kind == PolicySpec::Kind::kFallback;
  if (policy.kind == PolicySpec::Kind::kWin) {
    if (options.table) {
      if (absl::Status status = CheckTableMatches(*options.table, rules, players); !status.ok()) {
        return status;
      }
      bot.table_ = options.table;
    } else {
      absl::StatusOr<TableCoverage> coverage = advisor.Coverage(rules, players, options.tables);
      if (!coverage.ok()) return coverage.status();
      if (coverage->table) {
        bot.table_ = coverage->table->table;
        bot.table_path_ = coverage->table->path;
      } else if (options.fallback) {
        bot.fallback_ = true;
        bot.fallback_reason_ = std::move(coverage->reason);
        capped = final_round = true;
      } else {
        return absl::InvalidArgumentError(coverage->reason);
      }
    }
  }
  if (policy.kind == PolicySpec::Kind::kObjective) {
    if (!policy.objective) {
      return absl::InvalidArgumentError(
          absl::StrCat("policy '", policy.name, "' has no objective (ParsePolicy sets it)"));
    }
    absl::StatusOr<TurnSolution> solution =
        advisor.Turn(rules, *policy.objective, Precision::kDouble);
    if (!solution.ok()) return solution.status();
    bot.solutions_.push_back(*std::move(solution));
  }
  auto add = [&bot](absl::StatusOr<TurnSolution> solution) {
    if (!solution.ok()) return solution.status();
    bot.solutions_.push_back(*std::move(solution));
    return absl::OkStatus();
  };
  for (int m = 1; capped && m <= MaxTurnScore(rules); ++m) {
    if (absl::Status s = add(advisor.Turn(rules, Objective::Capped(m), Precision::kDouble));
        !s.ok()) {
      return s;
    }
  }
  // Every final:M/K FallbackTurnObjective gives: M up to MaxTurnScore + 2, K
  // up to the other seats.
  for (int m = 1; final_round && m <= MaxTurnScore(rules) + 2; ++m) {
    for (int k = 1; k < players; ++k) {
      absl::Status s =
          add(TurnSolution::Solve(rules, Objective::FinalRound(m, k), Precision::kDouble));
      if (!s.ok()) return s;
    }
  }
  return bot;
}

absl::Status Bot::CheckState(const GameState& state, Phase phase) const {
  if (!(state.rules() == rules_) || state.players() != players_) {
    return absl::InvalidArgumentError(absl::StrCat("policy ", policy_.name,
                                                   " was made for another game (", players_,
                                                   " players, ", RulesText(rules_), ")"));
  }
  if (state.phase() != phase) {
    return absl::InvalidArgumentError(absl::StrCat("policy ", policy_.name, ": the game waits for ",
                                                   std::string(PhaseName(state.phase())),
                                                   ", not for ", std::string(PhaseName(phase))));
  }
  return absl::OkStatus();
}

const TurnSolution& Bot::Solution(const GameContext& context) const {
  if (solutions_.size() == 1) return solutions_.front();
  // Create solved every turn indexed here, in this order (see solutions_).
  const internal::FallbackTurnSpec spec = internal::FallbackTurnAt(rules_, context);
  const int most = MaxTurnScore(rules_);
  if (policy_.kind == PolicySpec::Kind::kCappedNeeded || !spec.final_round) {
    return solutions_[std::min(spec.needed, most) - 1];
  }
  return solutions_[most + (std::min(spec.needed, most + 2) - 1) * (players_ - 1) + spec.level - 1];
}

absl::StatusOr<Bot::Choice> Bot::ChooseTake(const GameState& state, DiceRng& rng) const {
  if (absl::Status status = CheckState(state, Phase::kTake); !status.ok()) return status;
  const Dice& before = state.aside_before_roll();
  const Dice& roll = state.roll();
  const Dice& after_tanks = state.aside();
  const Takes legal = LegalTakes(state);
  switch (policy_.kind) {
    case PolicySpec::Kind::kWin:
      if (!fallback_) {
        absl::StatusOr<WinAdvice> advice = AdviseWin(*table_, state.context(), before, roll);
        if (!advice.ok()) return advice.status();
        return FromAdvice(advice->advice, legal);
      }
      [[fallthrough]];
    case PolicySpec::Kind::kObjective:
    case PolicySpec::Kind::kCappedNeeded:
    case PolicySpec::Kind::kFallback: {
      absl::StatusOr<RollAdvice> advice = AdviseRoll(Solution(state.context()), before, roll);
      if (!advice.ok()) return advice.status();
      return FromAdvice(*advice, legal);
    }
    case PolicySpec::Kind::kRandom: {
      const Face take = legal.faces[UniformBelow(rng, legal.size)];
      return Choice{take, UniformBelow(rng, 2) == 0};
    }
    case PolicySpec::Kind::kStopAt:
    case PolicySpec::Kind::kCautious:
    case PolicySpec::Kind::kBold: {
      Face take = Face::kRay;
      if (policy_.kind == PolicySpec::Kind::kStopAt) {
        take = BiggestGroup(after_tanks, roll, legal);
      } else if (policy_.kind == PolicySpec::Kind::kCautious) {
        take = CautiousTake(after_tanks, roll, legal);
      } else {
        take = BiggestEarthling(roll, legal).value_or(Face::kRay);
      }
      Dice after = after_tanks;
      after.add(take, roll.count(take));
      return Choice{take, TurnScore(rules_, after) >= StopScore(policy_)};
    }
  }
  return absl::InternalError("unknown policy kind");
}

absl::StatusOr<bool> Bot::ChooseStop(const GameState& state, DiceRng& rng) const {
  if (absl::Status status = CheckState(state, Phase::kStopOrRoll); !status.ok()) return status;
  switch (policy_.kind) {
    case PolicySpec::Kind::kWin:
      if (!fallback_) {
        absl::StatusOr<WinEval> eval = EvaluateWin(*table_, state.context(), state.aside());
        if (!eval.ok()) return eval.status();
        return eval->position.action != Then::kRoll;
      }
      [[fallthrough]];
    case PolicySpec::Kind::kObjective:
    case PolicySpec::Kind::kCappedNeeded:
    case PolicySpec::Kind::kFallback: {
      absl::StatusOr<PositionEval> eval =
          EvaluatePosition(Solution(state.context()), state.aside());
      if (!eval.ok()) return eval.status();
      return eval->action != Then::kRoll;
    }
    case PolicySpec::Kind::kRandom:
      return UniformBelow(rng, 2) == 0;
    case PolicySpec::Kind::kStopAt:
    case PolicySpec::Kind::kCautious:
    case PolicySpec::Kind::kBold:
      return state.turn_score() >= StopScore(policy_);
  }
  return absl::InternalError("unknown policy kind");
}

absl::Status Bot::Next(const GameState& state, DiceRng& rng, Step& step) const {
  // Its own game first, in every phase (a roll too).
  if (absl::Status status = CheckState(state, state.phase()); !status.ok()) return status;
  switch (state.phase()) {
    case Phase::kOver:
      return absl::InvalidArgumentError(
          absl::StrCat("policy ", policy_.name, ": the game is over"));
    case Phase::kRoll:
      step.move = Move::Roll(RollDice(state.dice_left(), rng));
      return absl::OkStatus();
    case Phase::kTake: {
      absl::StatusOr<Choice> choice = ChooseTake(state, rng);
      if (!choice.ok()) return choice.status();
      step.move = Move::Take(choice->take);
      if (state.dice_left() > state.roll().count(choice->take)) {
        step.then = choice->stop ? Move::Stop() : Move::RollOn();
      }
      return absl::OkStatus();
    }
    case Phase::kStopOrRoll: {
      absl::StatusOr<bool> stop = ChooseStop(state, rng);
      if (!stop.ok()) return stop.status();
      step.move = *stop ? Move::Stop() : Move::RollOn();
      return absl::OkStatus();
    }
  }
  return absl::InternalError("unknown phase");
}

absl::StatusOr<Bot::Step> Bot::NextStep(const GameState& state, DiceRng& rng) const {
  Step step;
  if (absl::Status status = Next(state, rng, step); !status.ok()) return status;
  return step;
}

absl::StatusOr<MoveResult> Bot::PlayStep(GameState& state, DiceRng& rng) const {
  Step step;
  if (absl::Status status = Next(state, rng, step); !status.ok()) return status;
  absl::StatusOr<MoveResult> result = state.Apply(step.move);
  if (!result.ok() || !step.then) return result;
  return state.Apply(*step.then);
}

absl::StatusOr<TurnEnd> Bot::PlayTurn(GameState& state, DiceRng& rng) const {
  while (true) {
    absl::StatusOr<MoveResult> result = PlayStep(state, rng);
    if (!result.ok()) return result.status();
    if (result->turn_end) return *result->turn_end;
  }
}

}  // namespace martiandice
