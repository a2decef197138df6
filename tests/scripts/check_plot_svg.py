#!/usr/bin/env python3
"""Checks `martiandice plot` end to end, through the real executable.

Draws the three pictures (into a fresh directory, and one with --scores), then
for each SVG: well-formed XML (xml.etree), the expected title, axis titles,
tick labels and legend; the heat map's cell values spot-checked against
`martiandice eval --objective win --json` (a different code path: the query,
not the table walk); the distribution's bars summing to 1 with the ev mean
equal to `martiandice eval --json`'s value; every fill and stroke colour
distinguishable in grey scale where it must be; and each SVG renders to PNG
with rsvg-convert (Debian librsvg2-bin) at the SVG's declared size.
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run(cli, *args):
    proc = subprocess.run([cli, *args], capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def texts(root):
    return ["".join(t.itertext()) for t in root.iter(SVG + "text")]


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    check(head[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG")
    return struct.unpack(">II", head[16:24])


def render(svg_path, workdir):
    png = os.path.join(workdir, os.path.basename(svg_path) + ".png")
    proc = subprocess.run(["rsvg-convert", "-o", png, svg_path], capture_output=True, text=True)
    check(proc.returncode == 0, f"rsvg-convert {svg_path}: {proc.stderr.strip()}")
    return png


def luminance(hex_colour):
    def lin(c):
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def check_common(path, title, labels, workdir):
    tree = ET.parse(path)  # raises on malformed XML
    root = tree.getroot()
    check(root.tag == SVG + "svg", f"{path}: root is not <svg>")
    check(root.findtext(SVG + "title") == title, f"{path}: <title> is not {title!r}")
    all_text = "\n".join(texts(root))
    for label in labels:
        check(label in all_text, f"{path}: label {label!r} missing")
    width, height = int(root.get("width")), int(root.get("height"))
    png = render(path, workdir)
    if os.path.exists(png):
        check(png_size(png) == (width, height),
              f"{path}: PNG is {png_size(png)}, expected {(width, height)}")
    return root


def check_heatmap(cli, path, workdir, tables):
    root = check_common(path, "Chance to win for the player about to move",
                        ["Opponent's score", "Your score (you are about to move)", "Chance to win",
                         "0%", "50%", "100%", "0", "5", "10", "15", "20"], workdir)
    cells = [r for r in root.iter(SVG + "rect") if r.get("data-win") is not None]
    check(len(cells) == 25 * 25, f"heat map: {len(cells)} cells, expected 625")
    by_scores = {(int(c.get("data-own")), int(c.get("data-opp"))): c for c in cells}
    for own, opp in [(0, 0), (18, 22), (24, 0), (0, 24), (12, 7), (24, 24)]:
        code, out, err = run(cli, "eval", "--objective", "win", "--scores", f"{own},{opp}",
                             "--seat", "0", "--json", "--tables", tables)
        check(code == 0, f"eval {own},{opp}: {err}")
        expected = json.loads(out)["win_probabilities"][0]
        cell = by_scores.get((own, opp))
        check(cell is not None, f"heat map: no cell for {own},{opp}")
        if cell is not None:
            got = float(cell.get("data-win"))
            check(abs(got - expected) < 1e-8, f"heat map {own},{opp}: {got} vs eval {expected}")
    # Colours: darker (lower luminance) for lower chances, everywhere.
    pairs = sorted((float(c.get("data-win")), luminance(c.get("fill"))) for c in cells)
    check(all(b[1] >= a[1] - 1e-3 for a, b in zip(pairs, pairs[1:])),
          "heat map: luminance is not monotonic in the chance to win")


def check_seat1_heatmap(path, workdir):
    root = check_common(path, "Chance to win for the player about to move",
                        ["final round", "Opponent's score"], workdir)
    cells = [r for r in root.iter(SVG + "rect") if r.get("data-win") is not None]
    check(len(cells) == 25 * 41, f"seat-1 heat map: {len(cells)} cells, expected 1025")


def check_stop(path, workdir):
    root = check_common(path, "When to stop: the smallest turn score worth keeping",
                        ["Dice left to roll", "Stop with this many points or more", "never",
                         "Playing for", "most points on average (ev)",
                         "to win, start of the game (0\u20130)", "to win, behind (15\u201320)",
                         "to win, ahead (20\u201310)"], workdir)
    lines = [p for p in root.iter(SVG + "polyline") if p.get("data-series") is not None]
    check(len(lines) == 4, f"stop chart: {len(lines)} series, expected 4")
    # Grey scale: every series has its own dash pattern (solid included).
    dashes = [p.get("stroke-dasharray", "") for p in lines]
    check(len(set(dashes)) == len(dashes), f"stop chart: dash patterns not distinct: {dashes}")
    for p in lines:
        values = [int(v) for v in p.get("data-thresholds").split(",")]
        check(len(values) == 9, "stop chart: 9 thresholds per series")
        check(any(v >= 0 for v in values), "stop chart: a series that never stops")


def check_distribution(cli, path, workdir, tables, context_label):
    root = check_common(path, "How many points a turn scores",
                        ["Points scored by the turn", "Probability", "Playing for",
                         "most points (ev)", "to win", context_label, "16"], workdir)
    for series in ("ev", "win"):
        bars = {int(r.get("data-score")): float(r.get("data-p"))
                for r in root.iter(SVG + "rect") if r.get("data-series") == series}
        check(sorted(bars) == list(range(17)), f"distribution {series}: scores 0..16")
        check(abs(sum(bars.values()) - 1) < 1e-6, f"distribution {series}: sums to 1")
        if series == "ev":
            code, out, err = run(cli, "eval", "--json")
            check(code == 0, f"eval: {err}")
            mean = sum(s * p for s, p in bars.items())
            check(abs(mean - json.loads(out)["value"]) < 1e-6,
                  f"distribution ev mean {mean} vs eval {json.loads(out)['value']}")
    fills = {r.get("fill") for r in root.iter(SVG + "rect") if r.get("data-series")}
    check(len(fills) == 2 and "url(#hatch)" in fills,
          f"distribution: series need a solid and a hatched fill, got {fills}")


def check_errors(cli, workdir, tables):
    cases = [
        ["plot", "pie", "--out", workdir],
        # A folder of --out that is a file (missing folders are created).
        ["plot", "heatmap", "--out", os.path.join(workdir, "heatmap.svg", "x.svg")],
        ["plot", "distribution", "--scores", "1,2,3", "--out", workdir],
        ["plot", "--out", os.path.join(workdir, "heatmap.svg")],
        ["plot", "distribution", "--scores", "0,30", "--seat", "0", "--out", workdir],
        ["plot", "distribution", "--scores", "45,0", "--seat", "1", "--out", workdir],
        ["plot", "distribution", "--scores", "1,2,x", "--out", workdir],
        ["plot", "heatmap", "--seat", "2", "--out", workdir],
        ["plot", "stop", "--scores", "1,2", "--out", workdir],
        ["plot", "heatmap", "--out", workdir, "--tables", os.path.join(workdir, "nope.mdt")],
    ]
    for args in cases:
        code, out, err = run(cli, *args)
        check(code == 2 and out == "" and err.startswith("martiandice: error: ")
              and err.count("\n") == 1, f"{args}: exit {code}, stdout {out!r}, stderr {err!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--tables", required=True)
    args = parser.parse_args()
    if shutil.which("rsvg-convert") is None:
        print("FAIL: rsvg-convert not found (Debian package librsvg2-bin; tools/install-deps.sh)")
        return 1
    workdir = tempfile.mkdtemp(prefix="martiandice-plot-")
    try:
        code, out, err = run(args.cli, "plot", "--out", workdir, "--tables", args.tables)
        check(code == 0 and err == "", f"plot all: exit {code}, {err}")
        check(out.count("Wrote ") == 3, f"plot all: summary {out!r}")
        check_heatmap(args.cli, os.path.join(workdir, "heatmap.svg"), workdir, args.tables)
        check_stop(os.path.join(workdir, "stop.svg"), workdir)
        check_distribution(args.cli, os.path.join(workdir, "distribution.svg"), workdir,
                           args.tables, "scores 0\u20130, seat 0 to move")
        one = os.path.join(workdir, "behind.svg")
        code, out, err = run(args.cli, "plot", "distribution", "--scores", "25,21", "--seat", "1",
                             "--out", one, "--tables", args.tables)
        check(code == 0, f"plot distribution --scores 25,21: {err}")
        check_distribution(args.cli, one, workdir, args.tables, "scores 25\u201321, seat 1 to move")
        seat1 = os.path.join(workdir, "seat1.svg")
        code, out, err = run(args.cli, "plot", "heatmap", "--seat", "1", "--out", seat1,
                             "--tables", args.tables)
        check(code == 0, f"plot heatmap --seat 1: {err}")
        check_seat1_heatmap(seat1, workdir)
        nested = os.path.join(workdir, "missing", "x.svg")
        code, out, err = run(args.cli, "plot", "heatmap", "--out", nested, "--tables", args.tables)
        check(code == 0 and os.path.getsize(nested) > 1000,
              f"plot heatmap into a missing folder: exit {code}, {err}")
        check(not [f for f in os.listdir(workdir) if ".tmp." in f],
              "temporary files left behind")
        check_errors(args.cli, workdir, args.tables)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("plot SVG checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
