#!/usr/bin/env python3
"""Runs the Python ctypes example (tools/examples/ctypes_example.py) against a
built libmartiandice_c and checks that docs/C_API.md shows the example's exact
text and exact output, so the documentation cannot drift from what runs.

Usage: check_ctypes_example.py LIBRARY EXAMPLE DOC
"""
import subprocess
import sys


def main():
    library, example, doc = sys.argv[1:4]
    run = subprocess.run([sys.executable, example, library], capture_output=True, text=True,
                         timeout=120)
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        print(f"FAILED: {example} exited with {run.returncode}")
        return 1
    with open(example, encoding="utf-8") as f:
        code = f.read()
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    failed = False
    if f"```python\n{code}```\n" not in text:
        print(f"FAILED: {doc} does not show {example} verbatim in a ```python block")
        failed = True
    if f"```\n{run.stdout}```\n" not in text:
        print(f"FAILED: {doc} does not show the example's output verbatim; it printed:")
        print(run.stdout, end="")
        failed = True
    if not failed:
        print(f"{doc} shows {example} and its output ({len(run.stdout.splitlines())} lines)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
