#!/usr/bin/env python3
"""Randomized differential test: generated programs compiled and run on the
host and the tile targets (strata-run --check: compared with the reference
lowering on the same random inputs) and compiled to PTX for NVIDIA (no GPU
needed: a clean diagnostic is fine, a crash is not).

  differential.py [--seed S] [--cases N] [--targets host,tile-wormhole-n150,...]
                  [--case I] [--keep-dir DIR] [--jobs J] [--timeout SEC]
                  [--include-known-failures] [-v]

Every run prints its seed first; a failure prints the seed, the case, the
reproducer's path and the command that reruns that one case. Exit status 1
on any failure. docs/testing.md describes it."""
import argparse
import concurrent.futures
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# No __pycache__ in the source tree (ctest runs this from there).
sys.dont_write_bytecode = True
from generator import generate  # noqa: E402
from known_failures import skipped  # noqa: E402
from outcome import FAILED, KNOWN, PASSED, UNSUPPORTED, Outcome, classify  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_TARGETS = "host,tile-wormhole-n150,tile-blackhole-p150,nvidia-h200"


def compile_only(target):
    """Targets with no device here: compiled (PTX, and a cubin where ptxas
    is installed), not run."""
    return target.startswith("nvidia-")


def may_refuse(target):
    """The host takes every program the generator writes; the tile chips
    and GPUs refuse what their plugins do not lower, with a diagnostic."""
    return target != "host"


def command(bin_dir, target, path, input_seed, out_dir):
    if compile_only(target):
        return [os.path.join(bin_dir, "strata-compile"), path,
                f"--target={target}", "--emit=lib", "--log-level=info",
                "-o", os.path.join(out_dir, f"{target}.bundle")]
    return [os.path.join(bin_dir, "strata-run"), path, f"--target={target}",
            "--check", f"--seed={input_seed}", "--log-level=info"]


def shell(cmd):
    return " ".join(c if c and " " not in c else f"'{c}'" for c in cmd)


def run_tool(cmd, timeout):
    """(exit status, stdout, stderr, timed out, seconds) of `cmd`."""
    start = time.monotonic()
    # Its own process group, so that a hang is killed with what it started
    # (ptxas), and nothing else.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, errors="replace", start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return proc.returncode, out, err, False, time.monotonic() - start
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return proc.returncode, out, err, True, time.monotonic() - start


def run_case(args, index, work_dir):
    """Generates case `index`, runs it on every target; returns
    (case, path, {target: (Outcome, cmd, seconds)})."""
    case = generate(args.seed, index, args.include_known_failures)
    case_dir = os.path.join(work_dir, f"case-{index}")
    os.makedirs(case_dir, exist_ok=True)
    path = os.path.join(case_dir, "case.mlir")
    with open(path, "w") as f:
        f.write(case.text)
    outcomes = {}
    for target in args.targets:
        known = None if args.include_known_failures else skipped(case, target)
        if known:
            outcomes[target] = (Outcome(KNOWN, known.name), [], 0.0)
            continue
        cmd = command(args.bin_dir, target, path, case.input_seed, case_dir)
        rc, out, err, timed_out, secs = run_tool(cmd, args.timeout)
        outcome = classify(rc, out, err, case.results, may_refuse(target),
                           not compile_only(target), timed_out)
        with open(os.path.join(case_dir, f"{target}.log"), "w") as f:
            f.write(f"$ {shell(cmd)}\n# exit {rc}{' (timed out)' if timed_out else ''}, "
                    f"{secs:.1f} s: {outcome}\n{out}\n{err}")
        outcomes[target] = (outcome, cmd, secs)
    return case, path, outcomes


def rerun_command(args, index, target):
    cmd = ["python3", os.path.relpath(os.path.abspath(__file__)),
           f"--seed={args.seed}", f"--case={index}", f"--targets={target}"]
    if args.bin_dir != default_bin_dir():
        cmd.append(f"--bin-dir={args.bin_dir}")
    if args.include_known_failures:
        cmd.append("--include-known-failures")
    return shell(cmd)


def default_bin_dir():
    return os.environ.get("STRATA_BIN_DIR", os.path.join(ROOT, "build", "bin"))


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int,
                        help="run seed (default: fresh from os.urandom, printed)")
    parser.add_argument("--cases", type=int, default=20, help="cases to run")
    parser.add_argument("--case", type=int, action="append",
                        help="run only this case of the seed (repeatable)")
    parser.add_argument("--targets", default=DEFAULT_TARGETS,
                        help=f"comma-separated (default {DEFAULT_TARGETS})")
    parser.add_argument("--bin-dir", default=default_bin_dir(),
                        help="the Strata tools ($STRATA_BIN_DIR, else build/bin)")
    parser.add_argument("--keep-dir",
                        help="write every case here and keep it (default: a "
                             "temporary folder, kept only when a case fails)")
    parser.add_argument("--jobs", type=int, default=min(os.cpu_count() or 1, 4),
                        help="cases run at once")
    parser.add_argument("--timeout", type=float, default=60,
                        help="seconds per tool run before it counts as a hang")
    parser.add_argument("--include-known-failures", action="store_true",
                        help="also generate and run the patterns of the bugs "
                             "in known_failures.py")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="one line per case and target")
    args = parser.parse_args(argv)
    if args.seed is None:
        args.seed = int.from_bytes(os.urandom(4), "little")
    args.targets = [t for t in args.targets.split(",") if t]
    return args


def main(argv=None):
    args = parse_args(argv)
    # The seed first, so that even a run killed halfway can be repeated.
    print(f"differential: seed {args.seed}", flush=True)
    for tool in ("strata-run", "strata-compile"):
        if not os.access(os.path.join(args.bin_dir, tool), os.X_OK):
            print(f"differential: error: no {tool} in {args.bin_dir} (--bin-dir)")
            return 1
    indices = args.case or list(range(args.cases))
    if args.keep_dir:
        work_dir = os.path.abspath(args.keep_dir)
        os.makedirs(work_dir, exist_ok=True)
    else:
        work_dir = tempfile.mkdtemp(prefix=f"strata-differential-{args.seed}-")
    print(f"differential: {len(indices)} cases on {', '.join(args.targets)} "
          f"({args.jobs} at once) in {work_dir}", flush=True)

    start = time.monotonic()
    counts = {t: {PASSED: 0, UNSUPPORTED: 0, KNOWN: 0, FAILED: 0} for t in args.targets}
    reasons = {t: {} for t in args.targets}
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_case, args, i, work_dir) for i in indices]
        for i, future in zip(indices, futures):
            try:
                case, path, outcomes = future.result()
            except Exception:
                # The generator or this driver broke: a failure too, with
                # what reproduces it.
                print(traceback.format_exc(), flush=True)
                failures.append((i, "generator", "", "", Outcome(FAILED, "exception"), []))
                continue
            index, summary = case.index, case.summary
            for target, (outcome, cmd, secs) in outcomes.items():
                counts[target][outcome.status] += 1
                if outcome.status in (UNSUPPORTED, KNOWN):
                    r = reasons[target]
                    key = (outcome.status, outcome.reason)
                    r[key] = r.get(key, 0) + 1
                if outcome.status == FAILED:
                    failures.append((index, target, summary, path, outcome, cmd))
                if args.verbose or outcome.status == FAILED:
                    print(f"  case {index} {target}: {outcome.status}"
                          f"{' (' + outcome.reason + ')' if outcome.reason else ''}"
                          f" [{secs:.1f} s] {summary}", flush=True)
            if not args.keep_dir and not any(
                    o.status == FAILED for o, _, _ in outcomes.values()):
                shutil.rmtree(os.path.dirname(path), ignore_errors=True)

    print_summary(args, counts, reasons, failures, time.monotonic() - start)
    if not failures and not args.keep_dir:
        shutil.rmtree(work_dir, ignore_errors=True)
    return 1 if failures else 0


def print_summary(args, counts, reasons, failures, seconds):
    print(f"\ndifferential: seed {args.seed}, {seconds:.0f} s")
    width = max(len(t) for t in args.targets)
    print(f"  {'target':<{width}}  {'passed':>6}  {'unsupported':>11}  "
          f"{'known':>5}  {'failed':>6}")
    for t in args.targets:
        c = counts[t]
        print(f"  {t:<{width}}  {c[PASSED]:>6}  {c[UNSUPPORTED]:>11}  "
              f"{c[KNOWN]:>5}  {c[FAILED]:>6}")
    for t in args.targets:
        if reasons[t]:
            print(f"  {t}: unsupported (a diagnostic) / not run (a known failure):")
            for (status, reason), n in sorted(reasons[t].items(),
                                              key=lambda kv: (kv[0][0] != UNSUPPORTED, -kv[1])):
                label = "" if status == UNSUPPORTED else "known failure "
                print(f"    {n:>4}  {label}{reason}")
    if not failures:
        return
    print(f"\ndifferential: FAILED: {len(failures)} failure(s) with seed {args.seed}:")
    for index, target, summary, path, outcome, cmd in sorted(failures, key=lambda f: (f[0], f[1])):
        print(f"  case {index} on {target}: {outcome.reason}"
              f"{': ' + outcome.detail if outcome.detail else ''}")
        if not cmd:
            print(f"    reproduce:  python3 {os.path.relpath(os.path.join(HERE, 'generator.py'))} "
                  f"{args.seed} {index}"
                  f"{' --include-known-failures' if args.include_known_failures else ''}")
            continue
        print(f"    program:    {path} ({summary})")
        print(f"    log:        {os.path.join(os.path.dirname(path), target + '.log')}")
        print(f"    tool:       {shell(cmd)}")
        print(f"    reproduce:  {rerun_command(args, index, target)}")


if __name__ == "__main__":
    sys.exit(main())
