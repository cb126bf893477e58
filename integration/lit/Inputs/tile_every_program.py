#!/usr/bin/env python3
"""Runs every example and every integration/lit/Execution program on a tile
chip with strata-run --check: each must pass, except the programs listed in
REFUSED, which must fail with the reason given there (so that a program
that starts to run, or fails differently, is noticed and the list updated).

Usage: tile_every_program.py CHIP EXAMPLES_DIR EXECUTION_DIR
"""

import subprocess
import sys
from pathlib import Path

# Programs the tile target does not run yet, with a fragment of the reason.
REFUSED = {
    "attention_causal.mlir": "'linalg.index' has no tile-engine equivalent",
    "check-failure.mlir": "non-finite values FAIL",  # fails on purpose
    "element-types.mlir": "takes f64 x f64 operands",
}


def main():
    chip, examples, execution = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    programs = sorted(examples.glob("*.mlir")) + sorted(execution.glob("*.mlir"))
    wrong, passed, refused = [], 0, 0
    for program in programs:
        proc = subprocess.run(["strata-run", str(program), f"--target={chip}", "--check"],
                              capture_output=True, text=True)
        out = proc.stdout + proc.stderr
        reason = REFUSED.get(program.name)
        if reason is None:
            if proc.returncode != 0 or " FAIL" in out or " PASS" not in out:
                wrong.append(f"{program.name}: expected to pass, got exit {proc.returncode}:\n"
                             + out[-2000:])
            else:
                passed += 1
        elif proc.returncode == 0 or reason not in out:
            wrong.append(f"{program.name}: expected to be refused ({reason!r}), got exit "
                         f"{proc.returncode}:\n" + out[-2000:])
        else:
            refused += 1
    print(f"{chip}: {len(programs)} programs, {passed} pass, {refused} refused as listed")
    for message in wrong:
        print("MISMATCH " + message)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
