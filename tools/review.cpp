// `martiandice review`: reads played turns (a turn, or a game's turns with
// their scores) in a line format, replays every turn against the rules (each
// roll checked against the dice left, each take against the legal ones),
// scores every decision through the advisor (the solved turn for a turn
// objective, the policy table for the win objective) and reports what the
// actual choices lost, as text or JSON.
//
// Line format (keywords are case-insensitive; `#` starts a comment; blank
// lines are skipped):
//   roll DICE take FACE   the dice rolled (notation, e.g. 2T 3R 4H 3C 1K) and
//                         the face set aside (ParseTake: R, H, C, K, a word
//                         such as ray or humans, or with its count: 4H)
//   roll DICE             a roll with no legal take: the turn is over
//   stop                  the player stops (after a take with dice left)
//   scores S0,S1 [seat I] the game totals before the next turn and the seat
//                         to move (default 0); needed before every turn with
//                         --objective win unless --scores gives a single turn's
// After a take with dice left, the next line is `roll` (the player rolled on)
// or `stop`. A turn also ends when a roll has no legal take or no dice are
// left after a take. The next `roll` starts a new turn.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "answers.h"
#include "commands.h"
#include "file_kind.h"
#include "json.h"
#include "martiandice/advisor.h"
#include "martiandice/dice.h"
#include "martiandice/exact.h"
#include "martiandice/game.h"
#include "martiandice/query.h"
#include "martiandice/rules.h"
#include "martiandice/state_space.h"
#include "support.h"

namespace martiandice::cli {
namespace {

// Largest review input, in bytes, and longest line.
constexpr std::size_t kMaxInputBytes = 1 << 20;
constexpr std::size_t kMaxLineBytes = 4096;

std::string Str(absl::string_view text) { return std::string(text.data(), text.size()); }

absl::Status LineError(int line, std::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", std::string(message)));
}

std::string Lower(std::string_view word) {
  std::string lower(word);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

std::vector<std::string_view> Words(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

struct Choice {
  Face take = Face::kRay;
  int count = 0;
  Then then = Then::kStop;
};

std::string ChoiceText(const Choice& choice) {
  return absl::StrCat("take ", TakeLabel(choice.take, choice.count), ", then ",
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

enum class TurnEnd { kStop, kTurnOver, kNoDice };

struct Turn {
  int number = 0;
  int line = 0;
  std::optional<GameContext> context;  // win, or a `scores` line
  int players = 0;
  std::vector<double> win;  // every seat's chances at the start (win)
  std::vector<Decision> decisions;
  TurnEnd end = TurnEnd::kStop;
  int end_line = 0;
  int score = 0;
  double loss = 0;
  std::optional<Rational> loss_exact;
  int mistakes = 0;
};

// A `scores` line or --scores: the context and its player count.
struct Context {
  GameContext context;
  int players = 0;
};

// A `scores` line's context, checked as a win query's (ParseQuery); errors
// name the input ("scores: ...", "seat: ...").
absl::StatusOr<Context> ReadContext(const Rules& rules, std::string_view scores_text,
                                    std::optional<std::string_view> seat_text) {
  QueryInput input;
  input.objective = Goal::Win().name();
  input.rules = rules;
  input.scores = std::string(scores_text);
  if (seat_text) {
    const std::string seat(*seat_text);
    int value = 0;
    if (!absl::SimpleAtoi(seat, &value) || seat.find('+') != std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat("seat: expected a number, got '", seat, "'"));
    }
    input.seat = value;
  }
  absl::StatusOr<Query> query = ParseQuery(input);
  if (!query.ok()) return query.status();
  return Context{*std::move(query->context), query->players};
}

std::string LegalTakes(const RollAdvice& advice) {
  std::vector<std::string> takes;
  for (const TakeOption& option : advice.options)
    takes.push_back(TakeLabel(option.take, option.count));
  return absl::StrJoin(takes, ", ");
}

// Replays the turns and scores the decisions.
class Reviewer {
 public:
  // `query`: the rules, goal, precision and tables (its aside and context are
  // set per decision); `default_context`: --scores, for the first turn.
  Reviewer(Advisor& advisor, Query query, std::optional<Context> default_context)
      : advisor_(advisor), query_(std::move(query)), default_context_(std::move(default_context)) {}

  absl::Status Line(int number, std::string_view text) {
    const std::vector<std::string_view> words = Words(text);
    if (words.empty()) return absl::OkStatus();
    const std::string keyword = Lower(words[0]);
    if (keyword == "roll") return Roll(number, words);
    if (keyword == "stop") return Stop(number, words);
    if (keyword == "scores") return Scores(number, words);
    return LineError(number, absl::StrCat("expected 'roll', 'stop' or 'scores', got '",
                                          std::string(words[0]), "'"));
  }

  absl::Status Finish(int last_line) {
    if (awaiting_) {
      return LineError(last_line,
                       absl::StrCat("the input ends in the middle of a turn: after the take on "
                                    "line ",
                                    turns_.back().decisions.back().line,
                                    ", 'stop' or the next 'roll' is expected"));
    }
    if (pending_context_) {
      return LineError(pending_line_, "'scores' is not followed by a turn");
    }
    if (turns_.empty()) return absl::InvalidArgumentError("no turn to review (no 'roll' line)");
    return absl::OkStatus();
  }

  const std::vector<Turn>& turns() const { return turns_; }
  bool exact() const { return query_.precision == Precision::kExact; }
  const Goal& goal() const { return query_.goal; }
  const Rules& rules() const { return query_.rules; }
  // The table used (win), or "".
  std::string table_path() const { return table_ ? table_->path : ""; }

 private:
  absl::Status Scores(int number, const std::vector<std::string_view>& words) {
    if (awaiting_) {
      return LineError(number, "'scores' inside a turn: end the turn with 'stop' first");
    }
    std::optional<std::string_view> seat;
    if (words.size() == 4 && Lower(words[2]) == "seat") {
      seat = words[3];
    } else if (words.size() != 2) {
      return LineError(number, "expected 'scores S0,S1[,...] [seat I]'");
    }
    absl::StatusOr<Context> context = ReadContext(rules(), words[1], seat);
    if (!context.ok()) return LineError(number, Str(context.status().message()));
    pending_context_ = *std::move(context);
    pending_line_ = number;
    return absl::OkStatus();
  }

  absl::Status Stop(int number, const std::vector<std::string_view>& words) {
    if (words.size() != 1) return LineError(number, "'stop' takes nothing after it");
    if (!awaiting_) {
      if (turns_.empty())
        return LineError(number, "'stop' before any roll (a turn starts with a roll)");
      const Turn& last = turns_.back();
      const char* why = last.end == TurnEnd::kStop       ? "the player stopped"
                        : last.end == TurnEnd::kTurnOver ? "no take was legal"
                                                         : "no dice were left after the take";
      return LineError(number, absl::StrCat("'stop' after the turn ended on line ", last.end_line,
                                            " (", why, ")"));
    }
    awaiting_ = false;
    Turn& turn = turns_.back();
    Settle(turn, turn.decisions.back(), Then::kStop, number);
    EndTurn(turn, TurnEnd::kStop, number, TurnScore(rules(), aside_));
    return absl::OkStatus();
  }

  absl::Status Roll(int number, const std::vector<std::string_view>& words) {
    // roll DICE... [take FACE]
    std::size_t take_at = words.size();
    for (std::size_t i = 1; i < words.size(); ++i) {
      if (Lower(words[i]) == "take") {
        take_at = i;
        break;
      }
    }
    if (take_at == 1) return LineError(number, "roll: give the dice rolled before 'take'");
    // One face after `take`, alone or after its count ("H", "4H", "4 humans").
    const std::size_t after_take = words.size() - std::min(words.size(), take_at + 1);
    const bool counted_word =
        after_take == 2 &&
        std::all_of(words[take_at + 1].begin(), words[take_at + 1].end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (take_at < words.size() && after_take != 1 && !counted_word) {
      return LineError(number, "expected 'roll DICE take FACE' (one face after 'take')");
    }
    std::string dice_text;
    for (std::size_t i = 1; i < take_at; ++i)
      absl::StrAppend(&dice_text, i > 1 ? " " : "", std::string(words[i]));
    absl::StatusOr<Dice> roll = ParseDice(dice_text);
    if (!roll.ok()) return LineError(number, absl::StrCat("roll: ", Str(roll.status().message())));
    std::optional<TakeInput> take;
    if (take_at < words.size()) {
      std::string take_text;
      for (std::size_t i = take_at + 1; i < words.size(); ++i)
        absl::StrAppend(&take_text, i > take_at + 1 ? " " : "", std::string(words[i]));
      absl::StatusOr<TakeInput> read = ParseTake(take_text);
      if (!read.ok()) return LineError(number, Str(read.status().message()));
      take = *read;
    }

    if (awaiting_) {  // the player rolled on after the last take
      awaiting_ = false;
      Turn& turn = turns_.back();
      Settle(turn, turn.decisions.back(), Then::kRoll, number);
    } else {
      if (absl::Status status = StartTurn(number); !status.ok()) return status;
    }
    Turn& turn = turns_.back();
    if (absl::Status status = ValidateRoll(rules(), aside_, *roll); !status.ok()) {
      return LineError(number, absl::StrCat("roll: ", Str(status.message()),
                                            " (set aside: ", FormatDice(aside_), ")"));
    }
    absl::StatusOr<RollAdvice> advice = Advise(turn, *roll);
    if (!advice.ok()) return LineError(number, Str(advice.status().message()));
    if (advice->turn_over) {
      if (take) {
        return LineError(number, absl::StrCat("no take is legal from this roll (the turn is over "
                                              "and scores ",
                                              advice->turn_over_score, "); drop 'take'"));
      }
      aside_ = advice->aside_after_tanks;
      EndTurn(turn, TurnEnd::kTurnOver, number, advice->turn_over_score);
      return absl::OkStatus();
    }
    if (!take) {
      return LineError(
          number,
          absl::StrCat("say what was taken: 'take FACE' (legal: ", LegalTakes(*advice), ")"));
    }
    const auto option = std::find_if(advice->options.begin(), advice->options.end(),
                                     [&](const TakeOption& o) { return o.take == take->face; });
    if (option == advice->options.end()) {
      return LineError(number,
                       absl::StrCat("take ", std::string(FaceName(take->face)),
                                    " is not legal here (legal: ", LegalTakes(*advice), ")"));
    }
    if (take->count && *take->count != option->count) {
      return LineError(number, absl::StrCat("take: the roll shows ", option->count, " ",
                                            std::string(FaceName(take->face)), "s, not ",
                                            *take->count, " (every die of the face is taken)"));
    }
    Decision decision;
    decision.line = number;
    decision.aside = aside_;
    decision.roll = *roll;
    decision.actual = {option->take, option->count, Then::kStop};
    decision.best_value = advice->value;
    decision.value = option->stop;
    for (const TakeOption& o : advice->options) {
      if (!o.optimal) continue;
      if (o.then != Then::kRoll) decision.optimal_choices.push_back({o.take, o.count, Then::kStop});
      if (o.then != Then::kStop) decision.optimal_choices.push_back({o.take, o.count, Then::kRoll});
    }
    advice_ = *advice;
    aside_ = option->aside_after;
    turn.decisions.push_back(std::move(decision));
    if (!option->roll) {  // no dice left: the turn ends with this take
      Settle(turn, turn.decisions.back(), Then::kStop, 0);
      EndTurn(turn, TurnEnd::kNoDice, number, TurnScore(rules(), aside_));
      return absl::OkStatus();
    }
    awaiting_ = true;
    return absl::OkStatus();
  }

  absl::Status StartTurn(int number) {
    Turn turn;
    turn.number = static_cast<int>(turns_.size()) + 1;
    turn.line = number;
    // A `scores` line, else --scores for the first turn, else the totals the
    // last turn left.
    std::optional<Context> context = pending_context_ ? pending_context_
                                     : turns_.empty() ? default_context_
                                                      : CarriedContext();
    pending_context_.reset();
    if (context) {
      turn.context = context->context;
      turn.players = context->players;
    }
    if (goal().is_win()) {
      if (!context && !turns_.empty() && turns_.back().context) {
        return LineError(number, absl::StrCat("the game ended with turn ", turns_.back().number,
                                              " (totals ", absl::StrJoin(LastTotals(), ","),
                                              "): a 'scores S0,S1 [seat I]' line starts another"));
      }
      if (!context) {
        return LineError(number,
                         "with --objective win every turn needs the game's scores: a 'scores "
                         "S0,S1 [seat I]' line before it (or --scores for the first turn)");
      }
      absl::StatusOr<std::shared_ptr<const LoadedTable>> table =
          LoadTable(advisor_, rules(), context->players, query_.tables);
      if (!table.ok()) return table.status();
      table_ = *std::move(table);
      absl::StatusOr<std::vector<double>> win = table_->table.WinProbabilities(context->context);
      if (!win.ok()) return LineError(number, Str(win.status().message()));
      turn.win = *std::move(win);
    }
    aside_ = Dice();
    turns_.push_back(std::move(turn));
    return absl::OkStatus();
  }

  // The last turn's totals, its score added to its mover's.
  std::vector<int> LastTotals() const {
    const Turn& last = turns_.back();
    std::vector<int> totals = last.context->scores;
    totals[last.context->seat] += last.score;
    return totals;
  }

  // The next turn's context when no `scores` line gives one: the totals the
  // last turn left, the next seat to move; none if the last turn had no
  // context or ended the game.
  std::optional<Context> CarriedContext() const {
    if (turns_.empty() || !turns_.back().context) return std::nullopt;
    const Turn& last = turns_.back();
    Context next{GameContext{LastTotals(), (last.context->seat + 1) % last.players}, last.players};
    if (!ValidateContext(rules(), next.players, next.context).ok()) return std::nullopt;
    return next;
  }

  // Every take from `roll` at the set-aside, ranked (the advisor's answer).
  absl::StatusOr<RollAdvice> Advise(const Turn& turn, const Dice& roll) {
    Query query = query_;
    query.aside = aside_;
    if (query.goal.is_win()) {
      query.context = turn.context;
      query.players = turn.players;
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

  void EndTurn(Turn& turn, TurnEnd end, int line, int score) {
    turn.end = end;
    turn.end_line = line;
    turn.score = score;
    if (exact() && !turn.loss_exact) turn.loss_exact = Rational(0);
  }

  Advisor& advisor_;
  const Query query_;
  const std::optional<Context> default_context_;
  std::shared_ptr<const LoadedTable> table_;  // win: the last turn's table

  std::vector<Turn> turns_;
  Dice aside_;
  bool awaiting_ = false;  // a take with dice left: `stop` or `roll` must follow
  RollAdvice advice_;      // the last roll's takes
  std::optional<Context> pending_context_;
  int pending_line_ = 0;
};

// ---------------------------------------------------------------------------
// Reports.

std::string ThenWord(Then then) { return then == Then::kStop ? "stop" : "roll"; }

// "0.203704", or "11/54 (0.203704)" when exact.
std::string LossText(double loss, const std::optional<Rational>& exact) {
  if (!exact) return Number(loss);
  return absl::StrCat(FormatRational(*exact), " (", Number(loss), ")");
}

std::string EndText(const Turn& turn) {
  switch (turn.end) {
    case TurnEnd::kStop:
      return absl::StrCat("stopped on line ", turn.end_line);
    case TurnEnd::kTurnOver:
      return absl::StrCat("no legal take on line ", turn.end_line);
    case TurnEnd::kNoDice:
      return absl::StrCat("no dice left after line ", turn.end_line);
  }
  return "";
}

std::string Plural(int n, std::string_view word) {
  return absl::StrCat(n, " ", std::string(word), n == 1 ? "" : "s");
}

struct Totals {
  int decisions = 0;
  int mistakes = 0;
  double loss = 0;
  std::optional<Rational> loss_exact;
};

Totals Total(const Reviewer& reviewer) {
  Totals totals;
  if (reviewer.exact()) totals.loss_exact = Rational(0);
  for (const Turn& turn : reviewer.turns()) {
    totals.decisions += static_cast<int>(turn.decisions.size());
    totals.mistakes += turn.mistakes;
    totals.loss += turn.loss;
    if (totals.loss_exact) *totals.loss_exact += *turn.loss_exact;
  }
  return totals;
}

std::string DecisionText(const Decision& d) {
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
    absl::StrAppend(&text, ": MISTAKE, lost ", LossText(d.loss, d.loss_exact),
                    "; best: ", absl::StrJoin(others, "; "), " (", Number(d.best_value.approx),
                    " against ", Number(d.value.approx), ")");
  }
  return text + "\n";
}

std::string ReportText(const Reviewer& reviewer, std::string_view name) {
  std::string text =
      absl::StrFormat("Review of %s: %s (%s); rules: %d dice, bonus %d, target %d.\n",
                      std::string(name), reviewer.goal().Describe(), reviewer.goal().name(),
                      reviewer.rules().dice, reviewer.rules().bonus, reviewer.rules().target);
  if (!reviewer.table_path().empty()) {
    absl::StrAppend(
        &text, "Values: the mover's probability of winning. Table: ", reviewer.table_path(), ".\n");
  }
  for (const Turn& turn : reviewer.turns()) {
    absl::StrAppend(&text, "Turn ", turn.number, " (line ", turn.line, ")");
    if (turn.context) {
      absl::StrAppend(&text, ": scores ", absl::StrJoin(turn.context->scores, ","), ", seat ",
                      turn.context->seat, " to move");
      if (!turn.win.empty()) {
        absl::StrAppend(&text, ", wins with probability ", Number(turn.win[turn.context->seat]));
      }
    }
    absl::StrAppend(&text, "\n");
    for (const Decision& d : turn.decisions) absl::StrAppend(&text, DecisionText(d));
    absl::StrAppend(&text, "  turn ends: ", EndText(turn), "; scores ", turn.score, "; lost ",
                    LossText(turn.loss, turn.loss_exact), " in ", Plural(turn.mistakes, "mistake"),
                    "\n");
  }
  const Totals totals = Total(reviewer);
  absl::StrAppend(&text, "Summary: ", Plural(static_cast<int>(reviewer.turns().size()), "turn"),
                  ", ", Plural(totals.decisions, "decision"), ", ",
                  Plural(totals.mistakes, "mistake"), ", total loss ",
                  LossText(totals.loss, totals.loss_exact), ".\n");
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

std::string DecisionJson(const Decision& d) {
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
  return object.Build();
}

std::string ReportJson(const Reviewer& reviewer, std::string_view name) {
  std::vector<std::string> turns;
  for (const Turn& turn : reviewer.turns()) {
    JsonObject object;
    object.Int("turn", turn.number).Int("line", turn.line);
    if (turn.context) {
      object.Raw("scores", JsonIntArray(turn.context->scores)).Int("seat", turn.context->seat);
    } else {
      object.Null("scores").Null("seat");
    }
    if (turn.win.empty()) {
      object.Null("win_probabilities");
    } else {
      object.Raw("win_probabilities", JsonDoubleArray(turn.win));
    }
    std::vector<std::string> decisions;
    for (const Decision& d : turn.decisions) decisions.push_back(DecisionJson(d));
    object.Raw("decisions", JsonArray(decisions))
        .Str("end", turn.end == TurnEnd::kStop       ? "stop"
                    : turn.end == TurnEnd::kTurnOver ? "no_legal_take"
                                                     : "no_dice_left")
        .Int("end_line", turn.end_line)
        .Int("score", turn.score)
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
  object.Raw("turns", JsonArray(turns))
      .Int("decisions", totals.decisions)
      .Int("mistakes", totals.mistakes);
  AddValue(object, "total_loss", totals.loss, totals.loss_exact);
  return object.Build() + "\n";
}

// Reads `input` ("-": the stream), at most kMaxInputBytes.
absl::StatusOr<std::string> ReadInput(const std::string& input, std::istream* stdin_stream) {
  std::string text;
  std::istream* stream = stdin_stream;
  std::ifstream file;
  if (input != "-") {
    using internal::FileKind;
    const FileKind kind = internal::InspectPath(input);
    if (kind.type == FileKind::Type::kMissing) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot read '", input, "': ", kind.what == "missing" ? "no such file" : kind.what));
    }
    if (kind.type != FileKind::Type::kRegular) {
      return absl::InvalidArgumentError(absl::StrCat("cannot read '", input, "': it is ", kind.what,
                                                     ", not a regular file (- reads stdin)"));
    }
    file.open(input, std::ios::binary);
    if (!file) return absl::InvalidArgumentError(absl::StrCat("cannot read '", input, "'"));
    stream = &file;
  }
  if (stream == nullptr) return text;
  text.resize(kMaxInputBytes + 1);
  stream->read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(stream->gcount()));
  if (text.size() > kMaxInputBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("the input is over ", kMaxInputBytes, " bytes; review a game at a time"));
  }
  if (stream->bad()) return absl::InvalidArgumentError(absl::StrCat("cannot read '", input, "'"));
  return text;
}

}  // namespace

const std::string_view kReviewHelp = R"(
Reviews played turns: for every decision (the take from a roll, then stop or
roll on) the optimal choice and what the actual one lost, in expected score
(or the objective's value) or, with --objective win, in the mover's
probability of winning; then a summary. INPUT is a file, or - for stdin.
Line format (keywords case-insensitive, # starts a comment, blank lines skipped):
  roll DICE take FACE    the dice rolled and the face set aside (R, H, C, K,
                         ray, human, cow, chicken, plurals too, or with its
                         count: 4H, 4 humans)
  roll DICE              a roll with no legal take (the turn is over)
  stop                   the player stops
  scores S0,S1 [seat I]  game totals before the next turn, seat to move
                         (with --objective win: before the first turn unless
                         --scores gives it; a later turn without one goes on
                         from the totals the last turn left, the next seat)
After a take with dice left comes `stop` or the next `roll` (rolled on). A
turn also ends when no take is legal or no dice are left; the next `roll`
starts a new turn. The rulebook's sample turn:
  roll 2T 3R 4H 3C 1K take H
  roll 1T 2R 3C 1K take R
  roll 2H 1C 1K take K
  roll 1R 1H 1C take R
  stop
A choice is optimal (loss 0) when it is worth as much as the best one; ties
are named. Bad input (notation, a roll that does not show the dice left, an
illegal take, an impossible sequence) is refused with its line number.
JSON (--json): input, rules, objective, precision, table, turns [{turn, line,
scores, seat, win_probabilities, decisions [{line, then_line, aside, rolled,
take, count, then, value, best_value, loss, optimal, optimal_choices [{take,
count, then}]}], end (stop, no_legal_take, no_dice_left), end_line, score,
mistakes, loss}], decisions, mistakes, total_loss; with --exact also
value_exact, best_value_exact, loss_exact, total_loss_exact ("p/q").
)";

absl::StatusOr<std::string> RunReview(const CommandOptions& options,
                                      const CommandContext& context) {
  // The options, checked as eval checks them. With --objective win and no
  // --scores every turn's context comes from the input's `scores` lines:
  // the other options are checked with a placeholder context.
  const QueryInput& input = options.query;
  QueryInput checked = input;
  const absl::StatusOr<Goal> goal = Goal::Parse(QueryObjective(input));
  const bool contexts_from_input = goal.ok() && goal->is_win() && !input.scores;
  if (contexts_from_input) {
    if (input.seat || input.players) {
      return absl::InvalidArgumentError("--seat and --players go with --scores");
    }
    checked.scores = "0,0";
  }
  absl::StatusOr<Query> query = ParseQuery(checked);
  if (!query.ok()) return query.status();
  std::optional<Context> default_context;
  if (query->goal.is_win() && !contexts_from_input) {
    default_context = Context{*query->context, query->players};
  }
  query->context.reset();
  query->players = 0;

  absl::StatusOr<std::string> text = ReadInput(options.input, context.in);
  if (!text.ok()) return text.status();
  const std::string name = options.input == "-" ? "stdin" : options.input;
  Reviewer reviewer(context.advisor, *std::move(query), std::move(default_context));
  int number = 0;
  std::size_t start = 0;
  const std::string_view all = *text;
  while (start < all.size()) {
    std::size_t end = all.find('\n', start);
    if (end == std::string_view::npos) end = all.size();
    std::string_view line = all.substr(start, end - start);
    start = end + 1;
    ++number;
    if (line.size() > kMaxLineBytes) {
      return LineError(number, absl::StrCat("longer than ", kMaxLineBytes, " bytes"));
    }
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    if (absl::Status status = reviewer.Line(number, line); !status.ok()) return status;
  }
  if (absl::Status status = reviewer.Finish(std::max(number, 1)); !status.ok()) return status;
  return options.json ? ReportJson(reviewer, name) : ReportText(reviewer, name);
}

}  // namespace martiandice::cli
