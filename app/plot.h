// The strategy pictures of `martiandice plot` and the WebAssembly module: SVG
// pictures of optimal play in the official 2-player game, drawn by hand (no plotting library): a
// heat map of the mover's chance to win over both scores, a chart of the smallest turn score at
// which optimal play stops, and the law of a turn's score under the ev and the win policies.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "martiandice/advisor.h"
#include "martiandice/table.h"

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

// The pictures by name, as `plot all` draws them.
inline constexpr std::array<std::string_view, 3> kPlotKinds = {"heatmap", "stop", "distribution"};
// The position of the picture `kind` ("all": the three): the distribution's
// `scores` ("0,0" when unset) and `seat`, the heat map's seat to move; checked
// (the 2-player game, options that apply to `kind`), errors naming their
// input (InputError: "scores: ...", "seat: ...").
absl::StatusOr<GameContext> PlotContext(std::string_view kind,
                                        const std::optional<std::string>& scores,
                                        std::optional<int> seat);
// The official 2-player table (Advisor::Table: from `tables`, else the search).
absl::StatusOr<std::shared_ptr<const LoadedTable>> LoadPlotTable(
    Advisor& advisor, const std::optional<std::string>& tables);
// The picture `kind` (heatmap, stop or distribution) at `context`.
absl::StatusOr<std::string> PlotSvg(const GameTable& table, std::string_view kind,
                                    const GameContext& context);
// "scores 15–20, seat 0 to move".
std::string PlotContextText(const GameContext& context);

// The viridis palette (perceptually ordered, luminance increasing) at t in
// [0, 1], as "#rrggbb"; and its relative luminance (sRGB, 0..1).
std::string ViridisHex(double t);
double ViridisLuminance(double t);

}  // namespace martiandice
