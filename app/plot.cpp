// The strategy pictures (heat map, stop chart, score distribution) as SVG
// text, with no I/O: a minimal hand-written SVG writer, the viridis palette,
// the pictures' position checked and the table found; `martiandice plot`
// (plot_command.cpp) writes them to files, the WebAssembly module returns them.
#include "plot.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "answers.h"
#include "front_end.h"
#include "martiandice/advisor.h"
#include "martiandice/dice.h"
#include "martiandice/distribution.h"
#include "martiandice/objective.h"
#include "martiandice/query.h"
#include "martiandice/turn_query.h"
#include "martiandice/turn_solver.h"

namespace martiandice {
namespace {

constexpr int kPlayers = 2;
constexpr char kFont[] = "DejaVu Sans, Helvetica, Arial, sans-serif";

// ---------------------------------------------------------------------------
// A minimal SVG writer.

std::string Escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A coordinate with at most one decimal.
std::string N(double v) {
  std::string s = absl::StrFormat("%.1f", v);
  if (s.size() > 2 && s.substr(s.size() - 2) == ".0") s.resize(s.size() - 2);
  if (s == "-0") s = "0";
  return s;
}

class Svg {
 public:
  Svg(int width, int height, const std::string& title, const std::string& description)
      : width_(width) {
    absl::StrAppend(&body_, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", width, "\" height=\"",
                    height, "\" viewBox=\"0 0 ", width, " ", height, "\" font-family=\"", kFont,
                    "\">\n<title>", Escape(title), "</title>\n<desc>", Escape(description),
                    "</desc>\n");
    Rect(0, 0, width, height, "fill=\"#ffffff\"");
  }

  void Raw(std::string_view text) { absl::StrAppend(&body_, std::string(text)); }
  void Rect(double x, double y, double w, double h, std::string_view attributes) {
    absl::StrAppend(&body_, "<rect x=\"", N(x), "\" y=\"", N(y), "\" width=\"", N(w),
                    "\" height=\"", N(h), "\" ", std::string(attributes), "/>\n");
  }
  void Line(double x1, double y1, double x2, double y2, std::string_view attributes) {
    absl::StrAppend(&body_, "<line x1=\"", N(x1), "\" y1=\"", N(y1), "\" x2=\"", N(x2), "\" y2=\"",
                    N(y2), "\" ", std::string(attributes), "/>\n");
  }
  // Text at (x, y): anchor start|middle|end, size in px, extra attributes.
  void Text(double x, double y, std::string_view text, std::string_view anchor = "start",
            double size = 12, std::string_view attributes = "") {
    absl::StrAppend(&body_, "<text x=\"", N(x), "\" y=\"", N(y), "\" font-size=\"", N(size),
                    "\" text-anchor=\"", std::string(anchor), "\"", attributes.empty() ? "" : " ",
                    std::string(attributes), ">", Escape(text), "</text>\n");
  }
  // A title line (bold) and a subtitle line at the top.
  void Heading(const std::string& title, const std::string& subtitle) {
    Text(width_ / 2.0, 28, title, "middle", 18, "font-weight=\"bold\"");
    Text(width_ / 2.0, 48, subtitle, "middle", 12, "fill=\"#333333\"");
  }
  // Caption lines from y down, left-aligned at x.
  void Caption(double x, double y, const std::vector<std::string>& lines) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      Text(x, y + 16.0 * static_cast<double>(i), lines[i], "start", 12, "fill=\"#222222\"");
    }
  }
  std::string Finish() {
    body_ += "</svg>\n";
    return std::move(body_);
  }

 private:
  int width_;
  std::string body_;
};

// ---------------------------------------------------------------------------
// Viridis: 11 samples of matplotlib's palette, interpolated linearly.

constexpr std::array<std::array<int, 3>, 11> kViridis = {{{0x44, 0x01, 0x54},
                                                          {0x48, 0x25, 0x76},
                                                          {0x41, 0x44, 0x87},
                                                          {0x35, 0x60, 0x8d},
                                                          {0x2a, 0x78, 0x8e},
                                                          {0x21, 0x90, 0x8c},
                                                          {0x22, 0xa8, 0x84},
                                                          {0x43, 0xbf, 0x71},
                                                          {0x7a, 0xd1, 0x51},
                                                          {0xbb, 0xdf, 0x27},
                                                          {0xfd, 0xe7, 0x25}}};

std::array<double, 3> Viridis(double t) {
  t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 10.0;
  const int i = std::min(9, static_cast<int>(std::floor(t)));
  const double f = t - i;
  std::array<double, 3> rgb{};
  for (int c = 0; c < 3; ++c) rgb[c] = kViridis[i][c] * (1 - f) + kViridis[i + 1][c] * f;
  return rgb;
}

double Linear(double channel) {
  const double c = channel / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// ---------------------------------------------------------------------------
// Shared helpers.

std::string Percent(double p) { return absl::StrFormat("%.0f", 100 * p); }

std::string ContextText(const GameContext& context) {
  return absl::StrFormat("scores %d\u2013%d, seat %d to move", context.scores[0], context.scores[1],
                         context.seat);
}

absl::Status CheckOfficial(const GameTable& table) {
  return CheckTableMatches(table, Rules{}, kPlayers);
}

// The stop chart's series: ev, or win at a context.
struct Series {
  std::string label;
  std::optional<GameContext> context;  // unset: ev
  std::string dash;                    // stroke-dasharray ("" solid)
  std::string marker;                  // circle | square | triangle | diamond
  bool filled = true;
  std::string colour;
};

// A marker centred at (x, y).
void Marker(Svg& svg, const Series& s, double x, double y) {
  const std::string fill = s.filled ? s.colour : "#ffffff";
  const std::string style =
      absl::StrCat("fill=\"", fill, "\" stroke=\"", s.colour, "\" stroke-width=\"2\"");
  if (s.marker == "circle") {
    svg.Raw(absl::StrCat("<circle cx=\"", N(x), "\" cy=\"", N(y), "\" r=\"5\" ", style, "/>\n"));
  } else if (s.marker == "square") {
    svg.Rect(x - 4.5, y - 4.5, 9, 9, style);
  } else if (s.marker == "triangle") {
    svg.Raw(absl::StrCat("<polygon points=\"", N(x), ",", N(y - 6), " ", N(x + 5.5), ",", N(y + 4),
                         " ", N(x - 5.5), ",", N(y + 4), "\" ", style, "/>\n"));
  } else {
    svg.Raw(absl::StrCat("<polygon points=\"", N(x), ",", N(y - 6), " ", N(x + 6), ",", N(y), " ",
                         N(x), ",", N(y + 6), " ", N(x - 6), ",", N(y), "\" ", style, "/>\n"));
  }
}

// One legend entry of the distribution chart: a swatch, the label, and the
// law's mean and chance of 0 points below it.
void LawLegend(Svg& svg, double x, double y, const std::string& style, std::string_view label,
               const ScoreDistribution& law) {
  svg.Rect(x, y - 12, 22, 14, style);
  svg.Text(x + 30, y, label, "start", 12);
  svg.Text(
      x + 30, y + 15,
      absl::StrFormat("mean %.3f points, 0 points: %s%%", law.Mean(), Percent(law.probability[0])),
      "start", 11, "fill=\"#444444\"");
}

}  // namespace

std::string ViridisHex(double t) {
  const std::array<double, 3> rgb = Viridis(t);
  return absl::StrFormat("#%02x%02x%02x", static_cast<int>(std::lround(rgb[0])),
                         static_cast<int>(std::lround(rgb[1])),
                         static_cast<int>(std::lround(rgb[2])));
}

double ViridisLuminance(double t) {
  const std::array<double, 3> rgb = Viridis(t);
  return 0.2126 * Linear(rgb[0]) + 0.7152 * Linear(rgb[1]) + 0.0722 * Linear(rgb[2]);
}

// ---------------------------------------------------------------------------
// Heat map.

absl::StatusOr<std::string> HeatmapSvg(const GameTable& table, int seat) {
  if (absl::Status status = CheckOfficial(table); !status.ok()) return status;
  if (seat < 0 || seat >= kPlayers) {
    return absl::InvalidArgumentError(
        absl::StrCat("--seat: ", seat, " is not a seat of a 2-player game (0 or 1)"));
  }
  const int target = table.rules().target;
  const int own_count = target;  // the mover has not reached the target yet
  // Seat 1 moves last in the round: the opponent may already have reached the
  // target (the final round), up to target - 1 + the best turn.
  const int opp_count = seat == 0 ? target : target + MaxTurnScore(table.rules());
  constexpr double kCell = 20;
  const double left = 78, top = 72;
  const double grid_w = kCell * opp_count, grid_h = kCell * own_count;
  const int width = static_cast<int>(left + grid_w + 140);
  const int height = static_cast<int>(top + grid_h + 150);
  Svg svg(width, height, "Chance to win for the player about to move",
          "Heat map of the mover's probability of winning the official 2-player Martian Dice "
          "game at the start of a turn, over the mover's score and the opponent's score.");
  svg.Heading("Chance to win for the player about to move",
              absl::StrFormat("Official 2-player game (13 dice, bonus 3, target 25), both playing "
                              "to win; the mover is seat %d (%s in the round)",
                              seat, seat == 0 ? "first" : "second"));

  // Cells: own score up (0 at the bottom), opponent's score across.
  std::string cells = "<g id=\"cells\" stroke=\"none\">\n";
  std::string dark_text =
      "<g id=\"labels-light\" font-size=\"8.5\" text-anchor=\"middle\" fill=\"#ffffff\">\n";
  std::string light_text =
      "<g id=\"labels-dark\" font-size=\"8.5\" text-anchor=\"middle\" fill=\"#000000\">\n";
  for (int own = 0; own < own_count; ++own) {
    for (int opp = 0; opp < opp_count; ++opp) {
      GameContext context;
      context.scores = seat == 0 ? std::vector<int>{own, opp} : std::vector<int>{opp, own};
      context.seat = seat;
      absl::StatusOr<std::vector<double>> win = table.WinProbabilities(context);
      if (!win.ok()) return win.status();
      const double p = (*win)[seat];
      const double x = left + kCell * opp, y = top + grid_h - kCell * (own + 1);
      absl::StrAppend(&cells, "<rect x=\"", N(x), "\" y=\"", N(y), "\" width=\"", N(kCell),
                      "\" height=\"", N(kCell), "\" fill=\"", ViridisHex(p), "\" data-own=\"", own,
                      "\" data-opp=\"", opp, "\" data-win=\"", absl::StrFormat("%.9f", p),
                      "\"/>\n");
      std::string& text = ViridisLuminance(p) < 0.3 ? dark_text : light_text;
      absl::StrAppend(&text, "<text x=\"", N(x + kCell / 2), "\" y=\"", N(y + kCell / 2 + 3), "\">",
                      Percent(p), "</text>\n");
    }
  }
  svg.Raw(cells + "</g>\n" + dark_text + "</g>\n" + light_text + "</g>\n");
  svg.Rect(left, top, grid_w, grid_h, "fill=\"none\" stroke=\"#000000\" stroke-width=\"1\"");
  if (seat == 1) {
    // The final round: the opponent has reached the target.
    const double x = left + kCell * target;
    svg.Line(x, top - 6, x, top + grid_h, "stroke=\"#000000\" stroke-width=\"2.5\"");
    svg.Text(x + 4, top - 8, "final round: opponent reached 25 \u2192", "start", 11);
  }

  // Axes: ticks every 5 points, at cell centres.
  for (int v = 0; v < opp_count; v += 5) {
    const double x = left + kCell * v + kCell / 2;
    svg.Line(x, top + grid_h, x, top + grid_h + 5, "stroke=\"#000000\"");
    svg.Text(x, top + grid_h + 18, std::to_string(v), "middle", 12);
  }
  for (int v = 0; v < own_count; v += 5) {
    const double y = top + grid_h - kCell * v - kCell / 2;
    svg.Line(left - 5, y, left, y, "stroke=\"#000000\"");
    svg.Text(left - 8, y + 4, std::to_string(v), "end", 12);
  }
  svg.Text(left + grid_w / 2, top + grid_h + 38, "Opponent's score", "middle", 14,
           "font-weight=\"bold\"");
  const double ymid = top + grid_h / 2;
  svg.Text(24, ymid, "Your score (you are about to move)", "middle", 14,
           absl::StrCat("font-weight=\"bold\" transform=\"rotate(-90 24 ", N(ymid), ")\""));

  // Legend: a colour bar from 0% (bottom) to 100% (top).
  const double bar_x = left + grid_w + 30, bar_top = top + 20, bar_h = 260, bar_w = 18;
  std::string gradient =
      "<defs><linearGradient id=\"viridis\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">\n";
  for (int i = 0; i <= 10; ++i) {
    absl::StrAppend(&gradient, "<stop offset=\"", N(i / 10.0), "\" stop-color=\"",
                    ViridisHex(i / 10.0), "\"/>\n");
  }
  svg.Raw(gradient + "</linearGradient></defs>\n");
  svg.Text(bar_x - 4, bar_top - 10, "Chance to win", "start", 12, "font-weight=\"bold\"");
  svg.Rect(bar_x, bar_top, bar_w, bar_h, "fill=\"url(#viridis)\" stroke=\"#000000\"");
  for (int i = 0; i <= 4; ++i) {
    const double y = bar_top + bar_h - bar_h * i / 4.0;
    svg.Line(bar_x + bar_w, y, bar_x + bar_w + 5, y, "stroke=\"#000000\"");
    svg.Text(bar_x + bar_w + 8, y + 4, absl::StrCat(i * 25, "%"), "start", 12);
  }

  // Caption.
  absl::StatusOr<std::vector<double>> start = table.WinProbabilities(GameContext{{0, 0}, 0});
  std::vector<std::string> caption = {
      "Each square is your chance (in %) to win the game at the start of your turn, with your "
      "score up",
      "and the opponent's across, when both of you play to win. Darker squares are worse for you.",
  };
  if (seat == 0 && start.ok()) {
    caption.push_back(absl::StrFormat(
        "At the start of the game (0\u20130) the first player wins %s%% of games: moving first is "
        "a small handicap,",
        Percent((*start)[0])));
    caption.push_back("since the other player always gets a last turn.");
  } else {
    caption.push_back(
        "Moving second, you always get a last turn: right of the line the opponent has reached "
        "25 and you");
    caption.push_back("must overtake them in this very turn.");
  }
  svg.Caption(left - 60, top + grid_h + 66, caption);
  return svg.Finish();
}

// ---------------------------------------------------------------------------
// Stop chart.

namespace {

constexpr int kStopMaxLeft = 9;

// The set-aside of the stop chart with `left` dice left and `score` points:
// as many rays as tanks, `score` earthlings split evenly between humans and
// cows (two types: the bonus still open). Unset if no such set-aside exists.
std::optional<Dice> StopPosition(const Rules& rules, int left, int score) {
  const int rest = rules.dice - left - score;  // tanks + rays
  if (score < 2 || rest < 0 || rest % 2 != 0) return std::nullopt;
  return Dice(rest / 2, rest / 2, (score + 1) / 2, score / 2, 0);
}

}  // namespace

absl::StatusOr<std::string> StopChartSvg(const GameTable& table) {
  if (absl::Status status = CheckOfficial(table); !status.ok()) return status;
  const Rules& rules = table.rules();
  absl::StatusOr<TurnSolution> ev = TurnSolution::Solve(rules, Objective::ExpectedScore());
  if (!ev.ok()) return ev.status();
  const std::vector<Series> series = {
      {"most points on average (ev)", std::nullopt, "", "circle", true, "#440154"},
      {"to win, start of the game (0\u20130)", GameContext{{0, 0}, 0}, "9,5", "square", false,
       "#31688e"},
      {"to win, behind (15\u201320)", GameContext{{15, 20}, 0}, "2,4", "triangle", true, "#35b779"},
      {"to win, ahead (20\u201310)", GameContext{{20, 10}, 0}, "12,4,3,4", "diamond", false,
       "#000000"},
  };
  // threshold[k][left]: the smallest score that stops; -1: never stops.
  std::vector<std::vector<int>> threshold(series.size(), std::vector<int>(kStopMaxLeft + 1, -1));
  for (std::size_t k = 0; k < series.size(); ++k) {
    for (int left = 1; left <= kStopMaxLeft; ++left) {
      for (int score = 0; score <= rules.dice - left; ++score) {
        std::optional<Dice> aside = StopPosition(rules, left, score);
        if (!aside) continue;
        Then action;
        if (series[k].context) {
          absl::StatusOr<WinEval> eval = EvaluateWin(table, *series[k].context, *aside);
          if (!eval.ok()) return eval.status();
          action = eval->position.action;
        } else {
          absl::StatusOr<PositionEval> eval = EvaluatePosition(*ev, *aside);
          if (!eval.ok()) return eval.status();
          action = eval->action;
        }
        if (action != Then::kRoll) {
          threshold[k][left] = score;
          break;
        }
      }
    }
  }

  const int width = 820, height = 640;
  const double left = 80, top = 74, plot_w = 440, plot_h = 380;
  const int y_max = 12;                // scores 0..12, then the "never" row
  const double never_row = y_max + 2;  // drawn above a gap
  auto px = [&](double dice_left) { return left + plot_w * (dice_left - 0.5) / kStopMaxLeft; };
  auto py = [&](double score) { return top + plot_h - plot_h * score / (never_row + 0.8); };
  Svg svg(width, height, "When to stop: the smallest turn score worth keeping",
          "Line chart of the smallest turn score at which optimal play stops, by dice left to "
          "roll, with as many Death Rays as Tanks set aside and two earthling types taken.");
  svg.Heading("When to stop: the smallest turn score worth keeping",
              "Official rules; as many Death Rays as Tanks set aside, two earthling types taken "
              "(bonus still open)");
  // Grid and axes.
  for (int s = 0; s <= y_max; s += 2) {
    svg.Line(left, py(s), left + plot_w, py(s), "stroke=\"#dddddd\"");
    svg.Text(left - 8, py(s) + 4, std::to_string(s), "end", 12);
  }
  svg.Rect(left, py(never_row) - 14, plot_w, 28, "fill=\"#eeeeee\" stroke=\"none\"");
  svg.Text(left - 8, py(never_row) + 4, "never", "end", 12, "font-style=\"italic\"");
  svg.Line(left, top + plot_h, left + plot_w, top + plot_h, "stroke=\"#000000\"");
  svg.Line(left, top, left, top + plot_h, "stroke=\"#000000\"");
  for (int l = 1; l <= kStopMaxLeft; ++l) {
    svg.Line(px(l), top + plot_h, px(l), top + plot_h + 5, "stroke=\"#000000\"");
    svg.Text(px(l), top + plot_h + 19, std::to_string(l), "middle", 12);
  }
  svg.Text(left + plot_w / 2, top + plot_h + 40, "Dice left to roll", "middle", 14,
           "font-weight=\"bold\"");
  const double ymid = top + plot_h / 2;
  svg.Text(26, ymid, "Stop with this many points or more", "middle", 14,
           absl::StrCat("font-weight=\"bold\" transform=\"rotate(-90 26 ", N(ymid), ")\""));
  svg.Text(left + 8, top + plot_h - 10, "roll on below a line, stop on or above it", "start", 11,
           "fill=\"#555555\" font-style=\"italic\"");

  // Series: lines (dash pattern) and markers (shape), offset a little so that
  // equal thresholds stay visible.
  for (std::size_t k = 0; k < series.size(); ++k) {
    const Series& s = series[k];
    const double offset = (static_cast<double>(k) - 1.5) * 0.09;
    std::string points;
    for (int l = 1; l <= kStopMaxLeft; ++l) {
      const double y = threshold[k][l] < 0 ? never_row : threshold[k][l];
      absl::StrAppend(&points, N(px(l + offset)), ",", N(py(y)), " ");
    }
    svg.Raw(absl::StrCat("<polyline points=\"", points, "\" fill=\"none\" stroke=\"", s.colour,
                         "\" stroke-width=\"2\"",
                         s.dash.empty() ? "" : absl::StrCat(" stroke-dasharray=\"", s.dash, "\""),
                         " data-series=\"", k, "\" data-thresholds=\""));
    for (int l = 1; l <= kStopMaxLeft; ++l) {
      svg.Raw(absl::StrCat(l > 1 ? "," : "", threshold[k][l]));
    }
    svg.Raw("\"/>\n");
    for (int l = 1; l <= kStopMaxLeft; ++l) {
      const double y = threshold[k][l] < 0 ? never_row : threshold[k][l];
      Marker(svg, s, px(l + offset), py(y));
    }
  }

  // Legend, right of the plot.
  const double lx = left + plot_w + 30;
  double ly = top + 20;
  svg.Text(lx, ly, "Playing for", "start", 13, "font-weight=\"bold\"");
  for (const Series& s : series) {
    ly += 28;
    svg.Line(
        lx, ly - 4, lx + 44, ly - 4,
        absl::StrCat("stroke=\"", s.colour, "\" stroke-width=\"2\"",
                     s.dash.empty() ? "" : absl::StrCat(" stroke-dasharray=\"", s.dash, "\"")));
    Marker(svg, s, lx + 22, ly - 4);
    svg.Text(lx + 54, ly, s.label, "start", 12);
  }
  svg.Text(lx, ly + 30, "(your score\u2013opponent's, you first", "start", 11, "fill=\"#555555\"");
  svg.Text(lx, ly + 45, "in the round, both playing to win)", "start", 11, "fill=\"#555555\"");

  svg.Caption(left - 50, top + plot_h + 70,
              {"Read: you have as many Death Rays as Tanks set aside (one more Tank than Rays "
               "would lose the turn's points)",
               "and two earthling types. With this many dice left, stop once the turn is worth "
               "the marked score or more;",
               "below it, roll on. \u201cnever\u201d: optimal play rolls on at every score "
               "possible there. Each point is a real",
               "position (earthlings split evenly; equal values count as stop). With equal Tanks "
               "and Rays only every other",
               "score can occur for a given number of dice left, hence the zigzag. With all three "
               "earthling types set aside",
               "and Rays equal to Tanks, stop when playing for points: rolling on can only add "
               "Rays or Tanks."});
  return svg.Finish();
}

// ---------------------------------------------------------------------------
// Score distribution.

absl::StatusOr<std::string> DistributionSvg(const GameTable& table, const GameContext& context) {
  if (absl::Status status = CheckOfficial(table); !status.ok()) return status;
  if (absl::Status status = ValidateContext(table.rules(), kPlayers, context); !status.ok()) {
    return status;
  }
  const Rules& rules = table.rules();
  absl::StatusOr<TurnSolution> ev = TurnSolution::Solve(rules, Objective::ExpectedScore());
  if (!ev.ok()) return ev.status();
  absl::StatusOr<ScoreDistribution> ev_law = TurnScoreDistribution(*ev);
  if (!ev_law.ok()) return ev_law.status();
  absl::StatusOr<ScoreDistribution> win_law = TurnScoreDistribution(table, context);
  if (!win_law.ok()) return win_law.status();
  const int max_score = MaxTurnScore(rules);
  double top_p = 0;
  for (int s = 0; s <= max_score; ++s) {
    top_p = std::max({top_p, ev_law->probability[s], win_law->probability[s]});
  }
  const double step = top_p <= 0.4 ? 0.05 : (top_p <= 0.8 ? 0.1 : 0.2);
  const int steps = std::max(2, static_cast<int>(std::ceil(top_p / step - 1e-9)));
  const double y_top = step * steps;

  const int width = 860, height = 600;
  const double left = 80, top = 74, plot_w = 500, plot_h = 360;
  const double slot = plot_w / (max_score + 1);
  auto py = [&](double p) { return top + plot_h - plot_h * p / y_top; };
  Svg svg(width, height, "How many points a turn scores",
          "Bar chart of the probability of each final turn score under optimal play for the "
          "expected score and for winning the game.");
  svg.Heading("How many points a turn scores",
              absl::StrCat("Official rules; one turn played optimally, for points (ev) or to win "
                           "at ",
                           ContextText(context)));
  svg.Raw(
      "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
      "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fde725\"/>"
      "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#000000\" stroke-width=\"1.5\"/>"
      "</pattern></defs>\n");
  for (int i = 0; i <= steps; ++i) {
    const double p = step * i;
    svg.Line(left, py(p), left + plot_w, py(p), "stroke=\"#dddddd\"");
    svg.Text(left - 8, py(p) + 4, absl::StrCat(Percent(p), "%"), "end", 12);
  }
  const std::string ev_style = "fill=\"#3b528b\" stroke=\"#000000\" stroke-width=\"0.8\"";
  const std::string win_style = "fill=\"url(#hatch)\" stroke=\"#000000\" stroke-width=\"0.8\"";
  for (int s = 0; s <= max_score; ++s) {
    const double x = left + slot * s;
    const double bar = slot * 0.38;
    const double pe = ev_law->probability[s], pw = win_law->probability[s];
    svg.Rect(x + slot * 0.1, py(pe), bar, py(0) - py(pe),
             absl::StrCat(ev_style, " data-series=\"ev\" data-score=\"", s, "\" data-p=\"",
                          absl::StrFormat("%.9f", pe), "\""));
    svg.Rect(x + slot * 0.1 + bar + 1, py(pw), bar, py(0) - py(pw),
             absl::StrCat(win_style, " data-series=\"win\" data-score=\"", s, "\" data-p=\"",
                          absl::StrFormat("%.9f", pw), "\""));
    svg.Line(x + slot / 2, top + plot_h, x + slot / 2, top + plot_h + 5, "stroke=\"#000000\"");
    svg.Text(x + slot / 2, top + plot_h + 19, std::to_string(s), "middle", 12);
  }
  svg.Line(left, top + plot_h, left + plot_w, top + plot_h, "stroke=\"#000000\"");
  svg.Line(left, top, left, top + plot_h, "stroke=\"#000000\"");
  svg.Text(left + plot_w / 2, top + plot_h + 40, "Points scored by the turn", "middle", 14,
           "font-weight=\"bold\"");
  const double ymid = top + plot_h / 2;
  svg.Text(24, ymid, "Probability", "middle", 14,
           absl::StrCat("font-weight=\"bold\" transform=\"rotate(-90 24 ", N(ymid), ")\""));

  // Legend with the means.
  const double lx = left + plot_w + 25;
  double ly = top + 20;
  svg.Text(lx, ly, "Playing for", "start", 13, "font-weight=\"bold\"");
  ly += 26;
  LawLegend(svg, lx, ly, ev_style, "most points (ev)", *ev_law);
  ly += 42;
  LawLegend(svg, lx, ly, win_style, "to win", *win_law);
  svg.Text(lx + 30, ly + 30, ContextText(context), "start", 11, "fill=\"#444444\"");

  absl::StatusOr<std::vector<double>> chances = table.WinProbabilities(context);
  std::vector<std::string> caption = {
      "Each bar is the chance that a turn ends with exactly that many points. Dark bars: the "
      "turn played for the",
      "most points on average; hatched bars: played to win the game from the situation above "
      "(both playing to win).",
      "Exact laws: every roll's probability followed through every position of the turn.",
  };
  if (chances.ok()) {
    caption.push_back(absl::StrCat("At ", ContextText(context), ", the mover's chance to win is ",
                                   app::Percent((*chances)[context.seat]), "."));
  }
  svg.Caption(left - 50, top + plot_h + 70, caption);
  return svg.Finish();
}

// ---------------------------------------------------------------------------
// The pictures by name.

absl::StatusOr<GameContext> PlotContext(std::string_view kind,
                                        const std::optional<std::string>& scores,
                                        std::optional<int> seat) {
  if (scores && kind != "all" && kind != "distribution") {
    return InputError("scores", absl::StrCat("applies to the distribution picture only, not to ",
                                             std::string(kind)));
  }
  if (seat && kind == "stop") return InputError("seat", "does not apply to the stop picture");
  // Checked as a win query's: the official rules, both totals, the seat.
  QueryInput input;
  input.objective = Goal::Win().name();
  input.scores = scores.value_or("0,0");
  input.seat = seat;
  absl::StatusOr<Query> query = ParseQuery(input);
  if (!query.ok()) return query.status();
  if (query->players != kPlayers) {
    return InputError("scores", absl::StrCat("plot draws pictures of the 2-player game: give 2 "
                                             "totals, not ",
                                             query->players));
  }
  return *query->context;
}

absl::StatusOr<std::shared_ptr<const LoadedTable>> LoadPlotTable(
    Advisor& advisor, const std::optional<std::string>& tables) {
  absl::StatusOr<std::shared_ptr<const LoadedTable>> loaded =
      app::LoadTable(advisor, Rules{}, kPlayers, tables);
  if (!loaded.ok()) {  // e.g. a table of another number of players: said plainly
    return absl::InvalidArgumentError(
        absl::StrCat("plot draws pictures of the official 2-player game, from its table: ",
                     loaded.status().message()));
  }
  return loaded;
}

absl::StatusOr<std::string> PlotSvg(const GameTable& table, std::string_view kind,
                                    const GameContext& context) {
  if (kind == "heatmap") return HeatmapSvg(table, context.seat);
  if (kind == "stop") return StopChartSvg(table);
  if (kind == "distribution") return DistributionSvg(table, context);
  return absl::InvalidArgumentError(
      absl::StrCat("unknown picture '", std::string(kind), "'; use heatmap, stop or distribution"));
}

std::string PlotContextText(const GameContext& context) { return ContextText(context); }

}  // namespace martiandice
