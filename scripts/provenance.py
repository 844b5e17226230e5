#!/usr/bin/env python3
"""provenance: which simulation printed a result, and whether HEAD's is still the same.

The simulator's *sources fingerprint* is a hash over every file that can shape
a result: the C model and harness (sim/), the RTL that is verilated into it
(rtl/), the kernels it runs (sw/) and the machine descriptions (configs/).
Each file enters as its git blob id, so the fingerprint of any commit comes
from `git ls-tree` without a checkout and the working tree's from the files
alone (no git needed).  The build compiles it into every program
(fg_sources_fingerprint), every JSON a program writes carries it as
"sources", the sweep runner records the points' value in the experiment's
result, and scripts/figures.py docs writes it, with the commit it resolves
to, under every generated table of docs/RESULTS.md.

    provenance.py fingerprint [--commit C]   # prints the fingerprint
    provenance.py c-source                   # the generated fg_sources.c (make)
    provenance.py commit FP                  # the oldest commit of HEAD's history with that source state
    provenance.py check [--doc docs/RESULTS.md]
        # every generated table names its sources; a table whose sources differ from
        # this tree's carries the visible stale line, and only such a table does

Python 3 standard library only.
"""
import argparse
import hashlib
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_DIRS = ("configs", "rtl", "sim", "sw")
# Not sources of any result: the RTL SIMT core is simulated by its own tests
# only (tests/test_simt_rtl.c), no program that prints a result runs it; it
# joins the fingerprint the day one does.  tests/results/test_provenance.py
# checks that no verilated block of the programs takes a file from here.
EXCLUDE_DIRS = ("rtl/simt",)
PATHSPEC = SOURCE_DIRS + tuple(f":(exclude){d}" for d in EXCLUDE_DIRS)


def excluded(path):
    return any(path == d or path.startswith(d + "/") for d in EXCLUDE_DIRS)
SKIP_DIRS = {"__pycache__"}
SHORT = 16  # hex digits written in docs: 64 bits, plenty for telling source states apart

# a generated block of a doc (scripts/figures.py docs writes them)
BLOCK = re.compile(r"(<!-- BEGIN generated: (\S+) -->\n)(.*?)(<!-- END generated: \2 -->)", re.S)
# one line under a generated table: what the points were run with
PROV_RE = re.compile(r"<!-- provenance: sources=(?P<fp>[0-9a-f]+|none) commit=(?P<commit>\S+) -->")
STALE_MARK = "**Stale:**"


class ProvenanceError(Exception):
    pass


def git(*args, check=True):
    r = subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True)
    if check and r.returncode:
        raise ProvenanceError(f"git {' '.join(args)}: {r.stderr.strip() or 'exit ' + str(r.returncode)}")
    return r.stdout if r.returncode == 0 else None


def blob_id(path):
    with open(path, "rb") as f:
        data = f.read()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def tree_entries():
    """(path, blob id) of the working tree's source files."""
    out = []
    for d in SOURCE_DIRS:
        for dirpath, dirnames, files in os.walk(os.path.join(ROOT, d)):
            dirnames[:] = sorted(x for x in dirnames if x not in SKIP_DIRS)
            for name in files:
                p = os.path.join(dirpath, name)
                if os.path.isfile(p) and not os.path.islink(p) and not excluded(os.path.relpath(p, ROOT)):
                    out.append((os.path.relpath(p, ROOT), blob_id(p)))
    return out


def commit_entries(commit):
    """(path, blob id) of the source files of a commit."""
    out = []
    for line in git("ls-tree", "-r", commit, "--", *SOURCE_DIRS).splitlines():
        meta, path = line.split("\t", 1)
        mode, kind, oid = meta.split()
        if kind == "blob" and mode != "120000" and not excluded(path):
            out.append((path, oid))
    return out


def digest(entries):
    h = hashlib.sha256()
    for path, oid in sorted(entries):
        h.update(f"{oid} {path}\n".encode())
    return h.hexdigest()


def fingerprint(commit=None):
    return digest(commit_entries(commit) if commit else tree_entries())


def resolve_commit(fp, limit=2000):
    """The oldest commit in HEAD's history whose sources have fingerprint fp (the commit that
    made that source state), or None.  Only commits touching the sources change it."""
    if git("rev-parse", "--git-dir", check=False) is None:
        return None
    found = None
    revs = git("rev-list", f"--max-count={limit}", "HEAD", "--", *PATHSPEC, check=False) or ""
    for c in revs.split():
        if fingerprint(c).startswith(fp):
            found = c
        elif found:
            break
    return found[:7] if found else None


def short(fp):
    return fp[:SHORT] if fp else "none"


def provenance_line(fp, commit):
    return f"<!-- provenance: sources={short(fp)} commit={commit or 'unknown'} -->"


def visible_line(fp, commit, head_fp):
    """What a reader sees under a table: the commit of its points, and whether HEAD still simulates the same."""
    if not fp:
        return (f"{STALE_MARK} *the points come from more than one simulation, or some were not run; "
                f"these figures await a rerun.*")
    at = f"commit {commit}" if commit else "sources not in this history"
    if head_fp.startswith(fp):
        return f"*Points run at {at} (sources {short(fp)}, the same as this tree's).*"
    since = (f" (`git diff --stat {commit} -- {' '.join(SOURCE_DIRS)}` shows how)" if commit else "")
    return (f"{STALE_MARK} *points run at {at} (sources {short(fp)}); the simulator has changed since{since}, "
            f"so these figures await a rerun.*")


def restamp(block, head_fp):
    """A generated block kept as it is, its visible provenance line rewritten for this tree (a table
    that was current and no longer is gets its Stale line; the figures stay the ones printed)."""
    p = PROV_RE.search(block)
    if not p:
        return block
    fp = None if p.group("fp") == "none" else p.group("fp")
    commit = None if p.group("commit") == "unknown" else p.group("commit")
    lines = block.split("\n")
    i = next((k for k, ln in enumerate(lines) if ln.startswith(("*Points run at", STALE_MARK))), None)
    if i is None:
        return block
    lines[i] = visible_line(fp, commit, head_fp)
    return "\n".join(lines)


def changed_files(commit):
    if not commit or commit == "unknown":
        return None
    out = git("diff", "--name-only", commit, "--", *PATHSPEC, check=False)
    return out.split() if out is not None else None


def cmd_check(doc):
    with open(doc) as f:
        text = f.read()
    head = fingerprint()
    bad, fresh_n = [], 0
    rel = os.path.relpath(doc, ROOT)
    for m in BLOCK.finditer(text):
        name, body = m.group(2), m.group(3)
        p = PROV_RE.search(body)
        if not p:
            bad.append(f"{rel}: table {name} names no sources (regenerate it: scripts/figures.py docs)")
            continue
        fp, commit = p.group("fp"), p.group("commit")
        fresh = fp != "none" and head.startswith(fp)
        marked = STALE_MARK in body
        if fresh and marked:
            bad.append(f"{rel}: table {name} says it is stale but its sources ({fp}) are this tree's: "
                       f"regenerate it (scripts/figures.py docs)")
        elif not fresh and not marked:
            files = changed_files(commit)
            what = (f"{len(files)} source file(s) changed since commit {commit}: {', '.join(files[:5])}"
                    f"{' ...' if len(files) > 5 else ''}" if files else f"its sources {fp} are not this tree's {short(head)}")
            by = re.search(r"written by (`[^`]+`)", body)
            bad.append(f"{rel}: table {name} is stale and not marked so: {what}; rerun its points "
                       f"({by.group(1) if by else 'make results'}) and scripts/figures.py docs (which marks "
                       f"the tables it has no results for stale)")
        fresh_n += fresh
    for b in bad:
        print(f"provenance: {b}", file=sys.stderr)
    n = len(BLOCK.findall(text))
    print(f"provenance: {rel}: {n} generated tables, {fresh_n} from this tree's sources ({short(head)}), "
          f"{n - fresh_n} not{'' if not bad else f'; {len(bad)} wrong'}")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fingerprint")
    f.add_argument("--commit")
    sub.add_parser("c-source")
    c = sub.add_parser("commit")
    c.add_argument("fp")
    k = sub.add_parser("check")
    k.add_argument("--doc", default=os.path.join(ROOT, "docs", "RESULTS.md"))
    a = ap.parse_args()
    try:
        if a.cmd == "fingerprint":
            print(fingerprint(a.commit))
        elif a.cmd == "c-source":
            print("/* generated by scripts/provenance.py c-source: the simulator's sources fingerprint */\n"
                  '#include "fg_sources.h"\n'
                  f'const char fg_sources_fingerprint[] = "{fingerprint()}";')
        elif a.cmd == "commit":
            print(resolve_commit(a.fp) or "unknown")
        else:
            return cmd_check(a.doc)
    except (ProvenanceError, OSError) as e:
        print(f"provenance: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
