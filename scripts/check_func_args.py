#!/usr/bin/env python3
"""make lint: no RTL function reads a module signal it is not passed.

A continuous assignment `assign y = f(a)` is re-evaluated by an event-driven
simulator (Icarus) only when its operands change: a signal the function reads
from the module is not one of them, so y keeps a stale value when only that
signal changes (IEEE 1800-2017 10.3.2; only always_comb also watches what a
called function reads).  Verilator evaluates everything every cycle and Yosys
synthesizes the intended logic, so neither shows it (docs/RTL_STYLE.md).
The rule: a function reads only its arguments, its own locals, parameters,
localparams, package names and other functions; every module signal it needs
is an argument.

usage: check_func_args.py FILE.sv...   (prints one line per finding, exit 1)
"""
import re
import sys

KEYWORDS = set("""
always always_comb always_ff always_latch and assign automatic begin bit break byte case casez casex
continue default do else end endcase endfunction endmodule for forever function generate genvar if
inout input int integer localparam logic longint module negedge or output parameter posedge reg
repeat return shortint signed static typedef unique unique0 unsigned void while wire xor
""".split())
DECL = re.compile(r"^\s*(?:input|output|inout)?\s*(?:var\s+)?(?:logic|wire|reg|bit|int|integer|"
                  r"[A-Za-z_]\w*_t|[A-Za-z_]\w*::[A-Za-z_]\w*)\b(?:\s+(?:signed|unsigned))?"
                  r"\s*((?:\[[^\]]*\]\s*)*)([^;=()]*)")
IDENT = re.compile(r"(?<![\w$'`:.])([A-Za-z_]\w*)(?!\s*::)")


def strip(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    text = re.sub(r"\(\*.*?\*\)", "", text)  # attributes
    return text


def names_in_decl(line):
    """Names a declaration line declares (ports, signals, locals)."""
    m = DECL.match(line)
    if not m:
        return []
    out = []
    for part in m.group(2).split(","):
        part = re.sub(r"\[[^\]]*\]", "", part).strip()
        w = re.match(r"([A-Za-z_]\w*)", part)
        if w and w.group(1) not in KEYWORDS:
            out.append(w.group(1))
    return out


def check(path):
    text = strip(open(path).read())
    bad = []
    funcs = [(m.start(), m.end()) for m in
             re.finditer(r"\bfunction\b.*?\bendfunction\b", text, flags=re.S)]
    outside = text
    for a, b in reversed(funcs):
        outside = outside[:a] + "\n" * text[a:b].count("\n") + outside[b:]
    # module-level signals: declarations outside functions (ports included)
    signals = set()
    for stmt in re.split(r"[;\n]", re.sub(r"\(\s*\n", "(\n", outside)):
        for piece in re.split(r"[(,]\s*(?=(?:input|output|inout)\b)", stmt):
            signals.update(names_in_decl(piece))
    consts = set(re.findall(r"\b(?:parameter|localparam)\b[^;=]*?([A-Za-z_]\w*)\s*=", text))
    consts |= set(re.findall(r",\s*([A-Za-z_]\w*)\s*=", text))  # further names of a parameter list
    consts |= set(re.findall(r"\bgenvar\s+([A-Za-z_]\w*)", text))
    signals -= consts
    for a, b in funcs:
        body = text[a:b]
        line = text.count("\n", 0, a) + 1
        head = re.match(r"function\s+(?:automatic\s+|static\s+)?[^(;]*?([A-Za-z_]\w*)\s*\((.*?)\)\s*;",
                        body, flags=re.S)
        if not head:
            bad.append(f"{path}:{line}: function not understood (write its arguments in a port list)")
            continue
        fname, args = head.group(1), head.group(2)
        local = {fname}
        for piece in re.split(r",\s*(?=(?:input|output|inout)\b)", args):
            local.update(names_in_decl(piece))
        rest = body[head.end():]
        for stmt in re.split(r";", rest):
            local.update(names_in_decl(stmt))
            local.update(re.findall(r"\bfor\s*\(\s*(?:int|integer|genvar|logic)?\s*(?:unsigned\s+)?([A-Za-z_]\w*)", stmt))
        used = set(IDENT.findall(rest))
        free = sorted((used & signals) - local)
        for n in free:
            bad.append(f"{path}:{line}: function {fname} reads module signal {n}, not an argument "
                       f"(a continuous assignment calling it goes stale in an event-driven simulator)")
    return bad


def run_files(name, check_file, paths):
    """A checker's command line: check_file(path) -> findings for each path;
    prints them, exit 1 when any, 2 on a usage or read error (also
    scripts/check_comb_settle.py)."""
    if not paths:
        print(f"usage: {name}.py FILE.sv...", file=sys.stderr)
        return 2
    bad = []
    for p in paths:
        try:
            bad += check_file(p)
        except OSError as e:
            print(f"{name}: {p}: {e.strerror}", file=sys.stderr)
            return 2
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(run_files("check_func_args", check, sys.argv[1:]))
