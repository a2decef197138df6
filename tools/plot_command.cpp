// `martiandice plot`: the options checked, the pictures (plot.h) drawn from
// the official 2-player table and written atomically to --out.
#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "commands.h"
#include "plot.h"
#include "support.h"

namespace martiandice::cli {
namespace {

// What the picture of `kind` shows, for the summary.
std::string Caption(std::string_view kind, const GameContext& game) {
  if (kind == "heatmap") {
    return absl::StrFormat("the mover's chance to win over both scores, seat %d to move",
                           game.seat);
  }
  if (kind == "stop") return "the smallest turn score at which optimal play stops, by dice left";
  return absl::StrCat("the turn score's law for ev and to win at ", PlotContextText(game));
}

}  // namespace

const std::string_view kPlotHelp = R"(
Draws SVG pictures of optimal play in the official 2-player game, from the
shipped policy table (found as for `eval --objective win`: --tables, else
$MARTIANDICE_DATA alone when set, else the installed tree's, the source
tree's data/, the configured install folder):
  heatmap       the mover's chance to win at the start of a turn, over both
                scores (--seat: the seat to move, default 0)
  stop          the smallest turn score at which optimal play stops, by dice
                left, for ev and to win at 0-0, behind 15-20 and ahead 20-10
  distribution  the law of a turn's score played for ev and played to win at
                --scores/--seat (default: the start of the game, 0,0 seat 0)
  all           (or no KIND) the three, into the directory --out as
                heatmap.svg, stop.svg and distribution.svg
--out is the SVG file to write, or a directory (the picture gets KIND.svg);
missing folders are created. Files are written atomically (a temporary
renamed into place). Pictures of games of 3 or more players are not drawn.)";

absl::StatusOr<std::string> RunPlot(const CommandOptions& options, const CommandContext& context) {
  namespace fs = std::filesystem;
  std::vector<std::string> kinds;
  if (options.kind.empty() || options.kind == "all") {
    kinds.assign(kPlotKinds.begin(), kPlotKinds.end());
  } else if (std::find(kPlotKinds.begin(), kPlotKinds.end(), options.kind) != kPlotKinds.end()) {
    kinds.push_back(options.kind);
  } else {
    return absl::InvalidArgumentError(absl::StrCat("unknown picture '", options.kind,
                                                   "'; use heatmap, stop, distribution or all"));
  }
  const bool one = kinds.size() == 1;
  const QueryInput& input = options.request.query;
  absl::StatusOr<GameContext> game = PlotContext(one ? kinds[0] : "all", input.scores, input.seat);
  if (!game.ok()) return game.status();
  // Where the pictures go: one file, or a directory for all three.
  if (absl::Status status = RequireOut(options.out); !status.ok()) return status;
  std::error_code error;
  std::vector<std::string> paths;
  if (one) {
    absl::StatusOr<std::string> path =
        OutputPath(options.out, kinds[0] + ".svg", Folders::kCreate, Writes::kOther);
    if (!path.ok()) return path.status();
    paths.push_back(*std::move(path));
  } else {
    const fs::path out(options.out);
    if (fs::exists(out, error) && !fs::is_directory(out, error)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--out: '", options.out, "' is not a directory (all three pictures need a directory)"));
    }
    if (!fs::exists(out, error) && out.extension() == ".svg") {  // a folder named as a picture
      return absl::InvalidArgumentError(
          absl::StrCat("--out: '", options.out,
                       "' names a picture; all three go into a directory (give one, or a KIND "
                       "for one picture)"));
    }
    for (const std::string& kind : kinds) {
      absl::StatusOr<std::string> path = OutputPath((out / (kind + ".svg")).string(), kind + ".svg",
                                                    Folders::kCreate, Writes::kOther);
      if (!path.ok()) return path.status();
      paths.push_back(*std::move(path));
    }
  }
  absl::StatusOr<std::shared_ptr<const LoadedTable>> loaded =
      LoadPlotTable(context.advisor, input.tables);
  if (!loaded.ok()) return loaded.status();
  std::string summary;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    absl::StatusOr<std::string> svg = PlotSvg((*loaded)->table, kinds[i], *game);
    if (!svg.ok()) return svg.status();
    absl::StatusOr<std::string> created = CreateOutputFolders(paths[i]);
    if (!created.ok()) return created.status();
    summary += CreatedLine(*created);
    if (absl::Status status = WriteOutput(paths[i], *svg); !status.ok()) {
      return status;
    }
    absl::StrAppend(&summary, "Wrote ", paths[i], " (", svg->size(),
                    " bytes): ", Caption(kinds[i], *game), ".\n");
  }
  absl::StrAppend(&summary, "Table: ", (*loaded)->path, ".\n");
  return summary;
}

}  // namespace martiandice::cli
