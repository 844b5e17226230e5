#!/usr/bin/env python3
"""make lint: every always_comb settles in an event-driven simulator.

Icarus 11 wakes an always_comb on every change of what it reads, including
variables it writes itself (IEEE 1800-2017 9.2.2.2.1 leaves those out), and
each default-then-override assignment is a zero-time pulse that wakes the
readers again.  A block that reads back a module-level variable it writes, or
blocks that feed each other, can then re-run each other forever in one time
step: the simulator never advances (edge_preempt's S+4 pick read its own
group-best vector; docs/RTL_STYLE.md "Simulation semantics").  Verilator and
Yosys evaluate such blocks in order and show nothing.  Two rules:

  1. an always_comb reads no module-level variable it writes (its own
     block-local variables and for-loop iterators are its business);
     `FG_COMB_READBACK blocks may;
  2. no cycle among always_comb blocks and continuous assignments through
     module-level variables (A writes x, B reads x and writes y, A reads y).

A block in a cycle that settles anyway (no bit depends on itself, no
variable of it is assigned twice) says why in a comment just above it,
"// comb_settle: <why>", and rule 2 passes over it.  A block that builds a
value bit by bit and reads it back is written
`FG_COMB_READBACK (rtl/include/fg_comb.svh: always @* for simulators), or as
a function of its arguments (scripts/check_func_args.py).

usage: check_comb_settle.py FILE.sv...   (one line per finding, exit 1)
"""
import re
import sys

from check_func_args import IDENT, KEYWORDS, names_in_decl, run_files, strip

ASSIGN = re.compile(r"(?<![<>=!])=(?!=)")


def blocks_of(text):
    """(line, kind, body) of each always_comb and always @*, by begin/end depth."""
    out = []
    for m in re.finditer(r"\balways_comb\b|\balways\s*@\s*(?:\*|\(\s*\*\s*\))|`FG_COMB_READBACK\b", text):
        kind = "always_comb" if m.group(0) == "always_comb" else "always @*"
        i = m.end()
        rest = text[i:]
        if not re.match(r"\s*begin\b", rest):
            end = text.index(";", i)
            out.append((text.count("\n", 0, m.start()) + 1, kind, text[i:end + 1]))
            continue
        depth, j = 0, i
        for t in re.finditer(r"\b(begin|end|case|casez|casex|endcase)\b", text[i:]):
            depth += 1 if t.group(1) in ("begin", "case", "casez", "casex") else -1
            if depth == 0:
                j = i + t.end()
                break
        out.append((text.count("\n", 0, m.start()) + 1, kind, text[i:j]))
    return out


def stmt_parts(body):
    """Each assignment of a block as (target name, the text it reads)."""
    parts, reads = [], []
    for stmt in re.split(r";", body):
        s = stmt
        # the statement's own assignment: the last '=' that is not a compare,
        # after any if (...) / for (...) / case label in front of it
        s = re.sub(r"\bfor\s*\(", " ( ", s)
        m = None
        for a in ASSIGN.finditer(s):
            m = a
        if m is None:
            reads.append(s)
            continue
        lhs, rhs = s[:m.start()], s[m.end():]
        # the target: the last identifier (with selects) before '=' that is
        # not inside an unclosed parenthesis
        t = re.search(r"([A-Za-z_]\w*)\s*((?:\[[^\]]*\]\s*)*)\s*(?:\+|-|\||&|\^)?$", lhs)
        if not t:
            reads.append(s)
            continue
        op = lhs[t.end(2):].strip()
        parts.append((t.group(1), lhs[:t.start(1)] + " " + t.group(2) + " " + rhs +
                      (" " + t.group(1) if op else "")))
    return parts, reads


def locals_of(body):
    loc = set()
    for stmt in body.split(";"):
        loc.update(names_in_decl(stmt.strip().replace("begin", "", 1) if stmt.strip().startswith("begin")
                                 else stmt))
    loc.update(re.findall(r"\bfor\s*\(\s*(?:int|integer|genvar|logic)\s+(?:unsigned\s+)?([A-Za-z_]\w*)", body))
    return loc


WAIVER = "// comb_settle:"


def check(path):
    raw = open(path).read().split("\n")
    text = strip("\n".join(raw))
    # functions are not blocks: their locals are theirs
    for m in reversed(list(re.finditer(r"\bfunction\b.*?\bendfunction\b", text, flags=re.S))):
        text = text[:m.start()] + "\n" * m.group(0).count("\n") + text[m.end():]
    bad = []
    nodes = []  # (what, line, writes, reads)
    for line, kind, body in blocks_of(text):
        loc = locals_of(body)
        parts, other = stmt_parts(body)
        writes = {t for t, _ in parts} - loc
        reads = set()
        for _, r in parts:
            reads.update(IDENT.findall(r))
        for r in other:
            reads.update(IDENT.findall(r))
        reads = {r for r in reads if r not in KEYWORDS} - loc
        for n in sorted(writes & reads) if kind == "always_comb" else ():
            bad.append(f"{path}:{line}: always_comb reads {n}, which it writes: an event-driven simulator "
                       f"re-runs it on its own writes (compute it in a function of its arguments)")
        # a block whose comment line above says why it settles although it
        # is in a cycle ("// comb_settle: <why>") takes no part in rule 2
        waived = line >= 2 and any(WAIVER in raw[i] for i in range(max(0, line - 4), line - 1))
        nodes.append((f"{kind} at line {line}", set() if waived else writes, reads))
    for m in re.finditer(r"\b(?:assign|wire)\b([^;]*?)(?<![<>=!])=(?!=)([^;]*);", text):
        lhs = re.sub(r"\[[^\]]*\]", "", m.group(1))
        w = {x for x in IDENT.findall(lhs) if x not in KEYWORDS and x != "logic"}
        nodes.append((f"assign at line {text.count(chr(10), 0, m.start()) + 1}", w,
                      {x for x in IDENT.findall(m.group(2)) if x not in KEYWORDS}))
    # rule 2: a cycle through the blocks (assignments only pass values on)
    succ = {i: [j for j, (_, _, r) in enumerate(nodes) if j != i and nodes[i][1] & r]
            for i in range(len(nodes))}
    state = {}

    def dfs(i, stack):
        state[i] = 1
        stack.append(i)
        for j in succ[i]:
            if state.get(j) == 1:
                cyc = stack[stack.index(j):] + [j]
                if any(nodes[k][0].startswith("always") for k in cyc):
                    bad.append(f"{path}: combinational cycle through " +
                               " -> ".join(nodes[k][0] for k in cyc) +
                               ": the blocks re-run each other in one time step")
            elif j not in state:
                dfs(j, stack)
        stack.pop()
        state[i] = 2

    for i in range(len(nodes)):
        if i not in state:
            dfs(i, [])
    return bad


if __name__ == "__main__":
    sys.exit(run_files("check_comb_settle", check, sys.argv[1:]))
