"""What every peer runner does the same way: read the harness's inputs and
reference, time repeated calls, compare with the reference and report one
JSON object. Needs numpy (the peers' virtual environment has it)."""

import json
import os
import statistics
import time

import numpy as np


def load_data(data_dir):
    """(meta, inputs, reference) as written by the harness: meta.json and
    raw f32 files."""
    with open(os.path.join(data_dir, "meta.json")) as f:
        meta = json.load(f)

    def load(entry):
        a = np.fromfile(os.path.join(data_dir, entry["file"]),
                        dtype=np.float32)
        return a.reshape(entry["shape"])

    return meta, [load(e) for e in meta["inputs"]], load(meta["reference"])


def relative_error(got, ref):
    """Relative L2 error of `got` against `ref`; inf if `got` is not finite."""
    got = np.asarray(got, dtype=np.float64)
    want = ref.astype(np.float64)
    if not np.all(np.isfinite(got)):
        return float("inf")
    den = np.sqrt(np.sum(want * want))
    return float(np.sqrt(np.sum((got - want) ** 2)) / den) if den else 0.0


def time_calls(call, warm_s, reps, budget_s):
    """Seconds of each timed call: at most `reps`, within `budget_s` given
    the warm-up's time, at least one."""
    n = max(1, min(reps, int(budget_s / warm_s) if warm_s > 0 else reps))
    samples = []
    for _ in range(n):
        t = time.perf_counter()
        out = call()
        samples.append(time.perf_counter() - t)
        del out
    return samples


def report(samples, warm_s, rel, meta, **extra):
    """Prints the result line bench.py reads."""
    result = {
        "median_s": statistics.median(samples), "min_s": min(samples),
        "runs": len(samples), "warmup_s": warm_s,
        "rel_err": rel if rel != float("inf") else None,
        "pass": rel <= 1e-4, "checked_against": meta["reference"]["from"],
    }
    result.update(extra)
    print(json.dumps(result))
