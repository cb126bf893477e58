#!/usr/bin/env python3
"""The tile cycle model against published n150 matmul times.

Reads integration/tile_calibration/n150_matmul.csv (tt-metal's measured,
hand-tuned matmuls on an n150; README.md there gives the source), turns each
row's device-based utilization into device cycles (ideal cycles / util,
ideal = M K N / 32^3 x cycles per tile at the fidelity / 64 cores), compiles
the same matmul with Strata for `tile-wormhole-n150` at the row's fidelity
(the matrix intrinsics' default_fidelity), runs it on the emulator
and prints predicted vs published cycles with the relative error.

Block-float rows (BFLOAT8_B, BFLOAT4_B) compile the same bf16 matmul for a
copy of the chip whose intrinsic stores the operands as bfp8 / bfp4
(integration/tile_calibration/block_float_chip.py); the result stays bf16. Strata's program reads its inputs from DRAM and writes
its result there; rows where tt-metal kept A and C in L1 say so.

Usage: tile_calibration.py [--bin DIR] [--chip JSON] [--dtypes LIST]
                           [--min-size N] [--max-size N] [--bound PCT]
                           [--max-mean PCT]
Exit status 1 when a compared row misses the bound (default 15%) or the
mean absolute error exceeds --max-mean.
Standard library only.
"""

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(REPO, "integration", "tile_calibration", "n150_matmul.csv")
sys.path.insert(0, os.path.dirname(DATA))
from block_float_chip import block_float_chip  # noqa: E402
CHIP = os.path.join(REPO, "targets", "tile", "descriptions",
                    "tile-wormhole-n150.json")
CYCLES_PER_TILE = {"LoFi": 16, "HiFi2": 32, "HiFi3": 48, "HiFi4": 64}
# Published formats: bf16 as is; the block floats as bf16 matmuls on a copy
# of the chip whose intrinsic stores the operands in that format (the
# result stays bf16, where tt-metal's was the block format too).
FORMATS = {"BFLOAT16": None, "BFLOAT8_B": "bfp8", "BFLOAT4_B": "bfp4"}
CORES = 64                    # the n150's full compute grid, 8 x 8


def matmul_program(m, k, n, elem):
    """C = A B with A m x k, B k x n and C of `elem`, from a zero fill."""
    a, b, c = (f"tensor<{m}x{k}x{elem}>", f"tensor<{k}x{n}x{elem}>",
               f"tensor<{m}x{n}x{elem}>")
    return f"""func.func @matmul(%a: {a}, %b: {b}) -> {c} {{
  %zero = arith.constant 0.0 : {elem}
  %e = tensor.empty() : {c}
  %f = linalg.fill ins(%zero : {elem}) outs(%e : {c}) -> {c}
  %r = linalg.matmul ins(%a, %b : {a}, {b}) outs(%f : {c}) -> {c}
  return %r : {c}
}}
"""


def published_rows(min_size, max_size):
    """One row per configuration (the traced run's numbers: device time
    does not depend on host dispatch)."""
    seen = {}
    with open(DATA, newline="") as f:
        for r in csv.DictReader(f):
            m, k, n = int(r["m"]), int(r["k"]), int(r["n"])
            if min(m, k, n) < min_size or max(m, k, n) > max_size:
                continue
            key = (m, k, n, r["dtype"], r["math_fidelity"])
            if key in seen and r["use_trace"] != "True":
                continue
            seen[key] = r
    return list(seen.values())


def predict(strata_run, chip_path, tmp, m, k, n, fmt, fidelity):
    chip = json.load(open(chip_path))
    for intrinsic in chip["matrix"]:
        if fidelity in intrinsic.get("fidelities", []):
            intrinsic["default_fidelity"] = fidelity
    if fmt:
        block_float_chip(chip, fmt, fidelity)
    desc = os.path.join(tmp, f"n150-{fmt or 'bf16'}-{fidelity}.json")
    with open(desc, "w") as f:
        json.dump(chip, f)
    prog = os.path.join(tmp, f"matmul_{m}_{k}_{n}.mlir")
    with open(prog, "w") as f:
        f.write(matmul_program(m, k, n, "bf16"))
    r = subprocess.run([strata_run, prog, f"--target={desc}"],
                       capture_output=True, text=True, timeout=3600)
    text = r.stdout + r.stderr
    cycles = re.search(r"(\d+) cycles, [\d.]+ us", text)
    bound = re.search(r"bound: (\w+)", text)
    if r.returncode != 0 or not cycles:
        raise RuntimeError(f"strata-run failed on {m}x{k}x{n} {fidelity}:\n"
                           + text[-2000:])
    return int(cycles.group(1)), bound.group(1) if bound else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "bin"))
    ap.add_argument("--chip", default=CHIP,
                    help="the n150 description to predict with (default: "
                    "the shipped one)")
    ap.add_argument("--min-size", type=int, default=1024)
    ap.add_argument("--max-size", type=int, default=4096)
    ap.add_argument("--dtypes", default="BFLOAT16,BFLOAT8_B,BFLOAT4_B",
                    help="published data types to compare (comma-separated)")
    ap.add_argument("--bound", type=float, default=15.0,
                    help="largest relative error of a row, percent")
    ap.add_argument("--max-mean", type=float, default=None,
                    help="largest mean absolute error, percent (a "
                    "regression bound for CI)")
    args = ap.parse_args()
    strata_run = os.path.join(args.bin, "strata-run")
    if not os.access(strata_run, os.X_OK):
        sys.exit(f"tile_calibration.py: {strata_run} not found "
                 "(build Strata or pass --bin)")

    print("| M x K x N | dtype | fidelity | placement (tt-metal) | published "
          "util | published cycles | predicted cycles | bound | error |")
    print("|---|---|---|---|---|---|---|---|---|")
    errors, misses = [], []
    with tempfile.TemporaryDirectory() as tmp:
        dtypes = set(args.dtypes.split(","))
        for r in published_rows(args.min_size, args.max_size):
            if r["dtype"] not in dtypes:
                continue
            m, k, n = int(r["m"]), int(r["k"]), int(r["n"])
            fidelity, util = r["math_fidelity"], float(
                r["device_utilization_pct"])
            ideal = m * k * n / 32**3 * CYCLES_PER_TILE[fidelity] / CORES
            published = ideal / (util / 100)
            where = f"A {r['in0']}, B {r['in1']}, C {r['out']}"
            head = (f"| {m}x{k}x{n} | {r['dtype']} | {fidelity} | {where} | "
                    f"{util:.1f}% | {published:,.0f} |")
            if r["dtype"] not in FORMATS:
                print(f"{head} - | - | unknown format |")
                continue
            cycles, bound = predict(strata_run, args.chip, tmp, m, k, n,
                                    FORMATS[r["dtype"]], fidelity)
            err = (cycles - published) / published * 100
            errors.append(abs(err))
            if abs(err) > args.bound:
                misses.append(f"{m}x{k}x{n} {r['dtype']} {fidelity}: "
                              f"{err:+.1f}%")
            print(f"{head} {cycles:,} | {bound} | {err:+.1f}% |", flush=True)
    if not errors:
        sys.exit("tile_calibration.py: no row compared")
    print(f"\n{len(errors)} configurations compared; mean absolute error "
          f"{sum(errors) / len(errors):.1f}%, largest {max(errors):.1f}% "
          f"(bound {args.bound:g}%)")
    status = 0
    if misses:
        print("outside the bound: " + "; ".join(misses))
        status = 1
    mean = sum(errors) / len(errors)
    if args.max_mean is not None and mean > args.max_mean:
        print(f"mean absolute error {mean:.1f}% above {args.max_mean:g}%")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
