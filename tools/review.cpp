// `martiandice review`: its help, its input (a file or stdin, bounded) and
// its entry point; the review itself is app/review.h's ReviewText.
#include "review.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "commands.h"
#include "file_kind.h"

namespace martiandice::cli {
namespace {

// "cannot read 'PATH'", with the system's reason when it gave one.
absl::Status ReadError(const std::string& input) {
  const int error = errno;
  return absl::InvalidArgumentError(absl::StrCat(
      "cannot read '", input, "'", error != 0 ? ": " : "", error != 0 ? std::strerror(error) : ""));
}

// Reads `input` ("-": the stream), at most app::kMaxReviewBytes.
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
    errno = 0;
    file.open(input, std::ios::binary);
    if (!file) return ReadError(input);
    stream = &file;
  }
  if (stream == nullptr) return text;
  text.resize(app::kMaxReviewBytes + 1);  // one byte more: ReviewText refuses it
  errno = 0;
  stream->read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(stream->gcount()));
  // Short of the limit, the read must have reached the end: else it failed.
  if (text.size() <= app::kMaxReviewBytes && (stream->bad() || !stream->eof())) {
    return ReadError(input == "-" ? "stdin" : input);
  }
  return text;
}

}  // namespace

const std::string_view kReviewHelp = R"(
Reviews played turns: for every decision (the take from a roll, then stop or
roll on; a roll whose one legal take sets aside the last dice leaves none) the
optimal choice and what the actual one lost, in expected score (or the
objective's value) or, with --objective win, in the mover's probability of
winning; then a summary. INPUT is a file, or - for stdin.
Line format (keywords case-insensitive, # starts a comment, blank lines skipped):
  roll DICE take FACE    the dice rolled and the face set aside (R, H, C, K,
                         ray, human, cow, chicken, plurals too, or with its
                         count: 4H, 4 humans)
  roll DICE              a roll with no legal take (the turn is over)
  stop                   the player stops
  scores S0,S1 [seat I]  game totals before the next turn, seat to move
                         (with --objective win: before the first turn, or
                         --scores, not both unless they agree; a later turn
                         without one goes on from the totals the last turn
                         left, the next seat)
  rules dice D bonus B target T
                         the game's rules (play and coach write it first in
                         the log of a game under house rules): a log under
                         other rules than --dice, --bonus, --target is refused
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
With --objective win and no --tables, a turn whose game no table covers (4
to 6 players, other rules) is measured as play and coach advise it: by the
fallback, the expected points capped at the points still needed (capped:M),
in the final round the chance to pass the leader (final:M/K); the review says
so. A table --tables names must be there.
JSON (--json): input, rules, objective, precision, table, fallback_reason
(null when every turn had its table), turns [{turn, line, scores, seat,
final_round (the target reached: the mover's last turn), win_probabilities,
values ("win", the objective, or the fallback's "capped:M" or "final:M/K"),
fallback, decisions [{line, then_line, aside, rolled, take, count, then, value,
best_value, loss, optimal, optimal_choices [{take, count, then}], class}],
end (stop, no_legal_take, no_dice_left), end_line, score,
tanks_won (the earthlings set aside lost: the tanks outnumbered the rays),
mistakes, loss}], decisions, mistakes, total_loss (the turns measured in the
objective), fallback_loss (the fallback's turns before the final round, in
points), fallback_final_loss (its final-round turns, in chances), ratings; with
--exact also value_exact, best_value_exact, loss_exact, total_loss_exact
("p/q").
With --objective win each seat's decisions are rated (docs/RATING.md): a
class per decision (optimal, inaccuracy under 1 percentage point, error under
5, blunder) and a rating of 0 to 100 per seat, the text's last lines; JSON
class (null for other objectives and the fallback's turns) and ratings
[{seat, rating {decisions, optimal, inaccuracies, errors, blunders,
total_loss, mean_loss, score, band}}] (null for other objectives; the
fallback's turns are not rated).
)";

absl::StatusOr<std::string> RunReview(const CommandOptions& options,
                                      const CommandContext& context) {
  // The options first, as eval checks them; then the input.
  absl::StatusOr<app::ReviewQuery> query = app::ParseReviewQuery(options.request.query);
  if (!query.ok()) return query.status();
  absl::StatusOr<std::string> text = ReadInput(options.input, context.in);
  if (!text.ok()) return text.status();
  return app::ReviewText(context.advisor, *std::move(query), *text,
                    options.input == "-" ? "stdin" : options.input, options.json);
}

}  // namespace martiandice::cli
