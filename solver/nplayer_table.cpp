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
  return SerializeValuesTable(values->rules, values->players, values->error_bound, values->win);
}

}  // namespace martiandice::solver
