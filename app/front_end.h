// What the front ends share besides the answers: the checks of inputs they
// have in common (the rules, the number of players, a seed) and the policy
// table, loaded through the advisor with the command that generates a
// missing one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/advisor.h"
#include "martiandice/rules.h"

namespace martiandice::app {

// "invalid rules: ..." unless the rules are in range.
absl::Status CheckRules(const Rules& rules);
// The front ends' errors about an input are InputError's (query.h): the
// message starts with the input's name, which the status carries (the
// command line writes "--" before it, the page reports it as the input).

// "NAME: a game has 2 to 6 players, not N" unless 2 <= players <= 6.
absl::Status CheckPlayers(int players, std::string_view name);
// `text` as a whole number of decimal digits only (no sign, no spaces: "+3"
// and " 3" are refused), or nullopt when it is not one or exceeds 2^64-1.
std::optional<std::uint64_t> ReadDigits(const std::string& text);
// A seed (simulate's and play's --seed, the module's games): a decimal
// integer in 0..2^64-1; errors name the input `name`.
absl::StatusOr<std::uint64_t> ReadSeed(const std::string& text, std::string_view name);

// `status` (a table that cannot be found, read or used) as InvalidArgument,
// ending with the command that generates the table unless the message
// already gives one.
absl::Status TableError(const Rules& rules, int players, const absl::Status& status);
// The policy table for `rules` and `players` (Advisor::Table: from `tables`,
// else the search). Errors: TableError's.
absl::StatusOr<std::shared_ptr<const LoadedTable>> LoadTable(
    Advisor& advisor, const Rules& rules, int players, const std::optional<std::string>& tables);
// The table a game is played with (Advisor::Coverage): none found is the
// fallback's answer (TableCoverage::reason), but a table that `tables` names
// (--tables, a request's "tables") must be there, as for eval and best.
// Errors: TableError's.
absl::StatusOr<TableCoverage> GameCoverage(Advisor& advisor, const Rules& rules, int players,
                                           const std::optional<std::string>& tables);

}  // namespace martiandice::app
