"""Strict numbers for the Python scripts: the same forms as the C reader
(sim/harness/fg_util.h fg_num_*; docs/ARCHITECTURE.md "Options and numbers").

Whole numbers: decimal digits or 0x and hex digits; no sign, space, suffix,
exponent, underscore or leading zero (010 is refused, not read as octal).
Real numbers: decimal with an optional fraction and exponent (2.5, 1e-3).
Each raises NumError("NAME 'VALUE': why"), one line; argparse_type() turns it
into argparse's own error (exit status 2)."""
import argparse
import re

WHOLE_FORMS = ("expected a whole number: decimal digits or 0x and hex digits "
               "(no sign, exponent, suffix or leading zero)")
_REAL = re.compile(r"-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\Z")


class NumError(ValueError):
    pass


def whole(name, s, lo=0, hi=2**64 - 1):
    s = str(s)
    if re.fullmatch(r"0[xX][0-9a-fA-F]+", s):
        v = int(s, 16)
    elif re.fullmatch(r"0\d+", s):
        raise NumError(f"{name} '{s}': a decimal with a leading zero is refused (it is not read as octal)")
    elif re.fullmatch(r"[0-9]+", s):
        v = int(s)
    else:
        raise NumError(f"{name} '{s}': {WHOLE_FORMS}")
    if not lo <= v <= hi:
        raise NumError(f"{name} {s}: outside [{lo}, {hi}]")
    return v


def real(name, s, lo=float("-inf"), hi=float("inf")):
    s = str(s)
    if not _REAL.match(s):
        raise NumError(f"{name} '{s}': expected a decimal number (e.g. 10, 2.5, 1e-3; no hex, inf or nan)")
    v = float(s)
    if not lo <= v <= hi or v in (float("inf"), float("-inf")):
        raise NumError(f"{name} {s}: outside [{lo:g}, {hi:g}]")
    return v


def argparse_type(kind, name, lo, hi):
    """type= for an argparse option: whole or real in [lo, hi]."""
    def conv(s):
        try:
            return kind(name, s, lo, hi)
        except NumError as e:
            raise argparse.ArgumentTypeError(str(e).split(" ", 1)[1]) from None
    conv.__name__ = "number"
    return conv


def or_exit(prog, kind, name, s, lo, hi):
    """kind(name, s, lo, hi), or exit with "prog: message" (status 1)."""
    try:
        return kind(name, s, lo, hi)
    except NumError as e:
        raise SystemExit(f"{prog}: {e}") from None
