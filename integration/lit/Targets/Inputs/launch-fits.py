#!/usr/bin/env python3
"""Checks that every launch of a Strata nvidia bundle (strata-compile
--emit=lib) fits one SM with the registers ptxas gave its kernel.

  launch-fits.py BUNDLE REGISTERS_PER_SM

Prints one line per launch: "KERNEL: T threads x R registers = A of F"
(A the registers the block is allocated: per warp in units of 256, warps
counted in fours) and "fits" or "DOES NOT FIT"; fails when one does not
or when the bundle has no ptxas report.
"""
import json
import re
import sys


def registers_by_kernel(log):
    kernels, current = {}, None
    for line in log.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = m.group(1)
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and current is not None:
            kernels[current] = int(m.group(1))
    return kernels


def main():
    bundle = json.load(open(sys.argv[1]))
    per_sm = int(sys.argv[2])
    log = bundle.get("ptxas")
    if log is None:
        sys.exit("no ptxas log in the bundle (ptxas not found?)")
    registers = registers_by_kernel(log)
    ok = True
    for f in bundle["functions"]:
        for s in f["steps"]:
            threads = s["block"][0] * s["block"][1] * s["block"][2]
            regs = registers.get(s["kernel"])
            if regs is None:
                sys.exit("kernel %s is not in the ptxas log" % s["kernel"])
            warps = -(-threads // 32)
            warps = -(-warps // 4) * 4
            per_warp = -(-regs * 32 // 256) * 256
            allocated = warps * per_warp
            fits = threads <= 1024 and allocated <= per_sm
            ok = ok and fits
            print("%s: %d threads x %d registers = %d of %d: %s" % (
                s["kernel"], threads, regs, allocated, per_sm,
                "fits" if fits else "DOES NOT FIT"))
    if not ok:
        sys.exit("a launch does not fit an SM")


if __name__ == "__main__":
    main()
