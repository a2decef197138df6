// The N-player policy table (nplayer_table.h): solve, then serialise as version 2.
#include "nplayer_table.h"

#include "table_writer.h"

namespace martiandice::solver {

absl::StatusOr<std::string> SolveValuesTable(const NPlayerSolveOptions& options,
                                             NPlayerReport* report) {
  NPlayerReport local;
  absl::StatusOr<GameValues> values = SolveGameValues(options, report ? report : &local);
  if (!values.ok()) return values.status();
  return SerializeValuesTable(values->rules, values->players, values->error_bound, values->win);
}

}  // namespace martiandice::solver
