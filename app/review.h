// Review as a function on text (app/review.cpp): what `martiandice review`
// prints for the lines it reads (tools/review.cpp reads them from a file or
// stdin; the WebAssembly module's md.review passes them as text).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "martiandice/advisor.h"
#include "martiandice/game_log.h"

namespace martiandice::app {

// The largest input ReviewText reviews, in bytes.
inline constexpr std::size_t kMaxReviewBytes = 1 << 20;

// A review's query: the rules, objective, precision and tables, and the
// first turn's game when --scores gives it.
struct ReviewQuery {
  Query query;
  std::optional<LogContext> first;
};

// Checks review's options (--objective, --exact, the rules, --scores,
// --seat, --players, --tables) as eval checks them; with --objective win and
// no --scores the turns' games come from the lines. Errors (InvalidArgument):
// ParseQuery's, "--seat goes with --scores" (--players, both alike).
absl::StatusOr<ReviewQuery> ParseReviewQuery(const QueryInput& input);

// Reviews `text` (review's lines, game_log.h) for `query`: the report as
// `martiandice review` prints it (JSON when `json`), `name` the input it
// names ("stdin", or the file). Errors (InvalidArgument): input over 1 MiB,
// the reader's ("line N: ..."), the advisor's and the tables', "no turn to
// review (no 'roll' line)". Thread safety: the advisor's.
absl::StatusOr<std::string> ReviewText(Advisor& advisor, ReviewQuery query, std::string_view text,
                                       std::string_view name, bool json);

}  // namespace martiandice::app
