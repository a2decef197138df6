#!/usr/bin/env python3
"""Checks that every link of the README and docs/ resolves inside the repository.

A Markdown link or image [text](target) whose target is not a web address must name a file or
folder of the repository (relative to the document), and its #anchor, if any, a heading of that
file (GitHub's rule: lower case, punctuation dropped, spaces as hyphens). Links to web addresses
are reported as errors too: the documents must work offline, from a clone.

    tests/scripts/check_links.py REPOSITORY_ROOT
"""

import os
import re
import sys

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*)$")


def anchors(path):
    """The anchors GitHub gives the headings of a Markdown file."""
    found = set()
    counts = {}
    in_code = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
                continue
            m = None if in_code else HEADING.match(line.rstrip("\n"))
            if not m:
                continue
            text = m.group(1).strip().lower()
            slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
            n = counts.get(slug, 0)
            counts[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def documents(root):
    yield os.path.join(root, "README.md")
    for dirpath, _, names in os.walk(os.path.join(root, "docs")):
        for name in sorted(names):
            if name.endswith(".md"):
                yield os.path.join(dirpath, name)


def main():
    root = os.path.abspath(sys.argv[1])
    errors = 0
    links = 0
    for doc in documents(root):
        with open(doc, encoding="utf-8") as f:
            text = f.read()
        # Code blocks hold commands and output, not links.
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in LINK.findall(text):
            links += 1
            where = os.path.relpath(doc, root)
            if re.match(r"[a-z]+://", target) or target.startswith("mailto:"):
                print(f"{where}: link to outside the repository: {target}", file=sys.stderr)
                errors += 1
                continue
            path, _, anchor = target.partition("#")
            file = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            if not file.startswith(root) or not os.path.exists(file):
                print(f"{where}: {target}: no such file in the repository", file=sys.stderr)
                errors += 1
            elif anchor and file.endswith(".md") and anchor not in anchors(file):
                print(f"{where}: {target}: no heading #{anchor} in {os.path.relpath(file, root)}",
                      file=sys.stderr)
                errors += 1
    print(f"check_links: {links - errors} of {links} links resolve")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
