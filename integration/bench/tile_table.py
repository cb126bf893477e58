#!/usr/bin/env python3
"""Predicted performance of the tile target (the cycle model), as a table.

Runs `strata-run --target=<tile chip>` on bf16 matmuls N x N x N (N = 512 to
4096, with a bf16 and with an f32 result, at the fidelity the model picks:
HiFi2 for bf16) and, with --check, on
every example in examples/models, and prints one markdown row per program:
cycles, bound, matrix-engine and DRAM utilization, and the check's relative
error. Usage: tile_table.py [--target NAME] [--bin DIR] [--sizes 512,1024]
Standard library only.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def matmul_bf16(n, out="f32"):
    """A bf16 n x n x n matmul accumulated into a zero-filled `out` result."""
    t = f"tensor<{n}x{n}xbf16>"
    acc = f"tensor<{n}x{n}x{out}>"
    return f"""func.func @matmul(%a: {t}, %b: {t}) -> {acc} {{
  %zero = arith.constant 0.0 : {out}
  %e = tensor.empty() : {acc}
  %f = linalg.fill ins(%zero : {out}) outs(%e : {acc}) -> {acc}
  %c = linalg.matmul ins(%a, %b : {t}, {t}) outs(%f : {acc}) -> {acc}
  return %c : {acc}
}}
"""


def run(strata_run, path, target, check):
    cmd = [strata_run, path, f"--target={target}"] + (["--check"] if check else [])
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    text = r.stdout + r.stderr
    row = {"status": "ok" if r.returncode == 0 else f"exit {r.returncode}"}
    m = re.search(r"(\d+) cycles, ([\d.]+) us", text)
    if m:
        row["cycles"] = int(m.group(1))
    m = re.search(r"bound: (\w+)", text)
    if m:
        row["bound"] = m.group(1)
    m = re.search(r"at (HiFi\d|LoFi)[^\n]*?([\d.]+)% utilization[^\n]*?([\d.]+) TFLOP/s",
                  text)
    if m:
        row["fidelity"], row["engine"], row["tflops"] = m.group(1), m.group(2), m.group(3)
    m = re.search(r"DRAM: [^\n]*?([\d.]+)% utilization", text)
    if m:
        row["dram"] = m.group(1)
    errs = re.findall(r"relative error ([\d.e+-]+) \(tolerance ([\d.e+-]+)\) (PASS|FAIL)",
                      text)
    if errs:
        row["check"] = "; ".join(f"{e} ({t}) {s}" for e, t, s in errs)
    if r.returncode != 0 and "cycles" not in row:
        row["status"] = text.strip().splitlines()[-1][:120] if text.strip() else row["status"]
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="tile-wormhole-n150")
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "bin"))
    ap.add_argument("--sizes", default="512,1024,2048,4096")
    args = ap.parse_args()
    strata_run = os.path.join(args.bin, "strata-run")
    if not os.access(strata_run, os.X_OK):
        sys.exit(f"tile_table.py: {strata_run} not found (build Strata or pass --bin)")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for out in ("bf16", "f32"):
            for n in [int(s) for s in args.sizes.split(",") if s]:
                path = os.path.join(tmp, f"matmul_bf16_{n}_{out}.mlir")
                with open(path, "w") as f:
                    f.write(matmul_bf16(n, out))
                rows.append((f"matmul bf16 {n}^3, {out} result",
                             run(strata_run, path, args.target, False)))
    for path in sorted(glob.glob(os.path.join(REPO, "examples", "models", "*.mlir"))):
        name = os.path.splitext(os.path.basename(path))[0]
        rows.append((name, run(strata_run, path, args.target, True)))
    print(f"Predicted by the cycle model of {args.target} "
          f"(`integration/bench/tile_table.py --target {args.target}`)\n")
    print("| program | cycles | bound | matrix engine | TFLOP/s | DRAM | check |")
    print("|---|---|---|---|---|---|---|")
    for name, r in rows:
        engine = f"{r['engine']}% ({r['fidelity']})" if "engine" in r else "–"
        print(f"| {name} | {r.get('cycles', r['status'])} | {r.get('bound', '–')} | "
              f"{engine} | {r.get('tflops', '–')} | "
              f"{r['dram'] + '%' if 'dram' in r else '–'} | {r.get('check', '–')} |")
    return 0 if all(r["status"] == "ok" for _, r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
