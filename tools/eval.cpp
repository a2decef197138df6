// `martiandice eval`: stop or roll on, and the value of a position.
#include "answers.h"
#include "commands.h"

namespace martiandice::cli {

const std::string_view kEvalHelp = R"(
Evaluates a position of a turn: the dice set aside so far (--aside; empty for
the start of the turn, before the first roll).
Output fields (same names in --json):
  stop      value of stopping now and scoring the set-aside (null before the
            first roll: a turn always starts with a roll)
  roll      value of rolling the remaining dice and playing on optimally
            (null when no dice are left)
  value     the better of stop and roll: what the position is worth
  action    the decision: "stop", "roll", or "either" when both are worth
            the same (exactly with --exact; within 1e-12 relative otherwise,
            within 1e-12 absolute for --objective win)
JSON also has: aside (canonical notation), dice_left, objective, precision,
rules {dice, bonus, target}; with --exact, value_exact, stop_exact and
roll_exact as "p/q" strings (null where the value is null).
With --objective win, values are the mover's probability of winning the game
(in percent in the text), and JSON adds players, seat, scores, final_round (a
seat before the mover has reached the target), win_probabilities (every
seat's chance at the start of this turn, seat 0 first), table (the file used),
error_bound (the table's bound on every value's error), values ("win"),
source ("table"), fallback (false) and fallback_reason (null). Where no table
covers the game and --tables names none (4 and 5 players and house rules
until their table is made; 6 players need a cluster): in the final round, the
round is solved (every seat still to move plays to win; source "final_round",
values "win", table and error_bound null); before it, the fallback answers:
values are the turn objective capped at the points the mover still needs
(values "capped:M", points), source "fallback", fallback true,
fallback_reason says why (with the command that makes the table; over 64 GiB,
as for 6 players, one that runs on a cluster: mpirun), and win_probabilities,
table and error_bound are null. (A final round too large to solve in 0.7 s
gets the fallback's final:M/K: the chance to pass the leader, a tie with the
K seats at its total counting 1/(K+1).) With --tables, a table that is not
there is an error.
)";

absl::StatusOr<std::string> RunEval(const CommandOptions& options, const CommandContext& context) {
  return app::AnswerQuery(context.advisor, options.request, app::kEvalRequest,
                          options.json ? app::AnswerFormat::kJson : app::AnswerFormat::kText);
}

}  // namespace martiandice::cli
