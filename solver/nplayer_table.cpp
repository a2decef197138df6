// The N-player policy table (nplayer_table.h): solve, then serialise as version 2.
#include "nplayer_table.h"

#include "absl/strings/str_format.h"
#include "context_index.h"
#include "game_solver.h"
#include "martiandice/game.h"
#include "table_writer.h"

namespace martiandice::solver {

absl::StatusOr<std::string> SolveValuesTable(const NPlayerSolveOptions& options,
                                             NPlayerReport* report) {
  if (absl::Status s = ValidateRules(options.rules); !s.ok()) return s;
  if (options.players >= kMinPlayers && options.players <= kMaxPlayers) {
    // A table the reader would refuse is not worth the solve (nor its memory).
    const long long contexts = ContextIndex(options.rules, options.players).size();
    const double bytes = 128.0 + 8.0 * options.players * static_cast<double>(contexts);
    if (bytes > static_cast<double>(kMaxSolveTableBytes)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%d players with these rules have %d turn-start contexts: the table would take %.3g "
          "bytes, more than the 1 GiB a table may have; lower the target or the number of "
          "players",
          options.players, contexts, bytes));
    }
  }
  NPlayerReport local;
  absl::StatusOr<GameValues> values = SolveGameValues(options, report ? report : &local);
  if (!values.ok()) return values.status();
  // A zero-score cycle that did not converge leaves values without a bound
  // (docs/PLAYERS.md, "An open problem with 4 players"): no table a reader
  // would refuse, or worse trust, is written.
  if (!(values->error_bound < 1e-9)) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the %d-player solve could not bound its values (error bound %g): a zero-score cycle "
        "did not converge within %d rounds of policy iteration (its best replies alternate; "
        "see docs/PLAYERS.md); no table written",
        values->players, values->error_bound, kMaxCycleRounds));
  }
  return SerializeValuesTable(values->rules, values->players, values->error_bound, values->win);
}

}  // namespace martiandice::solver
