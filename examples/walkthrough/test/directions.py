#!/usr/bin/env python3
"""The chosen tiles and the predicted cycles follow the description.

  directions.py BIN PLUGIN WALKTHROUGH WORK

Compiles and runs programs/matmul.mlir on npu.json and on variants of it,
then checks each change moves the schedule's scratchpad tiles, the model's
predicted time and the simulator's cycles the expected way:
  - a smaller scratchpad: smaller tiles, more predicted time, more cycles;
  - a larger systolic array (32x32 intrinsic, same cycles per instruction
    per element of k): tiles of its multiples, fewer cycles.
"""
import copy
import json
import math
import os
import re
import subprocess
import sys

bin_dir, plugin, here, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
program = os.path.join(here, "programs", "matmul.mlir")
base = json.load(open(os.path.join(here, "npu.json")))


def measure(name, chip):
    path = os.path.join(work, name + ".json")
    json.dump(chip, open(path, "w"), indent=1)
    common = ["--load-plugin=" + plugin, "--target=" + path, program]
    ir = subprocess.run([os.path.join(bin_dir, "strata-compile"), *common,
                         "--emit=mlir", "-o", "-"], check=True,
                        capture_output=True, text=True).stdout
    line = next(l for l in ir.splitlines() if "linalg.matmul" in l)
    tiles = [int(x) for x in re.search(
        r'tiles = \[\{memory = "spad", sizes = \[([0-9, ]+)\]', line)
        .group(1).split(",")]
    predicted = float(re.search(r"predicted_s = ([0-9.e+-]+)", line)
                      .group(1))
    run = subprocess.run([os.path.join(bin_dir, "strata-run"), *common,
                          "--check"], capture_output=True, text=True)
    if run.returncode != 0 or "PASS" not in run.stdout:
        sys.exit(f"directions: {name}: the run failed:\n{run.stdout}"
                 f"{run.stderr}")
    cycles = int(re.search(r"npu: (\d+) cycles", run.stdout).group(1))
    print(f"{name:>12}: spad tiles (m, n, k) {tiles}, predicted "
          f"{predicted * 1e6:.1f} us, simulated {cycles} cycles")
    return tiles, predicted, cycles


def memory(chip, name):
    return next(m for m in chip["memory"] if m["name"] == name)


failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)


t0, p0, c0 = measure("npu", base)

small = copy.deepcopy(base)
memory(small, "spad")["capacity_bytes"] //= 8
t1, p1, c1 = measure("spad-32KiB", small)
expect(math.prod(t1) < math.prod(t0), "a smaller scratchpad: smaller tiles")
expect(p1 > p0, "a smaller scratchpad: more predicted time")
expect(c1 > c0, "a smaller scratchpad: more simulated cycles")

large = copy.deepcopy(base)
for mi in large["matrix"]:
    mi.update(m=32, n=32, k=32, cycles_per_instruction=32,
              layout={"tile": [32, 32]})
memory(large, "acc")["capacity_bytes"] *= 4
t2, p2, c2 = measure("array-32x32", large)
expect(all(t % 32 == 0 for t in t2), "a 32x32 array: tiles of 32")
expect(p2 < p0, "a 32x32 array: less predicted time")
expect(c2 < c0, "a 32x32 array: fewer simulated cycles")

if failures:
    sys.exit("directions: FAIL: " + "; ".join(failures))
print("directions: PASS")
