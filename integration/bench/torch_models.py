#!/usr/bin/env python3
"""PyTorch models through Strata's front end (strata.torch.compile) next to
PyTorch eager and torch.compile (Inductor) on the CPU: median time per call
of each, their ratios, compile times, and a check that the results agree.

Run with a Python that has torch and torchvision (the tests' venv, or
/tmp/strata-bench-venv):

    python integration/bench/torch_models.py [--quick | --zoo] [--only mlp,resnet18]
        [--reps N] [--threads N] [--no-inductor] [--check-only] [--jsonl FILE]
        [--bin DIR]

The models are those of python/tests/models.py at benchmark sizes (--quick:
the tests' sizes; --zoo: the coverage zoo of python/tests/zoo.py, every
torchvision classifier and the transformers models, at small sizes: the
nightly run of the models too slow for CI). --check-only compiles, runs once
and checks, without timing. A model that fails to export or compile is a
row with its error; the run goes on. --jsonl appends each row as it
finishes (a long run's partial results). The systems are timed in blocks, in turns: each block
sleeps 500 ms (so that the previous system's worker threads stop spinning:
PyTorch's and Strata's OpenMP runtimes are different; LLVM's spins 200 ms),
makes one untimed call, then half of `--reps` timed calls; two rounds,
samples pooled, so that drift on a shared machine affects all alike. Eager
and Inductor run under torch.inference_mode(); Inductor
uses its default mode with freezing (weights folded and prepacked, as
integration/bench/peer_inductor.py does) and a fresh cache directory, so that
its compile time is a cold one. `--threads N` pins the process
(and so strata-compile's `host` description and the library's OpenMP
threads) to N cores and sets torch's thread count to N.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    common_arguments(p)
    p.add_argument("--no-inductor", action="store_true", help="skip torch.compile")
    p.add_argument("--zoo", action="store_true", help="the coverage zoo (python/tests/zoo.py)")
    return p.parse_args()


def common_arguments(p):
    """The options this benchmark shares with jax_models.py."""
    p.add_argument("--quick", action="store_true", help="the tests' small sizes")
    p.add_argument("--only", default="", help="comma-separated model names")
    p.add_argument("--reps", type=int, default=10, help="timed rounds (default 10)")
    p.add_argument("--threads", type=int, default=0, help="cores to use (default: all)")
    p.add_argument("--check-only", action="store_true", help="compile and check, no timing")
    p.add_argument("--jsonl", help="append each row to this file as it finishes")
    p.add_argument("--bin", help="directory of the Strata tools (else $STRATA_BIN, build/bin)")


def setup(args):
    # Inductor's compile time without its on-disk cache of earlier runs.
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR",
                          tempfile.mkdtemp(prefix="strata-bench-inductor-"))
    common_setup(args)


def common_setup(args):
    """A fresh Strata cache (cold compile times), the tools, the cores, and
    the package and the tests' models on the path."""
    os.environ.setdefault("STRATA_CACHE_DIR", tempfile.mkdtemp(prefix="strata-bench-cache-"))
    if args.bin:
        os.environ["STRATA_BIN"] = str(Path(args.bin).resolve())
    if args.threads:
        os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0))[:args.threads]))
    sys.path.insert(0, str(ROOT / "python"))
    sys.path.insert(0, str(ROOT / "python" / "tests"))


def zoo_workloads():
    """The zoo's models; each factory pair builds the model once."""
    import zoo

    def entry(name):
        built = {}

        def make(k):
            if name not in built:
                built[name] = zoo.build(name)
            return built[name][k]
        return ("zoo", lambda: make(0), lambda: make(1))
    return {n: entry(n) for n in zoo.names()}


def workloads(quick):
    """name -> (shape text, model factory, inputs factory)."""
    import torch

    import models

    if quick:
        return {
            "mlp": ("16x64->128->128->32", lambda: models.MLP(64, 128, 32),
                    lambda: (torch.randn(16, 64),)),
            "encoder_layer": ("2x16x64, 4 heads", lambda: models.encoder_layer(64, 4, 128),
                              lambda: (torch.randn(2, 16, 64),)),
            "gpt2_block": ("2x32x64, 4 heads", lambda: models.GPT2Block(64, 4, 64),
                           lambda: (torch.randn(2, 32, 64),)),
            "llama_block": ("2x32x64, 4 heads", lambda: models.LlamaBlock(64, 4, 172, 32),
                            lambda: (torch.randn(2, 32, 64),)),
            "resnet18": ("1x3x64x64", models.resnet18, lambda: (torch.randn(1, 3, 64, 64),)),
        }
    return {
        "mlp": ("256x512->2048->2048->512", lambda: models.MLP(512, 2048, 512),
                lambda: (torch.randn(256, 512),)),
        "encoder_layer": ("4x128x256, 4 heads, ff 1024",
                          lambda: models.encoder_layer(256, 4, 1024),
                          lambda: (torch.randn(4, 128, 256),)),
        "gpt2_block": ("4x128x256, 4 heads", lambda: models.GPT2Block(256, 4, 128),
                       lambda: (torch.randn(4, 128, 256),)),
        "llama_block": ("2x128x256, 4 heads, ff 688",
                        lambda: models.LlamaBlock(256, 4, 688, 128),
                        lambda: (torch.randn(2, 128, 256),)),
        "resnet18": ("1x3x224x224", models.resnet18, lambda: (torch.randn(1, 3, 224, 224),)),
    }


def rel_err(got, want):
    got, want = got.double(), want.double()
    if not bool(got.isfinite().all()):
        return float("inf")
    denom = want.norm().item()
    return ((got - want).norm() / denom).item() if denom else (got - want).norm().item()


def time_systems(systems, call, reps):
    """Median milliseconds per call of each system (name -> callable),
    timed in blocks, in turns: each block sleeps 500 ms, makes one untimed
    call, then half of `reps` timed calls; two rounds, samples pooled.
    call(fn) makes one call and waits for its result."""
    samples = {k: [] for k in systems}
    for block in range(2):
        for key, fn in systems.items():
            time.sleep(0.5)
            call(fn)  # warm-up
            for _ in range(max((reps + 1 - block) // 2, 1)):
                t = time.perf_counter()
                call(fn)
                samples[key].append(time.perf_counter() - t)
    return {k: statistics.median(ts) * 1e3 for k, ts in samples.items()}


def run_one(name, shape, make_model, make_inputs, args):
    import torch

    import models
    import strata.torch as st

    torch.manual_seed(0)
    model = models.randomize_batch_norms(make_model()).eval()
    inputs = make_inputs()
    if shape == "zoo":
        shape = "x".join(map(str, inputs[0].shape))
    row = {"model": name, "shape": shape}
    with torch.inference_mode():
        want = model(*inputs)
    systems = {"eager": model}

    t = time.perf_counter()
    systems["strata"] = st.compile(model, inputs)
    row["strata_compile_s"] = time.perf_counter() - t

    if args.check_only:
        with torch.inference_mode():
            row["strata_err"] = rel_err(systems["strata"](*inputs), want)
        return row

    if not args.no_inductor:
        import torch._inductor.config as inductor_config
        inductor_config.freezing = True
        torch._dynamo.reset()
        compiled = torch.compile(model)
        t = time.perf_counter()
        with torch.inference_mode():
            compiled(*inputs)  # trace, compile, run once
        row["inductor_compile_s"] = time.perf_counter() - t
        systems["inductor"] = compiled

    with torch.inference_mode():
        for key, fn in systems.items():
            if key != "eager":
                row[f"{key}_err"] = rel_err(fn(*inputs), want)
        medians = time_systems(systems, lambda fn: fn(*inputs), args.reps)
    for key, ms in medians.items():
        row[f"{key}_ms"] = ms
    return row


def run_rows(names, run, shape_of, args):
    """run(name) for each model, in turn: a row each, printed (and appended
    to --jsonl) as it finishes; a model that fails is a row with its error
    and the run goes on."""
    rows = []
    for name in names:
        print(f"{name} ...", file=sys.stderr, flush=True)
        try:
            row = run(name)
        except Exception as e:  # a failing model is a row; the run goes on
            first = (str(e).splitlines() or [""])[0][:200]
            row = {"model": name, "shape": shape_of(name),
                   "error": f"{type(e).__name__}: {first}"}
        print(json.dumps(row), file=sys.stderr, flush=True)
        if args.jsonl:
            with open(args.jsonl, "a") as f:
                f.write(json.dumps(row) + "\n")
        rows.append(row)
    return rows


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def print_table(rows, args):
    import torch
    cols = ["model", "shape", "eager ms", "inductor ms", "strata ms", "eager/strata",
            "inductor/strata", "strata compile s", "inductor compile s", "check"]
    lines = []
    for r in rows:
        s, e, i = r.get("strata_ms"), r.get("eager_ms"), r.get("inductor_ms")
        if "error" in r:
            lines.append([r["model"], r["shape"]] + ["-"] * 7 + ["FAIL " + r["error"]])
            continue
        errs = [f"strata {r['strata_err']:.1e}"]
        if "inductor_err" in r:
            errs.append(f"inductor {r['inductor_err']:.1e}")
        ok = all(r.get(k, 0) <= 1e-4 for k in ("strata_err", "inductor_err"))
        lines.append([r["model"], r["shape"], fmt(e, ".2f"), fmt(i, ".2f"), fmt(s, ".2f"),
                      fmt(e / s if s else None, ".2f"),
                      fmt(i / s if (i and s) else None, ".2f"),
                      fmt(r.get("strata_compile_s"), ".1f"),
                      fmt(r.get("inductor_compile_s"), ".1f"),
                      ("ok " if ok else "FAIL ") + ", ".join(errs)])
    print_columns(f"torch {torch.__version__}, {torch.get_num_threads()} threads, "
                  f"{len(os.sched_getaffinity(0))} cores, median of {args.reps} timed rounds; "
                  "ratios > 1: Strata faster", cols, lines)


def print_columns(title, cols, lines):
    """A title, then the rows (lists of strings) in aligned columns."""
    widths = [max(len(c), *(len(x[k]) for x in lines)) for k, c in enumerate(cols)]
    print(title)
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths)))
    print("  ".join("-" * w for w in widths))
    for x in lines:
        print("  ".join(v.ljust(w) for v, w in zip(x, widths)))


def main():
    args = parse_args()
    setup(args)
    import torch
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.set_float32_matmul_precision("highest")
    loads = zoo_workloads() if args.zoo else workloads(args.quick)
    names = [n for n in args.only.split(",") if n] or list(loads)
    rows = run_rows(names, lambda name: run_one(name, *loads[name], args),
                    lambda name: loads[name][0], args)
    print_table(rows, args)
    failed = [r["model"] for r in rows if "error" in r
              or r.get("strata_err", 0) > 1e-4 or r.get("inductor_err", 0) > 1e-4]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
