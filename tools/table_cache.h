// The command line's tables made on demand: where no table covers a game
// whose table is small (kMaxMadeTableBytes: 2 players at any usual target,
// 3 players to target 43, 4 to target 9), the advisor's search misses it,
// and this solves it on all cores (seconds), writes it to the table cache
// folder and hands the file to the advisor (Advisor::Options::make_table), so
// house rules are played exactly, as the page does for 2 and 3 players. The
// next run finds the file there and solves nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "absl/status/statusor.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"

namespace martiandice::cli {

// The largest table made on demand: one that solves in seconds.
inline constexpr std::uint64_t kMaxMadeTableBytes = kQuickTableBytes;

// The table cache folder from the environment: $MARTIANDICE_CACHE, else
// $XDG_CACHE_HOME/martiandice/tables, else $HOME/.cache/martiandice/tables;
// none (no tables made) when MARTIANDICE_CACHE is "off" or no home is set.
// Reads the environment only.
std::optional<std::string> TableCacheFolder();

// The advisor's make_table for tables kept in `folder`: for a game over
// kMaxMadeTableBytes, `searched` back as is; else the table's file in
// `folder` when it is there and reads back whole for that game, else the
// game solved (threads: all cores; progress and a note on `err`, a bar when
// `terminal`) and written there atomically, its path returned. A failure
// (an unwritable folder, a full disk) is NotFound: `searched`'s message and
// why, so the game plays the fallback; it is kept, so the same game is not
// solved again in this run. Thread-safe (one solve at a time); `err` must
// outlive it.
using TableMaker = std::function<absl::StatusOr<std::string>(const Rules& rules, int players,
                                                             const absl::Status& searched)>;
TableMaker MakeTableMaker(std::string folder, std::ostream& err, bool terminal);

}  // namespace martiandice::cli
