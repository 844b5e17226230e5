#!/usr/bin/env python3
"""make coverage (docs/COVERAGE.md): merges the .dat files
the COV=1 models wrote during the test run with verilator_coverage, writes the
lcov report (verilator_coverage --write-info, genhtml) and results/coverage.json
with each block's line and toggle coverage.

    coverage.py --dat DIR --out DIR --json FILE [--show BLOCK] [--only BLOCK] GROUP...

GROUP is `block=glob,glob...` (source files of the block, mk/cov.mk).  A
coverage point is counted once per source location, whichever instance,
configuration or test hit it (the hierarchy key is dropped when merging):
  line   - the points --coverage-line makes: every statement block (v_line)
           and every if/else/case arm (v_branch); covered when executed once.
  toggle - one point per bit of every signal (v_toggle); covered when it
           toggled both ways (count >= 2: every model starts at 0,
           --x-initial 0, so toggles alternate 0->1, 1->0).
--exclude FILE lists toggle points that cannot toggle by design, each with
its reason (tests/coverage_exclude.txt); they are left out of the figures and
counted as `toggle_excluded`.
Excluded points that toggled anyway are counted as `toggle_excluded_covered`
(and listed by --show): an exclusion whose reason no longer holds shows.
--only BLOCK (repeatable; make coverage COV_ONLY=...) reports only those
blocks: the run that measured them need not have reached the others, and an
exclusion of theirs that matches no point is listed, not an error (the subset
of tests may not build the model that has it).
--goal KIND=PERCENT (line=95, toggle=90; mk/cov.mk) fails the run when a
reported block's figure is under it, with one line per block and figure.
"""
import argparse
import fnmatch
import glob
import json
import os
import re
import subprocess
import sys
import time
from fractions import Fraction


def merge(dat_dir, out_dir):
    """verilator_coverage --write, in batches (one .dat per freed model)."""
    files = sorted(glob.glob(os.path.join(dat_dir, "*.dat")))
    if not files:
        sys.exit(f"coverage: no .dat files in {dat_dir}: was the test run built with COV=1?")
    step, parts = 400, []
    for i in range(0, len(files), step):
        part = os.path.join(out_dir, f"part{i // step}.dat")
        subprocess.run(["verilator_coverage", "--write", part] + files[i:i + step], check=True,
                       stdout=subprocess.DEVNULL)
        parts.append(part)
    merged = os.path.join(out_dir, "merged.dat")
    subprocess.run(["verilator_coverage", "--write", merged] + parts, check=True,
                   stdout=subprocess.DEVNULL)
    for p in parts:
        os.remove(p)
    return merged, len(files)


def read_points(merged):
    """{(file, line, col, page, comment): count}, summed over hierarchies."""
    pts = {}
    with open(merged, encoding="utf-8", errors="replace") as f:
        for ln in f:
            if not ln.startswith("C '"):
                continue
            key, _, cnt = ln.rstrip("\n").rpartition("' ")
            kv = {}
            for item in key[3:].split("\x01"):
                if "\x02" in item:
                    k, v = item.split("\x02", 1)
                    kv[k] = v
            k = (os.path.normpath(kv.get("f", "")), int(kv.get("l", 0)), kv.get("n", ""),
                 kv.get("page", "").split("/")[0], kv.get("o", ""))
            pts[k] = pts.get(k, 0) + int(cnt)
    return pts


def read_exclusions(path):
    """[(file, signal, msb, lsb, line text)] from `file signal[msb:lsb] reason`."""
    out = []
    with open(path) as f:
        for n, ln in enumerate(f, 1):
            if not ln.strip() or ln.startswith("#"):
                continue
            m = re.match(r"(\S+)\s+([\w.\[\]]+?)\[(\d+):(\d+)\]\s+\S", ln)
            if not m:
                sys.exit(f"coverage: {path}:{n}: not `file signal[msb:lsb] reason`: {ln.strip()}")
            out.append((os.path.normpath(m[1]), m[2], int(m[3]), int(m[4]), f"{path}:{n}"))
    return out


def excluded_by(excl, f, comment):
    """The exclusion entry that covers toggle point `comment` (signal[bit]) of file f."""
    m = re.match(r"(.*)\[(\d+)\]$", comment)
    name, bit = (m[1], int(m[2])) if m else (comment, 0)
    for e in excl:
        if e[0] == f and e[1] == name and e[3] <= bit <= e[2]:
            return e
    return None


def covered(kind, cnt):
    return cnt >= 2 if kind == "toggle" else cnt >= 1


def kind_of(page):
    return {"v_line": "line", "v_branch": "line", "v_toggle": "toggle"}.get(page)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dat", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--exclude", help="toggle exclusion list (tests/coverage_exclude.txt)")
    ap.add_argument("--show", action="append", default=[], help="list BLOCK's uncovered points")
    ap.add_argument("--only", action="append", default=[], help="report only BLOCK")
    ap.add_argument("--goal", action="append", default=[], metavar="KIND=PERCENT",
                    help="fail when a reported block's line / toggle figure is under PERCENT")
    ap.add_argument("groups", nargs="+")
    a = ap.parse_args()
    goals = {}
    for g in a.goal:
        kind, _, pct = g.partition("=")
        try:
            goals[kind] = Fraction(pct) / 100
        except (ValueError, ZeroDivisionError):
            kind = None
        if kind not in ("line", "toggle") or not 0 < goals[kind] <= 1:
            sys.exit(f"coverage: --goal '{g}' is not line=PERCENT or toggle=PERCENT (0 < PERCENT <= 100)")
    os.makedirs(a.out, exist_ok=True)
    t0 = time.time()
    merged, nfiles = merge(a.dat, a.out)
    info = os.path.join(a.out, "coverage.info")
    subprocess.run(["verilator_coverage", "--write-info", info, merged], check=True,
                   stdout=subprocess.DEVNULL)
    html = os.path.join(a.out, "html")
    subprocess.run(["genhtml", "--quiet", "--output-directory", html, info], check=True,
                   stdout=subprocess.DEVNULL)
    pts = read_points(merged)

    groups = []
    for g in a.groups:
        name, _, globs = g.partition("=")
        if not globs:
            sys.exit(f"coverage: group '{g}' is not block=glob,glob")
        groups.append((name, globs.split(",")))
    unknown = [n for n in a.only if n not in dict(groups)]
    if unknown:
        sys.exit(f"coverage: --only {', '.join(unknown)}: no such block (groups: "
                 f"{', '.join(n for n, _ in groups)})")
    # every group still owns its files (a point of no group is an error), only
    # the selected ones are reported
    shown = [n for n, _ in groups if not a.only or n in a.only]
    excl = read_exclusions(a.exclude) if a.exclude else []
    used = set()
    blocks, unowned = {}, set()
    for name, _ in groups:
        blocks[name] = {k: {"covered": 0, "total": 0} for k in ("line", "toggle")}
        blocks[name]["files"] = set()
        blocks[name]["toggle_excluded"] = 0
        blocks[name]["toggle_excluded_covered"] = 0
    missed = {name: [] for name, _ in groups}
    xcov = {name: [] for name, _ in groups}
    for (f, line, col, page, comment), cnt in sorted(pts.items()):
        kind = kind_of(page)
        if kind is None:
            continue
        owner = next((n for n, gl in groups if any(fnmatch.fnmatch(f, p) for p in gl)), None)
        if owner is None:
            unowned.add(f)
            continue
        b = blocks[owner]
        b["files"].add(f)
        e = excluded_by(excl, f, comment) if kind == "toggle" else None
        if e:
            used.add(e[4])
            b["toggle_excluded"] += 1
            if covered(kind, cnt):  # toggled after all: the entry's reason may be stale
                b["toggle_excluded_covered"] += 1
                xcov[owner].append(f"{f}:{line}:{col} {comment} (count {cnt}; {e[4]})")
            continue
        b[kind]["total"] += 1
        if covered(kind, cnt):
            b[kind]["covered"] += 1
        else:
            missed[owner].append(f"{f}:{line}:{col} {kind} {page} {comment or ''} (count {cnt})")
    def in_shown(f):
        return any(fnmatch.fnmatch(f, p) for n, gl in groups if n in shown for p in gl)
    stale = [e[4] for e in excl if e[4] not in used and in_shown(e[0])]
    if stale and not a.only:
        sys.exit(f"coverage: exclusions that match no toggle point: {stale}")
    if unowned:
        sys.exit(f"coverage: files in no block group (mk/cov.mk COV_GROUPS): {sorted(unowned)}")

    out = {"blocks": {}, "only": a.only, "goals": {k: float(v) for k, v in goals.items()},
           "dat_files": nfiles, "merged": merged, "info": info,
           "html": os.path.join(html, "index.html"),
           "rule": "line: v_line+v_branch points executed once; toggle: bits toggled both ways "
                   "(count >= 2); points summed over instances and configurations"}
    print(f"{'block':16} {'line':>7} {'covered/total':>14} {'toggle':>7} {'covered/total':>14}")
    for name in shown:
        b = blocks[name]
        row = {"files": sorted(b["files"]), "toggle_excluded": b["toggle_excluded"],
               "toggle_excluded_covered": b["toggle_excluded_covered"]}
        for k in ("line", "toggle"):
            c, t = b[k]["covered"], b[k]["total"]
            row[k] = round(c / t, 4) if t else None
            row[k + "_covered"], row[k + "_total"] = c, t
        out["blocks"][name] = row
        fmt = lambda k: (f"{100 * row[k]:6.1f}%" if row[k] is not None else "     -",
                         f"{row[k + '_covered']}/{row[k + '_total']}")
        (lp, lc), (tp, tc) = fmt("line"), fmt("toggle")
        print(f"{name:16} {lp:>7} {lc:>14} {tp:>7} {tc:>14}")
    os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
    with open(a.json, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for name in a.show:
        print(f"\nuncovered in {name}:")
        for m in missed.get(name, []):
            print("  " + m)
        if xcov.get(name):
            print(f"\nexcluded in {name} but toggled (the exclusion's reason may be stale):")
            for m in xcov[name]:
                print("  " + m)
    print(f"coverage: {nfiles} .dat files merged in {time.time() - t0:.0f} s; "
          f"report {out['html']}, {a.json}")
    if stale:
        print(f"coverage: {len(stale)} exclusions match no point of the models this run built, "
              f"first {stale[0]} (a whole run fails on such)")
    unreached = [n for n in shown if not blocks[n]["line"]["total"] + blocks[n]["toggle"]["total"]]
    if unreached:
        sys.exit(f"coverage: no model of {', '.join(unreached)} wrote any point in this run")
    # the exact fraction against the goal; the figure shown to two places,
    # rounded down, so a block under its goal never reads as at it
    under = [f"coverage: {name} {k} {10000 * c // t / 100:.2f} % ({c} / {t}) is under its goal of "
             f"{float(100 * goals[k]):g} %"
             for name, r in out["blocks"].items() for k in ("line", "toggle")
             for c, t in [(r[k + "_covered"], r[k + "_total"])]
             if k in goals and t and c < goals[k] * t]
    if under:
        print("\n".join(under), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
