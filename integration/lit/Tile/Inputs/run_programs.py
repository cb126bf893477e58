#!/usr/bin/env python3
"""Runs every example (examples/models) and every execution test program
(integration/lit/Execution/*.mlir) on the tile chips with `strata-run
--check`, so that a new program is covered without a line of its own.

A program passes when strata-run exits 0 and every result it checks says
PASS. The programs that do not run on a tile chip are listed below with the
message they stop with; one of them that starts to run (or stops with
another message) is reported too, so the list stays true.

Usage: run_programs.py --chip NAME [--chip NAME...] [--jobs N] FILE_OR_DIR...
Prints a line per program and chip, then a summary; exit status 1 when a
program fails, crashes or stops otherwise than listed."""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

# Programs a tile chip does not run, with what strata-run says (a regular
# expression searched in its output).
EXPECTED = {
    # The checker's own test: a result with non-finite values must FAIL.
    "check-failure.mlir": r"non-finite values FAIL",
    # f64, i8 and i32 products: the chips' matrix engine has no such type.
    "element-types.mlir": r"no matrix intrinsic of '[^']*' issued by a 'core' "
                          r"takes f64 x f64 operands",
}


def programs(paths):
    for path in paths:
        if os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                if name.endswith(".mlir"):
                    yield os.path.join(path, name)
        else:
            yield path


def run(strata_run, program, chip):
    """(status, detail): status ok, expected or bad."""
    name = os.path.basename(program)
    try:
        r = subprocess.run([strata_run, program, f"--target={chip}", "--check"],
                           capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "bad", "timed out after 600 s"
    text = r.stdout + r.stderr
    checks = re.findall(r"check result #\d+ .*", text)
    if name in EXPECTED:
        if re.search(EXPECTED[name], text):
            return "expected", EXPECTED[name]
        return "bad", ("no longer stops as listed (update EXPECTED): "
                       + (text.strip().splitlines() or ["no output"])[-1])
    if r.returncode < 0 or r.returncode > 1:
        return "bad", f"exit status {r.returncode}: " + text[-500:]
    if r.returncode != 0 or not checks or any(
            not c.endswith("PASS") for c in checks):
        lines = [l for l in text.splitlines() if "error" in l or "FAIL" in l]
        return "bad", "; ".join(lines[:3]) or text[-500:]
    return "ok", f"{len(checks)} results checked"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chip", action="append", required=True)
    ap.add_argument("--bin", default="", help="directory of strata-run "
                    "(default: PATH)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    strata_run = os.path.join(args.bin, "strata-run") if args.bin \
        else "strata-run"
    work = [(p, c) for p in programs(args.paths) for c in args.chip]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda pc: run(strata_run, *pc), work))
    counts = {"ok": 0, "expected": 0, "bad": 0}
    for (program, chip), (status, detail) in zip(work, results):
        counts[status] += 1
        label = {"ok": "PASS", "expected": "EXPECTED", "bad": "FAILED"}[status]
        print(f"{label}: {os.path.basename(program)} on {chip}: {detail}")
    print(f"tile programs: {counts['ok']} passed, {counts['expected']} stop "
          f"as listed, {counts['bad']} failed")
    return 1 if counts["bad"] else 0


if __name__ == "__main__":
    sys.exit(main())
