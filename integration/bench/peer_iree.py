#!/usr/bin/env python3
"""Times an IREE module (compiled by bench.py from the same MLIR file as
Strata's library) on the inputs the harness wrote, and checks its result
against the harness's reference. Runs in the peers' virtual environment
(iree-base-runtime, numpy). Prints one JSON object."""

import argparse
import json
import os
import statistics
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vmfb", required=True)
    ap.add_argument("--fn", required=True)
    ap.add_argument("--data", required=True,
                    help="directory with meta.json, in*.bin, ref0.bin")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--budget", type=float, default=10.0)
    args = ap.parse_args()

    import numpy as np
    import iree.runtime as rt

    # One worker group per thread of the benchmark.
    rt.flags.parse_flags(f"--task_topology_max_group_count={args.threads}")
    config = rt.Config("local-task")
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(rt.VmModule.mmap(config.vm_instance, args.vmfb))
    fn = ctx.modules.module[args.fn]

    with open(os.path.join(args.data, "meta.json")) as f:
        meta = json.load(f)

    def load(entry):
        a = np.fromfile(os.path.join(args.data, entry["file"]),
                        dtype=np.float32)
        return a.reshape(entry["shape"])

    host_inputs = [load(e) for e in meta["inputs"]]
    ref = load(meta["reference"])
    inputs = [rt.asdevicearray(config.device, a) for a in host_inputs]

    def call():
        return fn(*inputs)

    t0 = time.perf_counter()
    out = call()
    warm = time.perf_counter() - t0
    got = np.asarray(out.to_host() if hasattr(out, "to_host") else out,
                     dtype=np.float64)
    want = ref.astype(np.float64)
    den = np.sqrt(np.sum(want * want))
    rel = float(np.sqrt(np.sum((got - want) ** 2)) / den) if den else 0.0
    if not np.all(np.isfinite(got)):
        rel = float("inf")
    n = max(1, min(args.reps, int(args.budget / warm) if warm > 0
                   else args.reps))
    samples = []
    for _ in range(n):
        t = time.perf_counter()
        out = call()
        samples.append(time.perf_counter() - t)
        del out
    print(json.dumps({
        "median_s": statistics.median(samples), "min_s": min(samples),
        "runs": len(samples), "warmup_s": warm,
        "rel_err": rel if rel != float("inf") else None,
        "pass": rel <= 1e-4, "checked_against": meta["reference"]["from"],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
