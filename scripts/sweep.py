#!/usr/bin/env python3
"""sweep: the experiment runner (docs/SWEEPS.md).

An experiment (experiments/NAME.ini) is a list of independent points: the
cross product of its axes (each value a set of config overrides), then any
extra points listed in [points NAME] sections, each point once per seed.  Each point is one run of the experiment's C program
(`PROGRAM ARGS --set k=v ... --point --out FILE`), writing one JSON file.
The runner runs the points locally N at a time or submits them as Slurm job
arrays, skips points already finished with the same inputs (command line,
program binary, input files), reports a failed point with its command line
and log while the others finish, then collects the points into the
experiment's result file.

    sweep.py run [--jobs N] [--slurm] [--results DIR] EXPERIMENT.ini...
    sweep.py status|list|collect EXPERIMENT.ini...
        (status: each experiment's points by state and the done points' summed run time)

Python 3 standard library only.
"""

import argparse
import concurrent.futures
import configparser
import glob
import hashlib
import itertools
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time

import fg_num

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXP_KEYS = {"name", "program", "args", "result", "collect", "seeds", "seed_key", "inputs",
            "time_limit_minutes", "memory_mb"}
OVERRIDE = re.compile(r"^[A-Za-z0-9_]+\.[A-Za-z0-9_]+=\S*$")


class SweepError(Exception):
    pass


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP (a Slurm time-out or scancel, a closed terminal): handled as Ctrl-C."""

    def __init__(self, signum):
        super().__init__()
        self.signum, self.name = signum, signal.Signals(signum).name


def on_stop_signal(signum, frame):
    raise Stopped(signum)


def stop_signals():
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_stop_signal)


def stop_points(procs, parts):
    """Stops running points (each its own session: SIGTERM to its group, SIGKILL after 5 s)
    and removes their partial result files; returns how many were stopped."""
    for proc in procs:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except OSError:
            pass
    deadline = time.monotonic() + 5
    for proc in procs:
        try:
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
            proc.wait()
    for part in parts:
        try:
            os.remove(part)
        except FileNotFoundError:
            pass
    return len(procs)


def fmt_time(s):
    s = int(s + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def rel(path):
    """path relative to the repository root when inside it (command lines, messages)."""
    r = os.path.relpath(path, ROOT)
    return path if r.startswith("..") else r


def write_atomic(path, text):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def log_tail(path, n=15):
    try:
        with open(path, errors="replace") as f:
            return f.readlines()[-n:]
    except OSError:
        return []


class Point:
    def __init__(self, exp, index, values, overrides, seed):
        self.exp, self.index, self.values, self.overrides, self.seed = exp, index, values, overrides, seed
        parts = [f"{k}={v}" for k, v in values.items()] + ([f"seed={seed}"] if seed is not None else [])
        self.id = re.sub(r"[^A-Za-z0-9._=,+-]", "_", ",".join(parts) or "default")
        base = os.path.join(exp.workdir, "points", self.id)
        self.json, self.part, self.log, self.meta = base + ".json", base + ".json.part", base + ".log", base + ".meta"
        sets = [a for o in overrides for a in ("--set", o)]
        self.argv = [rel(exp.program_path)] + exp.args + sets + ["--point", "--out", rel(self.part)]
        self._key = None

    def key(self):
        """What the point's result depends on: command line, program, input files."""
        if self._key is None:
            h = hashlib.sha256(json.dumps(self.argv).encode())
            for path in self.exp.input_files():
                h.update(path.encode() + b"\0" + file_digest(path).encode())
            self._key = h.hexdigest()
        return self._key

    def state(self):
        """'done', 'failed', 'stale' (finished with other inputs) or 'todo'."""
        m = read_json(self.meta)
        if not m:
            return "todo"
        if m.get("key") != self.key():
            return "stale"
        if m.get("rc") != 0:
            return "failed"
        return "done" if os.path.exists(self.json) else "todo"

    def previous_seconds(self):
        """How long the point's last run took (any inputs), for the ETA."""
        if not hasattr(self, "_prev"):
            m = read_json(self.meta)
            self._prev = m.get("seconds") if m else None
        return self._prev

    def manifest_entry(self):
        return {"id": self.id, "argv": self.argv, "json": self.json, "part": self.part, "log": self.log,
                "meta": self.meta, "key": self.key()}


_digests = {}


def file_digest(path):
    if path not in _digests:
        h = hashlib.sha256()
        try:
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            _digests[path] = h.hexdigest()
        except OSError:
            _digests[path] = "missing"
    return _digests[path]


class Experiment:
    def __init__(self, path, results, build):
        cp = configparser.ConfigParser(inline_comment_prefixes=(";", "#"), interpolation=None, delimiters=("=",))
        cp.optionxform = str
        try:
            if not cp.read(path):
                raise SweepError(f"{path}: cannot read")
        except configparser.Error as e:
            raise SweepError(f"{path}: {e}") from None
        if "experiment" not in cp:
            raise SweepError(f"{path}: no [experiment] section")
        e = cp["experiment"]
        unknown = set(e) - EXP_KEYS
        if unknown:
            raise SweepError(f"{path}: [experiment] unknown key(s) {', '.join(sorted(unknown))}")
        if "program" not in e:
            raise SweepError(f"{path}: [experiment] needs program")
        self.path, self.build = path, build
        self.name = e.get("name", os.path.splitext(os.path.basename(path))[0])
        prog = e["program"]
        self.program_path = os.path.join(ROOT, prog) if "/" in prog else os.path.join(build, "bin", prog)
        self.args = shlex.split(e.get("args", ""))
        self.result = os.path.join(results, e.get("result", self.name + ".json"))
        self.workdir = os.path.join(results, "sweeps", self.name)
        self.collect_mode = e.get("collect", "list")
        if self.collect_mode not in ("list", "program"):
            raise SweepError(f"{path}: collect = {self.collect_mode}: expected list or program")
        self.seeds = parse_seeds(e.get("seeds", ""), path)
        self.seed_key = e.get("seed_key")
        if self.seeds and not (self.seed_key and OVERRIDE.match(self.seed_key + "=0")):
            raise SweepError(f"{path}: seeds need seed_key = section.key")
        self.inputs = e.get("inputs", "").split()
        self.time_limit = exp_number(path, e, "time_limit_minutes", 10**6)
        self.memory_mb = exp_number(path, e, "memory_mb", 10**9)
        self.axes, extra = [], []
        for sec in cp.sections():
            if sec == "experiment":
                continue
            if not sec.startswith(("axis ", "points ")):
                raise SweepError(f"{path}: [{sec}]: expected [experiment], [axis NAME] or [points NAME]")
            vals = []
            for label, text in cp[sec].items():
                ov = text.split()
                bad = [o for o in ov if not OVERRIDE.match(o)]
                if bad:
                    raise SweepError(f"{path}: [{sec}] {label}: '{bad[0]}' is not section.key=value")
                vals.append((label, ov))
            if not vals:
                raise SweepError(f"{path}: [{sec}] has no values")
            if sec.startswith("axis "):
                self.axes.append((sec[5:].strip(), vals))
            else:  # [points NAME]: one extra point per line, outside the axes' cross product
                extra += [({sec[7:].strip(): label}, ov) for label, ov in vals]
        combos = [({name: label for (name, _), (label, _) in zip(self.axes, combo)}, [o for _, ovs in combo for o in ovs])
                  for combo in itertools.product(*[vals for _, vals in self.axes])] if self.axes or not extra else []
        self.points = []
        for values, ov in combos + extra:
            for seed in self.seeds or [None]:
                sk = [f"{self.seed_key}={seed}"] if seed is not None else []
                self.points.append(Point(self, len(self.points), values, ov + sk, seed))
        ids = [p.id for p in self.points]
        if len(set(ids)) != len(ids):
            raise SweepError(f"{path}: two points have the same id (value labels must differ)")

    def input_files(self):
        files = [self.program_path] + [os.path.join(ROOT, a) for a in self.args
                                       if os.path.isfile(os.path.join(ROOT, a))]
        for pat in self.inputs:
            pat = pat.replace("$BUILD", self.build)
            files += sorted(glob.glob(os.path.join(ROOT, pat)))
        return files

    def collect(self, quiet=False):
        """Writes the result file from the finished points (all must be done)."""
        missing = [p.id for p in self.points if p.state() != "done"]
        if missing:
            raise SweepError(f"{self.name}: {len(missing)} point(s) not finished, e.g. {missing[0]}")
        os.makedirs(os.path.dirname(self.result) or ".", exist_ok=True)
        results = [read_json(p.json) for p in self.points]
        if self.collect_mode == "program":
            lst = os.path.join(self.workdir, "points.txt")
            write_atomic(lst, "".join(rel(p.json) + "\n" for p in self.points))
            argv = [rel(self.program_path)] + self.args + ["--merge", rel(lst), "--out", rel(self.result)]
            r = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL if quiet else None)
            if r.returncode:
                raise SweepError(f"{self.name}: merging failed (exit {r.returncode}): {shlex.join(argv)}")
            out = read_json(self.result)
            if not isinstance(out, dict):
                raise SweepError(f"{self.name}: the merge wrote no JSON object to {rel(self.result)}")
        else:
            out = {"experiment": self.name, "description": rel(os.path.abspath(self.path)),
                   "axes": [name for name, _ in self.axes] + (["seed"] if self.seeds else []), "points": []}
            for p, res in zip(self.points, results):
                out["points"].append({"id": p.id, "values": p.values, "seed": p.seed, "overrides": p.overrides,
                                      "result": res})
        out.update(self.sources(results, quiet))
        write_atomic(self.result, json.dumps(out, indent=1) + "\n")

    def sources(self, results, quiet):
        """The sources fingerprint of the simulation that ran the points (docs/RESULTS.md
        "Provenance"): the merge's own program may be newer than the points."""
        fps = sorted({(r or {}).get("sources") for r in results}, key=str)
        if len(fps) == 1:
            return {"sources": fps[0]}
        if not quiet:
            print(f"sweep: {self.name}: the points were run by {len(fps)} different simulations "
                  f"(sources {', '.join(str(f)[:16] for f in fps)}); the result is marked mixed", file=sys.stderr)
        return {"sources": "mixed", "sources_of_points": fps}


def exp_number(path, e, key, hi):
    """[experiment] key: a whole number (scripts/fg_num.py), 0 when absent."""
    try:
        return fg_num.whole(f"{path}: [experiment] {key}", e.get(key, "0"), 0, hi)
    except fg_num.NumError as err:
        raise SweepError(str(err)) from None


def parse_seeds(text, path):
    seeds = []
    for tok in text.replace(",", " ").split():
        lo_s, _, hi_s = tok.partition("-")
        try:
            lo = fg_num.whole(f"{path}: seeds: '{tok}':", lo_s)
            hi = fg_num.whole(f"{path}: seeds: '{tok}':", hi_s) if hi_s else lo
        except fg_num.NumError as err:
            raise SweepError(f"{err} (seeds are N or N-M, comma- or space-separated)") from None
        if hi < lo:
            raise SweepError(f"{path}: seeds: '{tok}': the range ends before it starts (N-M needs N <= M)")
        if hi - lo >= 100000:
            raise SweepError(f"{path}: seeds: '{tok}': more than 100000 seeds")
        seeds += range(lo, hi + 1)
    return seeds


def check_points(points, build, jobs):
    """Every point's configuration through its program's --check-config
    (loads the config files and overrides, runs nothing), before any point
    runs: an override the program does not read, a malformed or out-of-range
    value, is one line here instead of a point that ran something else."""
    env = point_env(build)

    def one(p):
        argv = p.argv[:-3] + ["--check-config"]  # less "--point --out FILE"
        r = subprocess.run(argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if r.returncode == 0:
            return None
        why = (r.stderr.strip() or r.stdout.strip() or f"exit {r.returncode}").splitlines()[-1]
        return f"{p.exp.name} point {p.id}: {why} ({shlex.join(argv)})"

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(jobs, 8))) as ex:
        for err in ex.map(one, points):
            if err:
                raise SweepError(f"not running anything: {err}")


# ------------------------------------------------------------ running points

def start_point(entry, env):
    """Starts one point (manifest entry) with its output in its log."""
    os.makedirs(os.path.dirname(entry["json"]), exist_ok=True)
    for f in (entry["part"], entry["meta"]):
        if os.path.exists(f):
            os.remove(f)
    log = open(entry["log"], "w")
    log.write(f"# {shlex.join(entry['argv'])}\n# host {socket.gethostname()}, "
              f"started {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
    log.flush()
    try:
        return subprocess.Popen(entry["argv"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    except OSError as e:
        log.write(f"# cannot start: {e}\n")
        return None
    finally:
        log.close()


def finish_point(entry, rc, seconds, why=None):
    """Publishes a finished point (JSON, then meta); returns an error or None.
    why: the error of a point the runner stopped (rc != 0)."""
    err = why
    if why:
        pass
    elif rc != 0:
        err = f"killed by signal {-rc}" if rc < 0 else f"exit status {rc}"
    elif read_json(entry["part"]) is None:
        err, rc = "exit status 0 but no valid JSON written", 1
    else:
        os.replace(entry["part"], entry["json"])
    with open(entry["log"], "a") as log:
        log.write(f"# finished in {seconds:.1f} s: {err or 'ok'}\n")
    meta = {"id": entry["id"], "key": entry["key"], "rc": rc, "error": err, "seconds": round(seconds, 3),
            "host": socket.gethostname(), "argv": entry["argv"], "finished": time.strftime("%Y-%m-%d %H:%M:%S")}
    write_atomic(entry["meta"], json.dumps(meta, indent=1) + "\n")
    return err


def point_env(build):
    env = dict(os.environ)
    env["BUILD"] = rel(build)
    # one point per core: each point steps its GPU's cores on one thread
    # (gpu.threads = 0 takes $FG_THREADS; docs/SIMT.md "Threads")
    env.setdefault("FG_THREADS", "1")
    return env


class Progress:
    """One status line with counts and ETA on a terminal; quiet otherwise."""

    def __init__(self, total, cached, jobs, stream=sys.stderr):
        self.total, self.cached, self.jobs, self.stream = total, cached, jobs, stream
        self.tty = stream.isatty() and os.environ.get("TERM") != "dumb"
        self.t0 = time.monotonic()
        self.shown, self.drawn = False, 0.0

    def note(self, text, always=False):
        if not (self.tty or always):
            return
        self.clear()
        print(text, file=self.stream, flush=True)

    def clear(self):
        if self.shown:
            self.stream.write("\r\033[K")
            self.shown = False

    def status(self, done, running, failed, eta):
        now = time.monotonic()
        if not self.tty or now - self.drawn < 0.5:
            return
        self.drawn, el = now, now - self.t0
        text = (f"sweep: {done + self.cached}/{self.total} done ({self.cached} cached), {running} running, "
                f"{failed} failed | elapsed {fmt_time(el)} | ETA {fmt_time(eta) if eta is not None else '?'}")
        cols = os.get_terminal_size(self.stream.fileno()).columns
        self.stream.write("\r\033[K" + (text[:cols - 1] if cols > 20 else text))
        self.stream.flush()
        self.shown = True


def report_failure(progress, point, err, extra_log=None):
    lines = [f"FAILED {point.exp.name} {point.id}: {err}", f"  command: {shlex.join(point.argv)}",
             f"  log: {point.log}"]
    tail = log_tail(point.log) or (log_tail(extra_log) if extra_log else [])
    lines += ["  | " + t.rstrip("\n") for t in tail]
    progress.note("\n".join(lines), always=True)


def estimate(todo, running, durations, jobs, now):
    """Seconds left: each unfinished point's last duration, else the mean so far."""
    mean = sum(durations) / len(durations) if durations else None
    work = 0.0
    for p in todo:
        d = p.previous_seconds() or mean
        if d is None:
            return None
        work += d
    for p, t0 in running:
        d = p.previous_seconds() or mean
        if d is None:
            return None
        work += max(d - (now - t0), 0)
    return work / max(1, min(jobs, len(todo) + len(running)))


def run_local(todo, jobs, progress, env):
    # longest first (last run's durations) packs the slots best
    pending = sorted(todo, key=lambda p: -(p.previous_seconds() or 0))
    running, durations, failed = {}, [], []
    # points left per experiment: one line (terminal or not) as an experiment's last point finishes
    left = {}
    for p in todo:
        left[p.exp] = left.get(p.exp, 0) + 1
    size, t_start = dict(left), time.monotonic()

    def finished(p):
        left[p.exp] -= 1
        if not left[p.exp]:
            bad = sum(1 for q in failed if q.exp is p.exp)
            progress.note(f"sweep: {p.exp.name}: {size[p.exp]} points finished, {bad} failed "
                          f"({fmt_time(time.monotonic() - t_start)})", always=True)

    try:
        while pending or running:
            while pending and len(running) < jobs:
                p = pending.pop(0)
                proc = start_point(p.manifest_entry(), env)
                if proc is None:
                    failed.append(p)
                    report_failure(progress, p, "cannot start (see log)")
                    finished(p)
                    continue
                running[proc] = (p, time.monotonic())
            time.sleep(0.1)
            now = time.monotonic()
            for proc in [q for q in running if q.poll() is not None]:
                p, t0 = running.pop(proc)
                err = finish_point(p.manifest_entry(), proc.returncode, now - t0)
                if err:
                    failed.append(p)
                    report_failure(progress, p, err)
                else:
                    durations.append(now - t0)
                    progress.note(f"  ok   {p.exp.name} {p.id} ({now - t0:.1f} s)")
                finished(p)
            progress.status(len(durations), len(running), len(failed),
                            estimate(pending, running.values(), durations, jobs, now))
    except KeyboardInterrupt as e:
        # (a second signal while stopping them is ignored: the points must not outlive the runner)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        e.stopped = stop_points(list(running), [p.part for p, _ in running.values()])
        progress.clear()
        raise
    return failed


# ------------------------------------------------------------------- Slurm

def slurm_jobs_alive(jobs):
    """{job id: list of task states} for the jobs ({"job", "name"}) squeue still knows under their name."""
    alive = {}
    for job in jobs:
        j = job["job"]
        r = subprocess.run(["squeue", "-h", "-r", "-j", j, "-o", "%T %j"], capture_output=True, text=True)
        states = [line.split()[0] for line in r.stdout.splitlines() if line.split()[1:] == [job["name"]]]
        if r.returncode == 0 and states:
            alive[j] = states
        elif r.returncode != 0 and "Invalid job id" not in r.stderr:
            raise SweepError(f"squeue failed: {r.stderr.strip()}")
    return alive


def slurm_submit(exp, points, opts):
    sdir = os.path.join(exp.workdir, "slurm")
    os.makedirs(sdir, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}"
    jobs = []
    for c in range(0, len(points), opts.array_max):
        chunk = points[c:c + opts.array_max]
        manifest = os.path.join(sdir, f"{stamp}-{c}.json")
        write_atomic(manifest, json.dumps({"root": ROOT, "build": exp.build,
                                           "points": [p.manifest_entry() for p in chunk]}, indent=1))
        script = os.path.join(sdir, f"{stamp}-{c}.sh")
        directives = [f"--job-name=fg-{exp.name}", f"--output={sdir}/%A_%a.out", "--ntasks=1",
                      "--cpus-per-task=1"]
        if exp.time_limit:
            directives.append(f"--time={exp.time_limit}")
        if exp.memory_mb:
            directives.append(f"--mem={exp.memory_mb}M")
        write_atomic(script, "#!/bin/sh\n" + "".join(f"#SBATCH {d}\n" for d in directives) +
                     f"cd {shlex.quote(ROOT)} || exit 1\n"
                     f"exec {shlex.quote(sys.executable)} {shlex.quote(os.path.abspath(__file__))} exec "
                     f"{shlex.quote(manifest)} \"$SLURM_ARRAY_TASK_ID\"\n")
        array = f"0-{len(chunk) - 1}" + (f"%{opts.jobs}" if opts.jobs else "")
        argv = ["sbatch", "--parsable", f"--array={array}"] + shlex.split(opts.sbatch_args) + [script]
        r = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
        if r.returncode:
            raise SweepError(f"sbatch failed ({shlex.join(argv)}): {r.stderr.strip()}")
        job = r.stdout.strip().split(";")[0]
        jobs.append({"job": job, "name": f"fg-{exp.name}", "manifest": manifest, "ids": [p.id for p in chunk]})
    record = os.path.join(sdir, "jobs.json")
    write_atomic(record, json.dumps((read_json(record) or []) + jobs, indent=1))
    return jobs


def slurm_attach(exp):
    """Earlier submissions of this experiment still queued or running."""
    record = os.path.join(exp.workdir, "slurm", "jobs.json")
    jobs = read_json(record) or []
    alive = slurm_jobs_alive(jobs) if jobs else {}
    live = [j for j in jobs if j["job"] in alive]
    if len(live) != len(jobs):
        write_atomic(record, json.dumps(live, indent=1))
    return live


def run_slurm(exps, todo, opts, progress):
    by_id = {(p.exp.name, p.id): p for p in todo}
    jobs, inflight = [], set()
    for e in exps:
        for j in slurm_attach(e):
            jobs.append((e, j))
            inflight |= {(e.name, i) for i in j["ids"]}
    if inflight:
        progress.note(f"sweep: {len(inflight)} point(s) already submitted, waiting for them", always=True)
    for e in exps:
        mine = [p for p in todo if p.exp is e and (e.name, p.id) not in inflight]
        if mine:
            for j in slurm_submit(e, mine, opts):
                jobs.append((e, j))
                progress.note(f"sweep: {e.name}: submitted {len(mine)} point(s) as Slurm job array {j['job']}",
                              always=True)
    watch = [by_id[(e.name, i)] for e, j in jobs for i in j["ids"] if (e.name, i) in by_id]
    if opts.no_wait:
        return [], True
    failed, finished, grace_until = [], set(), None
    durations = []
    try:
        while True:
            alive = slurm_jobs_alive([j for _, j in jobs])
            for p in watch:
                if p.id in finished:
                    continue
                st = p.state()
                if st in ("done", "failed"):
                    finished.add(p.id)
                    meta = read_json(p.meta) or {}
                    if st == "failed":
                        failed.append(p)
                        report_failure(progress, p, meta.get("error", "failed"))
                    else:
                        durations.append(meta.get("seconds", 0))
                        progress.note(f"  ok   {p.exp.name} {p.id} ({durations[-1]:.1f} s)")
            running = sum(s.count("RUNNING") for s in alive.values())
            left = [p for p in watch if p.id not in finished]
            progress.status(len(durations), running, len(failed),
                            estimate(left, [], durations, max(1, running), time.monotonic()))
            if not left:
                break
            if not alive:
                # every job has left the queue: give a shared filesystem a moment, then give up
                grace_until = grace_until or time.monotonic() + opts.fs_grace
                if time.monotonic() > grace_until:
                    for p in left:
                        failed.append(p)
                        outs = sorted(glob.glob(os.path.join(p.exp.workdir, "slurm", "*.out")), key=os.path.getmtime)
                        report_failure(progress, p, "no result after its Slurm job ended", outs[-1] if outs else None)
                    break
            time.sleep(opts.poll)
    except KeyboardInterrupt:
        subprocess.run(["scancel"] + [j["job"] for _, j in jobs])
        progress.clear()
        raise
    return failed, False


def cmd_exec(manifest, index):
    """One Slurm array task: runs point `index` of the manifest."""
    m = read_json(manifest)
    if not m:
        print(f"sweep exec: cannot read {manifest}", file=sys.stderr)
        return 2
    entry = m["points"][int(index)]
    t0 = time.monotonic()
    proc = start_point(entry, point_env(m["build"]))
    try:
        rc = proc.wait() if proc else 127
    except Stopped as e:
        # Slurm's time limit or scancel: the point is stopped and recorded as failed with the
        # reason (the runner reports it instead of waiting for a result that will not come)
        signal.signal(e.signum, signal.SIG_IGN)
        stop_points([proc], [entry["part"]])
        err = f"stopped by {e.name} (a Slurm time limit or scancel) after {time.monotonic() - t0:.0f} s"
        finish_point(entry, -e.signum, time.monotonic() - t0, err)
        print(f"{entry['id']}: {err}; point stopped, partial file removed", file=sys.stderr)
        return 128 + e.signum
    err = finish_point(entry, rc, time.monotonic() - t0)
    print(f"{entry['id']}: {err or 'ok'}")
    return 1 if err else 0


def point_time(seconds):
    """The done points' run time: each point's wall time as its meta file records it, summed.  A point
    is one single-threaded process (FG_THREADS=1), so on cores it had to itself this is its CPU time; on
    a loaded machine it is more."""
    return f"{seconds:.0f} s of point time ({seconds / 3600:.2f} h) in the done points"


# -------------------------------------------------------------------- main

def main(argv=None):
    ap = argparse.ArgumentParser(prog="sweep.py", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("run", "status", "list", "collect"):
        s = sub.add_parser(name)
        s.add_argument("experiments", nargs="+", metavar="EXPERIMENT.ini")
        s.add_argument("--results", default=os.path.join(ROOT, "results"),
                       help="result files go here, point files under DIR/sweeps/NAME (default results/)")
        s.add_argument("--build", default=os.environ.get("BUILD", "build"), help="build directory ($BUILD)")
        if name == "run":
            s.add_argument("-j", "--jobs", type=fg_num.argparse_type(fg_num.whole, "-j", 0, 4096), default=0,
                           help="points at a time (local: default the CPU count; Slurm: array throttle)")
            s.add_argument("--slurm", action="store_true", help="submit the points as Slurm job arrays")
            s.add_argument("--sbatch-args", default=os.environ.get("FG_SBATCH_ARGS", ""),
                           help="more sbatch options, e.g. '--partition=short --account=arch'")
            s.add_argument("--no-wait", action="store_true", help="Slurm: submit and return")
            s.add_argument("--force", action="store_true", help="run finished points again")
            s.add_argument("--array-max", type=fg_num.argparse_type(fg_num.whole, "--array-max", 1, 10**6),
                           default=1000, help="Slurm: points per job array")
            s.add_argument("--poll", type=fg_num.argparse_type(fg_num.real, "--poll", 0.01, 3600), default=1.0, help=argparse.SUPPRESS)
            s.add_argument("--fs-grace", type=fg_num.argparse_type(fg_num.real, "--fs-grace", 0, 3600), default=10.0, help=argparse.SUPPRESS)
    e = sub.add_parser("exec", help=argparse.SUPPRESS)
    e.add_argument("manifest")
    e.add_argument("index")
    opts = ap.parse_args(argv)
    stop_signals()
    if opts.cmd == "exec":
        return cmd_exec(opts.manifest, opts.index)
    build = os.path.join(ROOT, opts.build) if not os.path.isabs(opts.build) else opts.build
    try:
        exps = [Experiment(p, os.path.abspath(opts.results), build) for p in opts.experiments]
        if opts.cmd == "list":
            for ex in exps:
                for p in ex.points:
                    print(f"{ex.name} {p.id} [{p.state()}]\n  {shlex.join(p.argv)}")
            return 0
        if opts.cmd == "status":
            total = 0.0
            for ex in exps:
                states = [p.state() for p in ex.points]
                counts = ", ".join(f"{states.count(s)} {s}" for s in ("done", "failed", "stale", "todo"))
                secs = sum(p.previous_seconds() or 0.0 for p, s in zip(ex.points, states) if s == "done")
                total += secs
                print(f"{ex.name}: {len(states)} points: {counts}; {point_time(secs)}")
            if len(exps) > 1:
                print(f"all {len(exps)} experiments: {point_time(total)}")
            return 0
        if opts.cmd == "collect":
            return collect_all(exps, say=False)
        return cmd_run(exps, opts, build)
    except SweepError as err:
        print(f"sweep: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        what = e.name if isinstance(e, Stopped) else "interrupted"
        n = getattr(e, "stopped", 0)
        stopped = f"stopped {n} running point(s), removed their partial files; " if n else ""
        print(f"sweep: {what}: {stopped}finished points are kept", file=sys.stderr)
        return 128 + e.signum if isinstance(e, Stopped) else 130


def cmd_run(exps, opts, build):
    points = [p for ex in exps for p in ex.points]
    missing = sorted({ex.program_path for ex in exps if not os.access(ex.program_path, os.X_OK)})
    if missing:
        raise SweepError(f"no program {missing[0]} (make build)")
    todo = [p for p in points if opts.force or p.state() != "done"]
    jobs = opts.jobs or (0 if opts.slurm else os.cpu_count() or 1)
    check_points(todo, build, jobs or os.cpu_count() or 1)
    progress = Progress(len(points), len(points) - len(todo), jobs or len(todo) or 1)
    t0 = time.monotonic()
    waiting = False
    if not todo:
        failed = []
    elif opts.slurm:
        failed, waiting = run_slurm(exps, todo, opts, progress)
    else:
        failed = run_local(todo, jobs, progress, point_env(build))
    progress.clear()
    names = ", ".join(ex.name for ex in exps)
    print(f"sweep: {names}: {len(points)} points, {len(todo) - len(failed)} run, {len(points) - len(todo)} "
          f"already done, {len(failed)} failed ({fmt_time(time.monotonic() - t0)})", file=sys.stderr)
    if waiting:
        print("sweep: submitted; `sweep.py run` again (same options) waits for the jobs and collects",
              file=sys.stderr)
        return 0
    if failed:
        print(f"sweep: not collecting: {len(failed)} point(s) failed; running again retries only those",
              file=sys.stderr)
        return 1
    return collect_all(exps, say=True)


def collect_all(exps, say):
    """Merges every experiment; one that fails to merge is reported and the rest are still merged."""
    bad = 0
    for ex in exps:
        try:
            ex.collect()
        except SweepError as err:
            print(f"sweep: {err}", file=sys.stderr)
            bad += 1
            continue
        if say:
            print(f"sweep: wrote {rel(ex.result)}", file=sys.stderr)
    return 2 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
