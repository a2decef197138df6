// `martiandice play`: a whole game in the terminal or through a pipe, any mix
// of human seats and bots. The game is the library's GameState; the bots are
// its policies (martiandice/policy.h); the dice are rolled from the seed
// (SeededRng, game 0); the hints are the advisor's advice at each human
// decision (Advisor::Advise: chances to win, or the fallback where no table
// covers the game); the review values each human decision with ReviewChoice
// (the loss `review` reports); the log is a GameLog, in the lines `review`
// reads. Human moves come one per line; every event is a line of text, or
// with --json a JSON object.
#include <cctype>
#include <istream>
#include <optional>
#include <ostream>
#include <random>
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
#include "answers.h"
#include "commands.h"
#include "exit_codes.h"
#include "json.h"
#include "martiandice/advisor.h"
#include "martiandice/dice.h"
#include "martiandice/game_log.h"
#include "martiandice/game_state.h"
#include "martiandice/policy.h"
#include "martiandice/query.h"
#include "simulate.h"
#include "support.h"

namespace martiandice::cli {
namespace {

std::string Str(absl::string_view text) { return std::string(text.data(), text.size()); }

// ---------------------------------------------------------------------------
// The options.

struct Seat {
  std::optional<Bot> bot;  // unset: a human
  std::string name;        // "you", "human", "bot win"
};

struct Setup {
  Rules rules;
  std::vector<Seat> seats;
  std::uint64_t seed = 0;
  bool hints = false;
  bool json = false;
  std::string log_path;  // "" : the log goes to stdout
  std::optional<std::string> tables;
  TableCoverage coverage;
  int humans = 0;
};

absl::StatusOr<std::vector<bool>> ReadHumans(const std::string& text, int players) {
  std::vector<bool> human(players, false);
  if (text == "none") return human;
  for (absl::string_view piece : absl::StrSplit(text, ',')) {
    int seat = 0;
    if (!absl::SimpleAtoi(piece, &seat) || Str(piece).find('+') != std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--humans: expected seat numbers such as '0,2', or 'none'; got '", text, "'"));
    }
    if (seat < 0 || seat >= players) {
      return absl::InvalidArgumentError(absl::StrCat("--humans: seat ", seat,
                                                     " is out of range for ", players,
                                                     " players (0..", players - 1, ")"));
    }
    if (human[seat]) {
      return absl::InvalidArgumentError(absl::StrCat("--humans: seat ", seat, " is given twice"));
    }
    human[seat] = true;
  }
  return human;
}

// "--out: ..." from the tools' output path as "--log: ...".
absl::Status AsLogError(const absl::Status& status) {
  std::string message(status.message());
  if (message.rfind("--out", 0) == 0) message.replace(0, 5, "--log");
  return absl::Status(status.code(), message);
}

absl::StatusOr<Setup> ReadSetup(const CommandOptions& options, Advisor& advisor) {
  Setup setup;
  setup.rules = options.query.rules;
  if (absl::Status status = CheckRules(setup.rules); !status.ok()) return status;
  const int players = options.query.players.value_or(2);
  if (absl::Status status = CheckPlayers(players, "--players"); !status.ok()) return status;
  absl::StatusOr<std::vector<bool>> human = ReadHumans(options.humans, players);
  if (!human.ok()) return human.status();
  const int humans = static_cast<int>(std::count(human->begin(), human->end(), true));
  absl::StatusOr<std::vector<PolicySpec>> policies = ParsePolicies(options.bots);
  if (!policies.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--bots: ", policies.status().message()));
  }
  const int bots = players - humans;
  if (policies->size() != 1 && static_cast<int>(policies->size()) != bots) {
    return absl::InvalidArgumentError(
        absl::StrCat("--bots: ", policies->size(), " policies for ", bots,
                     " bot seats: give one for every bot, or one per bot seat"));
  }
  if (options.play_seed) {
    absl::StatusOr<std::uint64_t> seed = ReadSeed(*options.play_seed);
    if (!seed.ok()) return seed.status();
    setup.seed = *seed;
  } else {
    std::random_device device;
    setup.seed = (static_cast<std::uint64_t>(device()) << 32) | device();
  }
  if (!options.log.empty()) {
    absl::StatusOr<std::string> path = OutputPath(
        options.log, absl::StrCat("martiandice-game-", setup.seed, ".log"), Folders::kMustExist);
    if (!path.ok()) return AsLogError(path.status());
    setup.log_path = *path;
  }
  setup.hints = options.hints;
  setup.json = options.json;
  setup.tables = options.query.tables;
  setup.humans = humans;
  absl::StatusOr<TableCoverage> coverage = advisor.Coverage(setup.rules, players, setup.tables);
  if (!coverage.ok()) return TableError(setup.rules, players, coverage.status());
  setup.coverage = *std::move(coverage);
  BotOptions bot_options;
  bot_options.tables = setup.tables;
  bot_options.fallback = true;
  int bot = 0;
  for (int seat = 0; seat < players; ++seat) {
    Seat& s = setup.seats.emplace_back();
    if ((*human)[seat]) {
      s.name = humans == 1 ? "you" : "human";
      continue;
    }
    const PolicySpec& spec = (*policies)[policies->size() == 1 ? 0 : bot++];
    absl::StatusOr<Bot> made = Bot::Create(spec, advisor, setup.rules, players, bot_options);
    if (!made.ok()) return made.status();
    s.bot = *std::move(made);
    s.name = absl::StrCat("bot ", spec.name);
  }
  return setup;
}

// ---------------------------------------------------------------------------
// The game.

// A human decision at a roll, settled once its stop or roll on is known.
struct Decision {
  int turn = 0;
  int seat = 0;
  Dice aside;  // before the roll
  Dice roll;
  RollAdvice advice;
  std::string values;  // the advice's goal: "win", or the fallback's "capped:15"
  Face take = Face::kRay;
  Then then = Then::kStop;
  ChoiceReview review;
};

// What a line of input asks for.
struct Entry {
  enum class Kind { kNone, kMove, kHelp, kQuit, kBad };
  Kind kind = Kind::kNone;
  Move move;
  std::optional<int> count;  // a take's count, when given
  std::string problem;       // kBad
};

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

Entry ReadEntry(std::string_view line) {
  Entry entry;
  std::vector<std::string> words;
  for (absl::string_view word : absl::StrSplit(std::string(line), ' ', absl::SkipWhitespace())) {
    words.push_back(Lower(Str(word)));
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
      entry.problem =
          from == 1 && !face.empty()
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

std::string FaceNamesJson(const std::vector<Face>& faces) {
  std::vector<std::string> names;
  for (Face face : faces) names.push_back(JsonString(FaceName(face)));
  return JsonArray(names);
}

std::string ThenText(Then then) { return then == Then::kRoll ? "roll on" : "stop"; }

class Game {
 public:
  Game(Setup setup, Advisor& advisor, std::istream* in, std::ostream& out)
      : setup_(std::move(setup)),
        advisor_(advisor),
        in_(in),
        out_(out),
        rng_(SeededRng(setup_.seed)),
        state_(*GameState::New(setup_.rules, static_cast<int>(setup_.seats.size()))) {}

  absl::StatusOr<int> Run() {
    Start();
    while (!state_.over()) {
      absl::StatusOr<bool> going = Next();
      if (!going.ok()) return going.status();
      if (!*going) return Abandon();
    }
    End();
    if (absl::Status status = WriteLog(log_.text()); !status.ok()) return status;
    return kCliExitOk;
  }

 private:
  const Seat& Mover() const { return setup_.seats[state_.seat()]; }
  int players() const { return state_.players(); }

  void Line(const std::string& text) { out_ << text << "\n"; }
  void Event(std::string_view event, JsonObject&& fields) {
    out_ << JsonEvent(event, std::move(fields)) << "\n";
  }

  void Start() {
    if (setup_.json) {
      std::vector<std::string> seats;
      for (const Seat& seat : setup_.seats) {
        JsonObject s;
        s.Str("player", seat.bot ? "bot" : "human");
        if (seat.bot) {
          s.Str("policy", seat.bot->policy().name).Bool("fallback", seat.bot->fallback());
        }
        seats.push_back(std::move(s).Build());
      }
      JsonObject fields;
      fields.Raw("rules", RulesJson(setup_.rules))
          .Int("players", players())
          .Raw("seed", absl::StrCat(setup_.seed))
          .Raw("seats", JsonArray(seats))
          .Bool("hints", setup_.hints);
      if (setup_.coverage.table) {
        fields.Str("table", setup_.coverage.table->path).Null("no_table");
      } else {
        fields.Null("table").Str("no_table", setup_.coverage.reason);
      }
      Event("start", std::move(fields));
      return;
    }
    Line(absl::StrCat("Martian Dice: ", players(), " players (", RulesText(setup_.rules),
                      "), seed ", setup_.seed, "."));
    for (int seat = 0; seat < players(); ++seat) {
      Line(absl::StrCat("  seat ", seat, ": ", setup_.seats[seat].name));
    }
    const bool advised = setup_.humans > 0 || UsesTable();
    if (setup_.coverage.table && advised) {
      Line(absl::StrCat("Values: the mover's chance to win (table ", setup_.coverage.table->path,
                        ")."));
    } else if (advised) {
      Line(absl::StrCat("No policy table covers this game: ", setup_.coverage.reason, "."));
      Line(absl::StrCat(
          "The win bots, hints and review play the fallback: ", std::string(kFallbackName), "."));
    }
    if (setup_.humans > 0) {
      Line(
          "Your moves, one a line: take FACE (ray, human, cow, chicken, or R, H, C, K), roll "
          "(roll on), stop; help; quit.");
    }
  }

  bool UsesTable() const {
    for (const Seat& seat : setup_.seats) {
      if (seat.bot && seat.bot->policy().kind == PolicySpec::Kind::kWin) return true;
    }
    return false;
  }

  // One move of the game, or a human decision; false at the end of input.
  absl::StatusOr<bool> Next() {
    if (state_.phase() == Phase::kRoll) {
      if (state_.aside().empty()) TurnStart();
      absl::StatusOr<MoveResult> rolled = Apply(Move::Roll(RollDice(state_.dice_left(), rng_)));
      if (!rolled.ok()) return rolled.status();
      return true;
    }
    if (Mover().bot) {
      if (absl::Status status = BotMove(*Mover().bot); !status.ok()) return status;
      return true;
    }
    return HumanMove();
  }

  void TurnStart() {
    ++turn_;
    const int round = (turn_ - 1) / players() + 1;
    if (setup_.json) {
      JsonObject fields;
      fields.Int("turn", turn_)
          .Int("round", round)
          .Int("seat", state_.seat())
          .Str("player", Mover().bot ? "bot" : "human")
          .Raw("scores", JsonIntArray(state_.scores()))
          .Bool("final_round", state_.final_round());
      Event("turn", std::move(fields));
      return;
    }
    std::string text = absl::StrCat(
        "Turn ", turn_, " (round ", round, "): seat ", state_.seat(), " (", Mover().name,
        ") to move. Scores: ", absl::StrJoin(state_.scores(), ", "), ".");
    if (state_.final_round()) {
      absl::StrAppend(&text, " Final round: the game ends after seat ", players() - 1, "'s turn.");
    }
    Line("");
    Line(text);
  }

  // The bot's step, its moves applied one by one.
  absl::Status BotMove(const Bot& bot) {
    absl::StatusOr<Bot::Step> step = bot.NextStep(state_, rng_);
    if (!step.ok()) return step.status();
    if (absl::Status status = Apply(step->move).status(); !status.ok()) return status;
    return step->then ? Apply(*step->then).status() : absl::OkStatus();
  }

  // A human decision: the advice (hints, review), the prompt, entries until
  // one is a legal move. False at the end of input or on `quit`.
  absl::StatusOr<bool> HumanMove() {
    std::optional<GameAdvice> advice;
    if (state_.phase() == Phase::kTake || setup_.hints) {
      absl::StatusOr<GameAdvice> advised = advisor_.Advise(state_, setup_.tables);
      if (!advised.ok()) return advised.status();
      advice = *std::move(advised);
    }
    if (setup_.hints) Hint(*advice);
    Prompt();
    while (true) {
      out_.flush();
      std::optional<std::string> line = ReadEntryLine(in_);
      if (!line) return false;
      const Entry entry = ReadEntry(*line);
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
          Refuse(*line, entry.problem);
          continue;
        case Entry::Kind::kMove:
          break;
      }
      if (entry.count && state_.phase() == Phase::kTake &&
          state_.roll().count(entry.move.face) != *entry.count) {
        Refuse(*line, absl::StrCat("the roll shows ", state_.roll().count(entry.move.face), " ",
                                   std::string(FaceName(entry.move.face)), "s, not ", *entry.count,
                                   " (every die of the face is taken)"));
        continue;
      }
      const Phase phase = state_.phase();
      const GameState before = state_;
      absl::StatusOr<MoveResult> result = Apply(entry.move);
      if (!result.ok()) {
        Refuse(*line, Str(result.status().message()));
        continue;
      }
      if (phase == Phase::kTake) {
        Decide(before, *advice, entry.move.face);
        if (result->turn_end) Settle(Then::kStop);  // no dice left
      } else {
        Settle(entry.move.kind == Move::Kind::kStop ? Then::kStop : Then::kRoll);
      }
      return true;
    }
  }

  void Decide(const GameState& before, const GameAdvice& advice, Face take) {
    Decision decision;
    decision.turn = turn_;
    decision.seat = before.seat();
    decision.aside = before.aside_before_roll();
    decision.roll = before.roll();
    decision.advice = *advice.takes;
    decision.values = advice.goal.name();
    decision.take = take;
    pending_ = std::move(decision);
  }

  void Settle(Then then) {
    if (!pending_) return;
    pending_->then = then;
    // The take was legal, and `then` what the game allowed after it.
    pending_->review = *ReviewChoice(pending_->advice, pending_->take, then);
    decisions_.push_back(*std::move(pending_));
    pending_.reset();
  }

  void Prompt() {
    const bool take = state_.phase() == Phase::kTake;
    if (setup_.json) {
      JsonObject fields;
      fields.Int("seat", state_.seat()).Str("decision", PhaseName(state_.phase()));
      if (take) fields.Raw("legal", FaceNamesJson(state_.legal_takes()));
      Event("prompt", std::move(fields));
      return;
    }
    if (take) {
      Line(absl::StrCat("Seat ", state_.seat(), ", take ", FaceNames(state_.legal_takes()), "?"));
    } else {
      Line(absl::StrCat("Seat ", state_.seat(), ": stop, or roll the ",
                        DiceCount(state_.dice_left()), " left?"));
    }
  }

  void Help() {
    const std::string text =
        state_.phase() == Phase::kTake
            ? absl::StrCat("take one of: ", FaceNames(state_.legal_takes()),
                           " (a word or its letter, e.g. 'take humans' or 'h')")
            : "stop (the turn scores), or roll (roll on)";
    if (setup_.json) {
      Event("help", std::move(JsonObject().Str("message", text)));
    } else {
      Line(absl::StrCat("Moves now: ", text, "; quit ends the game."));
    }
  }

  void Refuse(const std::string& entry, std::string_view problem) {
    if (setup_.json) {
      Event("refused", std::move(JsonObject().Str("entry", entry).Str("message", problem)));
    } else {
      Line(absl::StrCat("Refused: ", std::string(problem), "."));
    }
  }

  void Hint(const GameAdvice& advice) {
    if (setup_.json) {
      JsonObject fields;
      fields.Int("seat", state_.seat());
      AddGameAdviceJson(fields, advice);
      Event("hint", std::move(fields));
      return;
    }
    if (advice.fallback) Line(absl::StrCat("  Values: ", AdviceValuesText(advice), "."));
    out_ << GameAdviceText(advice);
  }

  // Applies `move`, logs it and says what happened.
  absl::StatusOr<MoveResult> Apply(const Move& move) {
    const GameState before = state_;
    absl::StatusOr<MoveResult> result = state_.Apply(move);
    if (!result.ok()) return result;
    log_.Record(before, move, *result);
    Say(before, move, *result);
    return result;
  }

  void Say(const GameState& before, const Move& move, const MoveResult& result) {
    const int seat = before.seat();
    switch (move.kind) {
      case Move::Kind::kRoll:
        SayRoll(seat, move.dice, result);
        break;
      case Move::Kind::kTake:
        SayTake(seat, move.face, before.roll().count(move.face), result);
        break;
      case Move::Kind::kRollOn:
        if (setup_.json) {
          Event("roll_on", std::move(JsonObject().Int("seat", seat)));
        } else {
          Line(absl::StrCat("Seat ", seat, " rolls on."));
        }
        break;
      case Move::Kind::kStop:
      case Move::Kind::kEndTurn:
        break;
    }
    if (result.turn_end) SayTurnEnd(*result.turn_end);
  }

  void SayRoll(int seat, const Dice& roll, const MoveResult& result) {
    const Dice& aside = result.turn_end ? result.turn_end->aside : state_.aside();
    if (setup_.json) {
      JsonObject fields;
      fields.Int("seat", seat).Str("rolled", FormatDice(roll)).Str("aside", FormatDice(aside));
      fields.Raw("legal", FaceNamesJson(state_.legal_takes()));
      Event("roll", std::move(fields));
      return;
    }
    std::string text =
        absl::StrCat("Seat ", seat, " rolls ", DiceCount(roll.total()), ": ", FormatDice(roll));
    if (roll.count(Face::kTank) > 0) absl::StrAppend(&text, "; set aside: ", FormatDice(aside));
    Line(text + ".");
  }

  void SayTake(int seat, Face face, int count, const MoveResult& result) {
    const Dice& aside = result.turn_end ? result.turn_end->aside : state_.aside();
    const int left = setup_.rules.dice - aside.total();
    const int score = TurnScore(setup_.rules, aside);
    if (setup_.json) {
      JsonObject fields;
      fields.Int("seat", seat)
          .Str("take", FaceName(face))
          .Int("count", count)
          .Str("aside", FormatDice(aside))
          .Int("dice_left", left)
          .Int("turn_score", score);
      Event("take", std::move(fields));
      return;
    }
    Line(absl::StrCat("Seat ", seat, " takes ", TakeLabel(face, count), ": set aside ",
                      FormatDice(aside), ", ", DiceCount(left), " left, ", score,
                      score == 1 ? " point" : " points", " so far."));
  }

  void SayTurnEnd(const TurnEnd& end) {
    if (setup_.json) {
      JsonObject fields;
      fields.Int("seat", end.seat)
          .Int("score", end.score)
          .Str("reason", TurnEndReasonName(end.reason))
          .Str("aside", FormatDice(end.aside))
          .Raw("scores", JsonIntArray(state_.scores()))
          .Bool("game_over", end.game_over);
      Event("turn_end", std::move(fields));
      return;
    }
    const std::string scores = absl::StrCat("Scores: ", absl::StrJoin(state_.scores(), ", "), ".");
    switch (end.reason) {
      case TurnEndReason::kStopped:
        Line(absl::StrCat("Seat ", end.seat, " stops and scores ", end.score, ". ", scores));
        break;
      case TurnEndReason::kNoLegalTake:
        Line(absl::StrCat("No legal take: seat ", end.seat, "'s turn ends and scores ", end.score,
                          ". ", scores));
        break;
      case TurnEndReason::kNoDiceLeft:
        Line(absl::StrCat("No dice left: seat ", end.seat, "'s turn ends and scores ", end.score,
                          ". ", scores));
        break;
      case TurnEndReason::kEntered:
        Line(absl::StrCat("Seat ", end.seat, " scores ", end.score, ". ", scores));
        break;
    }
  }

  void End() {
    const std::vector<int> winners = state_.winners();
    if (setup_.json) {
      JsonObject fields;
      fields.Int("turns", turn_)
          .Raw("scores", JsonIntArray(state_.scores()))
          .Raw("winners", JsonIntArray(winners));
      Event("game_over", std::move(fields));
    } else {
      Line("");
      std::string text =
          absl::StrCat("Game over after ", turn_,
                       " turns. Scores: ", absl::StrJoin(state_.scores(), ", "), ". ");
      if (winners.size() == 1) {
        absl::StrAppend(&text, "Seat ", winners[0], " (", setup_.seats[winners[0]].name, ") wins.");
      } else {
        absl::StrAppend(&text, "Seats ", absl::StrJoin(winners, ", "), " tie with ",
                        state_.scores()[winners[0]], " and share the win (a duel decides: each ",
                        "wins it with chance 1/", winners.size(), ").");
      }
      Line(text);
    }
    for (int seat = 0; seat < players(); ++seat) {
      if (!setup_.seats[seat].bot) Review(seat);
    }
  }

  void Review(int seat) {
    std::vector<const Decision*> mine;
    for (const Decision& d : decisions_) {
      if (d.seat == seat) mine.push_back(&d);
    }
    int mistakes = 0;
    double loss = 0;
    std::vector<std::string> items;
    std::string lines;
    for (const Decision* d : mine) {
      const ChoiceReview& r = d->review;
      mistakes += r.optimal ? 0 : 1;
      loss += r.loss.approx;
      const TakeOption& best = d->advice.options.at(*d->advice.best);
      const int count = d->roll.count(d->take);
      if (setup_.json) {
        JsonObject item;
        item.Int("turn", d->turn)
            .Str("aside", FormatDice(d->aside))
            .Str("rolled", FormatDice(d->roll))
            .Str("take", FaceName(d->take))
            .Int("count", count)
            .Str("then", ThenName(d->then))
            .Str("values", d->values)
            .Double("value", r.value.approx)
            .Double("best_value", r.best.approx)
            .Double("loss", r.loss.approx)
            .Bool("optimal", r.optimal)
            .Raw("best", JsonObject()
                             .Str("take", FaceName(best.take))
                             .Int("count", best.count)
                             .Str("then", ThenName(best.then))
                             .Build());
        items.push_back(std::move(item).Build());
        continue;
      }
      std::string line = absl::StrCat("  turn ", d->turn, ": set aside ", FormatDice(d->aside),
                                      ", rolled ", FormatDice(d->roll), ": take ",
                                      TakeLabel(d->take, count), ", then ", ThenText(d->then));
      if (r.optimal) {
        absl::StrAppend(&line, ": optimal");
      } else {
        absl::StrAppend(&line, ": lost ", Number(r.loss.approx), " (best: take ",
                        TakeLabel(best.take, best.count), ", then ",
                        best.then == Then::kEither ? "either" : ThenText(best.then), ")");
      }
      if (d->values != Goal::Win().name()) absl::StrAppend(&line, " [", d->values, "]");
      absl::StrAppend(&lines, line, "\n");
    }
    if (setup_.json) {
      JsonObject fields;
      fields.Int("seat", seat)
          .Raw("decisions", JsonArray(items))
          .Int("mistakes", mistakes)
          .Double("total_loss", loss);
      Event("review", std::move(fields));
      return;
    }
    const bool fallback = !setup_.coverage.table;
    Line(absl::StrCat("Review of seat ", seat, " (", setup_.seats[seat].name, "): ", mine.size(),
                      mine.size() == 1 ? " decision, " : " decisions, ", mistakes,
                      mistakes == 1 ? " mistake" : " mistakes", ", lost ", Number(loss),
                      fallback ? " in the fallback's values (points capped at what was needed)."
                               : " in chance to win."));
    out_ << lines;
  }

  absl::StatusOr<int> Abandon() {
    if (setup_.json) {
      JsonObject fields;
      fields.Str("reason", quit_ ? "quit" : "end of input").Int("turns", turn_);
      Event("abandoned", std::move(fields));
    } else {
      Line(absl::StrCat(quit_ ? "Quit" : "The input ended", " in turn ", turn_,
                        ", before the game ended: the log holds the turns that ended."));
    }
    if (absl::Status status = WriteLog(log_.finished_text()); !status.ok()) return status;
    return kCliExitUnfinished;
  }

  absl::Status WriteLog(const std::string& text) {
    const std::string review =
        setup_.coverage.table ? "martiandice review --objective win" : "martiandice review";
    if (!setup_.log_path.empty()) {
      if (absl::Status status = WriteOutput(setup_.log_path, text); !status.ok()) {
        return AsLogError(status);
      }
      if (setup_.json) {
        Event("log", std::move(JsonObject().Str("path", setup_.log_path)));
      } else {
        Line(absl::StrCat("Game log written to ", setup_.log_path, " (replay it: ", review, " ",
                          setup_.log_path, ")."));
      }
      return absl::OkStatus();
    }
    if (setup_.json) {
      std::vector<std::string> lines;
      for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
        lines.push_back(JsonString(Str(line)));
      }
      Event("log", std::move(JsonObject().Raw("lines", JsonArray(lines))));
      return absl::OkStatus();
    }
    Line(absl::StrCat("Game log (", review, " - replays it):"));
    out_ << text;
    return absl::OkStatus();
  }

  Setup setup_;
  Advisor& advisor_;
  std::istream* in_;
  std::ostream& out_;
  DiceRng rng_;
  GameState state_;
  GameLog log_;
  int turn_ = 0;
  bool quit_ = false;
  std::optional<Decision> pending_;
  std::vector<Decision> decisions_;
};

}  // namespace

const std::string_view kPlayHelp = R"(
Plays a whole game: 2 to 6 seats (--players), each a human (--humans, seat
numbers such as 0,2, or none) or a bot (--bots: one policy for every bot, or
one per bot seat in seat order). The program rolls the dice from --seed, so a
seed replays the same game; without --seed it picks one and prints it.
Policies (as `martiandice simulate --help` describes them): win (optimal play
to win; where no table covers the game, the fallback below), ev, capped (at
the points still needed), capped:M, reach:K, random, stop:K, cautious, bold.
Where no policy table covers the game (5 and 6 players, or 4 until its table
is made) the program says so once, and the win bots, hints and review play
the fallback: capped at the points still needed.
Human moves, one a line (case does not matter):
  take FACE   take a face: ray, human, cow or chicken (plurals and the
              letters R, H, C, K too; a count may be given: take 4 humans);
              the bare face works too
  roll        roll the dice left (also: roll on)
  stop        end the turn and score it
  help        the moves allowed now;  quit  end the game unfinished
A bad entry gets one line naming the problem and changes nothing. --hints
shows every option's value before each human decision (best's table for a
take; stop and roll on, and the chance that rolling on scores 0). At the end:
the winner (a tie shares the win), a review of each human's decisions (what
each cost, in chance to win), and the game log in the lines `martiandice
review` reads, on stdout or written atomically to --log FILE.
--json gives one JSON object per line, each with an "event": start, turn,
roll, take, roll_on, turn_end, prompt, hint, refused, help, game_over,
review, log, abandoned.
Exit status: 0 the game ended; 4 the input ended (or quit came) first: the
log then holds the turns that ended; 2 bad options; 1 an internal error.
)";

absl::StatusOr<int> RunPlay(const CommandOptions& options, const CommandContext& context,
                            std::ostream& out) {
  absl::StatusOr<Setup> setup = ReadSetup(options, context.advisor);
  if (!setup.ok()) return setup.status();
  Game game(*std::move(setup), context.advisor, context.in, out);
  return game.Run();
}

}  // namespace martiandice::cli
