#!/usr/bin/env python3
"""Times an IREE module (compiled by bench.py from the same MLIR file as
Strata's library) on the inputs the harness wrote, and checks its result
against the harness's reference. Runs in the peers' virtual environment
(iree-base-runtime, numpy). Prints one JSON object."""

import argparse
import json
import os
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

    import iree.runtime as rt

    import peer_common

    # One worker group per thread of the benchmark.
    rt.flags.parse_flags(f"--task_topology_max_group_count={args.threads}")
    config = rt.Config("local-task")
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(rt.VmModule.mmap(config.vm_instance, args.vmfb))
    fn = ctx.modules.module[args.fn]

    meta, host_inputs, ref = peer_common.load_data(args.data)
    inputs = [rt.asdevicearray(config.device, a) for a in host_inputs]

    def call():
        return fn(*inputs)

    t0 = time.perf_counter()
    out = call()
    warm = time.perf_counter() - t0
    rel = peer_common.relative_error(
        out.to_host() if hasattr(out, "to_host") else out, ref)
    samples = peer_common.time_calls(call, warm, args.reps, args.budget)
    peer_common.report(samples, warm, rel, meta)
    return 0


if __name__ == "__main__":
    sys.exit(main())
