// Review as a function on text (app/review.h): reads played turns (a turn, or
// a game's turns with their scores) with the library's game-log reader
// (martiandice/game_log.h: the lines, the turns, every roll and take checked
// against the rules), scores every decision through the advisor (the solved
// turn for a turn objective, the policy table for the win objective) and
// reports what the actual choices lost, as text or JSON. With the win
// objective every turn needs its game's scores: a `scores` line, the query's
// scores for the first turn, or the totals the last turn left.
#include "review.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "answers.h"
#include "front_end.h"
#include "json.h"
#include "martiandice/advisor.h"
#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/exact.h"
#include "martiandice/game_log.h"
#include "martiandice/rules.h"
#include "martiandice/turn_query.h"
#include "rating.h"

namespace martiandice::app {
namespace {

std::string Str(absl::string_view text) { return std::string(text.data(), text.size()); }

bool SameGame(const LogContext& a, const LogContext& b) {
  return a.players == b.players && a.context.scores == b.context.scores &&
         a.context.seat == b.context.seat;
}

// "totals 1,2, seat 0 to move".
std::string GameWords(const LogContext& game) {
  return absl::StrCat("totals ", absl::StrJoin(game.context.scores, ","), ", seat ",
                      game.context.seat, " to move");
}

absl::Status LineError(int line, std::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", std::string(message)));
}

struct Choice {
  Face take = Face::kRay;
  int count = 0;
  Then then = Then::kStop;
};

std::string ChoiceText(const Choice& choice) {
  return absl::StrCat("take ", FaceCountText(choice.take, choice.count), ", then ",
                      choice.then == Then::kStop ? "stop" : "roll on");
}

struct Decision {
  int line = 0;       // the roll line
  int then_line = 0;  // the `stop` or next `roll` line; 0 if no dice were left
  Dice aside;         // before the roll
  Dice roll;
  Choice actual;
  Value value;       // of the actual choice
  Value best_value;  // of an optimal choice
  double loss = 0;
  std::optional<Rational> loss_exact;
  bool optimal = false;
  std::vector<Choice> optimal_choices;  // every optimal (take, then), in face order
};

// A turn's decisions scored (the reader's turn of the same index says its
// lines, its game and its end).
struct Turn {
  std::vector<double> win;  // every seat's chances at the start (win)
  // Win, where no table covers the turn's game and none is named: the
  // fallback's objective (FallbackFor, as eval, best and play answer).
  std::optional<Goal> fallback;
  std::vector<Decision> decisions;
  double loss = 0;
  std::optional<Rational> loss_exact;
  int mistakes = 0;
};

// Scores the decisions of the turns the reader reads.
class Reviewer {
 public:
  // `query`: the rules, goal, precision and tables (its aside and context are
  // set per decision); `first`: --scores, for the first turn.
  Reviewer(Advisor& advisor, Query query, std::optional<LogContext> first)
      : advisor_(advisor), query_(std::move(query)), first_(first), reader_(query_.rules, first) {}

  absl::Status Line(int number, std::string_view text) {
    absl::StatusOr<LogStep> step =
        reader_.Read(number, text, [this](int line) { return StartTurn(line); });
    if (!step.ok()) return step.status();
    if (step->kind == LogStep::Kind::kStop) {
      Settle(turns_.back(), turns_.back().decisions.back(), Then::kStop, number);
      EndTurn(turns_.back());
    }
    if (step->kind != LogStep::Kind::kRoll) return absl::OkStatus();
    return Roll(number, *step);
  }

  absl::Status Finish(int last_line) {
    if (absl::Status status = reader_.Finish(last_line); !status.ok()) return status;
    if (turns_.empty()) return absl::InvalidArgumentError("no turn to review (no 'roll' line)");
    return absl::OkStatus();
  }

  const std::vector<Turn>& turns() const { return turns_; }
  // Turn `i` as read: its lines, its game and its end.
  const LogTurn& read(std::size_t i) const { return reader_.turns()[i]; }
  bool exact() const { return query_.precision == Precision::kExact; }
  const Goal& goal() const { return query_.goal; }
  const Rules& rules() const { return query_.rules; }
  // The table used (win), or "".
  std::string table_path() const { return table_ ? table_->path : ""; }
  // What turn `i`'s values measure: the goal, or the fallback's objective.
  const Goal& values(std::size_t i) const {
    return turns_[i].fallback ? *turns_[i].fallback : query_.goal;
  }
  // Why no table covers a game (the last such turn's), or "".
  const std::string& fallback_reason() const { return fallback_reason_; }

 private:
  absl::Status Roll(int number, const LogStep& step) {
    Turn& turn = turns_.back();
    if (step.rolled_on) Settle(turn, turn.decisions.back(), Then::kRoll, number);
    if (!step.take) {  // no take was legal: the turn is over
      EndTurn(turn);
      return absl::OkStatus();
    }
    absl::StatusOr<RollAdvice> advice = Advise(step.aside, step.roll);
    if (!advice.ok()) return LineError(number, Str(advice.status().message()));
    if (!IsDecision(*advice)) {  // its one take leaves no dice: nothing to choose, the turn over
      EndTurn(turn);
      return absl::OkStatus();
    }
    const TakeOption& option = *std::find_if(
        advice->options.begin(), advice->options.end(),
        [&](const TakeOption& o) { return o.take == step.take->face; });  // a legal take
    Decision decision;
    decision.line = number;
    decision.aside = step.aside;
    decision.roll = step.roll;
    decision.actual = {option.take, option.count, Then::kStop};
    decision.best_value = advice->value;
    decision.value = option.stop;
    for (const TakeOption& o : advice->options) {
      if (!o.optimal) continue;
      if (o.then != Then::kRoll) decision.optimal_choices.push_back({o.take, o.count, Then::kStop});
      if (o.then != Then::kStop) decision.optimal_choices.push_back({o.take, o.count, Then::kRoll});
    }
    advice_ = *advice;
    turn.decisions.push_back(std::move(decision));
    if (reader_.turns().back().end) {  // no dice left: the turn ends with this take
      Settle(turn, turn.decisions.back(), Then::kStop, 0);
      EndTurn(turn);
    }
    return absl::OkStatus();
  }

  // A roll starts the reader's last turn: with the win objective, its game
  // and every seat's chances.
  absl::Status StartTurn(int number) {
    const std::vector<LogTurn>& read = reader_.turns();
    const std::optional<LogContext>& context = read.back().context;
    if (read.size() == 1 && first_ && context && !SameGame(*context, *first_)) {
      return LineError(
          number, absl::StrCat("the 'scores' line before the first turn (", GameWords(*context),
                               ") and --scores (", GameWords(*first_),
                               ") disagree: give the first turn's game once"));
    }
    Turn turn;
    if (goal().is_win()) {
      if (!context && read.size() > 1 && read[read.size() - 2].context) {
        return LineError(number,
                         absl::StrCat("the game ended with turn ", read.size() - 1, " (totals ",
                                      absl::StrJoin(Totals(read[read.size() - 2]), ","),
                                      "): a 'scores S0,S1 [seat I]' line starts another"));
      }
      if (!context) {
        return LineError(number,
                         "with --objective win every turn needs the game's scores: a 'scores "
                         "S0,S1 [seat I]' line before it (or --scores for the first turn)");
      }
      Query game = query_;
      game.context = context->context;
      game.players = context->players;
      absl::StatusOr<std::optional<Fallback>> fallback = FallbackFor(advisor_, game);
      if (!fallback.ok()) return fallback.status();
      if (*fallback) {
        turn.fallback = (*fallback)->query.goal;
        fallback_reason_ = (*fallback)->reason;
      } else {
        absl::StatusOr<std::shared_ptr<const LoadedTable>> table =
            LoadTable(advisor_, rules(), context->players, query_.tables);
        if (!table.ok()) return table.status();
        table_ = *std::move(table);
        absl::StatusOr<std::vector<double>> win = table_->table.WinProbabilities(context->context);
        if (!win.ok()) return LineError(number, Str(win.status().message()));
        turn.win = *std::move(win);
      }
    }
    turns_.push_back(std::move(turn));
    return absl::OkStatus();
  }

  // A turn's totals at its end, its score added to its mover's.
  static std::vector<int> Totals(const LogTurn& turn) {
    std::vector<int> totals = turn.context->context.scores;
    totals[turn.context->context.seat] += turn.end->score;
    return totals;
  }

  // Every take from `roll` at `aside`, ranked (the advisor's answer).
  absl::StatusOr<RollAdvice> Advise(const Dice& aside, const Dice& roll) {
    Query query = query_;
    query.aside = aside;
    const std::optional<LogContext>& context = reader_.turns().back().context;
    if (turns_.back().fallback) {
      query.goal = *turns_.back().fallback;
    } else if (query.goal.is_win()) {
      query.context = context->context;
      query.players = context->players;
    }
    absl::StatusOr<BestAnswer> answer = advisor_.Best(query, roll);
    if (!answer.ok()) return answer.status();
    return std::move(answer->advice);
  }

  // The actual stop-or-roll after the decision's take: its value and loss.
  void Settle(Turn& turn, Decision& decision, Then then, int then_line) {
    // The take was found legal and `then` follows the rules: no error.
    const ChoiceReview review = *ReviewChoice(advice_, decision.actual.take, then);
    decision.actual.then = then;
    decision.then_line = then_line;
    decision.value = review.value;
    decision.optimal = review.optimal;
    decision.loss = review.loss.approx;
    decision.loss_exact = review.loss.exact;
    if (!decision.optimal) ++turn.mistakes;
    turn.loss += decision.loss;
    if (exact()) turn.loss_exact = turn.loss_exact.value_or(Rational(0)) + *decision.loss_exact;
  }

  void EndTurn(Turn& turn) const {
    if (exact() && !turn.loss_exact) turn.loss_exact = Rational(0);
  }

  Advisor& advisor_;
  const Query query_;
  std::optional<LogContext> first_;  // --scores, --seat and --players
  GameLogReader reader_;
  std::shared_ptr<const LoadedTable> table_;  // win: the last turn's table
  std::string fallback_reason_;
  std::vector<Turn> turns_;                   // one per reader's turn
  RollAdvice advice_;                         // the last roll's takes
};

// ---------------------------------------------------------------------------
// Reports.

std::string ThenWord(Then then) { return then == Then::kStop ? "stop" : "roll"; }

// "0.203704" (points), "12.36%" (chances), or "11/54 (0.203704)" when exact.
std::string LossText(const Goal& goal, double loss, const std::optional<Rational>& exact) {
  if (!exact) return ValueText(goal, loss);
  return absl::StrCat(FormatRational(*exact), " (", ValueText(goal, loss), ")");
}

std::string EndText(const LogTurn& turn) {
  switch (turn.end->reason) {
    case TurnEndReason::kStopped:
      return absl::StrCat("stopped on line ", turn.end_line);
    case TurnEndReason::kNoLegalTake:
      return absl::StrCat("no legal take on line ", turn.end_line);
    case TurnEndReason::kNoDiceLeft:
    case TurnEndReason::kEntered:  // not in a log
      break;
  }
  return absl::StrCat("no dice left after line ", turn.end_line);
}

std::string Plural(int n, std::string_view word) {
  return absl::StrCat(n, " ", std::string(word), n == 1 ? "" : "s");
}

struct Totals {
  int decisions = 0;
  int mistakes = 0;
  double loss = 0;  // in the goal's values
  std::optional<Rational> loss_exact;
  // Turns no table covers, in the fallback's values: points before the final
  // round (capped:M), chances in it (final:M/K). Never added to each other.
  double fallback_loss = 0;
  double fallback_final_loss = 0;
  bool any_fallback = false;
  bool any_fallback_final = false;
  bool all_fallback = true;
};

// With the win goal, each seat's decisions rated (app/rating.h), by seat;
// empty otherwise.
std::vector<RatingTally> SeatRatings(const Reviewer& reviewer) {
  std::vector<RatingTally> seats;
  if (!reviewer.goal().is_win()) return seats;
  for (std::size_t i = 0; i < reviewer.turns().size(); ++i) {
    if (reviewer.turns()[i].fallback) continue;  // points, not chances: no rating
    const int seat = reviewer.read(i).context->context.seat;
    if (seat >= static_cast<int>(seats.size())) seats.resize(seat + 1);
    for (const Decision& d : reviewer.turns()[i].decisions) seats[seat].Add(d.optimal, d.loss);
  }
  return seats;
}

Totals Total(const Reviewer& reviewer) {
  Totals totals;
  if (reviewer.exact()) totals.loss_exact = Rational(0);
  for (const Turn& turn : reviewer.turns()) {
    totals.decisions += static_cast<int>(turn.decisions.size());
    totals.mistakes += turn.mistakes;
    const bool final_round = turn.fallback && IsChance(*turn.fallback);
    (!turn.fallback ? totals.loss
     : final_round  ? totals.fallback_final_loss
                    : totals.fallback_loss) += turn.loss;
    totals.any_fallback |= turn.fallback && !final_round;
    totals.any_fallback_final |= final_round;
    totals.all_fallback &= turn.fallback.has_value();
    if (totals.loss_exact) *totals.loss_exact += *turn.loss_exact;
  }
  return totals;
}

std::string DecisionText(const Goal& goal, const Decision& d) {
  std::string text = absl::StrFormat("  line %-3d %-15s rolled %-17s %s", d.line,
                                     d.aside.empty() ? "-" : FormatDice(d.aside),
                                     FormatDice(d.roll), ChoiceText(d.actual));
  std::vector<std::string> others;
  for (const Choice& c : d.optimal_choices) {
    if (c.take != d.actual.take || c.then != d.actual.then) others.push_back(ChoiceText(c));
  }
  if (d.optimal) {
    absl::StrAppend(&text, ": optimal");
    if (!others.empty()) absl::StrAppend(&text, " (tied with: ", absl::StrJoin(others, "; "), ")");
  } else {
    absl::StrAppend(
        &text, ": MISTAKE, lost ", LossText(goal, d.loss, d.loss_exact),
        goal.is_win() ? absl::StrCat(" (", ClassName(ClassOf(false, d.loss)), ")") : std::string(),
        "; best: ", absl::StrJoin(others, "; "), " (", ValueText(goal, d.best_value.approx),
        " against ", ValueText(goal, d.value.approx), ")");
  }
  return text + "\n";
}

std::string ReportText(const Reviewer& reviewer, std::string_view name) {
  std::string text = absl::StrFormat("Review of %s: %s (%s); rules: %s.\n", std::string(name),
                                     reviewer.goal().Describe(), reviewer.goal().name(),
                                     RulesText(reviewer.rules()));
  if (!reviewer.table_path().empty()) {
    absl::StrAppend(&text, "Values: the mover's chance to win. Table: ", reviewer.table_path(),
                    ".\n");
  }
  if (!reviewer.fallback_reason().empty()) {
    absl::StrAppend(&text, "Where no table covers the game (", reviewer.fallback_reason(),
                    "), values are the fallback's, as play and coach advise: ",
                    std::string(kFallbackName), " (capped:M, points; final:M/K, chances).\n");
  }
  for (std::size_t i = 0; i < reviewer.turns().size(); ++i) {
    const Turn& turn = reviewer.turns()[i];
    const LogTurn& read = reviewer.read(i);
    absl::StrAppend(&text, "Turn ", i + 1, " (line ", read.line, ")");
    if (read.context) {
      const GameContext& context = read.context->context;
      absl::StrAppend(&text, ": scores ", absl::StrJoin(context.scores, ","), ", seat ",
                      context.seat, " to move");
      if (FinalRoundBegun(reviewer.rules(), context.scores, context.seat)) {
        absl::StrAppend(&text, " in the final round");
      }
      if (!turn.win.empty()) {
        absl::StrAppend(&text, ", chance to win ", Percent(turn.win[context.seat]));
      }
      if (turn.fallback) absl::StrAppend(&text, ", values ", turn.fallback->name());
    }
    absl::StrAppend(&text, "\n");
    const Goal& values = reviewer.values(i);
    for (const Decision& d : turn.decisions) absl::StrAppend(&text, DecisionText(values, d));
    absl::StrAppend(&text, "  turn ends: ", EndText(read), "; scores ", read.end->score,
                    LostToTanksText(read.end->aside), "; lost ",
                    LossText(values, turn.loss, turn.loss_exact), " in ",
                    Plural(turn.mistakes, "mistake"), "\n");
  }
  const Totals totals = Total(reviewer);
  // A win total adds chances lost at different moments: percentage points.
  std::string total = reviewer.goal().is_win()
                          ? PercentagePoints(totals.loss) + " of chance to win"
                          : LossText(reviewer.goal(), totals.loss, totals.loss_exact);
  // Each unit its own total: the goal's, the fallback's points, its final round's chances.
  std::vector<std::string> totals_text;
  if (!totals.all_fallback) totals_text.push_back(total);
  if (totals.any_fallback) {
    totals_text.push_back(absl::StrCat(Number(totals.fallback_loss), " in the fallback's points"));
  }
  if (totals.any_fallback_final) {
    totals_text.push_back(absl::StrCat(PercentagePoints(totals.fallback_final_loss),
                                       " of chance in the fallback's final round"));
  }
  if (totals_text.empty()) totals_text.push_back(total);  // no turn
  total = absl::StrJoin(totals_text, ", and ");
  absl::StrAppend(&text, "Summary: ", Plural(static_cast<int>(reviewer.turns().size()), "turn"),
                  ", ", Plural(totals.decisions, "decision"), ", ",
                  Plural(totals.mistakes, "mistake"), ", total loss ", total, ".\n");
  const std::vector<RatingTally> ratings = SeatRatings(reviewer);
  for (std::size_t seat = 0; seat < ratings.size(); ++seat) {
    if (ratings[seat].decisions == 0) continue;
    absl::StrAppend(&text, "Seat ", seat, ": ", TallyText(ratings[seat]), ".\n");
  }
  if (!ratings.empty()) absl::StrAppend(&text, "Ratings: docs/RATING.md.\n");
  return text;
}

void AddValue(JsonObject& object, std::string_view key, double value,
              const std::optional<Rational>& exact) {
  object.Double(key, value);
  if (exact) object.Str(absl::StrCat(std::string(key), "_exact"), FormatRational(*exact));
}

std::string ChoiceJson(const Choice& choice) {
  return JsonObject()
      .Str("take", FaceName(choice.take))
      .Int("count", choice.count)
      .Str("then", ThenWord(choice.then))
      .Build();
}

std::string DecisionJson(const Goal& goal, const Decision& d) {
  std::vector<std::string> optimal;
  for (const Choice& c : d.optimal_choices) optimal.push_back(ChoiceJson(c));
  JsonObject object;
  object.Int("line", d.line);
  if (d.then_line > 0) {
    object.Int("then_line", d.then_line);
  } else {
    object.Null("then_line");
  }
  object.Str("aside", FormatDice(d.aside))
      .Str("rolled", FormatDice(d.roll))
      .Str("take", FaceName(d.actual.take))
      .Int("count", d.actual.count)
      .Str("then", ThenWord(d.actual.then));
  AddValue(object, "value", d.value.approx, d.value.exact);
  AddValue(object, "best_value", d.best_value.approx, d.best_value.exact);
  AddValue(object, "loss", d.loss, d.loss_exact);
  object.Bool("optimal", d.optimal).Raw("optimal_choices", JsonArray(optimal));
  if (goal.is_win()) {
    object.Str("class", ClassName(ClassOf(d.optimal, d.loss)));
  } else {
    object.Null("class");
  }
  return object.Build();
}

std::string ReportJson(const Reviewer& reviewer, std::string_view name) {
  std::vector<std::string> turns;
  for (std::size_t i = 0; i < reviewer.turns().size(); ++i) {
    const Turn& turn = reviewer.turns()[i];
    const LogTurn& read = reviewer.read(i);
    JsonObject object;
    object.Int("turn", static_cast<int>(i) + 1).Int("line", read.line);
    if (read.context) {
      const GameContext& context = read.context->context;
      object.Raw("scores", JsonIntArray(context.scores))
          .Int("seat", context.seat)
          .Bool("final_round", FinalRoundBegun(reviewer.rules(), context.scores, context.seat));
    } else {
      object.Null("scores").Null("seat").Null("final_round");
    }
    if (turn.win.empty()) {
      object.Null("win_probabilities");
    } else {
      object.Raw("win_probabilities", JsonDoubleArray(turn.win));
    }
    object.Str("values", reviewer.values(i).name()).Bool("fallback", turn.fallback.has_value());
    std::vector<std::string> decisions;
    for (const Decision& d : turn.decisions) {
      decisions.push_back(DecisionJson(reviewer.values(i), d));
    }
    object.Raw("decisions", JsonArray(decisions))
        .Str("end", TurnEndReasonName(read.end->reason))
        .Int("end_line", read.end_line)
        .Int("score", read.end->score)
        .Bool("tanks_won", LostToTanks(read.end->aside))
        .Int("mistakes", turn.mistakes);
    AddValue(object, "loss", turn.loss, turn.loss_exact);
    turns.push_back(object.Build());
  }
  const Totals totals = Total(reviewer);
  const Rules& rules = reviewer.rules();
  JsonObject object;
  object.Str("input", name)
      .Raw("rules", RulesJson(rules))
      .Str("objective", reviewer.goal().name())
      .Str("precision", reviewer.exact() ? "exact" : "double");
  if (reviewer.table_path().empty()) {
    object.Null("table");
  } else {
    object.Str("table", reviewer.table_path());
  }
  if (reviewer.fallback_reason().empty()) {
    object.Null("fallback_reason");
  } else {
    object.Str("fallback_reason", reviewer.fallback_reason());
  }
  object.Raw("turns", JsonArray(turns))
      .Int("decisions", totals.decisions)
      .Int("mistakes", totals.mistakes);
  AddValue(object, "total_loss", totals.loss, totals.loss_exact);
  object.Double("fallback_loss", totals.fallback_loss)
      .Double("fallback_final_loss", totals.fallback_final_loss);
  if (reviewer.goal().is_win()) {
    std::vector<std::string> ratings;
    const std::vector<RatingTally> seats = SeatRatings(reviewer);
    for (std::size_t seat = 0; seat < seats.size(); ++seat) {
      if (seats[seat].decisions == 0) continue;
      ratings.push_back(JsonObject()
                            .Int("seat", static_cast<int>(seat))
                            .Raw("rating", RatingJson(seats[seat]))
                            .Build());
    }
    object.Raw("ratings", JsonArray(ratings));
  } else {
    object.Null("ratings");
  }
  return object.Build() + "\n";
}

}  // namespace

absl::StatusOr<ReviewQuery> ParseReviewQuery(const QueryInput& input) {
  // With --objective win and no --scores every turn's context comes from the
  // input's `scores` lines: the other options are checked with a placeholder
  // context.
  QueryInput checked = input;
  const absl::StatusOr<Goal> goal = Goal::Parse(QueryObjective(input));
  const bool contexts_from_input = goal.ok() && goal->is_win() && !input.scores;
  if (contexts_from_input) {
    if (input.seat || input.players) {
      return absl::InvalidArgumentError(absl::StrCat(input.seat && input.players
                                                         ? "--seat and --players go"
                                                     : input.seat ? "--seat goes"
                                                                  : "--players goes",
                                                     " with --scores"));
    }
    checked.scores = "0,0";
  }
  absl::StatusOr<Query> query = ParseQuery(checked);
  if (!query.ok()) return query.status();
  ReviewQuery review;
  if (query->goal.is_win() && !contexts_from_input) {
    review.first = LogContext{*query->context, query->players};
  }
  query->context.reset();
  query->players = 0;
  review.query = *std::move(query);
  return review;
}

absl::StatusOr<std::string> ReviewText(Advisor& advisor, ReviewQuery query, std::string_view text,
                                       std::string_view name, bool json) {
  if (text.size() > kMaxReviewBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("the input is over ", kMaxReviewBytes, " bytes; review a game at a time"));
  }
  Reviewer reviewer(advisor, std::move(query.query), std::move(query.first));
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (absl::Status status = reviewer.Line(++number, line); !status.ok()) return status;
  }
  if (absl::Status status = reviewer.Finish(std::max(number, 1)); !status.ok()) return status;
  return json ? ReportJson(reviewer, name) : ReportText(reviewer, name);
}

}  // namespace martiandice::app
