// `martiandice plot`: SVG pictures of the strategy for the official 2-player
// game, drawn by hand (no plotting library): a heat map of the mover's chance
// to win over both scores, a chart of the smallest turn score at which optimal
// play stops, and the law of a turn's score under the ev and the win policies.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "martiandice/game.h"

namespace martiandice {

// The pictures, as SVG documents (for tests and other frontends). `table` must
// be the official 2-player table.
// The mover's win probability at every turn start with `seat` to move.
// Each cell carries data-own, data-opp and data-win attributes.
absl::StatusOr<std::string> HeatmapSvg(const GameTable& table, int seat);
// The smallest turn score at which optimal play stops, by dice left, with as
// many rays as tanks and two earthling types set aside: ev and win at three
// score situations.
absl::StatusOr<std::string> StopChartSvg(const GameTable& table);
// The turn score's law under the ev policy and the win policy at `context`.
absl::StatusOr<std::string> DistributionSvg(const GameTable& table, const GameContext& context);

// The viridis palette (perceptually ordered, luminance increasing) at t in
// [0, 1], as "#rrggbb"; and its relative luminance (sRGB, 0..1).
std::string ViridisHex(double t);
double ViridisLuminance(double t);

}  // namespace martiandice
