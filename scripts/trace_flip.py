#!/usr/bin/env python3
"""Flips one bit of one output column at one line of an fgtrace 1 file
(docs/TRACES.md): a deliberately corrupted trace, which a replay must report
at exactly that cycle and port (scripts/test_fpga_replay.sh).

    trace_flip.py IN OUT --port NAME (--line N | --line first:PORT) [--bit B]

--line N: data line N (0 = the first cycle); first:PORT: the first non-reset
line where column PORT is not 0.  Prints "LINE PORT OLD NEW" (hex)."""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--port", required=True)
    ap.add_argument("--line", required=True)
    ap.add_argument("--bit", type=int, default=0)
    a = ap.parse_args()
    lines = open(a.src).read().splitlines()
    cols, data = [], []
    for i, ln in enumerate(lines):
        if ln.startswith("#"):
            w = ln[1:].split()
            if len(w) == 3 and w[0] in ("in", "out"):
                cols.append((w[0], w[1], int(w[2])))
        elif ln.strip():
            data.append(i)
    names = [c[1] for c in cols]
    if a.port not in names or cols[names.index(a.port)][0] != "out":
        sys.exit(f"trace_flip: {a.port} is not an output column of {a.src}")
    k = names.index(a.port)
    if not 0 <= a.bit < cols[k][2]:
        sys.exit(f"trace_flip: bit {a.bit} is outside {a.port}'s {cols[k][2]} bits")
    if a.line.startswith("first:"):
        c = names.index(a.line[6:])
        n = next((j for j, i in enumerate(data)
                  if lines[i].split()[0] == "1" and int(lines[i].split()[c], 16) != 0), None)
        if n is None:
            sys.exit(f"trace_flip: {a.line[6:]} is 0 on every non-reset line")
    else:
        n = int(a.line)
        if not 0 <= n < len(data):
            sys.exit(f"trace_flip: line {n} is outside the trace's {len(data)} lines")
    v = lines[data[n]].split()
    if v[0] != "1":
        sys.exit(f"trace_flip: line {n} is a reset line (its outputs are not compared)")
    old = int(v[k], 16)
    v[k] = format(old ^ (1 << a.bit), "x")
    lines[data[n]] = " ".join(v)
    open(a.dst, "w").write("\n".join(lines) + "\n")
    print(n, a.port, format(old, "x"), v[k])


if __name__ == "__main__":
    main()
