#!/usr/bin/env python3
"""make mutate (docs/MUTATION.md): every listed RTL mutant against its block's
proofs AND its tests; results/mutation.json records which caught it and by what.

The mutants are listed per block in tests/mutants/<block>.txt:

    proofs: <proof> ...          formal/<proof>.sby, each must FAIL on every mutant
    tests:  <program> ...        build/tests/<program>, each run must FAIL
    mutant: <name> | <file> | <sed expression> | <what it breaks>
    mutant: <name> | <file> | <sed expression> | <what it breaks> | only=<check>,...

`only=` names the checks that can see the mutant (e.g. `replay` for a change
that only an event-driven simulator shows); without it every proof and test of
the block is run and both the proof side and the test side must catch it.

Each mutant is applied (sed) to a scratch copy of the worktree ($MUT_DIR,
default build-mut/tree, its own build dir), never to the worktree.  A proof
catches a mutant when it runs and fails on an assertion (not a tool failure or a
timeout); a test program catches it when it builds, runs and reports a failed
test (a build error is not a catch).  Exit 1 when a mutant is caught by nothing
(its diff is printed), when a mutant that needs both sides misses one (a gap,
printed with the side that missed it), or when a mutation does not apply."""
import argparse
import datetime
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LISTS = os.path.join(ROOT, "tests", "mutants")


def parse_lists(only_blocks=None):
    blocks = {}
    for fn in sorted(os.listdir(LISTS)):
        if not fn.endswith(".txt"):
            continue
        block = fn[:-4]
        if only_blocks and block not in only_blocks:
            continue
        b = {"proofs": [], "tests": [], "mutants": []}
        for ln_no, raw in enumerate(open(os.path.join(LISTS, fn)), 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, _, rest = line.partition(":")
            key = key.strip()
            where = f"tests/mutants/{fn}:{ln_no}"
            if key in ("proofs", "tests"):
                b[key] = rest.split()
            elif key == "mutant":
                f = [x.strip() for x in rest.split(" | ")]
                if len(f) not in (4, 5) or not all(f[:4]):
                    sys.exit(f"mutate: {where}: want 'mutant: name | file | sed | why [| only=...]'")
                m = {"name": f[0], "file": f[1], "sed": f[2], "why": f[3], "block": block}
                if len(f) == 5:
                    if not f[4].startswith("only="):
                        sys.exit(f"mutate: {where}: the fifth field must be only=<check>,...")
                    m["only"] = f[4][5:].split(",")
                if not os.path.isfile(os.path.join(ROOT, m["file"])):
                    sys.exit(f"mutate: {where}: no file {m['file']}")
                b["mutants"].append(m)
            else:
                sys.exit(f"mutate: {where}: unknown key '{key}' (proofs, tests, mutant)")
        for p in b["proofs"]:
            if not os.path.isfile(os.path.join(ROOT, "formal", p + ".sby")):
                sys.exit(f"mutate: tests/mutants/{fn}: no proof formal/{p}.sby")
        for t in b["tests"]:
            if t != "replay" and not os.path.isfile(os.path.join(ROOT, "tests", t + ".c")):
                sys.exit(f"mutate: tests/mutants/{fn}: no test program tests/{t}.c")
        blocks[block] = b
    return blocks


def run(cmd, log, env=None, cwd=None, timeout=None):
    """Run cmd with its output in log; return (exit status or None on timeout, output)."""
    try:
        r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=timeout)
        out, rc = r.stdout, r.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or ""), None
    with open(log, "w") as f:
        f.write(out)
    return rc, out


def check_proof(tree, proof, tag, timeout):
    log = os.path.join(tree, "..", f"{tag}.{proof}.log")
    js = os.path.join(tree, "..", f"{tag}.{proof}.json")
    cmd = ["nice", "-n", "5", "scripts/formal.py", "-j", "1", "--out", js, proof]
    env = dict(os.environ, FORMAL_TIMEOUT=str(timeout))
    rc, _ = run(cmd, log, env=env, cwd=tree)
    res = {}
    try:
        res = json.load(open(js))["blocks"][proof]
    except (OSError, ValueError, KeyError):
        return {"caught": False, "note": f"the proof did not run ({os.path.relpath(log, ROOT)})"}
    if res.get("pass"):
        return {"caught": False, "note": "the proof passed"}
    if res.get("tool_failure") or "timeout" in str(res.get("status", "")).lower() or rc == 124:
        return {"caught": False, "note": f"not a proof result: {res.get('tool_failure') or res.get('status')}"}
    plog = os.path.join(tree, "build", "formal", proof + ".log")
    # formal.py names the assertions: a counterexample's (FAIL), or those the
    # induction step fails (UNKNOWN: not refuted, but make formal fails on it)
    failed = [p["property"] for p in res.get("failed", [])] + \
        [p["property"] + " (unproven: induction step)" for p in res.get("unproven", [])]
    if not failed:  # e.g. the mutated RTL does not elaborate: not a catch
        return {"caught": False, "note": f"the proof failed without a failed assertion ({res.get('status')}; "
                                         f"{os.path.relpath(plog, ROOT)})"}
    caught = {"caught": True, "by": failed}
    if res.get("trace"):
        caught["trace"] = os.path.relpath(os.path.join(tree, res["trace"]), ROOT)
    return caught


def check_test(tree, prog, tag, seeds, timeout):
    log = os.path.join(tree, "..", f"{tag}.{prog}.build.log")
    rc, _ = run(["nice", "make", "--no-print-directory", "-j2", "VL_WFLAGS=-Wall -Wno-fatal", f"build/tests/{prog}"],
                log, cwd=tree)
    if rc != 0:
        return {"caught": False, "note": f"the mutant does not build ({os.path.relpath(log, ROOT)})"}
    by = []
    for seed in seeds:
        log = os.path.join(tree, "..", f"{tag}.{prog}.{seed}.log")
        rc, out = run(["nice", f"build/tests/{prog}"], log, env=dict(os.environ, FG_SEED=str(seed)),
                      cwd=tree, timeout=timeout)
        if rc == 0:
            return {"caught": False, "note": f"survived FG_SEED={seed}"}
        failed = [t for t in re.findall(r"\[  FAILED  \] (\S+)", out) if not t.isdigit()] or \
            re.findall(r"not ok \d+ - (\S+)", out)
        if rc is None:
            return {"caught": False, "note": f"timed out after {timeout} s at FG_SEED={seed} ({os.path.relpath(log, ROOT)})"}
        if not failed:
            return {"caught": False, "note": f"the test did not run ({os.path.relpath(log, ROOT)})"}
        by.append(f"{sorted(set(failed))[0]} FG_SEED={seed}")
    return {"caught": True, "by": by}


def check_replay(tree, prog, tag):
    log = os.path.join(tree, "..", f"{tag}.replay.log")
    seed = 1718849244
    rc, out = run(["make", "--no-print-directory", "replay", f"REPLAY_PROGS={prog}", f"REPLAY_SEED={seed}"],
                  log, cwd=tree)
    if rc == 0:
        return {"caught": False, "note": "the replay was clean"}
    failed = re.findall(r"^  FAIL ([a-z_0-9]+): (.*)$", out, re.M)
    if not failed:
        return {"caught": False, "note": f"the replay did not run ({os.path.relpath(log, ROOT)})"}
    return {"caught": True, "by": [f"replay {m}: {why[:80]}" for m, why in failed[:2]]}


def mutate_one(tree, blk, m, seeds, proof_timeout, test_timeout):
    path = os.path.join(tree, m["file"])
    orig = open(os.path.join(ROOT, m["file"])).read()
    with open(path, "w") as f:
        f.write(orig)
    r = subprocess.run(["sed", "-i", m["sed"], path])
    new = open(path).read()
    diff = "".join(difflib.unified_diff(orig.splitlines(True), new.splitlines(True),
                                        "a/" + m["file"], "b/" + m["file"], n=0))
    rec = {"name": m["name"], "block": m["block"], "file": m["file"], "why": m["why"], "diff": diff}
    if r.returncode != 0 or new == orig:
        rec["error"] = "the mutation does not apply"
        return rec
    with open(os.path.join(tree, "..", "applied"), "w") as f:
        f.write(m["file"])
    t0 = time.time()
    checks = m.get("only") or (blk["proofs"] + blk["tests"])
    try:
        rec["proofs"], rec["tests"] = {}, {}
        for c in checks:
            if c == "replay":
                rec["tests"]["replay"] = check_replay(tree, blk["tests"][0], m["name"])
            elif c in blk["proofs"]:
                rec["proofs"][c] = check_proof(tree, c, m["name"], proof_timeout)
            elif c in blk["tests"]:
                rec["tests"][c] = check_test(tree, c, m["name"], seeds, test_timeout)
            else:
                rec["error"] = f"only= names {c}, which is neither a proof nor a test of {m['block']}"
    finally:
        with open(path, "w") as f:
            f.write(orig)
        os.remove(os.path.join(tree, "..", "applied"))
    rec["seconds"] = round(time.time() - t0, 1)
    rec["caught_by_proof"] = any(v["caught"] for v in rec["proofs"].values())
    rec["caught_by_tests"] = any(v["caught"] for v in rec["tests"].values())
    need_p = any(c in blk["proofs"] for c in checks)
    need_t = any(c not in blk["proofs"] for c in checks)
    rec["needs"] = [s for s, n in (("proof", need_p), ("tests", need_t)) if n]
    return rec


def verdict(rec):
    if rec.get("error"):
        return "FAIL", rec["error"]
    p, t = rec["caught_by_proof"], rec["caught_by_tests"]
    if not p and not t:
        return "FAIL", "caught by nothing"
    missed = [s for s in rec["needs"] if not (p if s == "proof" else t)]
    if missed:
        return "GAP ", "missed by the " + " and the ".join(missed)
    return "ok  ", ""


def describe(rec):
    parts = []
    for side in ("proofs", "tests"):
        for c, v in rec.get(side, {}).items():
            parts.append(f"{c}: " + (", ".join(v["by"][:2]) if v["caught"] else v["note"]))
    return "; ".join(parts)


def print_table(path):
    try:
        doc = json.load(open(path))
    except (OSError, ValueError) as e:
        sys.exit(f"mutate: cannot read {path}: {e}")
    print(f"Mutants run at {', '.join(doc.get('commits', []))} (test seeds {doc.get('test_seeds')}):\n")
    print("| block | mutants | caught by the proof | by the tests | by both | by nothing | caught as needed |")
    print("|---|---|---|---|---|---|---|")
    for b, s in sorted(doc["blocks"].items()):
        print(f"| `{b}` | {s['mutants']} | {s['caught_by_proof']} | {s['caught_by_tests']} | {s['caught_by_both']} "
              f"| {s['caught_by_nothing']} | {s['caught_as_needed']} of {s['mutants']} |")
    print("\n| mutant | what it breaks | verdict | caught by |")
    print("|---|---|---|---|")
    for r in sorted(doc["mutants"], key=lambda r: (r["block"], r["name"])):
        v, why = verdict(r)
        print(f"| `{r['name']}` | {r['why']} | {v.strip()}{' (' + why + ')' if why else ''} | "
              f"{describe(r).replace('|', '/')} |")
    return 0


def scratch_tree(mdir):
    tree = os.path.join(mdir, "tree")
    os.makedirs(tree, exist_ok=True)
    # the worktree's build, times kept: a mutant rebuilds only the models and
    # programs that depend on its file, not every verilated block
    src_build = os.path.join(ROOT, "build")
    if not os.path.isdir(os.path.join(tree, "build")) and os.path.isdir(src_build):
        os.makedirs(os.path.join(tree, "build"))
        for e in os.listdir(src_build):
            p = os.path.join(src_build, e)
            if (mdir + os.sep).startswith(p + os.sep):
                continue  # the scratch tree itself may live in build/
            subprocess.run(["cp", "-a", p, os.path.join(tree, "build", e)], check=True)
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                           stdout=subprocess.PIPE, text=True).stdout.split("\n")
    files = [f for f in files if f and not f.startswith("build") and os.path.isfile(os.path.join(ROOT, f))]
    for f in files:
        src, dst = os.path.join(ROOT, f), os.path.join(tree, f)
        # copy only what changed, keeping the times: the scratch build stays incremental
        if os.path.exists(dst) and os.path.getmtime(dst) == os.path.getmtime(src) and \
           os.path.getsize(dst) == os.path.getsize(src):
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)
    # a run stopped with a mutant applied: the copy above restored the file with
    # its old time, older than the mutant's model; touch it so it is rebuilt
    applied = os.path.join(mdir, "applied")
    if os.path.exists(applied):
        os.utime(os.path.join(tree, open(applied).read().strip()))
        os.remove(applied)
    return tree


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default=os.environ.get("MUT_ONLY", ""),
                    help="mutant names (space or comma separated; default every one)")
    ap.add_argument("--blocks", default=os.environ.get("MUT_BLOCKS", ""), help="blocks (default every list)")
    ap.add_argument("--seeds", default=os.environ.get("MUT_SEEDS", "1,2"),
                    help="FG_SEED values each test program runs at; every one must catch (default 1,2)")
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "mutation.json"))
    ap.add_argument("--dir", default=os.environ.get("MUT_DIR", os.path.join(ROOT, "build-mut")))
    ap.add_argument("--proof-timeout", type=int, default=600, help="seconds per proof run (default 600)")
    ap.add_argument("--test-timeout", type=int, default=300, help="seconds per test run (default 300)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--table", action="store_true",
                    help="print the results file (--out) as the Markdown tables of docs/MUTATION.md and exit")
    a = ap.parse_args()
    if a.table:
        return print_table(a.out)
    try:
        seeds = [int(s) for s in re.split(r"[ ,]+", a.seeds.strip()) if s]
    except ValueError:
        sys.exit(f"mutate: --seeds wants whole numbers, got '{a.seeds}'")
    if not seeds:
        sys.exit("mutate: --seeds is empty")
    want = set(re.split(r"[ ,]+", a.blocks.strip())) - {""}
    blocks = parse_lists(want or None)
    if want - set(blocks):
        sys.exit(f"mutate: no mutant list tests/mutants/<block>.txt for: {' '.join(sorted(want - set(blocks)))}")
    only = set(re.split(r"[ ,]+", a.only.strip())) - {""}
    todo = [(b, m) for b in blocks for m in blocks[b]["mutants"] if not only or m["name"] in only]
    names = [m["name"] for _, m in todo]
    dup = sorted(set(n for n in names if names.count(n) > 1))
    if dup:
        sys.exit(f"mutate: mutant names used twice: {' '.join(dup)}")
    if only - set(names):
        sys.exit(f"mutate: no such mutant: {' '.join(sorted(only - set(names)))}")
    if a.list:  # and whether each mutation still applies to the worktree's RTL
        bad = 0
        for b, m in todo:
            src = open(os.path.join(ROOT, m["file"])).read()
            r = subprocess.run(["sed", m["sed"]], input=src, stdout=subprocess.PIPE, text=True)
            ok = r.returncode == 0 and r.stdout != src
            bad += not ok
            print(f"{b:16s} {m['name']:32s} {m['why'] if ok else 'DOES NOT APPLY to ' + m['file']}")
        return 1 if bad else 0
    # the commit the scratch tree is copied from (taken now: the worktree may move on meanwhile)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           stdout=subprocess.PIPE, text=True).stdout.strip()
    commit += "+changes" if dirty else ""
    tree = scratch_tree(os.path.abspath(a.dir))
    print(f"mutate: {len(todo)} mutants in {len(set(b for b, _ in todo))} blocks "
          f"(test seeds {','.join(map(str, seeds))}; scratch tree {os.path.relpath(tree, ROOT)})", flush=True)
    recs, bad = [], 0
    for b, m in todo:
        rec = mutate_one(tree, blocks[b], m, seeds, a.proof_timeout, a.test_timeout)
        recs.append(rec)
        v, why = verdict(rec)
        print(f"{v} {b:16s} {m['name']:30s} {rec.get('seconds', 0):6.1f} s  {why + ': ' if why else ''}{describe(rec)}",
              flush=True)
        if v != "ok  ":
            bad += 1
            if v == "FAIL":
                sys.stdout.write("".join("       " + ln + "\n" for ln in rec["diff"].splitlines()))
    for r in recs:
        r["commit"] = commit
        r["command"] = "scripts/mutate.py " + " ".join(sys.argv[1:])
    # a partial run (--only / --blocks) updates its mutants in the file, keeping
    # the others (each record names the commit it was run at) that still exist
    if (only or a.blocks.strip()) and os.path.exists(a.out):
        try:
            old = json.load(open(a.out)).get("mutants", [])
        except ValueError:
            old = []
        listed = {m["name"] for b in parse_lists().values() for m in b["mutants"]}
        ran = {r["name"] for r in recs}
        recs = [r for r in old if r.get("name") in listed and r["name"] not in ran] + recs
    per = {}
    for r in recs:
        s = per.setdefault(r["block"], {"mutants": 0, "caught_by_proof": 0, "caught_by_tests": 0,
                                        "caught_by_both": 0, "caught_as_needed": 0, "caught_by_nothing": 0})
        s["mutants"] += 1
        s["caught_by_proof"] += bool(r.get("caught_by_proof"))
        s["caught_by_tests"] += bool(r.get("caught_by_tests"))
        s["caught_by_both"] += bool(r.get("caught_by_proof") and r.get("caught_by_tests"))
        s["caught_by_nothing"] += not (r.get("caught_by_proof") or r.get("caught_by_tests"))
        s["caught_as_needed"] += verdict(r)[0] == "ok  "
    for s in per.values():
        s["score"] = round(s["caught_as_needed"] / s["mutants"], 3)
    doc = {"commits": sorted({r["commit"] for r in recs}),
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
           "test_seeds": seeds, "blocks": per, "mutants": recs}
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    for b, s in per.items():
        print(f"mutate: {b:16s} {s['caught_as_needed']:2d} of {s['mutants']:2d} caught as needed "
              f"(proof {s['caught_by_proof']}, tests {s['caught_by_tests']}, both {s['caught_by_both']}, "
              f"nothing {s['caught_by_nothing']})")
    print(f"mutate: {len(todo) - bad} of {len(todo)} mutants run caught as needed; "
          f"{sum(s['caught_as_needed'] for s in per.values())} of {len(recs)} in {os.path.relpath(a.out, ROOT)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
