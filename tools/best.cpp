// `martiandice best`: every take from a roll, ranked, and the move to play.
#include "answers.h"
#include "commands.h"

namespace martiandice::cli {

const std::string_view kBestHelp = R"(
Given the dice set aside (--aside) and the dice just rolled (--roll, exactly
the dice left to roll), lists every legal take and what it is worth. Tanks in
the roll are set aside automatically.
Output fields per option (same names in --json "options"):
  take      face to set aside: "ray", "human", "cow" or "chicken" (all dice of
            it); count is how many dice that is
  aside_after  the set-aside after the take (JSON only)
  stop      value if you take it and then stop
  roll      value if you take it and then roll on, playing optimally after
            (null if no dice are left after the take)
  value     the better of stop and roll
  then      what to do after the take: "stop", "roll" or "either" (equal)
  optimal   true if no other take is worth more (marked * in the table;
            several takes can be optimal)
Top level: best {take, count, then} = the option to play (null when the turn
is over): the first optimal one, or for --objective win the tie convention's
pick among them (docs/PLAYERS.md: rays, then the earthling type showing the
most dice, then human, cow, chicken); value = value of this roll under optimal
play, turn_over = true when no take is legal (the turn ends and scores
turn_over_score), aside, rolled, aside_after_tanks (set-aside plus this roll's
tanks), objective, precision, rules. With --exact, every value, stop and roll
field also comes as value_exact / stop_exact / roll_exact: an exact "p/q"
string, or null.
With --objective win, values are the mover's probability of winning the game
(in percent in the text) and JSON adds players, seat, scores, final_round,
win_probabilities, table, error_bound, values, source, fallback and
fallback_reason; where no table covers the game, the final round is solved
and the fallback answers before it (see `martiandice eval --help`).
The text output ends with the move to play and what it leaves, e.g. "Best:
take 4 humans, then roll on." and "Next: 2T 4H set aside, roll 7 dice.", or
"Turn over: no legal take; the turn scores 5."
)";

absl::StatusOr<std::string> RunBest(const CommandOptions& options, const CommandContext& context) {
  return app::AnswerQuery(context.advisor, options.request, app::kBestRequest,
                          options.json ? app::AnswerFormat::kJson : app::AnswerFormat::kText);
}

}  // namespace martiandice::cli
