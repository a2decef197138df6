// The answers of `eval` and `best` as the command line shows them: the
// `--json` objects (also `serve`'s responses) and the text for people; the
// advice at a game's decision (`play`'s hints); and the small pieces of text
// other subcommands share (rules, numbers, takes).
// The field names are documented in `martiandice eval --help` and
// `martiandice best --help` (eval.cpp, best.cpp) and in docs/SERVE.md.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "json.h"
#include "martiandice/advisor.h"
#include "martiandice/dice.h"
#include "martiandice/rules.h"
#include "request.h"

namespace martiandice::app {

// The answers, through the advisor. For the win goal the table is loaded
// first (front_end.h's LoadTable), so that a missing or damaged table is bad
// input with the command that generates it; where the advisor solves the
// final round instead (Advisor::SolvesFinalRound), none is needed.
absl::StatusOr<EvalAnswer> Evaluate(Advisor& advisor, const Query& query);
absl::StatusOr<BestAnswer> Best(Advisor& advisor, const Query& query, const Dice& roll);

// A win query that names no table (no --tables) for a game no table covers
// (the search finds none) is answered as `play` advises: by the fallback
// (kFallbackName), the turn objective FallbackObjective at the query's
// context; eval and best (AnswerQuery) solve the final round instead where
// the advisor does (Advisor::SolvesFinalRound).
struct Fallback {
  Query query;         // the query answered: the fallback's objective, same position
  std::string reason;  // why no table covers the game (TableCoverage::reason)
};
// The fallback for `query`, or nothing where the query is answered as asked.
// Errors: a table found but unusable (Advisor::Coverage's).
absl::StatusOr<std::optional<Fallback>> FallbackFor(Advisor& advisor, const Query& query);

// How an answer is written: the `--json` object, or the text for people.
enum class AnswerFormat { kJson, kText };

// The answer to `request` for `command` (kEvalRequest, or kBestRequest: the
// dice rolled are request.roll): its query checked (ParseQuery, ParseRoll),
// passed to `check` when given (serve refuses tables outside its folders
// there), answered (Evaluate, Best) and written as `format`. The one path
// of eval and best for the command line, `serve` and the WebAssembly module.
// Errors: those of each step, the first that fails.
absl::StatusOr<std::string> AnswerQuery(
    Advisor& advisor, const Request& request, unsigned command, AnswerFormat format,
    const std::function<absl::Status(const Query&)>& check = nullptr);

// The `--json` outputs: one object on one line, newline included. With
// `fallback`, `answer` is the fallback query's answer to the win `query`.
std::string EvalJson(const Query& query, const EvalAnswer& answer,
                     const Fallback* fallback = nullptr);
std::string BestJson(const Query& query, const Dice& roll, const BestAnswer& answer,
                     const Fallback* fallback = nullptr);
// The text outputs: chances in percent (ValueText).
std::string EvalText(const Query& query, const EvalAnswer& answer,
                     const Fallback* fallback = nullptr);
std::string BestText(const Query& query, const Dice& roll, const BestAnswer& answer,
                     const Fallback* fallback = nullptr);

// The advice at a game's decision (Advisor::Advise). Its JSON fields, added
// to `object`: decision ("take", "stop_or_roll" or "roll"), values ("win",
// or the fallback's objective, e.g. "capped:15"), fallback, fallback_reason
// (null with a table), win_probabilities (null without a table); for a take
// value, best {take, count, then} and options (best's option objects); else
// value, stop, roll (null when not allowed), action and zero_chance (the
// chance that rolling on ends the turn with 0 points; null before a take).
void AddGameAdviceJson(JsonObject& object, const GameAdvice& advice);
// The same for people: lines of at most `width` columns (a take's table is
// best's, 58 columns) indented by two spaces, ending with the best move (and
// "No move can win the game from here." where every option's chance is 0);
// what the values measure is the caller's to say (AdviceValuesText).
std::string GameAdviceText(const GameAdvice& advice, std::size_t width = 80);
// The two lines saying the values are the table's at `path`, its path on a
// line of its own (never broken: the lines after it do not move with it).
std::string TableValuesLines(const std::string& path);
// What the values of `advice` measure: "the mover's chance to win", or "the
// fallback's capped:15, in points: expected min(score, 15)" (final:M/K: "as
// chances").
std::string AdviceValuesText(const GameAdvice& advice);

// ["ray","human"]: the faces' names as a JSON array (legal takes).
std::string FaceNamesJson(const std::vector<Face>& faces);
// {"dice":D,"bonus":B,"target":T}: every `--json` output's "rules" field.
std::string RulesJson(const Rules& rules);
// "1 die", "13 dice".
std::string DiceCount(int n);
// A value for people: 6 decimals.
std::string Number(double x);
// A chance for people, in percent with 2 decimals ("34.83%"); under 0.01%
// (not 0), 2 significant digits ("0.0012%"); within 0.01% of 100% (not
// 100 and not within 10^-12 of it), 2 significant digits of what it lacks
// ("99.9959%").
std::string Percent(double p);
// A sum of chances lost, each where it was lost (it may pass 100): "12.46
// percentage points", the digits as Percent's.
std::string PercentagePoints(double sum);
// `text` for an 80-column terminal (a UTF-8 character a column): each line
// longer than `width` broken at spaces (the spaces at a break dropped, others
// kept), its continuation lines indented two columns past its own indent. A
// word longer than that (a path), a `command in backquotes`, a 'quoted
// entry', dice in the notation ("2T 3R 4H 3C 1K:") and a list of numbers
// ("6, 13, 22.") are kept whole.
std::string WrapColumns(std::string_view text, std::size_t width = 80);
// Whether `goal`'s values are chances (win, reach:K, final:M/K: Objective::is_chance)
// rather than points.
bool IsChance(const Goal& goal);
// A value of `goal` for people: Percent for chances, else Number.
std::string ValueText(const Goal& goal, double x);
// Whether a turn that ends with `aside` lost earthlings to the tanks: it
// holds some, and scores nothing (the tanks outnumber the rays: TurnScore).
bool LostToTanks(const Dice& aside);
// The same in words: " (4 tanks beat 3 rays)", else "".
std::string LostToTanksText(const Dice& aside);

}  // namespace martiandice::app
