#!/usr/bin/env python3
"""What each program's JSON holds: the top-level keys of every result file
in a results directory and of one point file per experiment, as a Markdown
table (docs/SWEEPS.md "What each program writes").

    scripts/json_keys.py [RESULTS_DIR]      (default: results)
"""
import glob
import json
import os
import sys


def shape(v):
    if isinstance(v, dict):
        return "object"
    if isinstance(v, list):
        return "array"
    return {bool: "bool", int: "number", float: "number", str: "string"}.get(type(v), "null")


def row(path, d):
    if not isinstance(d, dict):
        return f"| `{path}` | {shape(d)} |"
    return f"| `{path}` | " + ", ".join(f"`{k}` ({shape(v)})" for k, v in d.items()) + " |"


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "results"
    print("| file | top-level keys |")
    print("|---|---|")
    for f in sorted(glob.glob(os.path.join(top, "*.json"))):
        print(row(os.path.relpath(f, os.path.dirname(top) or "."), json.load(open(f))))
    for d in sorted(glob.glob(os.path.join(top, "sweeps", "*", "points"))):
        pts = sorted(glob.glob(os.path.join(d, "*.json")))
        if pts:
            p = pts[-1]
            print(row(os.path.relpath(p, os.path.dirname(top) or "."), json.load(open(p))))


if __name__ == "__main__":
    main()
