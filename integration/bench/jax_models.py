#!/usr/bin/env python3
"""Flax models through Strata's JAX front end (strata.jax.jit) next to
jax.jit (XLA on the CPU): median time per call of each, their ratio,
compile times, and a check that the results agree.

Run with a Python that has jax and flax (the tests' venv):

    python integration/bench/jax_models.py [--quick] [--only mlp,resnet]
        [--reps N] [--threads N] [--check-only] [--jsonl FILE] [--bin DIR]

The models are those of python/tests/flax_models.py (an MLP, a pre-norm
transformer encoder block, a GPT-2-style causal block, a small ResNet) at
benchmark sizes (--quick: the tests' sizes), called through `model.apply`
with the variables as an argument. --check-only compiles, runs once and
checks, without timing. A model that fails to convert or compile is a row
with its error; the run goes on. --jsonl appends each row as it finishes.
The systems are timed in blocks, in turns: each block sleeps 500 ms (so
that the other system's worker threads stop spinning), makes one untimed
call, then half of `--reps` timed calls; two rounds, samples pooled, so
that drift on a shared machine affects both alike. A call is timed until
its result is ready (block_until_ready); Strata's results are jax.Arrays
too. Compile times are cold: the first call of each (trace, compile,
run), with Strata's on-disk cache in a fresh directory. `--threads N` pins
the process (and so strata-compile's `host` description and the
library's OpenMP threads) to N cores; with N = 1 XLA runs single-threaded
(XLA_FLAGS="--xla_cpu_multi_thread_eigen=false
intra_op_parallelism_threads=1", set before jax is imported).
"""

import argparse
import os
import sys
import time

# The shared parts of the PyTorch models' benchmark (it imports torch only
# in the functions that need it).
from torch_models import (common_arguments, common_setup, fmt, print_columns, run_rows,
                          time_systems)

TOLERANCE = 1e-5


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    common_arguments(p)
    return p.parse_args()


def setup(args):
    common_setup(args)
    if args.threads == 1:
        flags = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
        os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + flags).strip()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")


def rel_err(got, want):
    import numpy as np
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    if not np.isfinite(got).all():
        return float("inf")
    denom = np.linalg.norm(want)
    diff = np.linalg.norm(got - want)
    return diff / denom if denom else diff


def shape_text(name, x, model):
    dims = "x".join(map(str, x.shape))
    if name == "mlp":
        return f"{dims}->{model.hidden}->{model.hidden}->{model.out}"
    if name == "encoder_block":
        return f"{dims}, {model.heads} heads, ff {model.ff}"
    if name == "gpt2_block":
        return f"{dims}, {model.heads} heads"
    return f"{dims}, widths {'/'.join(map(str, model.widths))}"


def run_one(name, args):
    import jax

    import flax_models
    import strata.jax as sj

    model, variables, x = flax_models.build(name, bench=not args.quick)
    row = {"model": name, "shape": shape_text(name, x, model)}
    inputs = (variables, x)

    xla = jax.jit(model.apply)
    t = time.perf_counter()
    want = xla(*inputs).block_until_ready()
    row["xla_compile_s"] = time.perf_counter() - t

    strata = sj.jit(model.apply)
    t = time.perf_counter()
    got = strata(*inputs)
    row["strata_compile_s"] = time.perf_counter() - t
    row["strata_err"] = rel_err(got, want)
    if args.check_only:
        return row

    medians = time_systems({"xla": xla, "strata": strata},
                           lambda fn: fn(*inputs).block_until_ready(), args.reps)
    for key, ms in medians.items():
        row[f"{key}_ms"] = ms
    return row


def print_table(rows, args):
    import jax
    cols = ["model", "shape", "xla ms", "strata ms", "xla/strata", "strata compile s",
            "xla compile s", "check"]
    lines = []
    for r in rows:
        if "error" in r:
            lines.append([r["model"], r["shape"]] + ["-"] * 5 + ["FAIL " + r["error"]])
            continue
        s, x = r.get("strata_ms"), r.get("xla_ms")
        ok = r["strata_err"] <= TOLERANCE
        lines.append([r["model"], r["shape"], fmt(x, ".2f"), fmt(s, ".2f"),
                      fmt(x / s if (x and s) else None, ".2f"),
                      fmt(r.get("strata_compile_s"), ".1f"), fmt(r.get("xla_compile_s"), ".1f"),
                      ("ok " if ok else "FAIL ") + f"strata {r['strata_err']:.1e}"])
    threads = args.threads or len(os.sched_getaffinity(0))
    print_columns(f"jax {jax.__version__}, {threads} threads, "
                  f"{len(os.sched_getaffinity(0))} cores, median of {args.reps} timed rounds; "
                  "xla/strata > 1: Strata faster", cols, lines)


def main():
    args = parse_args()
    setup(args)
    import flax_models
    names = [n for n in args.only.split(",") if n] or list(flax_models.MODELS)
    rows = run_rows(names, lambda name: run_one(name, args), lambda name: "-", args)
    print_table(rows, args)
    failed = [r["model"] for r in rows if "error" in r or r.get("strata_err", 0) > TOLERANCE]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
