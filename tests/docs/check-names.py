#!/usr/bin/env python3
"""Every name the documents give in backquotes must still be there.

usage: check-names.py SOURCE_ROOT [FAIRWAY]

The documents (docs/*.md, CONTRIBUTING.md, README.md) name functions,
files and flags in `code` spans, for a reader to look up. A span is
checked when it is one of:

- a flag: a span that starts with --, or with "fairway " (its --flags):
  each flag must be in FAIRWAY's -h output (skipped without FAIRWAY);
- a file: one word with a / or a name ending in .c, .h, .md, .sh, .py,
  .xml or .build, * as a wildcard: a file or folder of the tree, by its
  path from the root or the end of one (`sched/client.c`, `gate.c`);
  a command's words that start with a top folder of the tree too;
- a symbol: a C identifier with an underscore, optionally followed by
  (...), or ending in _ or _* for a prefix, `struct NAME`, `enum NAME`,
  or a member path (`transport->attach`, `wl_display.error`): each
  identifier must be in the code of the tree (C comments left out), or
  in the installed headers and protocol XML that fairway builds against
  (wlroots, libwayland, libc, the kernel's).

Placeholders (<...>, {...}, $VAR, PID, ~) and absolute paths are not
checked. names-allowed.txt lists the few names that exist only outside
both (wlroots' static functions, a kernel option), each with why.
"""

import fnmatch
import os
import re
import subprocess
import sys

DOCS_EXTRA = ["CONTRIBUTING.md", "README.md"]
FILE_EXTS = (".c", ".h", ".md", ".sh", ".py", ".xml", ".build")
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
SKIP_DIRS = {".git", "subprojects", "__pycache__"}
# Installed headers and protocols fairway builds against.
SYSTEM_HEADER_DIRS = [
    "usr/include/wlroots-0.18",
    "usr/include/linux",
    "usr/include/x86_64-linux-gnu",
    "usr/include/xkbcommon",
    "usr/share/wayland",
    "usr/share/wayland-protocols",
]


def tracked_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = [
            d
            for d in dirnames
            if d not in SKIP_DIRS
            and not (rel == "." and d.startswith("build"))
        ]
        for name in filenames:
            yield os.path.normpath(os.path.join(rel, name))


def strip_c_comments(text):
    return re.sub(
        r"/\*.*?\*/|//[^\n]*|(\"(?:\\.|[^\"\\\n])*\")",
        lambda m: m.group(1) or " ",
        text,
        flags=re.S,
    )


def code_identifiers(root, files):
    """Identifiers in the tree's code: C with comments left out, and the
    build files, scripts and protocol XML."""
    words = set()
    for path in files:
        if path.endswith((".md", ".scd.in", ".png", ".txt")):
            continue
        try:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        if path.endswith((".c", ".h")):
            text = strip_c_comments(text)
        words.update(re.findall(IDENT, text))
    return words


def system_identifiers(sysroot):
    words = set()
    paths = []
    inc = os.path.join(sysroot, "usr/include")
    if os.path.isdir(inc):
        paths += [os.path.join(inc, n) for n in os.listdir(inc) if n.endswith(".h")]
    for d in SYSTEM_HEADER_DIRS:
        for dirpath, _, filenames in os.walk(os.path.join(sysroot, d)):
            paths += [
                os.path.join(dirpath, n)
                for n in filenames
                if n.endswith((".h", ".xml"))
            ]
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                words.update(re.findall(IDENT, f.read()))
        except OSError:
            pass
    return words


def load_allowed(path):
    allowed = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                allowed.add(line)
    return allowed


def doc_spans(root):
    docs = sorted(
        os.path.join("docs", n)
        for n in os.listdir(os.path.join(root, "docs"))
        if n.endswith(".md")
    )
    docs += [d for d in DOCS_EXTRA if os.path.exists(os.path.join(root, d))]
    for doc in docs:
        with open(os.path.join(root, doc), encoding="utf-8") as f:
            text = f.read()
        in_fence = False
        for number, line in enumerate(text.split("\n"), 1):
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            for span in re.findall(r"`([^`]+)`", line):
                yield doc, number, span.strip()


def is_placeholder(word):
    return bool(
        re.search(r"[<>{}$~]|\.\.\.|\b(PID|TID|N|NAME|FILE|COMMAND|ARGS)\b", word)
    )


class Checker:
    def __init__(self, root, fairway, allowed):
        self.root = root
        self.files = sorted(tracked_files(root))
        self.dirs = set()
        for path in self.files:
            parts = path.split("/")
            for i in range(1, len(parts)):
                self.dirs.add("/".join(parts[:i]))
        self.top = {p.split("/")[0] for p in self.files if "/" in p}
        self.words = code_identifiers(root, self.files)
        self.system = None
        self.allowed = allowed
        self.help = None
        if fairway:
            out = subprocess.run(
                [fairway, "-h"], capture_output=True, text=True, check=False
            )
            self.help = set(re.findall(r"--[a-z][a-z0-9-]*", out.stdout + out.stderr))

    def system_words(self):
        if self.system is None:
            self.system = system_identifiers(os.environ.get("FW_SYSROOT", "/"))
        return self.system

    # Files.
    def file_exists(self, path):
        path = path.rstrip("/")
        if path in self.allowed:
            return True
        if "*" in path:
            return any(
                fnmatch.fnmatch(f, path) or fnmatch.fnmatch(f, "*/" + path)
                for f in self.files
            )
        if path in self.dirs or os.path.exists(os.path.join(self.root, path)):
            return True
        tail = "/" + path
        return any(f.endswith(tail) for f in self.files) or any(
            d.endswith(tail) for d in self.dirs
        )

    # Symbols.
    def identifier_exists(self, name):
        if name in self.allowed:
            return True
        if name.endswith("_"):
            return any(w.startswith(name) for w in self.words) or any(
                w.startswith(name) for w in self.system_words()
            )
        if name in self.words or name in self.system_words():
            return True
        # A constant by its short name (`HUNG_UP`, CONNECTION_HUNG_UP).
        if re.fullmatch(r"[A-Z0-9_]+", name):
            return any(w.endswith("_" + name) for w in self.words)
        return False

    def check(self, span):
        """The names of span that are not there, or [] if all are (or
        span is not a name)."""
        if span in self.allowed:
            return []
        words = span.split()
        # Flags.
        if span.startswith("--") or (words[0] == "fairway" and len(words) > 1):
            if self.help is None:
                return []
            flags = [w.split("=")[0] for w in words if w.startswith("--")]
            return [f for f in flags if f not in self.help and f not in self.allowed]
        # A command: its words that are paths of the tree.
        if len(words) > 1 and not re.match(r"^(struct|enum)\s", span):
            missing = []
            for w in words:
                w = w.rstrip(".,;")
                if (
                    "/" in w
                    and w.split("/")[0] in self.top
                    and not is_placeholder(w)
                    and not self.file_exists(w)
                ):
                    missing.append(w)
            return missing
        if is_placeholder(span) or span.startswith("/"):
            return []
        # Files.
        if "/" in span or (span.endswith(FILE_EXTS) and len(span) > 4):
            if re.fullmatch(r"[\w.*+-]+(/[\w.*+-]*)*", span):
                return [] if self.file_exists(span) else [span]
            return []
        # Symbols.
        m = re.fullmatch(r"(?:struct|enum)\s+(" + IDENT + ")", span)
        if m:
            return [] if self.identifier_exists(m.group(1)) else [span]
        m = re.fullmatch(r"(" + IDENT + r")(\*|\(.*\))?", span)
        if m:
            name, rest = m.group(1), m.group(2)
            if rest == "*":
                name = name if name.endswith("_") else None
            if name is None:
                return []
            if "_" not in name.strip("_") and not rest:
                return []
            if re.fullmatch(r"[A-Z][A-Za-z0-9]*", name):
                return []
            return [] if self.identifier_exists(name) else [name]
        m = re.fullmatch(IDENT + r"((->|\.)" + IDENT + ")+", span)
        if m:
            parts = re.split(r"->|\.", span)
            if not any("_" in p for p in parts):
                return []
            return [p for p in parts if not self.identifier_exists(p)]
        return []


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    root = sys.argv[1]
    fairway = sys.argv[2] if len(sys.argv) == 3 else None
    here = os.path.dirname(os.path.abspath(__file__))
    allowed = load_allowed(os.path.join(here, "names-allowed.txt"))
    checker = Checker(root, fairway, allowed)
    failures = 0
    for doc, line, span in doc_spans(root):
        for name in checker.check(span):
            where = "fairway -h" if name.startswith("--") else "the tree"
            print(f"{doc}:{line}: `{span}`: no {name} in {where}")
            failures += 1
    if checker.help is None:
        print("no fairway given: flags not checked")
    if failures:
        print(f"{failures} names the documents give are not there")
        return 1
    print("every name the documents give is there")
    return 0


if __name__ == "__main__":
    sys.exit(main())
