// `martiandice play`: a whole game in the terminal or through a pipe, any mix
// of human seats and bots. The game is a GameDriver (game_driver.h: the
// setup, the moves, the dice from the seed, the hints, the review, the log);
// this file reads the human moves, one per line, and says what happens as
// lines of text, or with --json as the driver's JSON objects, then writes the
// log (a GameLog, in the lines `review` reads).
#include <algorithm>
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
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "answers.h"
#include "commands.h"
#include "exit_codes.h"
#include "game_driver.h"
#include "game_session.h"
#include "interrupt.h"
#include "json.h"
#include "martiandice/advisor.h"
#include "martiandice/dice.h"
#include "martiandice/game_log.h"
#include "martiandice/game_state.h"
#include "martiandice/policy.h"
#include "martiandice/turn_query.h"
#include "support.h"

namespace martiandice::cli {
namespace {

std::string Str(absl::string_view text) { return std::string(text.data(), text.size()); }

// "--out: ..." from the tools' output path as "--log: ...".
absl::Status AsLogError(const absl::Status& status) {
  std::string message(status.message());
  if (message.rfind("--out", 0) == 0) message.replace(0, 5, "--log");
  return absl::Status(status.code(), message);
}

// What a line of input asks for.
struct Entry {
  enum class Kind { kNone, kMove, kHelp, kQuit, kBad };
  Kind kind = Kind::kNone;
  Move move;
  std::optional<int> count;  // a take's count, when given
  std::string problem;       // kBad
};

Entry ReadEntry(std::string_view line) {
  Entry entry;
  std::vector<std::string> words;
  for (absl::string_view word :
       absl::StrSplit(std::string(line), absl::ByAnyChar(" \t"), absl::SkipWhitespace())) {
    words.push_back(absl::AsciiStrToLower(Str(word)));
  }
  if (words.empty()) return entry;
  entry.kind = Entry::Kind::kMove;
  const std::string& first = words[0];
  if (first == "help" || first == "?") {
    entry.kind = Entry::Kind::kHelp;
  } else if (first == "quit") {
    entry.kind = Entry::Kind::kQuit;
  } else if (first == "stop" && words.size() == 1) {
    entry.move = Move::Stop();
  } else if (first == "roll" && (words.size() == 1 || (words.size() == 2 && words[1] == "on"))) {
    entry.move = Move::RollOn();
  } else {
    const std::size_t from = first == "take" ? 1 : 0;
    const std::string face = absl::StrJoin(words.begin() + from, words.end(), " ");
    absl::StatusOr<TakeInput> take = ParseTake(face);
    if (face.empty() || !take.ok()) {
      entry.kind = Entry::Kind::kBad;
      // Dice that are no take ("tank", "2 humans 1 cow") get the take's reason.
      const bool dice = !face.empty() && ParseDice(face).ok();
      entry.problem =
          from == 1 && face.empty() ? std::string(app::kTakeNamesNoFace)
          : from == 1 || dice
              ? Str(take.status().message())
              : absl::StrCat("unknown entry '", std::string(line),
                             "': take FACE (ray, human, cow, chicken or R, H, C, K), roll or stop");
      return entry;
    }
    entry.move = Move::Take(take->face);
    entry.count = take->count;
  }
  return entry;
}

// "ray, human or chicken".
std::string FaceNames(const std::vector<Face>& faces) {
  std::string text;
  for (std::size_t i = 0; i < faces.size(); ++i) {
    if (i > 0) text += i + 1 == faces.size() ? " or " : ", ";
    text += FaceName(faces[i]);
  }
  return text;
}

std::string ThenText(Then then) { return then == Then::kRoll ? "roll on" : "stop"; }

// The game's events as lines of text for people.
class TextListener : public app::GameListener {
 public:
  TextListener(std::ostream& out, bool full_review, int columns)
      : out_(out), full_review_(full_review), columns_(static_cast<std::size_t>(columns)) {}

  void Start(const app::GameSetup& setup, int players) override {
    setup_ = &setup;
    Line(absl::StrCat("Martian Dice: ", players, " players (", RulesText(setup.rules), "), seed ",
                      setup.seed, "."));
    for (int seat = 0; seat < players; ++seat) {
      Line(absl::StrCat("  seat ", seat, ": ", setup.seats[seat].name));
    }
    const bool advised = setup.humans > 0 || UsesTable();
    if (setup.coverage.table && advised) {
      PathLine(app::TableValuesLines(setup.coverage.table->path));
    } else if (advised) {
      Line(absl::StrCat("No policy table covers this game: ", setup.coverage.reason, "."));
      Line(absl::StrCat(
          "The win bots, hints and review play the fallback: ", std::string(kFallbackName), "."));
    }
    if (setup.humans > 0) {
      Line(
          "Your moves, one a line: take FACE (ray, human, cow, chicken, or R, H, C, K), roll "
          "(roll on), stop; help; quit.");
    }
  }

  void Turn(int turn, int round, const GameState& state, bool) override {
    std::string text =
        absl::StrCat("Turn ", turn, " (round ", round, "): seat ", state.seat(), " (",
                     setup_->seats[state.seat()].name,
                     ") to move. Scores: ", absl::StrJoin(state.scores(), ", "), ".");
    if (state.final_round()) {
      absl::StrAppend(&text, " Final round: the game ends after seat ", state.players() - 1,
                      "'s turn.");
    }
    Line("");
    Line(text);
  }

  void Roll(int seat, const Dice& roll, const Dice& aside, const GameState&) override {
    std::string text = absl::StrCat("Seat ", seat, " rolls ", app::DiceCount(roll.total()), ": ",
                                    FormatDice(roll));
    if (roll.count(Face::kTank) > 0) absl::StrAppend(&text, "; set aside: ", FormatDice(aside));
    Line(text + ".");
  }

  void Take(int seat, Face face, int count, const Dice& aside, int left, int score) override {
    Line(absl::StrCat("Seat ", seat, " takes ", FaceCountText(face, count), ": set aside ",
                      FormatDice(aside), ", ", app::DiceCount(left), " left, ", score,
                      score == 1 ? " point" : " points", " so far."));
  }

  void RollOn(int seat) override { Line(absl::StrCat("Seat ", seat, " rolls on.")); }

  void TurnEnd(const martiandice::TurnEnd& end, const std::vector<int>& scores) override {
    const std::string after = absl::StrCat(app::LostToTanksText(end.aside),
                                           ". Scores: ", absl::StrJoin(scores, ", "), ".");
    switch (end.reason) {
      case TurnEndReason::kStopped:
        Line(absl::StrCat("Seat ", end.seat, " stops and scores ", end.score, after));
        break;
      case TurnEndReason::kNoLegalTake:
        Line(absl::StrCat("No legal take: seat ", end.seat, "'s turn ends and scores ", end.score,
                          after));
        break;
      case TurnEndReason::kNoDiceLeft:
        Line(absl::StrCat("No dice left: seat ", end.seat, "'s turn ends and scores ", end.score,
                          after));
        break;
      case TurnEndReason::kEntered:
        Line(absl::StrCat("Seat ", end.seat, " scores ", end.score, after));
        break;
    }
  }

  void Hint(int, const GameAdvice& advice) override {
    if (advice.fallback) Line(absl::StrCat("  Values: ", app::AdviceValuesText(advice), "."));
    out_ << app::GameAdviceText(advice, columns_);
  }

  void Forced(int seat, Face face, int count) override {
    Line(absl::StrCat("Seat ", seat, ": the only legal take is ", FaceCountText(face, count),
                      ", taken for you."));
  }

  void Prompt(const GameState& state) override {
    if (state.phase() == Phase::kTake) {
      Line(absl::StrCat("Seat ", state.seat(), ", take ", FaceNames(state.legal_takes()), "?"));
    } else {
      Line(absl::StrCat("Seat ", state.seat(), ": stop, or roll the ",
                        app::DiceCount(state.dice_left()), " left?"));
    }
  }

  void GameOver(int turns, const std::vector<int>& scores,
                const std::vector<int>& winners) override {
    Line("");
    std::string text = absl::StrCat("Game over after ", turns,
                                    " turns. Scores: ", absl::StrJoin(scores, ", "), ". ");
    if (winners.size() == 1) {
      absl::StrAppend(&text, "Seat ", winners[0], " (", setup_->seats[winners[0]].name, ") wins.");
    } else {
      absl::StrAppend(&text, "Seats ", absl::StrJoin(winners, ", "), " tie with ",
                      scores[winners[0]], " and share the win (a duel decides: each ",
                      "wins it with chance 1/", winners.size(), ").");
    }
    Line(text);
  }

  // The review: a summary line, then every decision (--full-review) or the
  // three costliest mistakes.
  void Review(const app::SeatReview& review) override {
    const std::size_t n = review.decisions.size();
    const bool fallback = !setup_->coverage.table;
    const std::string who =
        absl::StrCat("Review of seat ", review.seat, " (", setup_->seats[review.seat].name, "): ");
    if (n == 0) {
      Line(absl::StrCat(who, "no decision to review."));
    } else if (review.mistakes == 0) {
      Line(absl::StrCat(who, n, " of ", n, n == 1 ? " decision" : " decisions",
                        " optimal: nothing given away."));
    } else {
      Line(absl::StrCat(
          who, n - review.mistakes, " of ", n,
          n == 1 ? " decision optimal, " : " decisions optimal, ",
          fallback ? FallbackLossText(review)
                   : absl::StrCat("their losses adding up to ",
                                  app::PercentagePoints(review.total_loss), " of chance to win.")));
    }
    if (review.rating) {
      const std::optional<app::Rating> rating = app::Rate(*review.rating);
      if (rating) Line(RatingLine(*review.rating, *rating));
    } else if (n > 0) {
      Line("No rating: it measures chances to win, and no table covers this game.");
    }
    if (full_review_) {
      for (const app::Decision* d : review.decisions) Line(DecisionText(*d, fallback));
      return;
    }
    std::vector<const app::Decision*> mistakes;
    for (const app::Decision* d : review.decisions) {
      if (!d->review.optimal) mistakes.push_back(d);
    }
    // Costliest first, each unit apart: under the fallback its final round's
    // chances (the game itself) before its points.
    std::stable_sort(mistakes.begin(), mistakes.end(), [](const auto* a, const auto* b) {
      if (a->chance != b->chance) return a->chance;
      return a->review.loss.approx > b->review.loss.approx;
    });
    if (mistakes.size() > 3) mistakes.resize(3);
    if (!mistakes.empty()) {
      Line(mistakes.size() == 1 ? "The costliest decision:" : "The costliest decisions:");
    }
    for (const app::Decision* d : mistakes) Line(DecisionText(*d, fallback));
  }

 private:
  void Line(const std::string& text) { out_ << app::WrapColumns(text, columns_) << "\n"; }
  // A line ending on a path: never broken.
  void PathLine(const std::string& text) { out_ << text << "\n"; }

  bool UsesTable() const {
    for (const app::GameSeat& seat : setup_->seats) {
      if (seat.bot && seat.bot->policy().kind == PolicySpec::Kind::kWin) return true;
    }
    return false;
  }

  // "Rating 87 of 100 (expert): 3 inaccuracies, 1 error, 0 blunders;
  // lost 0.41% a decision (docs/RATING.md)."
  static std::string RatingLine(const app::RatingTally& tally, const app::Rating& rating) {
    return absl::StrCat(app::RatingText(rating), ": ", app::ClassCountsText(tally), "; lost ",
                        app::Percent(tally.MeanLoss()), " a decision (docs/RATING.md).");
  }

  // The fallback's losses, each unit its own: points before the final round,
  // chances in it.
  static std::string FallbackLossText(const app::SeatReview& review) {
    std::vector<std::string> parts;
    if (review.fallback_loss > 0 || review.fallback_final_loss == 0) {
      parts.push_back(absl::StrCat(app::Number(review.fallback_loss),
                                   " in the fallback's points (capped at what was needed)"));
    }
    if (review.fallback_final_loss > 0) {
      parts.push_back(absl::StrCat(app::PercentagePoints(review.fallback_final_loss),
                                   " of chance in the final round"));
    }
    return absl::StrCat("lost ", absl::StrJoin(parts, ", and "), ".");
  }

  std::string DecisionText(const app::Decision& d, bool fallback) const {
    const ChoiceReview& r = d.review;
    const TakeOption& best = d.advice.options.at(*d.advice.best);
    std::string line = absl::StrCat(
        "  turn ", d.turn, ": ",
        d.aside.empty() ? std::string() : absl::StrCat("set aside ", FormatDice(d.aside), ", "),
        "rolled ", FormatDice(d.roll), ": take ", FaceCountText(d.take, d.roll.count(d.take)),
        ", then ", ThenText(d.then));
    if (r.optimal) {
      absl::StrAppend(&line, ": optimal");
    } else {
      absl::StrAppend(&line, ": lost ",
                      !fallback  ? absl::StrCat(app::Percent(r.loss.approx), ", ",
                                                app::ClassName(app::ClassOf(false, r.loss.approx)))
                      : d.chance ? app::Percent(r.loss.approx)
                                 : app::Number(r.loss.approx));
      const std::string better =
          absl::StrCat("(best: take ", FaceCountText(best.take, best.count), ", then ",
                       best.then == Then::kEither ? "either" : ThenText(best.then), ")");
      // The better move on a line of its own where the line fits the width
      // without it but not with it (a longer line is wrapped as a whole).
      const bool own_line = line.size() <= columns_ && line.size() + 1 + better.size() > columns_;
      absl::StrAppend(&line, own_line ? "\n    " : " ", better);
    }
    if (d.values != Goal::Win().name()) absl::StrAppend(&line, " [", d.values, "]");
    return line;
  }

  std::ostream& out_;
  bool full_review_;
  std::size_t columns_;  // the text's width (app::WrapColumns)
  const app::GameSetup* setup_ = nullptr;
};

// The game at the terminal: the driver's moves, the human's from the input.
class Game {
 public:
  Game(app::GameSetup setup, std::string log_path, bool json, bool print_log, bool full_review,
       int columns, Advisor& advisor, std::istream* in, std::ostream& out,
       const std::atomic<bool>* stop)
      : log_path_(std::move(log_path)),
        json_(json),
        print_log_(print_log),
        in_(in),
        out_(out),
        stop_(stop),
        columns_(static_cast<std::size_t>(columns)),
        text_(out, full_review, columns),
        json_events_([&out](std::string event) { out << event << "\n"; }),
        driver_(std::move(setup), advisor,
                json ? static_cast<app::GameListener&>(json_events_) : text_) {}

  absl::StatusOr<int> Run() {
    driver_.Start();
    while (!state().over()) {
      absl::StatusOr<bool> going = Next();
      if (!going.ok()) return going.status();
      if (!*going) return Abandon();
      if (absl::Status status = driver_.Announce(); !status.ok()) return status;
    }
    if (absl::Status status = WriteLog(driver_.log().text()); !status.ok()) return status;
    return kCliExitOk;
  }

 private:
  const GameState& state() const { return driver_.state(); }

  void Line(const std::string& text) { out_ << app::WrapColumns(text, columns_) << "\n"; }
  // A line holding a path or a command to copy: never broken.
  void PathLine(const std::string& text) { out_ << text << "\n"; }
  void Event(std::string_view event, JsonObject&& fields) {
    out_ << JsonEvent(event, std::move(fields)) << "\n";
  }

  // One move of the game; false at the end of input, on `quit` or Ctrl-C.
  absl::StatusOr<bool> Next() {
    if (interrupted()) return false;
    if (state().phase() == Phase::kRoll) {
      if (absl::Status status = driver_.Roll(std::nullopt); !status.ok()) return status;
      return true;
    }
    if (driver_.bot_to_move()) {
      if (absl::Status status = driver_.BotStep(); !status.ok()) return status;
      return true;
    }
    return HumanMove();
  }

  // Entries until one is a legal move.
  bool HumanMove() {
    while (true) {
      out_.flush();
      std::optional<EntryLine> read = ReadEntryLine(in_, stop_);
      if (!read) return false;
      const std::string& line = read->text;
      if (read->too_long) {
        Refuse(line, kEntryTooLong);
        continue;
      }
      const Entry entry = ReadEntry(line);
      switch (entry.kind) {
        case Entry::Kind::kNone:
          continue;
        case Entry::Kind::kQuit:
          quit_ = true;
          return false;
        case Entry::Kind::kHelp:
          Help();
          continue;
        case Entry::Kind::kBad:
          Refuse(line, entry.problem);
          continue;
        case Entry::Kind::kMove:
          break;
      }
      const absl::Status moved = entry.move.kind == Move::Kind::kTake
                                     ? driver_.Take(entry.move.face, entry.count)
                                     : driver_.StopOrRollOn(entry.move.kind == Move::Kind::kStop);
      if (moved.ok()) return true;
      Refuse(line, Str(moved.message()));
    }
  }

  void Help() {
    const std::string text =
        state().phase() == Phase::kTake
            ? absl::StrCat("take one of: ", FaceNames(state().legal_takes()),
                           " (a word or its letter, e.g. 'take humans' or 'h')")
            : "stop (the turn scores), or roll (roll on)";
    if (json_) {
      Event("help", std::move(JsonObject().Str("message", text)));
    } else {
      Line(absl::StrCat("Moves now: ", text, "; quit ends the game."));
    }
  }

  void Refuse(const std::string& entry, std::string_view problem) {
    if (json_) {
      Event("refused", std::move(JsonObject().Str("entry", entry).Str("message", problem)));
    } else {
      Line(absl::StrCat("Refused: ", std::string(problem), "."));
    }
  }

  bool interrupted() const { return stop_ != nullptr && stop_->load(); }

  absl::StatusOr<int> Abandon() {
    const bool interrupted = this->interrupted();
    if (json_) {
      JsonObject fields;
      fields.Str("reason", interrupted ? "interrupted"
                           : quit_     ? "quit"
                                       : "end of input")
          .Int("turns", driver_.turn());
      Event("abandoned", std::move(fields));
    } else {
      Line(absl::StrCat(
          interrupted ? "\nInterrupted"
          : quit_     ? "Quit"
                      : "The input ended",
          " in turn ", driver_.turn(), ", before the game ended",
          log_path_.empty() && !print_log_ ? "." : ": the log holds the turns that ended."));
    }
    if (absl::Status status = WriteLog(driver_.log().finished_text()); !status.ok()) {
      return status;
    }
    return interrupted ? kCliExitInterrupted : kCliExitUnfinished;
  }

  absl::Status WriteLog(const std::string& text) {
    const app::GameSetup& setup = driver_.setup();
    const std::string review = ReviewCommand(setup.rules, setup.coverage, setup.tables, "");
    if (!log_path_.empty()) {
      if (absl::Status status = WriteOutput(log_path_, text); !status.ok()) {
        // Not lost: the log on standard output, as without --log, then the error.
        log_path_.clear();
        print_log_ = true;
        if (absl::Status printed = WriteLog(text); !printed.ok()) return printed;
        return AsLogError(status);
      }
      if (json_) {
        Event("log", std::move(JsonObject().Str("path", log_path_)));
      } else if (text.empty()) {  // written all the same: no earlier game's log stays
        PathLine(
            absl::StrCat("Game log written to ", log_path_, ": no turn ended, nothing to replay."));
      } else {
        PathLine(absl::StrCat("Game log written to ", log_path_, " (replay it: ",
                              ReviewCommand(setup.rules, setup.coverage, setup.tables, log_path_),
                              ")."));
      }
      // --print-log as well: the log on standard output too.
      if (json_ || text.empty() || !print_log_) return absl::OkStatus();
    } else if (!json_ && text.empty()) {
      Line("Game log: no turn ended, nothing to replay.");
      return absl::OkStatus();
    } else if (json_) {
      json_events_.LogLines(text);
      return absl::OkStatus();
    } else if (!print_log_) {
      Line("Game log: not kept (--log FILE writes it, --print-log prints it).");
      return absl::OkStatus();
    }
    PathLine(absl::StrCat("Game log (", review, " - replays it):"));
    out_ << text;
    return absl::OkStatus();
  }

  std::string log_path_;  // "": not kept in text (--print-log: on stdout), on stdout in JSON
  bool json_;
  bool print_log_;
  std::istream* in_;
  std::ostream& out_;
  const std::atomic<bool>* stop_;  // Ctrl-C: the game is abandoned, its log kept
  std::size_t columns_;            // the text's width (app::WrapColumns)
  TextListener text_;
  app::JsonGameListener json_events_;
  app::GameDriver driver_;
  bool quit_ = false;
};

}  // namespace

const std::string_view kPlayHelp = R"(
Plays a whole game: 2 to 6 seats (--players), each a human (--humans, seat
numbers such as 0,2, or none) or a bot (--bots: one policy for every bot, or
one per bot seat in seat order). The program rolls the dice from --seed, so a
seed replays the same game; without --seed it picks one and prints it.
Policies (as `martiandice simulate --help` describes them): win (optimal play
to win; where no table covers the game, the fallback below), ev, capped (at
the points still needed), capped:M, fallback, reach:K, random, stop:K,
cautious, bold.
Where no policy table covers the game (4 and 5 players and house rules until
their table is made; 6 players need a cluster) the program says so once, and
the win bots, hints and review play the fallback: capped at the points still
needed, and in the final round the chance to pass the leader (a tie counting
its share); its losses are points, and chances in the final round, summed
apart. A table named by --tables must be there.
Human moves, one a line (case does not matter):
  take FACE   take a face: ray, human, cow or chicken (plurals and the
              letters R, H, C, K too; a count may be given: take 4 humans);
              the bare face works too
  roll        roll the dice left (also: roll on)
  stop        end the turn and score it
  help        the moves allowed now;  quit  end the game unfinished
A bad entry gets one message naming the problem and changes nothing. A take
with one legal choice is made for you, with a line saying so (--ask-forced
prompts for it too). --hints shows every option's value before each human
decision (best's table for a take, and the chance that rolling on after each
take scores 0; stop and roll on, and the chance that rolling on scores 0);
chances in percent. At the end: the winner (a tie shares the win), a review
of each human's decisions (how many were optimal, the chance to win given
away, the rating of docs/RATING.md, the three costliest with their class;
--full-review: every decision), and the game log
in the lines `martiandice review` reads, written atomically to --log FILE
and with --print-log on stdout (both may be given).
--json gives one JSON object per line, each with an "event": start (its
"seed" a decimal string, exact past 2^53), turn, roll, take, roll_on,
turn_end ("tanks_won": the tanks outnumbered the rays, so the earthlings set
aside scored nothing), prompt, hint, forced, refused, help, game_over,
review (with "rating", null under the fallback, each decision's "values"
and "class", and the losses summed as review's: total_loss in chances to win
from the table, fallback_loss in the fallback's points, fallback_final_loss
in its final round's chances), log (always), abandoned.
The text is wrapped to 80 columns, or to a narrower terminal's width (the
advice's table takes 58).
Exit status: 0 the game ended; 4 the input ended (or quit came) first: the
log then holds the turns that ended; 130 Ctrl-C came first (the log too);
2 bad options; 1 an internal error.
)";

absl::StatusOr<int> RunPlay(const CommandOptions& options, const CommandContext& context,
                            std::ostream& out) {
  app::GameOptions game;
  game.rules = options.request.query.rules;
  game.players = options.request.query.players.value_or(2);
  game.humans = options.request.humans.value_or("0");
  game.bots = options.request.bots.value_or("win");
  game.seed = options.request.seed;
  game.hints = options.request.hints;
  game.forced_takes = !options.ask_forced;
  game.tables = options.request.query.tables;
  absl::StatusOr<app::GameSetup> setup = app::ReadGameSetup(game, context.advisor);
  if (!setup.ok()) return setup.status();
  std::string log_path;
  if (!options.log.empty()) {
    absl::StatusOr<std::string> path =
        OutputPath(options.log, absl::StrCat("martiandice-game-", setup->seed, ".log"),
                   Folders::kMustExist, Writes::kOther);
    if (!path.ok()) return AsLogError(path.status());
    log_path = *path;
  }
  // Ctrl-C ends the wait for the next entry as the end of the input would.
  const InterruptFlag interrupt("", InterruptFlag::Blocked::kInterrupt);
  Game played(*std::move(setup), log_path, options.json, options.print_log, options.full_review,
              context.columns, context.advisor, context.in, out, interrupt.flag());
  return played.Run();
}

}  // namespace martiandice::cli
