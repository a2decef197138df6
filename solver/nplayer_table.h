// The N-player policy table: the game solved by SolveGameValues and written
// as a format version 2 ("values only") table (docs/FORMAT.md).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "nplayer_solver.h"

namespace martiandice::solver {

// Solves the game (SolveGameValues with `options`) and returns the version 2
// table's bytes; `report` (may be null) gets the solve's figures. Errors: as
// SolveGameValues's (rules or player count out of range, threads < 1), and
// InvalidArgument, before any work, when the table would exceed
// kMaxSolveTableBytes (1 GiB, what the reader accepts); FailedPrecondition
// when the solve cannot bound its values (a zero-score cycle that does not
// converge, as in the official 4-player game).
absl::StatusOr<std::string> SolveValuesTable(const NPlayerSolveOptions& options,
                                             NPlayerReport* report);

}  // namespace martiandice::solver
