// Queries (martiandice/query.h): goals, and the checks of a query's inputs
// with messages naming each input.
#include "martiandice/query.h"

#include <utility>
#include <vector>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "martiandice/state_space.h"

namespace martiandice {
namespace {

constexpr char kWinSpec[] = "win";
// The status payload that names the input an error is about.
constexpr char kInputPayload[] = "martiandice.dev/input";

absl::StatusOr<Dice> ReadDice(std::string_view name, std::string_view text) {
  absl::StatusOr<Dice> dice = ParseDice(text);
  if (!dice.ok()) return InputError(name, dice.status());
  return dice;
}

// The game options go with the win goal only; exact values with turn goals.
absl::Status CheckGoalInputs(const QueryInput& input, const Goal& goal) {
  if (goal.is_win()) {
    if (input.exact) {
      return InputError("exact",
                        "exact values are available for turn objectives; win tables hold "
                        "certified doubles");
    }
    if (!input.scores) {
      return InputError("scores", "the win objective needs scores, every seat's total (S0,S1,...)");
    }
    return absl::OkStatus();
  }
  const std::pair<const char*, bool> game_inputs[] = {{"scores", input.scores.has_value()},
                                                      {"seat", input.seat.has_value()},
                                                      {"players", input.players.has_value()},
                                                      {"tables", input.tables.has_value()}};
  for (const auto& [name, given] : game_inputs) {
    if (given) {
      return InputError(name,
                        "goes with the win objective (scores, seat, players and tables belong "
                        "to the game; the objective is " +
                            goal.name() + ")");
    }
  }
  return absl::OkStatus();
}

// The win goal's context: the totals, the seat to move, the players.
absl::Status ReadContext(const QueryInput& input, Query& query) {
  absl::StatusOr<std::vector<int>> scores = ParseScores(*input.scores);
  if (!scores.ok()) return InputError("scores", scores.status());
  const int counted = static_cast<int>(scores->size());
  if (input.players && *input.players != counted) {
    return InputError("players", absl::StrCat(*input.players, " does not match the ", counted,
                                              counted == 1 ? " total" : " totals", " of scores"));
  }
  if (absl::Status s = ValidatePlayers(counted); !s.ok()) {
    return InputError(input.players ? "players" : "scores", s);
  }
  const int seat = input.seat.value_or(0);
  if (seat < 0 || seat >= counted) {
    return InputError("seat", absl::StrCat("seat ", seat, " is out of range for ", counted,
                                           " players (0..", counted - 1, ")"));
  }
  GameContext context{*std::move(scores), seat};
  if (absl::Status s = ValidateContext(query.rules, counted, context); !s.ok()) {
    return InputError("scores", s);
  }
  query.context = std::move(context);
  query.players = counted;
  query.tables = input.tables;
  return absl::OkStatus();
}

}  // namespace

absl::Status InputError(std::string_view name, std::string_view why) {
  absl::Status status =
      absl::InvalidArgumentError(absl::StrCat(std::string(name), ": ", std::string(why)));
  status.SetPayload(kInputPayload, absl::Cord(std::string(name)));
  return status;
}

absl::Status InputError(std::string_view name, const absl::Status& why) {
  return InputError(name, std::string_view(why.message().data(), why.message().size()));
}

Goal Goal::Win() { return Goal(std::nullopt); }

Goal Goal::ForTurn(Objective objective) { return Goal(std::move(objective)); }

absl::StatusOr<Goal> Goal::Parse(std::string_view spec) {
  if (spec == kWinSpec) return Win();
  absl::StatusOr<Objective> objective = Objective::Parse(spec);
  if (!objective.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        objective.status().message(), "; or win, to play for the game (with every seat's total)"));
  }
  return ForTurn(*std::move(objective));
}

std::string Goal::name() const { return objective_ ? objective_->name() : kWinSpec; }

std::string Goal::Describe() const {
  return objective_ ? objective_->Describe()
                    : "probability of winning the game, for the seat to move";
}

std::string QueryObjective(const QueryInput& input) {
  if (input.objective) return *input.objective;
  return input.scores ? kWinSpec : "ev";
}

absl::StatusOr<Query> ParseQuery(const QueryInput& input) {
  Query query;
  query.rules = input.rules;
  if (absl::Status s = ValidateRules(query.rules); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("invalid rules: ", s.message()));
  }
  absl::StatusOr<Goal> goal = Goal::Parse(QueryObjective(input));
  if (!goal.ok()) return InputError("objective", goal.status());
  query.goal = *std::move(goal);
  if (absl::Status s = CheckGoalInputs(input, query.goal); !s.ok()) return s;
  if (input.exact) query.precision = Precision::kExact;
  absl::StatusOr<Dice> aside = ReadDice("aside", input.aside);
  if (!aside.ok()) return aside.status();
  if (absl::Status s = ValidateAside(query.rules, *aside); !s.ok()) return InputError("aside", s);
  query.aside = *aside;
  if (query.goal.is_win()) {
    if (absl::Status s = ReadContext(input, query); !s.ok()) return s;
  }
  return query;
}

absl::StatusOr<Dice> ParseRoll(const Query& query, std::string_view text) {
  absl::StatusOr<Dice> roll = ReadDice("roll", text);
  if (!roll.ok()) return roll.status();
  if (absl::Status s = ValidateRoll(query.rules, query.aside, *roll); !s.ok()) {
    return InputError("roll", s);
  }
  return roll;
}

std::optional<std::string> InputName(const absl::Status& status) {
  const auto name = status.GetPayload(kInputPayload);  // absl::optional on this platform
  if (!name) return std::nullopt;
  return std::string(*name);
}

}  // namespace martiandice
