// The module's strategy pictures: `martiandice plot`'s SVG text (app/plot.h,
// the same code), drawn from the official 2-player table the advisor finds.
// Calling convention: binding.cpp's; the result is the SVG document itself.
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE
#endif

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "binding.h"
#include "plot.h"

extern "C" {

// The picture `kind` (heatmap, stop or distribution): `scores` ("S0,S1",
// null for 0,0) and `seat` (when has_seat) as plot's --scores and --seat.
EMSCRIPTEN_KEEPALIVE int mdw_plot(const char* kind, const char* scores, int seat, int has_seat) {
  using martiandice::web::Fail;
  const std::string name = kind != nullptr ? kind : "";
  std::optional<std::string> given_scores;
  if (scores != nullptr) given_scores = scores;
  std::optional<int> given_seat;
  if (has_seat != 0) given_seat = seat;
  absl::StatusOr<martiandice::GameContext> context =
      martiandice::PlotContext(name, given_scores, given_seat);
  if (!context.ok()) return Fail(context.status());
  absl::StatusOr<std::shared_ptr<const martiandice::LoadedTable>> loaded =
      martiandice::LoadPlotTable(martiandice::web::TheAdvisor(), std::nullopt);
  if (!loaded.ok()) return Fail(loaded.status());
  absl::StatusOr<std::string> svg = martiandice::PlotSvg((*loaded)->table, name, *context);
  if (!svg.ok()) return Fail(svg.status());
  return martiandice::web::Succeed(*std::move(svg));
}

}  // extern "C"
