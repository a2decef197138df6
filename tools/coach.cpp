// `martiandice coach`: follows a game played with real dice, one entry a
// line, in the lines `review` reads (plus `take FACE` on its own line, a
// whole turn's `score N`, `undo`), and advises every take and every stop or
// roll on. The game is the library's GameState (the rules, the totals, the
// seat to move, the final round); the advice is the advisor's
// (Advisor::Advise: chances to win, or the fallback where no table covers
// the game); the log is a GameLog. An entry is applied to a copy of the game,
// so a bad entry changes nothing; each accepted entry keeps the game before
// it for `undo`.
#include <cctype>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/strings/ascii.h"
#include "answers.h"
#include "commands.h"
#include "exit_codes.h"
#include "json.h"
#include "martiandice/advisor.h"
#include "martiandice/dice.h"
#include "martiandice/game.h"
#include "martiandice/game_log.h"
#include "martiandice/game_state.h"
#include "support.h"

namespace martiandice::cli {
namespace {

// Longest entry line read; the rest of a longer line is dropped.
constexpr std::size_t kMaxEntryBytes = 1024;
// Entries kept for `undo`.
constexpr std::size_t kMaxUndo = 10000;

std::string Str(absl::string_view text) { return std::string(text.data(), text.size()); }

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

struct Setup {
  Rules rules;
  GameState start;
  bool json = false;
  std::string log_path;  // "": the log goes to stdout
  std::optional<std::string> tables;
  TableCoverage coverage;
};

absl::Status AsLogError(const absl::Status& status) {
  std::string message(status.message());
  if (message.rfind("--out", 0) == 0) message.replace(0, 5, "--log");
  return absl::Status(status.code(), message);
}

absl::StatusOr<Setup> ReadSetup(const CommandOptions& options, Advisor& advisor) {
  const QueryInput& query = options.query;
  if (absl::Status status = CheckRules(query.rules); !status.ok()) return status;
  GameContext context;
  if (query.scores) {
    absl::StatusOr<std::vector<int>> scores = ParseScores(*query.scores);
    if (!scores.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--scores: ", scores.status().message()));
    }
    context.scores = *std::move(scores);
  }
  const int players = query.players.value_or(
      context.scores.empty() ? 2 : static_cast<int>(context.scores.size()));
  if (absl::Status status = CheckPlayers(players, "--players"); !status.ok()) return status;
  if (context.scores.empty()) context.scores.assign(players, 0);
  if (static_cast<int>(context.scores.size()) != players) {
    return absl::InvalidArgumentError(absl::StrCat("--scores: ", context.scores.size(),
                                                   " totals for ", players, " players"));
  }
  context.seat = query.seat.value_or(0);
  absl::StatusOr<GameState> start = GameState::AtTurnStart(query.rules, players, context);
  if (!start.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--scores/--seat: ", start.status().message()));
  }
  Setup setup{query.rules, *std::move(start), false, "", std::nullopt, {}};
  setup.json = options.json;
  setup.tables = query.tables;
  if (!options.log.empty()) {
    absl::StatusOr<std::string> path =
        OutputPath(options.log, "martiandice-coached.log", Folders::kMustExist);
    if (!path.ok()) return AsLogError(path.status());
    setup.log_path = *path;
  }
  absl::StatusOr<TableCoverage> coverage = advisor.Coverage(setup.rules, players, setup.tables);
  if (!coverage.ok()) return TableError(setup.rules, players, coverage.status());
  setup.coverage = *std::move(coverage);
  return setup;
}

// ---------------------------------------------------------------------------
// The entries.

struct Entry {
  enum class Kind { kNone, kGame, kScores, kUndo, kState, kHelp, kQuit, kBad };
  Kind kind = Kind::kNone;
  // kGame: what the line says happened, applied in this order.
  bool roll_on = false;            // `roll` alone, or `roll on`
  std::optional<Dice> roll;        // `roll DICE`
  std::optional<TakeInput> take;   // `take FACE`
  bool stop = false;               // `stop`
  std::optional<int> points;       // `score N`: a whole turn
  GameContext context;             // kScores
  bool seat_given = false;         // kScores: `seat I` given
  std::string problem;             // kBad
};

constexpr std::string_view kEntries =
    "roll DICE, take FACE, roll DICE take FACE, stop, roll (roll on), score N (a whole turn), "
    "scores S0,S1 seat I, undo, state, help, quit";


Entry Bad(std::string problem) {
  Entry entry;
  entry.kind = Entry::Kind::kBad;
  entry.problem = std::move(problem);
  return entry;
}

Entry ReadEntry(std::string_view line) {
  Entry entry;
  if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) {
    line = line.substr(0, hash);
  }
  std::vector<std::string> words;
  for (absl::string_view word : absl::StrSplit(std::string(line), absl::ByAnyChar(" \t"),
                                               absl::SkipWhitespace())) {
    words.push_back(Lower(Str(word)));
  }
  if (words.empty()) return entry;
  const std::string& first = words[0];
  const std::size_t n = words.size();
  if (n == 1 && (first == "undo" || first == "state" || first == "help" || first == "?" ||
                 first == "quit")) {
    entry.kind = first == "undo"    ? Entry::Kind::kUndo
                 : first == "state" ? Entry::Kind::kState
                 : first == "quit"  ? Entry::Kind::kQuit
                                    : Entry::Kind::kHelp;
    return entry;
  }
  entry.kind = Entry::Kind::kGame;
  if (first == "stop") {
    if (n > 1) return Bad("stop takes nothing after it");
    entry.stop = true;
    return entry;
  }
  if (first == "score") {
    int points = 0;
    if (n != 2 || !absl::SimpleAtoi(words[1], &points) || words[1][0] == '+') {
      return Bad("score: expected the whole turn's points, e.g. 'score 7'");
    }
    entry.points = points;
    return entry;
  }
  if (first == "scores") {
    entry.kind = Entry::Kind::kScores;
    if (n != 2 && !(n == 4 && words[2] == "seat")) {
      return Bad("scores: expected every seat's total and the seat to move, e.g. 'scores 12,20 "
                 "seat 1'");
    }
    absl::StatusOr<std::vector<int>> scores = ParseScores(words[1]);
    if (!scores.ok()) return Bad(absl::StrCat("scores: ", scores.status().message()));
    entry.context.scores = *std::move(scores);
    if (n == 4) {
      if (!absl::SimpleAtoi(words[3], &entry.context.seat) || words[3][0] == '+') {
        return Bad(absl::StrCat("scores: bad seat '", words[3], "'"));
      }
      entry.seat_given = true;
    }
    return entry;
  }
  std::size_t take_at = n;
  if (first == "roll") {
    if (n == 1 || (n == 2 && words[1] == "on")) {
      entry.roll_on = true;
      return entry;
    }
    take_at = std::find(words.begin(), words.end(), "take") - words.begin();
    if (take_at == 1) return Bad("roll: give the dice rolled before the take");
    const std::string dice = absl::StrJoin(words.begin() + 1, words.begin() + take_at, " ");
    absl::StatusOr<Dice> roll = ParseDice(dice);
    if (!roll.ok()) return Bad(absl::StrCat("roll: ", roll.status().message()));
    entry.roll = *roll;
    if (take_at == n) return entry;
  } else if (first == "take") {
    take_at = 0;
  } else {
    return Bad(absl::StrCat("unknown entry '", Str(absl::StripAsciiWhitespace(std::string(line))),
                            "'; the entries: ", std::string(kEntries)));
  }
  const std::string face = absl::StrJoin(words.begin() + take_at + 1, words.end(), " ");
  if (face.empty()) return Bad("take: name the face, e.g. 'take humans' or 'take H'");
  absl::StatusOr<TakeInput> take = ParseTake(face);
  if (!take.ok()) return Bad(Str(take.status().message()));
  entry.take = *take;
  return entry;
}

// ---------------------------------------------------------------------------
// The session.

std::string FaceNamesJson(const std::vector<Face>& faces) {
  std::vector<std::string> names;
  for (Face face : faces) names.push_back(JsonString(FaceName(face)));
  return JsonArray(names);
}

std::string Points(int n) { return absl::StrCat(n, n == 1 ? " point" : " points"); }

// An accepted entry: the game before it, for `undo`.
struct Undo {
  std::string entry;
  GameState state;
  GameLog log;
};

class Coach {
 public:
  Coach(Setup setup, Advisor& advisor, std::istream* in, std::ostream& out)
      : setup_(std::move(setup)), advisor_(advisor), in_(in), out_(out), state_(setup_.start) {}

  absl::StatusOr<int> Run() {
    if (absl::Status status = Start(); !status.ok()) return status;
    while (true) {
      out_.flush();
      std::optional<std::string> line = ReadLine();
      if (!line) break;
      const Entry entry = ReadEntry(*line);
      absl::Status status;
      switch (entry.kind) {
        case Entry::Kind::kNone:
          continue;
        case Entry::Kind::kQuit:
          quit_ = true;
          break;
        case Entry::Kind::kHelp:
          Help();
          continue;
        case Entry::Kind::kState:
          status = Show("state", *line, {});
          break;
        case Entry::Kind::kUndo:
          status = TakeBack(*line);
          break;
        case Entry::Kind::kBad:
          status = Refuse(*line, entry.problem);
          break;
        case Entry::Kind::kScores:
          status = SetScores(*line, entry);
          break;
        case Entry::Kind::kGame:
          status = Play(*line, entry);
          break;
      }
      if (!status.ok()) return status;
      if (quit_) break;
    }
    return Finish();
  }

 private:
  int players() const { return state_.players(); }
  void Line(const std::string& text) { out_ << text << "\n"; }

  std::optional<std::string> ReadLine() {
    if (in_ == nullptr) return std::nullopt;
    std::string line;
    char c = 0;
    bool any = false;
    while (in_->get(c)) {
      any = true;
      if (c == '\n') break;
      if (line.size() < kMaxEntryBytes) line += c;
    }
    if (!any) return std::nullopt;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
  }

  // The advice at the game's decision; none once it is over.
  absl::StatusOr<std::optional<GameAdvice>> Advice() {
    if (state_.over()) return std::optional<GameAdvice>();
    absl::StatusOr<GameAdvice> advice = advisor_.Advise(state_, setup_.tables);
    if (!advice.ok()) return advice.status();
    return std::optional<GameAdvice>(*std::move(advice));
  }

  std::string StateJson() const {
    JsonObject s;
    s.Str("phase", PhaseName(state_.phase()))
        .Int("seat", state_.seat())
        .Raw("scores", JsonIntArray(state_.scores()))
        .Bool("final_round", state_.final_round())
        .Str("aside", FormatDice(state_.aside()))
        .Int("dice_left", state_.dice_left())
        .Int("turn_score", state_.turn_score());
    if (state_.phase() == Phase::kTake) {
      s.Str("roll", FormatDice(state_.roll()));
    } else {
      s.Null("roll");
    }
    s.Raw("legal", FaceNamesJson(state_.legal_takes()))
        .Raw("winners", JsonIntArray(state_.winners()))
        .Int("undo", static_cast<int>(undo_.size()));
    return std::move(s).Build();
  }

  void Event(std::string_view event, JsonObject&& fields) {
    JsonObject object;
    object.Str("event", event);
    std::string body = std::move(fields).Build();
    std::string head = std::move(object).Build();
    head.pop_back();
    if (body.size() > 2) head += ",";
    head.append(body, 1, std::string::npos);
    out_ << head << "\n";
  }

  absl::Status Start() {
    if (setup_.json) {
      JsonObject fields;
      fields.Raw("rules", RulesJson(setup_.rules)).Int("players", players());
      if (setup_.coverage.table) {
        fields.Str("table", setup_.coverage.table->path).Null("no_table");
      } else {
        fields.Null("table").Str("no_table", setup_.coverage.reason);
      }
      Event("start", std::move(fields));
    } else {
      Line(absl::StrCat("Martian Dice coach: ", players(), " players (", RulesText(setup_.rules),
                        ")."));
      if (setup_.coverage.table) {
        Line(absl::StrCat("Values: the mover's chance to win (table ",
                          setup_.coverage.table->path, ")."));
      } else {
        Line(absl::StrCat("No policy table covers this game: ", setup_.coverage.reason, "."));
        Line(absl::StrCat("The advice plays the fallback: ", std::string(kFallbackName),
                          " (values: expected points, capped)."));
      }
      Line("Enter what happens, one a line: roll DICE, take FACE, stop, score N (a whole turn), "
           "undo; help.");
    }
    return Show("state", "", {});
  }

  void Help() {
    std::string now;
    switch (state_.phase()) {
      case Phase::kRoll:
        now = state_.aside().empty()
                  ? absl::StrCat("roll DICE (the ", DiceCount(state_.dice_left()),
                                 " rolled), or score N (the whole turn), or scores S0,S1 seat I")
                  : absl::StrCat("roll DICE (the ", DiceCount(state_.dice_left()), " rolled)");
        break;
      case Phase::kTake:
        now = "take FACE (ray, human, cow, chicken, or R, H, C, K)";
        break;
      case Phase::kStopOrRoll:
        now = absl::StrCat("stop, or roll DICE (the ", DiceCount(state_.dice_left()),
                           " rolled on)");
        break;
      case Phase::kOver:
        now = "none: the game is over (undo takes back the last entry)";
        break;
    }
    const std::string text =
        absl::StrCat("entries now: ", now, "; always: undo, state, help, quit");
    if (setup_.json) {
      Event("help", std::move(JsonObject().Str("message", text)));
    } else {
      Line(absl::StrCat("Entries now: ", now, "; always: undo, state, help, quit."));
    }
  }

  absl::Status Refuse(const std::string& entry, std::string_view problem) {
    if (setup_.json) {
      Event("refused", std::move(JsonObject()
                                     .Str("entry", entry)
                                     .Str("message", problem)
                                     .Raw("state", StateJson())));
    } else {
      Line(absl::StrCat("Refused: ", std::string(problem), "."));
    }
    return absl::OkStatus();
  }

  // A `scores` line: at a turn's start, the totals and the seat to move (the
  // seat stays the same unless given). The same totals change nothing, so a
  // log replays.
  absl::Status SetScores(const std::string& line, const Entry& entry) {
    if (state_.over() || state_.phase() != Phase::kRoll || !state_.aside().empty()) {
      return Refuse(line, state_.over()
                              ? "the game is over (undo takes back the last entry)"
                              : absl::StrCat("scores: only at a turn's start; seat ",
                                             state_.seat(), "'s turn is in progress"));
    }
    GameContext context = entry.context;
    if (!entry.seat_given) context.seat = 0;
    if (static_cast<int>(context.scores.size()) != players()) {
      return Refuse(line, absl::StrCat("scores: ", context.scores.size(), " totals for ",
                                       players(), " players"));
    }
    absl::StatusOr<GameState> next = GameState::AtTurnStart(setup_.rules, players(), context);
    if (!next.ok()) return Refuse(line, absl::StrCat("scores: ", next.status().message()));
    Keep(line);
    state_ = *std::move(next);
    return Show("applied", line, {});
  }

  // A game entry: its moves applied to a copy, kept if all are legal.
  absl::Status Play(const std::string& line, const Entry& entry) {
    GameState next = state_;
    GameLog log = log_;
    std::vector<TurnEnd> ends;
    auto apply = [&](const Move& move) -> absl::Status {
      const GameState before = next;
      absl::StatusOr<MoveResult> result = next.Apply(move);
      if (!result.ok()) return result.status();
      log.Record(before, move, *result);
      if (result->turn_end) ends.push_back(*result->turn_end);
      return absl::OkStatus();
    };
    absl::Status status;
    if (entry.roll_on) status = apply(Move::RollOn());
    if (status.ok() && entry.roll) {
      // After a take, a roll says the player rolled on (review's lines).
      if (next.phase() == Phase::kStopOrRoll) status = apply(Move::RollOn());
      if (status.ok()) status = apply(Move::Roll(*entry.roll));
    }
    if (status.ok() && entry.take) {
      if (entry.roll && !ends.empty()) {
        status = absl::InvalidArgumentError(
            absl::StrCat("the roll ", FormatDice(*entry.roll),
                         " allows no take: it ends the turn (enter it without the take)"));
      } else if (entry.take->count && next.phase() == Phase::kTake &&
                 next.can_take(entry.take->face) &&
                 next.roll().count(entry.take->face) != *entry.take->count) {
        const int shown = next.roll().count(entry.take->face);
        status = absl::InvalidArgumentError(
            absl::StrCat("the roll shows ", TakeLabel(entry.take->face, shown), ", not ",
                         *entry.take->count));
      } else {
        status = apply(Move::Take(entry.take->face));
      }
    }
    if (status.ok() && entry.stop) status = apply(Move::Stop());
    if (status.ok() && entry.points) status = apply(Move::EndTurn(*entry.points));
    if (!status.ok()) {
      return Refuse(line, absl::StrCat(status.message(), state_.over()
                                                              ? " (undo takes back the last entry)"
                                                              : ""));
    }
    Keep(line);
    const GameState before = state_;
    state_ = std::move(next);
    log_ = std::move(log);
    return Show("applied", line, ends, &before, entry.roll);
  }

  void Keep(const std::string& line) {
    if (undo_.size() == kMaxUndo) undo_.erase(undo_.begin());
    undo_.push_back(Undo{line, state_, log_});
  }

  absl::Status TakeBack(const std::string& line) {
    if (undo_.empty()) return Refuse(line, "nothing to undo");
    Undo last = std::move(undo_.back());
    undo_.pop_back();
    state_ = std::move(last.state);
    log_ = std::move(last.log);
    if (!setup_.json) Line(absl::StrCat("Undone: ", last.entry, "."));
    return Show("undone", last.entry, {});
  }

  // What an entry did (text), then the game's state and the advice at its
  // decision. `event`: "state", "applied" or "undone".
  absl::Status Show(std::string_view event, const std::string& entry,
                    const std::vector<TurnEnd>& ends, const GameState* before = nullptr,
                    const std::optional<Dice>& roll = std::nullopt) {
    absl::StatusOr<std::optional<GameAdvice>> advice = Advice();
    if (!advice.ok()) return advice.status();
    if (setup_.json) {
      JsonObject fields;
      if (event != "state") fields.Str("entry", entry);
      if (event == "applied") {
        std::vector<std::string> items;
        for (const TurnEnd& end : ends) {
          items.push_back(JsonObject()
                              .Int("seat", end.seat)
                              .Int("score", end.score)
                              .Str("reason", TurnEndReasonName(end.reason))
                              .Str("aside", FormatDice(end.aside))
                              .Bool("game_over", end.game_over)
                              .Build());
        }
        fields.Raw("turn_ends", JsonArray(items));
      }
      fields.Raw("state", StateJson());
      if (*advice) {
        JsonObject a;
        AddGameAdviceJson(a, **advice);
        fields.Raw("advice", std::move(a).Build());
      } else {
        fields.Null("advice");
      }
      Event(event, std::move(fields));
      return absl::OkStatus();
    }
    if (before != nullptr) Narrate(*before, roll, ends);
    const bool turn_start = state_.phase() == Phase::kRoll && state_.aside().empty();
    if (state_.over()) {
      GameOver();
    } else if (turn_start) {
      TurnStart(**advice);
    } else if (state_.phase() == Phase::kRoll) {
      Line(absl::StrCat("Seat ", state_.seat(), " rolls the ", DiceCount(state_.dice_left()),
                        " left: enter them (roll DICE)."));
    } else {
      if (event != "applied") {
        Line(absl::StrCat("Seat ", state_.seat(), ": ",
                          state_.aside().empty()
                              ? std::string("nothing set aside")
                              : absl::StrCat("set aside ", FormatDice(state_.aside())),
                          ", ", DiceCount(state_.dice_left()), " left, ",
                          Points(state_.turn_score()), " so far",
                          state_.phase() == Phase::kTake
                              ? absl::StrCat("; rolled ", FormatDice(state_.roll()))
                              : "",
                          "."));
      }
      if ((*advice)->fallback && !fallback_said_) {
        Line(absl::StrCat("  Values: ", AdviceValuesText(**advice), "."));
        fallback_said_ = true;
      }
      out_ << GameAdviceText(**advice);
    }
    return absl::OkStatus();
  }

  // The moves of an accepted entry, from the game before it.
  void Narrate(const GameState& before, const std::optional<Dice>& roll,
               const std::vector<TurnEnd>& ends) {
    const int seat = before.seat();
    if (roll) {
      std::string text = absl::StrCat("Seat ", seat, " rolled ", FormatDice(*roll));
      if (state_.phase() == Phase::kTake && roll->count(Face::kTank) > 0) {
        absl::StrAppend(&text, "; tanks set aside: ", FormatDice(state_.aside()));
      }
      Line(text + ".");
    }
    if (state_.phase() == Phase::kTake) return;
    if (state_.phase() == Phase::kStopOrRoll) {
      Line(absl::StrCat("Seat ", seat, ": set aside ", FormatDice(state_.aside()), ", ",
                        DiceCount(state_.dice_left()), " left, ", Points(state_.turn_score()),
                        " so far."));
      return;
    }
    for (const TurnEnd& end : ends) {
      const std::string scores = absl::StrCat("Scores: ", absl::StrJoin(state_.scores(), ", "),
                                              ".");
      switch (end.reason) {
        case TurnEndReason::kStopped:
          Line(absl::StrCat("Seat ", end.seat, " stops with ", FormatDice(end.aside),
                            " and scores ", end.score, ". ", scores));
          break;
        case TurnEndReason::kNoLegalTake:
          Line(absl::StrCat("No legal take: seat ", end.seat, "'s turn ends with ",
                            FormatDice(end.aside), " and scores ", end.score, ". ", scores));
          break;
        case TurnEndReason::kNoDiceLeft:
          Line(absl::StrCat("No dice left: seat ", end.seat, "'s turn ends with ",
                            FormatDice(end.aside), " and scores ", end.score, ". ", scores));
          break;
        case TurnEndReason::kEntered:
          Line(absl::StrCat("Seat ", end.seat, " scores ", end.score, ". ", scores));
          break;
      }
    }
  }

  void TurnStart(const GameAdvice& advice) {
    std::string text = absl::StrCat("\nSeat ", state_.seat(), " to roll ",
                                    DiceCount(state_.dice_left()),
                                    ". Scores: ", absl::StrJoin(state_.scores(), ", "), ".");
    if (state_.final_round()) {
      absl::StrAppend(&text, " Final round: the game ends after seat ", players() - 1, "'s turn.");
    }
    Line(text);
    if (!advice.win_probabilities.empty()) {
      std::vector<std::string> chances;
      for (double p : advice.win_probabilities) chances.push_back(Number(p));
      Line(absl::StrCat("  Chances to win, seat 0 first: ", absl::StrJoin(chances, ", "), "."));
    }
  }

  void GameOver() {
    const std::vector<int> winners = state_.winners();
    std::string text =
        absl::StrCat("\nGame over. Scores: ", absl::StrJoin(state_.scores(), ", "), ". ");
    if (winners.size() == 1) {
      absl::StrAppend(&text, "Seat ", winners[0], " wins.");
    } else {
      absl::StrAppend(&text, "Seats ", absl::StrJoin(winners, ", "), " tie with ",
                      state_.scores()[winners[0]],
                      " and share the win (a duel decides: each wins it with chance 1/",
                      winners.size(), ").");
    }
    Line(text);
  }

  // The end of input or `quit`: the log (the whole game, or its finished
  // turns), exit 0.
  absl::StatusOr<int> Finish() {
    const std::string text = state_.over() ? log_.text() : log_.finished_text();
    const std::string review =
        setup_.coverage.table ? "martiandice review --objective win" : "martiandice review";
    if (setup_.json) {
      Event("end", std::move(JsonObject()
                                 .Str("reason", quit_ ? "quit" : "end of input")
                                 .Bool("game_over", state_.over())));
    }
    if (!setup_.log_path.empty()) {
      if (absl::Status status = WriteOutput(setup_.log_path, text); !status.ok()) {
        return AsLogError(status);
      }
      if (setup_.json) {
        Event("log", std::move(JsonObject().Str("path", setup_.log_path)));
      } else {
        Line(absl::StrCat("Game log written to ", setup_.log_path, " (review it: ", review, " ",
                          setup_.log_path, ")."));
      }
      return kCliExitOk;
    }
    if (setup_.json) {
      std::vector<std::string> lines;
      for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
        lines.push_back(JsonString(Str(line)));
      }
      Event("log", std::move(JsonObject().Raw("lines", JsonArray(lines))));
    } else {
      Line(absl::StrCat("Game log (", review, " - reviews it):"));
      out_ << text;
    }
    return kCliExitOk;
  }

  Setup setup_;
  Advisor& advisor_;
  std::istream* in_;
  std::ostream& out_;
  GameState state_;
  GameLog log_;
  std::vector<Undo> undo_;
  bool quit_ = false;
  bool fallback_said_ = false;
};

}  // namespace

const std::string_view kCoachHelp = R"(
Follows a game played with real dice and advises the seat to move at every
decision: each take from a roll (best's table: every take's value, then stop
or roll on) and each stop or roll on, with the chance that rolling on ends the
turn with 0 points. Values are the mover's chance to win from the policy
table; where no table covers the game (5 and 6 players, or 4 until its table
is made) the program says so once and gives the fallback's values: the
expected points capped at the points still needed.
The game starts at --scores (every seat's total, default all 0; --players
otherwise, default 2) with --seat to move (default 0). Entries, one a line,
in the lines `martiandice review` reads (case does not matter; # starts a
comment):
  roll DICE            the dice rolled (notation: 2T 3R 4H, or words: 2 tanks
                       3 rays); after a take it means the seat rolled on
  take FACE            the face set aside: ray, human, cow, chicken (plurals,
                       letters R H C K; a count may be given: take 4H)
  roll DICE take FACE  both in one line
  stop                 the seat stops: the turn scores
  roll                 the seat rolls on (also: roll on); the dice come next
  score N              the seat's whole turn, played elsewhere, scored N
  scores S0,S1 seat I  at a turn's start: the totals and the seat to move
                       (the same totals change nothing, so a log replays)
  undo                 takes back the last accepted entry
  state                the game and the advice again;  help;  quit
Tanks go aside by themselves; a roll with no legal take, or a take that
leaves no dice, ends the turn; the final round and the tie rule are
docs/RULES.md's. A bad entry gets one line naming the problem and changes
nothing. At the end of input (or quit) the game log, in review's lines (the
finished turns), on stdout or written atomically to --log FILE.
--json gives one JSON object per line with an "event": start, state (the
game: phase, seat, scores, final_round, aside, dice_left, turn_score, roll,
legal, winners, undo; and the advice as in `play --json`'s hints, null once
the game is over), applied (the same after an entry, with entry and
turn_ends), undone, refused (entry, message, state), help, end, log.
Exit status: 0 at the end of input or quit; 2 bad options; 1 an internal
error.
)";

absl::StatusOr<int> RunCoach(const CommandOptions& options, const CommandContext& context,
                             std::ostream& out) {
  absl::StatusOr<Setup> setup = ReadSetup(options, context.advisor);
  if (!setup.ok()) return setup.status();
  Coach coach(*std::move(setup), context.advisor, context.in, out);
  return coach.Run();
}

}  // namespace martiandice::cli
