#!/usr/bin/env python3
"""The blocks as FuseSoC cores (docs/FUSESOC.md), checked in make test.

Every RTL block of the Makefile (BLOCKS) has a .core file beside its RTL
(rtl/<area>/<block>.core) whose lint target's toplevel is the block's top
module; FuseSoC resolves it with its dependencies (the shared include files,
the area's package, the primitives) and runs:

  lint   the block's core: Verilator -Wall --lint-only at the RTL's defaults
         (must be clean);
  sim    the block's smoke test bench, where tb/fusesoc/ has one (a core
         that depends on the block's), on Icarus and on Verilator (--binary):
         each must print "PASS".

The files FuseSoC hands the tool must be exactly the block's source list in
the Makefile ($(b)_SRCS with its package), so the two cannot drift apart.
TAP output, one line per check.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the fusesoc command through this Python (pip's script may not be on PATH yet)
FUSESOC = [sys.executable, "-c", "import sys; from fusesoc.main import main; sys.argv[0] = 'fusesoc'; sys.exit(main())"]


def make_vars(names):
    """The Makefile's values of names (one make run), each split in words."""
    r = subprocess.run(["make", "-s", "--no-print-directory"] + [f"print-{n}" for n in names], cwd=ROOT,
                       capture_output=True, text=True, check=True)
    lines = r.stdout.split("\n")
    return [lines[i].split() for i in range(len(names))]


def main():
    cores = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "rtl", "**", "*.core"), recursive=True) +
                       glob.glob(os.path.join(ROOT, "tb", "fusesoc", "*.core"))):
        with open(path) as f:
            d = yaml.safe_load(f)
        cores[d["name"].rsplit(":", 1)[0]] = (path, d)
    by_top, bench = {}, {}
    for name, (path, d) in cores.items():
        top = d.get("targets", {}).get("lint", {}).get("toplevel")
        if top:
            by_top[top] = name
        if "sim" in d.get("targets", {}):
            for fs in d.get("filesets", {}).values():
                for dep in fs.get("depend", []):
                    bench[dep] = name

    n = 0
    bad = 0

    def result(ok, msg, detail=""):
        nonlocal n, bad
        n += 1
        bad += not ok
        print(f"{'ok' if ok else 'not ok'} {n} - {msg}")
        if detail and not ok:
            for line in detail.strip().splitlines()[-15:]:
                print(f"#   {line}")

    build_root = tempfile.mkdtemp(prefix="fg-fusesoc-")
    blocks = make_vars(["BLOCKS"])[0]
    vals = make_vars([f"{b}_{v}" for b in blocks for v in ("TOP", "SRCS")])
    for i, b in enumerate(blocks):
        top, srcs = vals[2 * i][0], vals[2 * i + 1]
        name = by_top.get(top)
        if not name:
            result(False, f"{b}: no .core under rtl/ with a lint target for {top}")
            continue
        runs = [("lint", "verilator", name)]
        if name in bench:
            runs += [("sim", "icarus", bench[name]), ("sim", "verilator", bench[name])]
        for target, tool, core in runs:
            work = os.path.join(build_root, f"{b}_{target}_{tool}")
            cmd = FUSESOC + ["--cores-root", os.path.join(ROOT, "rtl"), "--cores-root", os.path.join(ROOT, "tb"),
                   "run", "--build-root", work, "--target", target, "--tool", tool, core]
            r = subprocess.run(cmd, capture_output=True, text=True, cwd=build_root)
            out = r.stdout + r.stderr
            ok = r.returncode == 0 and (target != "sim" or "PASS" in out) and "FAIL" not in out
            result(ok, f"{b}: fusesoc run --target={target} --tool={tool} {core}", out)
            if target == "lint":
                # the files FuseSoC gave the tool, back to their names
                eda = glob.glob(os.path.join(work, "*", "*", "*.eda.yml"))
                files = []
                if eda:
                    with open(eda[0]) as f:
                        for fl in yaml.safe_load(f)["files"]:
                            if fl["name"].endswith(".sv"):
                                files.append(os.path.basename(fl["name"]))
                want = sorted(os.path.basename(s) for s in srcs)
                result(sorted(files) == want, f"{b}: the core's files are the Makefile's {b}_SRCS",
                       f"core: {' '.join(sorted(files))}\nmake: {' '.join(want)}")
    shutil.rmtree(build_root, ignore_errors=True)
    print(f"1..{n}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
