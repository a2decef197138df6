#!/usr/bin/env python3
"""Runs the README's examples and checks their output is the README's.

Every fenced block marked ```console is a terminal session: a line starting with "$ " is a
command, the lines after it (up to the next command or the block's end) are what it prints on
standard output. Each command runs with bash in the repository's root, with the build's bin/
folder first on PATH (so `martiandice` is the freshly built one) and $MARTIANDICE_DATA unset.
Before comparing, the repository's absolute path followed by "/" is removed from the output
(a table is shown as data/martiandice-...), trailing blanks are dropped, and on lines that
report times or thread-dependent counts (they mention "time", "elapsed", "seconds" or "turn
solves") every number is masked. /tmp/martiandice-readme is emptied first: the
examples that write files write there.

    tests/scripts/check_readme.py README.md BUILD_BIN_DIR [--update]
    tests/scripts/check_readme.py docs/CLI.md BUILD_BIN_DIR [--update]

--update writes each command's actual output into the README instead (for the maintainer
after a change of output; review the diff).
"""

import os
import re
import shutil
import subprocess
import sys

VOLATILE = re.compile(r"time|elapsed|seconds|turn solves", re.IGNORECASE)
NUMBER = re.compile(r"\d+(\.\d+)?(e[-+]?\d+)?")
SCRATCH = "/tmp/martiandice-readme"


def sessions(text):
    """Yields (line number, command, expected output lines) of every console block."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```console":
            i += 1
            continue
        i += 1
        command = None
        output = []
        start = i
        while i < len(lines) and lines[i].strip() != "```":
            line = lines[i]
            if line.startswith("$ "):
                if command is not None:
                    yield start, command, output
                command, output, start = line[2:], [], i + 1
            elif command is not None:
                output.append(line)
            i += 1
        if command is not None:
            yield start, command, output
        i += 1


def normalize(lines, root):
    out = []
    for line in lines:
        line = line.replace(root + "/", "").rstrip()
        if VOLATILE.search(line):
            line = NUMBER.sub("#", line)
        out.append(line)
    while out and out[-1] == "":
        out.pop()
    return out


def main():
    readme, bin_dir = sys.argv[1], os.path.abspath(sys.argv[2])
    update = "--update" in sys.argv[3:]
    # The repository's root: the file's folder, or its parent for docs/*.md.
    root = os.path.dirname(os.path.abspath(readme))
    if os.path.basename(root) == "docs":
        root = os.path.dirname(root)
    shutil.rmtree(SCRATCH, ignore_errors=True)
    os.makedirs(SCRATCH)
    env = dict(os.environ)
    env.pop("MARTIANDICE_DATA", None)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    failures = 0
    count = 0
    lines = text.split("\n")
    replacements = []  # (first output line, line count, new lines), last first
    for line, command, expected in sessions(text):
        count += 1
        run = subprocess.run(["bash", "-c", command], cwd=root, env=env, capture_output=True,
                             text=True, timeout=600)
        if update:
            actual = [l.replace(root + "/", "").rstrip() for l in run.stdout.split("\n")]
            while actual and actual[-1] == "":
                actual.pop()
            blanks = 0  # the blank lines that separate it from the next command
            while blanks < len(expected) and not expected[-1 - blanks].strip():
                blanks += 1
            replacements.insert(0, (line, len(expected), actual + [""] * blanks))
            continue
        got = normalize(run.stdout.split("\n"), root)
        want = normalize(expected, root)
        if got != want:
            failures += 1
            print(f"README line {line}: $ {command}", file=sys.stderr)
            print(f"  exit status {run.returncode}; stderr: {run.stderr.strip()[:400]}",
                  file=sys.stderr)
            for k in range(max(len(got), len(want))):
                g = got[k] if k < len(got) else "<none>"
                w = want[k] if k < len(want) else "<none>"
                if g != w:
                    print(f"  first difference at output line {k + 1}:\n    README: {w}\n"
                          f"    actual: {g}", file=sys.stderr)
                    break
    if count == 0:
        print("check_readme: no ```console block found", file=sys.stderr)
        return 1
    if update:
        for first, length, actual in replacements:
            lines[first:first + length] = actual
        with open(readme, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        print(f"check_readme: wrote the output of {count} examples into {readme}")
        return 0
    print(f"check_readme: {count - failures} of {count} examples match")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
