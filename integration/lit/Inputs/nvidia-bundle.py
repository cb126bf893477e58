#!/usr/bin/env python3
"""Prints parts of a Strata nvidia bundle (strata-compile --emit=lib) for
FileCheck, and checks ptxas's resource usage against a budget.

  nvidia-bundle.py BUNDLE --ptx              the PTX
  nvidia-bundle.py BUNDLE --plan             one line per launch (a tensor
      map over buffer i in boxes of R x C with an S-byte swizzle: map(bi,RxC,sS))
  nvidia-bundle.py BUNDLE --ptxas REGS SMEM  ptxas -v lines; fails when a
      kernel spills, uses local memory, more than REGS registers or more
      than SMEM bytes of dynamic shared memory
"""
import json
import re
import sys


def main():
    bundle = json.load(open(sys.argv[1]))
    mode = sys.argv[2]
    if mode == "--ptx":
        print(bundle["ptx"])
    elif mode == "--plan":
        for f in bundle["functions"]:
            for s in f["steps"]:
                def name(a):
                    if "tensor_map" in a:
                        m = a["tensor_map"]
                        return "map(%s,%s,s%d)" % (
                            name({k: v for k, v in m.items()
                                  if k in ("buffer", "temporary")}),
                            "x".join(str(b) for b in m["box"]), m["swizzle"])
                    if "temporary" in a:
                        return "t%d" % a["temporary"]
                    return "b%d" % a["buffer"]
                args = ",".join(name(a) for a in s["args"])
                print("%s: %s grid=%s block=%s shared=%d args=%s" % (
                    f["name"], s["kernel"], s["grid"], s["block"],
                    s["shared_bytes"], args))
    elif mode == "--ptxas":
        budget, smem_budget = int(sys.argv[3]), int(sys.argv[4])
        log = bundle.get("ptxas")
        if log is None:
            sys.exit("no ptxas log in the bundle (ptxas not found?)")
        ok = True
        for line in log.splitlines():
            if "bytes spill" in line or "Used" in line:
                print(line.strip())
            m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
            if m and (int(m.group(1)) or int(m.group(2))):
                ok = False
            m = re.search(r"(\d+) bytes stack frame", line)
            if m and int(m.group(1)):
                ok = False
            m = re.search(r"Used (\d+) registers", line)
            if m and int(m.group(1)) > budget:
                ok = False
            if "lmem" in line and not re.search(r"\b0 bytes lmem", line):
                ok = False
        for f in bundle["functions"]:
            for s in f["steps"]:
                if s["shared_bytes"] > smem_budget:
                    ok = False
        if not ok:
            sys.exit("ptxas resource usage over budget")
        print("within budget")
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
