// `martiandice coach`: follows a game played with real dice, one entry a
// line, in the lines `review` reads (plus `take FACE` on its own line, a
// whole turn's `score N`, `undo`), and advises every take and every stop or
// roll on. The game is the library's GameState (the rules, the totals, the
// seat to move, the final round); the advice is the advisor's
// (Advisor::Advise: chances to win, or the fallback where no table covers
// the game); the entries' bookkeeping (a copy per entry, the log, `undo`) is
// GameSession's (game_session.h), shared with `serve`'s game sessions.
#include <atomic>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "answers.h"
#include "commands.h"
#include "exit_codes.h"
#include "game_session.h"
#include "interrupt.h"
#include "json.h"
#include "martiandice/advisor.h"
#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/game_state.h"
#include "session_answers.h"
#include "support.h"

namespace martiandice::cli {
namespace {

std::string Str(absl::string_view text) { return std::string(text.data(), text.size()); }

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
  const QueryInput& query = options.request.query;
  // The command line's rules error ("invalid rules: ..."), before the session's.
  if (absl::Status status = app::CheckRules(query.rules); !status.ok()) return status;
  absl::StatusOr<GameState> start = app::SessionStart(query);
  if (!start.ok()) return start.status();
  const int players = start->players();
  Setup setup{query.rules, *std::move(start), false, "", std::nullopt, {}};
  setup.json = options.json;
  setup.tables = query.tables;
  if (!options.log.empty()) {
    absl::StatusOr<std::string> path =
        OutputPath(options.log, "martiandice-coached.log", Folders::kMustExist, Writes::kOther);
    if (!path.ok()) return AsLogError(path.status());
    setup.log_path = *path;
  }
  absl::StatusOr<TableCoverage> coverage =
      app::GameCoverage(advisor, setup.rules, players, setup.tables);
  if (!coverage.ok()) return coverage.status();
  setup.coverage = *std::move(coverage);
  return setup;
}

// ---------------------------------------------------------------------------
// The session.

// No turn entered roll by roll has ended (`score N` turns are not reviewed).
constexpr char kNothingToReview[] =
    "nothing to review (no turn was entered roll by roll to its end).";

std::string Points(int n) { return absl::StrCat(n, n == 1 ? " point" : " points"); }

class Coach {
 public:
  Coach(Setup setup, int columns, Advisor& advisor, std::istream* in, std::ostream& out,
        const std::atomic<bool>* stop)
      : setup_(std::move(setup)),
        columns_(static_cast<std::size_t>(columns)),
        advisor_(advisor),
        in_(in),
        out_(out),
        stop_(stop),
        session_(setup_.start) {}

  absl::StatusOr<int> Run() {
    if (absl::Status status = Start(); !status.ok()) return status;
    while (true) {
      out_.flush();
      std::optional<EntryLine> read = ReadEntryLine(in_, stop_);
      if (!read) break;
      const std::string& line = read->text;
      const GameState before = state();
      absl::StatusOr<app::SessionStep> step = absl::InvalidArgumentError(kEntryTooLong);
      if (!read->too_long) step = session_.Enter(line);
      absl::Status status;
      if (!step.ok()) {
        status = Refuse(line, step.status().message());
      } else {
        switch (step->kind) {
          case app::SessionStep::Kind::kNone:
            continue;
          case app::SessionStep::Kind::kQuit:
            quit_ = true;
            break;
          case app::SessionStep::Kind::kHelp:
            Help();
            continue;
          case app::SessionStep::Kind::kState:
            status = Show("state", line, *step);
            break;
          case app::SessionStep::Kind::kUndone:
            if (!setup_.json) Line(absl::StrCat("Undone: ", step->entry, "."));
            status = Show("undone", step->entry, *step);
            break;
          case app::SessionStep::Kind::kApplied:
            status = Show("applied", line, *step, &before);
            break;
        }
      }
      if (!status.ok()) return status;
      if (quit_) break;
    }
    return Finish();
  }

 private:
  const GameState& state() const { return session_.state(); }
  int players() const { return state().players(); }
  // Text for the terminal's width (app::WrapColumns).
  void Line(const std::string& text) { out_ << app::WrapColumns(text, columns_) << "\n"; }
  // A line ending on a path or holding a command to copy: never broken, so
  // that it copies whole and the lines after it do not move with its length.
  void PathLine(const std::string& text) { out_ << text << "\n"; }

  // The advice at the game's decision; none once it is over.
  absl::StatusOr<std::optional<GameAdvice>> Advice() {
    if (state().over()) return std::optional<GameAdvice>();
    absl::StatusOr<GameAdvice> advice = advisor_.Advise(state(), setup_.tables);
    if (!advice.ok()) return advice.status();
    return std::optional<GameAdvice>(*std::move(advice));
  }

  void Event(std::string_view event, JsonObject&& fields) {
    out_ << JsonEvent(event, std::move(fields)) << "\n";
  }

  absl::Status Start() {
    if (setup_.json) {
      JsonObject fields;
      fields.Raw("rules", app::RulesJson(setup_.rules)).Int("players", players());
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
        PathLine(app::TableValuesLines(setup_.coverage.table->path));
      } else {
        Line(absl::StrCat("No policy table covers this game: ", setup_.coverage.reason, "."));
        Line(absl::StrCat("The advice plays the fallback: ", std::string(kFallbackName), "."));
      }
      Line(
          "Enter what happens, one a line: roll DICE, take FACE, stop, score N (a whole turn), "
          "undo; help.");
    }
    return Show("state", "", app::SessionStep());
  }

  void Help() {
    const std::string now = session_.EntriesNow();
    if (setup_.json) {
      Event("help", std::move(JsonObject().Str(
                        "message",
                        absl::StrCat("entries now: ", now, "; always: undo, state, help, quit"))));
    } else {
      Line(absl::StrCat("Entries now: ", now, "; always: undo, state, help, quit."));
    }
  }

  absl::Status Refuse(const std::string& entry, absl::string_view problem) {
    if (setup_.json) {
      Event("refused", std::move(JsonObject()
                                     .Str("entry", entry)
                                     .Str("message", Str(problem))
                                     .Raw("state", session_.StateJson())));
    } else {
      Line(absl::StrCat("Refused: ", problem, "."));
    }
    return absl::OkStatus();
  }

  // What an entry did (text), then the game's state and the advice at its
  // decision. `event`: "state", "applied" or "undone".
  absl::Status Show(std::string_view event, const std::string& entry, const app::SessionStep& step,
                    const GameState* before = nullptr) {
    absl::StatusOr<std::optional<GameAdvice>> advice = Advice();
    if (!advice.ok()) return advice.status();
    if (setup_.json) {
      JsonObject fields;
      if (event != "state") fields.Str("entry", entry);
      if (event == "applied") {
        fields.Raw("turn_ends", app::GameSession::TurnEndsJson(step.turn_ends));
      }
      fields.Raw("state", session_.StateJson());
      if (*advice) {
        JsonObject a;
        app::AddGameAdviceJson(a, **advice);
        fields.Raw("advice", std::move(a).Build());
      } else {
        fields.Null("advice");
      }
      Event(event, std::move(fields));
      return absl::OkStatus();
    }
    if (before != nullptr) Narrate(*before, step.roll, step.turn_ends);
    const bool turn_start = state().phase() == Phase::kRoll && state().aside().empty();
    if (state().over()) {
      GameOver();
    } else if (turn_start) {
      TurnStart(**advice);
    } else if (state().phase() == Phase::kRoll) {
      Line(absl::StrCat("Seat ", state().seat(), " rolls the ", app::DiceCount(state().dice_left()),
                        " left: enter them (roll DICE)."));
    } else {
      if (event != "applied") {
        Line(absl::StrCat(
            "Seat ", state().seat(), ": ",
            state().aside().empty() ? std::string("nothing set aside")
                                    : absl::StrCat("set aside ", FormatDice(state().aside())),
            ", ", app::DiceCount(state().dice_left()), " left, ", Points(state().turn_score()),
            " so far",
            state().phase() == Phase::kTake ? absl::StrCat("; rolled ", FormatDice(state().roll()))
                                            : "",
            "."));
      }
      // The fallback's values said again whenever they change (their unit may), and on `state`.
      const std::string values = (*advice)->goal.name();
      if ((*advice)->fallback && (values != values_said_ || event == "state")) {
        Line(absl::StrCat("  Values: ", app::AdviceValuesText(**advice), "."));
        values_said_ = values;
      }
      out_ << app::GameAdviceText(**advice, columns_);
    }
    return absl::OkStatus();
  }

  // The moves of an accepted entry, from the game before it.
  void Narrate(const GameState& before, const std::optional<Dice>& roll,
               const std::vector<TurnEnd>& ends) {
    const int seat = before.seat();
    if (roll) {
      std::string text = absl::StrCat("Seat ", seat, " rolled ", FormatDice(*roll));
      if (state().phase() == Phase::kTake && roll->count(Face::kTank) > 0) {
        absl::StrAppend(&text, "; set aside: ", FormatDice(state().aside()));
      }
      Line(text + ".");
    }
    if (state().phase() == Phase::kTake) return;
    if (state().phase() == Phase::kStopOrRoll) {
      Line(absl::StrCat("Seat ", seat, ": set aside ", FormatDice(state().aside()), ", ",
                        app::DiceCount(state().dice_left()), " left, ",
                        Points(state().turn_score()), " so far."));
      return;
    }
    for (const TurnEnd& end : ends) {
      const std::string scores =
          absl::StrCat("Scores: ", absl::StrJoin(state().scores(), ", "), ".");
      const std::string lost = app::LostToTanksText(end.aside);  // why 0, where the tanks won
      switch (end.reason) {
        case TurnEndReason::kStopped:
          Line(absl::StrCat("Seat ", end.seat, " stops with ", FormatDice(end.aside),
                            " and scores ", end.score, lost, ". ", scores));
          break;
        case TurnEndReason::kNoLegalTake:
          Line(absl::StrCat("No legal take: seat ", end.seat, "'s turn ends with ",
                            FormatDice(end.aside), " and scores ", end.score, lost, ". ", scores));
          break;
        case TurnEndReason::kNoDiceLeft:
          Line(absl::StrCat("No dice left: seat ", end.seat, "'s turn ends with ",
                            FormatDice(end.aside), " and scores ", end.score, lost, ". ", scores));
          break;
        case TurnEndReason::kEntered:
          Line(absl::StrCat("Seat ", end.seat, " scores ", end.score, ". ", scores));
          break;
      }
    }
  }

  void TurnStart(const GameAdvice& advice) {
    std::string text =
        absl::StrCat("\nSeat ", state().seat(), " to roll ", app::DiceCount(state().dice_left()),
                     ". Scores: ", absl::StrJoin(state().scores(), ", "), ".");
    if (state().final_round()) {
      absl::StrAppend(&text, " Final round: the game ends after seat ", players() - 1, "'s turn.");
    }
    Line(text);
    if (!advice.win_probabilities.empty()) {
      std::vector<std::string> chances;
      for (double p : advice.win_probabilities) chances.push_back(app::Percent(p));
      Line(absl::StrCat("  Chances to win, seat 0 first: ", absl::StrJoin(chances, ", "), "."));
    }
  }

  void GameOver() {
    const std::vector<int> winners = state().winners();
    std::string text =
        absl::StrCat("\nGame over. Scores: ", absl::StrJoin(state().scores(), ", "), ". ");
    if (winners.size() == 1) {
      absl::StrAppend(&text, "Seat ", winners[0], " wins.");
    } else {
      absl::StrAppend(
          &text, "Seats ", absl::StrJoin(winners, ", "), " tie with ", state().scores()[winners[0]],
          " and share the win (a duel decides: each wins it with chance 1/", winners.size(), ").");
    }
    Line(text);
  }

  // The end of input, `quit` or Ctrl-C: the log (the whole game, or its
  // finished turns), exit 0 (130 after Ctrl-C).
  absl::StatusOr<int> Finish() {
    const bool interrupted = stop_ != nullptr && stop_->load();
    if (setup_.json) {
      Event("end", std::move(JsonObject()
                                 .Str("reason", interrupted ? "interrupted"
                                                : quit_     ? "quit"
                                                            : "end of input")
                                 .Bool("game_over", state().over())));
    } else if (interrupted) {
      Line("\nInterrupted: the log holds the turns that ended.");
    }
    if (absl::Status status = WriteLog(session_.review_text()); !status.ok()) return status;
    return interrupted ? kCliExitInterrupted : kCliExitOk;
  }

  // The log to --log's file, else on standard output.
  absl::Status WriteLog(const std::string& text) {
    const std::string review = ReviewCommand(setup_.rules, setup_.coverage, setup_.tables, "");
    if (!setup_.log_path.empty()) {
      if (absl::Status status = WriteOutput(setup_.log_path, text); !status.ok()) {
        // Not lost: the log on standard output, as without --log, then the error.
        setup_.log_path.clear();
        if (absl::Status printed = WriteLog(text); !printed.ok()) return printed;
        return AsLogError(status);
      }
      if (setup_.json) {
        Event("log", std::move(JsonObject().Str("path", setup_.log_path)));
      } else if (text.empty()) {  // written all the same: no earlier game's log stays
        PathLine(absl::StrCat("Game log written to ", setup_.log_path, ": ", kNothingToReview));
      } else {
        PathLine(absl::StrCat(
            "Game log written to ", setup_.log_path, " (review it: ",
            ReviewCommand(setup_.rules, setup_.coverage, setup_.tables, setup_.log_path), ")."));
      }
      return absl::OkStatus();
    }
    if (!setup_.json && text.empty()) {
      Line(absl::StrCat("Game log: ", kNothingToReview));
      return absl::OkStatus();
    }
    if (setup_.json) {
      std::vector<std::string> lines;
      for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
        lines.push_back(JsonString(Str(line)));
      }
      Event("log", std::move(JsonObject().Raw("lines", JsonArray(lines))));
    } else {
      PathLine(absl::StrCat("Game log (", review, " - reviews it):"));
      out_ << text;
    }
    return absl::OkStatus();
  }

  Setup setup_;
  std::size_t columns_;  // the text's width (app::WrapColumns)
  Advisor& advisor_;
  std::istream* in_;
  std::ostream& out_;
  const std::atomic<bool>* stop_;  // Ctrl-C: the session ends, its log kept
  app::GameSession session_;
  bool quit_ = false;
  std::string values_said_;  // the fallback's values last said (a goal's name)
};

}  // namespace

const std::string_view kCoachHelp = R"(
Follows a game played with real dice and advises the seat to move at every
decision: each take from a roll (best's table: every take's value, then stop
or roll on, and the chance that rolling on after it scores 0) and each stop or
roll on, with the chance that rolling on ends the turn with 0 points. Values
are the mover's chance to win from the policy table; where no table covers the
game (4 and 5 players and house rules until their table is made; 6 players
need a cluster) the program says so once and gives the fallback's values: the
expected points capped at the points still needed, and in the final round the
chance to pass the leader (a tie counting its share), said again whenever
they change. A table named by --tables must be there.
The game starts at --scores (every seat's total, default all 0; --players
otherwise, default 2) with --seat to move (default 0). Entries, one a line,
in the lines `martiandice review` reads (case does not matter; # starts a
comment):
  roll DICE            the dice rolled (notation: 2T 3R 4H, or words: 2 tanks
                       3 rays); after a take it means the seat rolled on
  take FACE            the face set aside: ray, human, cow, chicken (plurals,
                       letters R H C K; a count may be given: take 4H); the
                       bare FACE too (h, humans)
  roll DICE take FACE  both in one line
  stop                 the seat stops: the turn scores
  roll                 the seat rolls on (also: roll on); the dice come next
  score N              the seat's whole turn, played elsewhere, scored N
  scores S0,S1 seat I  at a turn's start: the totals and the seat to move
                       (seat 0 when `seat I` is left out; the same totals
                       and seat change nothing, so a log replays)
  undo                 takes back the last accepted entry
  state                the game and the advice again;  help;  quit
Tanks go aside by themselves; a roll with no legal take, or a take that
leaves no dice, ends the turn; the final round and the tie rule are
docs/RULES.md's. A bad entry gets one message naming the problem and changes
nothing. At the end of input (or quit) the game log, in review's lines (the
finished turns), on stdout or written atomically to --log FILE.
--json gives one JSON object per line with an "event": start, state (the
game: phase, seat, scores, final_round, aside, dice_left, turn_score, roll,
legal, winners, undo; and the advice as in `play --json`'s hints, null once
the game is over), applied (the same after an entry, with entry and
turn_ends), undone, refused (entry, message, state), help, end, log.
The text is wrapped to 80 columns, or to a narrower terminal's width (the
advice's table takes 58).
Exit status: 0 at the end of input or quit; 130 after Ctrl-C (the log
written first); 2 bad options; 1 an internal error.
)";

absl::StatusOr<int> RunCoach(const CommandOptions& options, const CommandContext& context,
                             std::ostream& out) {
  absl::StatusOr<Setup> setup = ReadSetup(options, context.advisor);
  if (!setup.ok()) return setup.status();
  // Ctrl-C ends the wait for the next entry as the end of the input would.
  const InterruptFlag interrupt("", InterruptFlag::Blocked::kInterrupt);
  Coach coach(*std::move(setup), context.columns, context.advisor, context.in, out,
              interrupt.flag());
  return coach.Run();
}

}  // namespace martiandice::cli
