#!/usr/bin/env python3
"""GTKWave save files that show every signal they list, and a headless check
that they do.

    scripts/gtkw.py SPEC.gtkw FST [-o OUT.gtkw] [--dumpfile PATH]
        write a save file for FST from SPEC (a save file: its groups, its
        signals' names with or without [msb:lsb], its "[*] focus:" line);
        without -o, SPEC itself, keeping its [dumpfile] (how tb/waves/*.gtkw
        are refreshed: scripts/gtkw.py tb/waves/edge_ekt.gtkw build/waves/edge_ekt.fst)
        (a system trace's spec, written by sim/harness/fg_wave.c, may name
        the cycle to open at, "[*] at: TIME", and the groups to open,
        "[*] open: PLACE...": every other top-level group is written closed)
    scripts/gtkw.py --check SAVE.gtkw...
        open each in a real GTKWave under Xvfb (xvfb-run) and fail when a
        listed signal is not displayed or has no value (checked with every
        group opened), an enum-typed signal shows a number, or, with
        "[*] open:", the open groups are not exactly those it names, first

A written file names every vector with its range from the FST (GTKWave drops a
vector named without it), puts the translate filter tb/waves/enc/<enum>.txt
(scripts/rtl_pkg.py, from rtl/*/*_enc.toml) on every signal of an encoding
(the ports the list's `port` names, the `FG_ENUM(pkg, type) names;` of the
block's RTL), and opens at the first change of the focus signal (the trace's
start without one) showing SPAN cycles in a 1600x1000 window.  The FSTs count
one cycle as 1 ns (sim/harness/fg_shim.cpp), so the time axis reads in cycles.
"""
import bisect
import glob
import math
import os
import re
import subprocess
import sys
import tempfile
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PS = 1000            # FST time units (ps) per cycle: fg_shim.cpp
SPAN = 60            # cycles shown when the file opens
ZOOM_K = 4.23        # GTKWave 3.3.118 shows 2^-zoom * ZOOM_K time units (measured: zoom -8 -> 1082 ps)
# A system trace opens so that a one-cycle FSM state shows its name: a value's
# box needs CHAR_PX per character of GTKWave's wave font and BOX_PAD more, or it
# shows "+"; the zoom that asks for SPAN cycles draws PX_PER_CYCLE_AT_SPAN
# pixels a cycle (twice as many a zoom step up), and the wave pane of the
# 1600-pixel window is 1600 - [signals_width] - 302 (SST pane, borders) pixels
# wide (measured on the screenshots of make wave-shots).
SIGNALS_PX = 520     # the longest name=value (PRE_VS_SB|PRE_VS_LOAD, a 64-bit vector), unclipped
PX_PER_CYCLE_AT_SPAN = 958 / 67
CHAR_PX, BOX_PAD = 6.05, 8
STATE_LEAVES = ("state_q", "state_o", "cmd_o")  # the FSM states an event walks through


def fst_header(fst):
    """{path without range: (path with range, width)} and the value changes."""
    p = subprocess.run(["fst2vcd", fst], capture_output=True, text=True)
    if p.returncode != 0 or "$enddefinitions" not in p.stdout:
        sys.exit(f"gtkw: cannot read {fst} with fst2vcd")
    head, _, body = p.stdout.partition("$enddefinitions")
    sigs, ids, scope = {}, {}, []
    for line in head.splitlines():
        w = line.split()
        if w[:2] == ["$scope", "module"]:
            scope.append(w[2])
        elif w[:1] == ["$upscope"]:
            scope.pop()
        elif w[:1] == ["$var"]:
            width, code, name = int(w[2]), w[3], w[4]
            rng = w[5] if len(w) > 6 and w[5].startswith("[") else ""
            base = ".".join(scope + [name])
            sigs[base] = (base + rng, width)
            ids.setdefault(code, []).append(base)
    return sigs, ids, body


def changes(ids, body, want):
    """[(time, value)] of signal `want` (path without range)."""
    codes = {c for c, names in ids.items() if want in names}
    out, t = [], 0
    for line in body.splitlines():
        if line.startswith("#"):
            t = int(line[1:])
        elif line[:1] in "01xz" and line[1:] in codes:
            out.append((t, line[0]))
        elif line[:1] == "b" and " " in line and line.split()[1] in codes:
            out.append((t, line.split()[0][1:]))
    return out


def sampler(ids, body):
    """val(name, cycle): the value of signal `name` (path without range) that a block's edge at the end of
    `cycle` sees (mid-cycle), as an int; 0 before its first change or while it is x / z."""
    cache = {}

    def val(name, cycle):
        if name not in cache:
            ch = changes(ids, body, name)
            cache[name] = ([t for t, _ in ch], [v for _, v in ch])
        ts, vs = cache[name]
        i = bisect.bisect_right(ts, cycle * PS + PS // 2) - 1
        return int(vs[i], 2) if i >= 0 and re.fullmatch("[01]+", vs[i]) else 0
    return val


def encodings():
    """{(block, leaf name): (enum name, width)} from the lists and the RTL."""
    enc = {}
    for src in sorted(glob.glob(os.path.join(ROOT, "rtl/*/*_enc.toml"))):
        with open(src, "rb") as f:
            d = tomllib.load(f)
        area = os.path.dirname(src)
        decl = {}  # enum type -> names declared with it, per block file
        for sv in glob.glob(os.path.join(area, "*.sv")):
            blk = os.path.basename(sv)[:-3]
            for ty, names in re.findall(r"`FG_ENUM\(\s*\w+\s*,\s*(\w+)\s*\)\s*([^;]+);", open(sv).read()):
                for n in re.findall(r"\w+", names):
                    decl.setdefault(ty, []).append((blk, n))
        for e in d["enum"]:
            words = e["port"].split()
            blk = words[0]
            for n in re.findall(r"\b(\w+_[ioq])\b", " ".join(words[1:])):
                enc[(blk, n)] = (e["name"], e["width"])
            for b, n in decl.get(e["name"], []):
                enc[(b, n)] = (e["name"], e["width"])
    return enc


def enum_of(enc, path, width):
    """The encoding of signal `path` (no range), or None: its leaf name in a
    scope named after a block (or its module file, e.g. edge_preempt_timer)."""
    parts = path.split(".")
    for (blk, n), (name, w) in enc.items():
        if parts[-1] == n and w == width and any(p == blk or blk.startswith(p) for p in parts[:-1]):
            return name
    for (blk, n), (name, w) in enc.items():  # sub-module instances: u_<x> of <block>_<x>
        if parts[-1] == n and w == width and any(blk.startswith(p) for p in parts[1:2]):
            return name
    return None


def enum_table(e):
    """{bits: name} of encoding `e` (its translate filter)."""
    with open(os.path.join(ROOT, f"tb/waves/enc/{e}.txt")) as f:
        return {l.split()[0]: l.split()[1] for l in f if l.strip() and not l.startswith("#")}


def state_enum(enc, sigs, n):
    """The encoding of signal n when it is one of the FSM states an event walks through, else None."""
    return n in sigs and n.rsplit(".", 1)[-1] in STATE_LEAVES and enum_of(enc, n, sigs[n][1]) or None


def state_box_px(enc, sigs, names):
    """Pixels a one-cycle value of the FSM states among `names` needs."""
    need = 0
    for n in names:
        e = state_enum(enc, sigs, n)
        if e:
            need = max(need, max(len(x) for x in enum_table(e).values()) * CHAR_PX + BOX_PAD)
    return need


def is_signal(line):
    """A save file's signal line: a path (top.x, gpu.core3.edge_pewt.x) or #{path} bits."""
    return line[:1].isalpha() or line.startswith("#{")


def listed_name(line):
    """The name a save file's signal line displays: `#{name} bits` is a vector
    made of bits (our 1-bit encodings), anything else names the signal."""
    m = re.match(r"#\{([^}]*)\}", line)
    return m.group(1) if m else line.strip()


TR_CLOSED = 0x400000  # GTKWave's trace flag of a closed group (its begin and end lines)


def parse_spec(path):
    """Comment lines, groups [(title, [items], closed)]; an item is a signal
    path without range or a group (a system trace's place holds its
    instances' groups)."""
    return parse_spec_text(open(path).read())


def parse_spec_text(text):
    notes, top, stack, flags = [], [], [], 0
    for line in text.splitlines():
        line = line.rstrip("\n")
        if line.startswith("[*] ") and not line.startswith("[*] finegrain GTKWave save file"):
            notes.append(line)
        elif line.startswith("@"):
            flags = int(line[1:], 16)
        elif line.startswith("-") and stack and line[1:] == stack[-1][0]:
            g = stack.pop()
            (stack[-1][1] if stack else top).append(g)
        elif line.startswith("-"):
            stack.append((line[1:], [], bool(flags & TR_CLOSED)))
        elif is_signal(line):
            name = re.sub(r"\[\d+:\d+\]$", "", listed_name(line))
            if stack:
                stack[-1][1].append(name)
            else:
                top.append(("", [name], False))
    return notes, top


def signals(groups, shown_only=False):
    """The signal paths of groups, in order (shown_only: not in a closed group)."""
    out = []
    for _, items, closed in groups:
        if shown_only and closed:
            continue
        for x in items:
            out += signals([x], shown_only) if isinstance(x, tuple) else [x]
    return out


def write(spec, fst, out, dumpfile):
    sigs, ids, body = fst_header(fst)
    enc = encodings()
    notes, groups = parse_spec(spec)
    focus = next((n.split(":", 1)[1].strip() for n in notes if n.startswith("[*] focus:")), None)
    times = [int(x[1:]) for x in re.findall(r"^#\d+", body, re.M)]
    if not times:
        sys.exit(f"gtkw: {fst} holds no value changes (is the cycle window inside the run?)")
    t0, t1 = min(times), max(times)
    mark = t0
    at = next((int(n.split(":", 1)[1]) for n in notes if n.startswith("[*] at:")), None)
    if at is not None:  # a system trace centred on an event (sim/harness/fg_wave.c)
        if focus and focus not in sigs:
            sys.exit(f"gtkw: {spec}: focus signal {focus} is not in {fst}")
        mark = at
    elif focus:
        ch = changes(ids, body, focus)
        if not ch:
            sys.exit(f"gtkw: {spec}: focus signal {focus} is not in {fst}")
        later = [t for t, v in ch[1:] if t > t0]
        mark = later[0] if later else t0
    start = max(t0, mark - 5 * PS)
    span = min(SPAN * PS, max(t1 - start, PS))
    # a system trace's places: those "[*] open:" names open, every other closed
    opened = next((n.split(":", 1)[1].split() for n in notes if n.startswith("[*] open:")), None)
    if opened is not None:
        groups = [(t, items, closed or t not in opened) for t, items, closed in groups]
    need = at is not None and state_box_px(enc, sigs, signals(groups, shown_only=True))
    if need:  # the states by name: a cycle as wide as the longest name (3% more: GTKWave drew
        # 79 pixels a cycle where 80.6 were asked, EKT_S_LAUNCH with only the front end open)
        span = min(span, SPAN * PX_PER_CYCLE_AT_SPAN / (need * 1.03) * PS)
        start = max(t0, mark - 3 * PS)
    # a view that would run past the trace's end opens at its start in GTKWave:
    # an event near the end (a fault stops the run) keeps the end in view
    start = max(t0, min(start, t1 - int(span)))
    zoom = -math.log2(span / ZOOM_K)
    name = os.path.splitext(os.path.basename(out))[0]
    lines = [f"[*] finegrain GTKWave save file: {name} (written by scripts/gtkw.py from {spec}; "
             f"open from the repo root: gtkwave -a {out})",
             "[*] time: one cycle = 1 ns (cycle N at N ns)"] + [n for n in notes if not n.startswith("[*] time:")]
    lines += [f'[dumpfile] "{dumpfile}"', f"[timestart] {start}", "[size] 1600 1000", "[pos] -1 -1",
              f"*{zoom:.6f} {mark} " + " ".join(["-1"] * 26),
              "[sst_width] 220", f"[signals_width] {SIGNALS_PX if need else 340}", "[sst_expanded] 1", "[sst_vpaned_height] 300"]
    filters, missing = {}, []

    def put(group):
        title, items, closed = group
        if title:  # GTKWave's group begin and end, each with the closed flag or not
            lines.extend(["@c00200" if closed else "@800200", "-" + title])
        for n in items:
            if isinstance(n, tuple):
                put(n)
                continue
            if n not in sigs:
                missing.append(n)
                continue
            full, width = sigs[n]
            e = enum_of(enc, n, width)
            if e:
                f = f"tb/waves/enc/{e}.txt"
                idx = filters.setdefault(f, len(filters) + 1)
                # binary with the filter (its keys) and GTKWave's enum flag: a state
                # register with an FST enum table shows a number without the flag
                # (a 1-bit signal as a vector of its one bit: GTKWave filters vectors only)
                lines.extend(["@100002028", f"^{idx} {f}", full if width > 1 else f"#{{{full}}} {full}"])
            else:
                lines.extend(["@28" if width == 1 else "@22", full])
        if title:
            lines.extend(["@1401200" if closed else "@1000200", "-" + title])

    for g in groups:
        put(g)
    if missing:
        sys.exit(f"gtkw: {spec}: not in {fst}: " + ", ".join(missing))
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


CHECK_TCL = r"""
set out [open $::env(FG_GTKW_OUT) w]
foreach s [gtkwave::getDisplayedSignals] { puts $out "SIG $s" }
set t0 [gtkwave::getWindowStartTime]
set t1 [gtkwave::getWindowEndTime]
puts $out "WIN $t0 $t1 [gtkwave::getMarker]"
for {set i 0} {$i <= 20} {incr i} {
  set t [expr {$t0 + ($t1 - $t0) * $i / 20}]
  gtkwave::setMarker $t
  foreach s [gtkwave::getDisplayedSignals] { puts $out "VAL $t $s [gtkwave::getTraceValueAtMarkerFromName $s]" }
}
close $out
gtkwave::/File/Quit
"""


def in_build(dumpfile):
    """A committed save file names its FST under build/ (tb/waves/*.gtkw);
    when make runs with another BUILD (make coverage: build-cov) make wave
    wrote it there instead."""
    b = os.environ.get("BUILD")
    if b and b != "build" and dumpfile.startswith("build/"):
        return os.path.join(b, dumpfile[len("build/"):])
    return dumpfile


def unreadable_states(text, fst, enc, win):
    """A system trace's event: each value of an FSM state in the opening view
    (GTKWave's own window) must be as wide as its name."""
    sigs, ids, body = fst_header(fst)
    width = re.search(r"^\[signals_width\] (\d+)", text, re.M)
    px_per_ps = (1600 - int(width.group(1)) - 302) / (win[1] - win[0])
    errs = []
    for n in signals(parse_spec_text(text)[1], shown_only=True):
        e = state_enum(enc, sigs, n)
        if not e:
            continue
        names = enum_table(e)
        ch = changes(ids, body, n) + [(win[1], None)]
        for (t, v), (t2, _) in zip(ch, ch[1:]):
            lo, hi = max(t, win[0]), min(t2, win[1])
            name = names.get(v.zfill(sigs[n][1]), v)
            if t > win[0] and t2 < win[1] and (hi - lo) * px_per_ps < len(name) * CHAR_PX + BOX_PAD:
                errs.append(f"{n} = {name} at {t // PS} is {(hi - lo) * px_per_ps:.0f} pixels wide in the "
                            f"opening view: its name needs {len(name) * CHAR_PX + BOX_PAD:.0f}")
    return errs


def layout_errors(text):
    """A system trace's places: exactly the groups "[*] open:" names are open,
    first and in its order; every other is closed."""
    m = re.search(r"^\[\*\] open:(.*)$", text, re.M)
    if not m:
        return []
    want = m.group(1).split()
    tops = [(t, closed) for t, _, closed in parse_spec_text(text)[1] if t]
    opened = [t for t, closed in tops if not closed]
    errs = []
    if opened != want:
        errs.append(f"the open groups are {opened or 'none'}, the file names {want or 'none'}")
    elif [t for t, _ in tops[:len(want)]] != want:
        errs.append(f"the first groups are {[t for t, _ in tops[:len(want)]]}, not the open ones {want}")
    return errs


def event_view_errors(text, cycle, place, first=None, also_open=()):
    """A system trace's save file centred on an event (for the checks of
    make test): the marker at the event's cycle, in the opening view; the
    event's place the first group and open, then also_open's, open; every
    other place closed; with first, the instance group the place opens with."""
    errs = []
    mark = re.search(r"^\*[-0-9.e]+ (\d+) ", text, re.M)
    start = re.search(r"^\[timestart\] (\d+)$", text, re.M)
    if not mark or int(mark.group(1)) != cycle * PS:
        errs.append(f"its marker is at {mark and mark.group(1)}, not at the event ({cycle * PS})")
    if not start or int(start.group(1)) > cycle * PS:
        errs.append(f"it opens at {start and start.group(1)}, after the event ({cycle * PS})")
    tops = [(t, items, closed) for t, items, closed in parse_spec_text(text)[1] if t]
    want = [place, *also_open]
    got = [(t, not closed) for t, _, closed in tops[:len(want)]]
    if got != [(p, True) for p in want]:
        errs.append(f"its first groups are {got}, not {want} open")
    opened = [t for t, _, closed in tops[len(want):] if not closed]
    if opened:
        errs.append(f"other places are open too: {opened}")
    inner = tops[0][1] if tops else []
    if first and (not inner or not isinstance(inner[0], tuple) or inner[0][0] != first):
        errs.append(f"{place} opens with {inner[0][0] if inner and isinstance(inner[0], tuple) else None}, not {first}")
    return errs


def check(saves):
    """Each save file in GTKWave itself: every listed signal displayed, every
    encoding shown by name somewhere in the opening view, values never absent."""
    enc = encodings()
    fail = 0
    with tempfile.TemporaryDirectory() as tmp:
        tcl = os.path.join(tmp, "check.tcl")
        open(tcl, "w").write(CHECK_TCL)
        for save in saves:
            text = open(save).read()
            listed = [listed_name(l) for l in text.splitlines(keepends=True) if is_signal(l)]
            dump = re.search(r'^\[dumpfile\] "(.*)"', text, re.M)
            path = dump and in_build(dump.group(1))
            if not path or not os.path.exists(path):
                print(f"FAIL {save}: its dumpfile {path or '(none)'} is missing (run make wave)")
                fail = 1
                continue
            text = text.replace(dump.group(0), f'[dumpfile] "{path}"', 1)
            res = os.path.join(tmp, "out.txt")
            if os.path.exists(res):
                os.remove(res)
            # a copy: GTKWave may rewrite the save file it was given; with every
            # group open, as GTKWave gives no value for a signal in a closed one
            copy = os.path.join(tmp, "s.gtkw")
            open(copy, "w").write(re.sub(r"^@1401200$", "@1000200", re.sub(r"^@c00200$", "@800200", text, flags=re.M),
                                         flags=re.M))
            p = subprocess.run(["xvfb-run", "-a", "gtkwave", "-S", tcl, copy],
                               env=dict(os.environ, FG_GTKW_OUT=res), capture_output=True, text=True,
                               timeout=300)
            if not os.path.exists(res):
                print(f"FAIL {save}: GTKWave did not run the check (exit {p.returncode}): "
                      + (p.stderr.strip().splitlines() or ["no output"])[-1])
                fail = 1
                continue
            shown, vals, errs, win = [], {}, [], None
            for line in open(res):
                w = line.split()
                if w[0] == "SIG":
                    shown.append(w[1])
                elif w[0] == "VAL":
                    vals.setdefault(w[2], []).append(" ".join(w[3:]))
                elif w[0] == "WIN":
                    win = (int(w[1]), int(w[2]))
            if re.search(r"^\[\*\] at: ", text, re.M) and win:
                errs += unreadable_states(text, path, enc, win)
            errs += layout_errors(text)
            for s in listed:
                if s not in shown:
                    errs.append(f"{s} is not displayed (a vector needs its [msb:lsb])")
            n_enum = 0
            for s in shown:
                m = re.fullmatch(r"(.*?)(\[(\d+):(\d+)\])?", s)
                width = int(m.group(3)) - int(m.group(4)) + 1 if m.group(2) else 1
                is_enum = enum_of(enc, m.group(1), width)
                n_enum += bool(is_enum)
                if not vals.get(s) or any(v == "" for v in vals[s]):
                    errs.append(f"{s} has no value in the opening view")
                elif is_enum:
                    nums = [v for v in vals[s] if re.fullmatch(r"[0-9a-fA-FxXzZ]+", v)]
                    if nums:
                        errs.append(f"{s} (an encoding) shows the number {nums[0]}")
            for e in errs:
                print(f"FAIL {save}: {e}")
            if errs:
                fail = 1
            else:
                opened = re.search(r"^\[\*\] open:(.*)$", text, re.M)
                where = f"; open: {opened.group(1).strip() or 'none'}, the rest closed" if opened else ""
                print(f"ok   {save} ({len(listed)} signals displayed, {n_enum} by name{where})")
    return fail


def main():
    a = sys.argv[1:]
    if a[:1] == ["--check"]:
        if len(a) < 2:
            sys.exit("usage: gtkw.py --check SAVE.gtkw...")
        sys.exit(check(a[1:]))
    out = dumpfile = None
    pos = []
    while a:
        x = a.pop(0)
        if x in ("-o", "--dumpfile") and a:
            v = a.pop(0)
            if x == "-o":
                out = v
            else:
                dumpfile = v
        elif x.startswith("-"):
            sys.exit(f"gtkw: unknown option {x}")
        else:
            pos.append(x)
    if len(pos) != 2:
        sys.exit("usage: gtkw.py SPEC.gtkw FST [-o OUT.gtkw] [--dumpfile PATH]")
    spec, fst = pos
    if not dumpfile and not out:  # rewriting a committed file: keep its repo-relative dumpfile
        m = re.search(r'^\[dumpfile\] "(.*)"', open(spec).read(), re.M)
        dumpfile = m.group(1) if m else None
    write(spec, fst, out or spec, dumpfile or fst)


if __name__ == "__main__":
    main()
