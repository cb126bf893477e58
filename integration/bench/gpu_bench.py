#!/usr/bin/env python3
"""Helpers of gpu_bench.sh: Strata on an NVIDIA GPU next to PyTorch.

  gpu_bench.py cases [--quick] [--match REGEX]   the cases, one per line
  gpu_bench.py plan [--quick] [--match REGEX] [--write DIR]
                                          CASE CHECK [FLAGS] a line; with
                                          --write, the MLIR of both into DIR
                                          (cases/CASE/case.mlir,
                                          checks/CHECK.mlir)
  gpu_bench.py mlir CASE                  the case as linalg MLIR (stdout)
  gpu_bench.py check CASE                 the smaller case checked first
  gpu_bench.py flags CASE                 Strata options the case needs
  gpu_bench.py label CASE                 the model an attention shape is from
  gpu_bench.py estimate [--quick]         rough H200 seconds of a --run
  gpu_bench.py row CASE CHECK BENCH       one result row (JSON) from the
                                          files strata-exec wrote (CHECK.out,
                                          CHECK.err, CHECK.rc, same for BENCH)
  gpu_bench.py baselines CASES.txt [--reps N] [--no-compile] [--deadline T]
                                          PyTorch's times (JSON lines): the
                                          copy bandwidth, then one per case
  gpu_bench.py torch CASE [--reps N]      PyTorch's times of one case
  gpu_bench.py table RESULTS.jsonl        the table of ratios
  gpu_bench.py parse FILE                 median ms from strata-run --bench

Needs only python3 (and torch for baselines/torch): this file is copied
next to the compiled cases by gpu_bench.sh --build-only.

A case is KIND_TYPE_MxNxK: KIND gemm (C = A * B) or mlp (gelu(A * B +
bias)), TYPE f16 or bf16; operands row-major, accumulation in f32, the result
in TYPE, as cuBLAS does it. gemm_tf32_MxNxK multiplies f32 matrices on
the tensor cores' tf32 (inputs rounded to 10 mantissa bits, f32 result):
Strata's --allow-tf32 against torch.matmul with
torch.set_float32_matmul_precision("high") (tf32 allowed). bmm_TYPE_BxMxNxK is a batched
GEMM (B products of M x K by K x N, torch.bmm). softmax_TYPE_RxC and
layernorm_TYPE_RxC (TYPE f32) normalize R rows of C elements (torch.softmax
over the last dim, torch.nn.functional.layer_norm with a scale and a shift,
eps 1e-5).
attn_TYPE_BxHxSxD is scaled dot-product attention softmax(Q Kᵀ / sqrt(D)) V
of B x H heads of S tokens of D, written as PyTorch exports it (transpose,
batch_matmul, scale, softmax, batch_matmul in TYPE, batch and heads as one
batch dimension). attn_TYPE_BxHxSxD_causal is the same with is_causal=True
as PyTorch exports it (a mask from aranges, 0 where the key is at most the
query and -inf elsewhere, added to the scaled scores; the safe-softmax tail
that gives 0 for a row with no key). Their PyTorch columns are
scaled_dot_product_attention on the flash and cuDNN backends and by
default, and torch.compile of the same ops as the MLIR.
"""
import json
import math
import os
import re
import sys
import textwrap
import time

# Square GEMMs, and a wide one with a short k (few k tiles to pipeline).
GEMMS = [(4096, 4096, 4096), (8192, 8192, 8192), (8192, 8192, 1024)]
# Transformer projections of a 7B-class model on 4096 tokens: QKV, MLP up,
# MLP down.
TRANSFORMER = [(4096, 12288, 4096), (4096, 11008, 4096), (4096, 4096, 11008)]
MLPS = [(4096, 11008, 4096)]
# f32 GEMMs on tf32 tensor cores: square, and the MLP down projection.
TF32_GEMMS = [(4096, 4096, 4096), (8192, 8192, 8192), (4096, 4096, 11008)]
# Batched GEMMs of attention (batch x heads 32, sequence 1024, head
# dimension 128): Q K^T (k = 128: the warps' mma.sync, wgmma's k tiles
# would be too few) and P V.
BMMS = [(32, 1024, 1024, 128), (32, 1024, 128, 1024)]
# Rows of a transformer (4096 tokens, hidden sizes).
ROWS = [(4096, 4096), (4096, 11008)]

# Attention of real models: (model, type, batch, heads, sequence, head
# dimension, causal). Batches bring each to 0.1-5 ms on an H200. Every
# head dimension from 32 to 256, ragged sequences (197, 257, 1000, 1500).
# Grouped K/V heads (Mistral) are given as many K/V heads as queries.
ATTENTION = [
    ("GPT-2 small", "f16", 32, 12, 1024, 64, True),
    ("GPT-2 medium", "f16", 16, 16, 1024, 64, True),
    ("GPT-2 large", "bf16", 16, 20, 1024, 64, True),
    ("GPT-2 XL", "bf16", 12, 25, 1024, 64, True),
    ("BERT-base 512", "f16", 64, 12, 512, 64, False),
    ("BERT-base 128", "f16", 512, 12, 128, 64, False),
    ("BERT-large 512", "bf16", 32, 16, 512, 64, False),
    ("BERT-large 128", "bf16", 512, 16, 128, 64, False),
    ("MobileBERT 512", "f16", 256, 4, 512, 32, False),
    ("ViT-B/16", "f16", 256, 12, 197, 64, False),
    ("ViT-L/14", "f16", 128, 16, 257, 64, False),
    ("ViT-H/14", "bf16", 128, 16, 257, 80, False),
    ("DiT-XL/2 256px", "bf16", 128, 16, 256, 72, False),
    ("Whisper-L enc", "f16", 4, 20, 1500, 64, False),
    ("Llama-2 7B 2K", "f16", 4, 32, 2048, 128, True),
    ("Llama-2 7B 2K", "bf16", 4, 32, 2048, 128, True),
    ("Llama-2 7B 4K", "bf16", 1, 32, 4096, 128, True),
    ("Llama-2 7B 1000", "f16", 8, 32, 1000, 128, True),
    ("Llama-2 13B 2K", "f16", 2, 40, 2048, 128, True),
    ("Llama-2 13B 4K", "bf16", 1, 40, 4096, 128, True),
    ("Mistral 7B 4K", "f16", 1, 32, 4096, 128, True),
    ("Phi-2 2K", "f16", 2, 32, 2048, 80, True),
    ("Phi-3-mini 2K", "bf16", 2, 32, 2048, 96, True),
    ("Gemma 7B 2K", "bf16", 2, 16, 2048, 256, True),
    ("SD UNet 64x64", "f16", 2, 8, 4096, 40, False),
    ("SD UNet 32x32", "f16", 16, 8, 1024, 80, False),
    ("SD UNet 16x16", "f16", 128, 8, 256, 160, False),
    ("32x128 no mask", "bf16", 2, 32, 2048, 128, False),
]


def attention_case(t, b, h, s, d, causal):
    return "attn_%s_%dx%dx%dx%d%s" % (t, b, h, s, d, "_causal" if causal else "")


LABELS = {attention_case(*a[1:]): a[0] for a in ATTENTION}

# About ten cases: one of each kind, four attention shapes.
QUICK = [
    "gemm_f16_4096x4096x4096",
    "gemm_bf16_4096x4096x4096",
    "gemm_tf32_4096x4096x4096",
    "mlp_f16_4096x11008x4096",
    "bmm_bf16_32x1024x1024x128",
    "attn_f16_32x12x1024x64_causal",
    "attn_bf16_4x32x2048x128_causal",
    "attn_f16_64x12x512x64",
    "attn_f16_256x12x197x64",
    "softmax_f32_4096x4096",
    "layernorm_f32_4096x4096",
]


def cases(quick=False, match=None):
    if quick:
        out = list(QUICK)
    else:
        out = []
        for t in ("f16", "bf16"):
            out += ["gemm_%s_%dx%dx%d" % ((t,) + g) for g in GEMMS + TRANSFORMER]
            out += ["mlp_%s_%dx%dx%d" % ((t,) + g) for g in MLPS]
            out += ["bmm_%s_%dx%dx%dx%d" % ((t,) + g) for g in BMMS]
        out += ["gemm_tf32_%dx%dx%d" % g for g in TF32_GEMMS]
        out += ["%s_f32_%dx%d" % ((kind,) + r)
                for kind in ("softmax", "layernorm") for r in ROWS]
        out += [attention_case(*a[1:]) for a in ATTENTION]
    if match:
        out = [c for c in out if re.search(match, c)]
    return out


def parse_case(case):
    m = (re.fullmatch(r"(gemm|mlp)_(f16|bf16)_(\d+)x(\d+)x(\d+)", case) or
         re.fullmatch(r"(gemm)_(tf32)_(\d+)x(\d+)x(\d+)", case))
    if not m:
        sys.exit("gpu_bench.py: bad case '%s': expected KIND_TYPE_MxNxK" % case)
    return m.group(1), m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5))


def parse_any(case):
    """(kind, type, extents) of any case."""
    attention = parse_attention(case)
    if attention:
        return "attn", attention[0], list(attention[1:])
    m = re.fullmatch(r"bmm_(f16|bf16)_(\d+)x(\d+)x(\d+)x(\d+)", case)
    if m:
        return "bmm", m.group(1), [int(m.group(i)) for i in range(2, 6)]
    m = re.fullmatch(r"(softmax|layernorm)_(f32)_(\d+)x(\d+)", case)
    if m:
        return m.group(1), m.group(2), [int(m.group(3)), int(m.group(4))]
    kind, t, m, n, k = parse_case(case)
    return kind, t, [m, n, k]


def strata_flags(case):
    """Strata options of a case: tf32 GEMMs must be allowed to round their
    f32 inputs."""
    return "--allow-tf32" if parse_any(case)[1] == "tf32" else ""


def parse_attention(case):
    """(type, batch, heads, sequence, head dim) of an attention case, or
    None for another kind."""
    m = re.fullmatch(r"attn_(f16|bf16|f32)_(\d+)x(\d+)x(\d+)x(\d+)(_causal)?",
                     case)
    if not m:
        return None
    return (m.group(1),) + tuple(int(m.group(i)) for i in range(2, 6))


def is_causal(case):
    """Whether an attention case masks the keys after each query."""
    return case.endswith("_causal")


def check_case(case):
    """The case checked against the host reference before timing: the same
    kind and type, small enough for the reference and for the expected
    outputs to travel (gpu_bench.sh --build-only); rows of a length that is
    not a multiple of a warp, and an odd number of them. Cases of one kind,
    type (and head dimension) share their check."""
    kind, t, ext = parse_any(case)
    if kind == "bmm":
        return "bmm_%s_4x512x256x256" % t
    if kind == "attn":
        # The same head dimension, 4 heads of 333 tokens (tiles do not
        # divide it: the guards are checked too).
        return "attn_%s_1x4x333x%d%s" % (t, ext[3],
                                          "_causal" if is_causal(case) else "")
    if kind in ("softmax", "layernorm"):
        return "%s_%s_255x1000" % (kind, t)
    return "%s_%s_512x512x256" % (kind, t)


def parse_strata(text):
    """Median milliseconds of the first function timed (strata-run --bench
    text)."""
    m = re.search(r"median ([0-9.]+) ms", text)
    return float(m.group(1)) if m else None


# --- Work of a case --------------------------------------------------------

BYTES = {"f16": 2, "bf16": 2, "f32": 4, "tf32": 4}


def flops(case):
    """FLOPs of a contraction (a multiply-add is 2); attention with a causal
    mask counts the half that is not masked. None for the rows."""
    kind, _, ext = parse_any(case)
    if kind in ("softmax", "layernorm"):
        return None
    if kind == "attn":
        b, h, sq, d = ext
        return 4.0 * b * h * sq * sq * d / (2 if is_causal(case) else 1)
    out = 2.0
    for e in ext:
        out *= e
    return out


def bytes_moved(case):
    """Bytes a case must read and write at least once."""
    kind, t, ext = parse_any(case)
    e = BYTES[t]
    if kind == "softmax":
        return 2.0 * ext[0] * ext[1] * e
    if kind == "layernorm":
        return 2.0 * ext[0] * ext[1] * e + 2.0 * ext[1] * e
    if kind == "attn":
        b, h, sq, d = ext
        return 4.0 * b * h * sq * d * e
    if kind == "bmm":
        b, m, n, k = ext
        return float(b) * (m * k + k * n + m * n) * e
    m, n, k = ext
    return float(m * k + k * n) * e + m * n * (4 if t == "tf32" else e)


def estimate(case_list, reps):
    """Rough seconds of `gpu_bench.sh --run` on an H200, after a run of the
    full set (53 cases in 138 s): PyTorch's start and Inductor's first
    compile, a second per strata-exec run (its context, random inputs) and
    about as much per case in PyTorch (inputs, baselines, a compile), and
    the GPU time (Strata at 300 TFLOP/s or 2 TB/s, the baselines as long)."""
    checks = {check_case(c) for c in case_list}
    total = 20.0 + 1.0 * len(checks)
    for c in case_list:
        f, b = flops(c), bytes_moved(c)
        ms = max(f / 300e12 if f else 0, b / 2e12) * 1e3
        total += 1.0 + b / 2e9 + 1.2 + 2 * (reps + 5) * ms * 1e-3
    return total


# --- strata-exec's output ----------------------------------------------------

def exec_records(text):
    """The JSON objects of strata-exec --json (one per function, one a line;
    a list or one multi-line object are read too)."""
    text = (text or "").strip()
    if not text:
        return []
    try:
        value = json.loads(text)
        values = value if isinstance(value, list) else [value]
        return [v for v in values if isinstance(v, dict)]
    except ValueError:
        pass
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict):
                out.append(value)
    return out


def number(v):
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) \
        and math.isfinite(v) else None


def read_run(stem):
    """(status, stdout, stderr) of one strata-exec run from STEM.rc, .out and
    .err; status None when it did not run, a word when it could not."""
    def read(ext):
        try:
            with open(stem + ext, errors="replace") as f:
                return f.read()
        except OSError:
            return None
    rc = (read(".rc") or "").strip()
    status = int(rc) if re.fullmatch(r"-?\d+", rc) else (rc or None)
    return status, read(".out") or "", read(".err") or ""


def first_error(*texts):
    """The first line that says 'error' (else the first line) of texts;
    temporary folders as /tmp/... (the same error reads the same)."""
    lines = [l.strip() for t in texts for l in (t or "").splitlines() if l.strip()]
    line = next((l for l in lines if "error" in l.lower()),
                lines[0] if lines else "no message")
    return re.sub(r"/tmp/[^/\s':]+", "/tmp/...", line)[:200]


def strata_row(case, check_stem, bench_stem):
    """Strata's part of a case's row from the check and bench runs."""
    row = {"case": case}
    status, out, err = read_run(check_stem)
    if status == "unprepared":
        row["check"] = "not prepared"
        row["check_message"] = "check not prepared: " + first_error(err)
    elif status is not None:
        checks = [c for r in exec_records(out)
                  for c in (r.get("checks") or []) if isinstance(c, dict)]
        errors = [number(c.get("relative_error")) for c in checks]
        errors = [e for e in errors if e is not None]
        if not errors:  # text output
            errors = [float(x) for x in
                      re.findall(r"relative error ([0-9.eE+-]+)", out)]
        if errors:
            row["check_error"] = max(errors)
        tolerances = [number(c.get("tolerance")) for c in checks]
        tolerances = [t for t in tolerances if t is not None]
        if tolerances:
            row["tolerance"] = min(tolerances)
        failed = any(c.get("passed") is False for c in checks)
        if status == 0 and not failed:
            row["check"] = "PASS"
        elif status in (0, 2):
            row["check"] = "FAIL"
        else:
            row["check"] = "error"
            row["check_message"] = first_error(err, out)
    status, out, err = read_run(bench_stem)
    if status == 0:
        ms = None
        for r in exec_records(out):
            ms = number(r.get("median_ms"))
            if ms is not None:
                for key in ("gflops", "gbs", "roofline_fraction"):
                    if number(r.get(key)) is not None:
                        row["strata_" + key] = number(r.get(key))
                break
        if ms is None:
            ms = parse_strata(out)
        if ms is not None:
            row["strata_ms"] = ms
        else:
            row["strata_error"] = "no median_ms in strata-exec's output"
    elif status == "uncompiled":
        row["strata_error"] = "not compiled: " + first_error(err)
    elif status is not None:
        row["strata_error"] = first_error(err, out)
    return row


# --- PyTorch -------------------------------------------------------------------

def median_ms(torch, fn, reps, warmup=3):
    """Median of reps timed calls (CUDA events around each, queued back to
    back)."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for s, e in zip(starts, ends):
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in zip(starts, ends))
    return times[len(times) // 2]


def short(e):
    lines = [l for l in str(e).splitlines() if l.strip()]
    return (type(e).__name__ + ": " + (lines[0] if lines else ""))[:160]


def copy_gbs(torch):
    """Device-to-device copy bandwidth of a 2 GiB buffer (read + write),
    GB/s: what a row kernel could reach at best."""
    n = 2 << 30
    src = torch.empty(n, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    ms = median_ms(torch, lambda: dst.copy_(src), 10)
    del src, dst
    torch.cuda.empty_cache()
    return 2.0 * n / (ms * 1e-3) * 1e-9


def torch_case(torch, case, reps, compile_=True, deadline=None):
    """PyTorch's times of a case: {"case", "eager_ms" | "flash_ms",
    "cudnn_ms", "sdpa_ms", "inductor_ms", "inductor_compile_s", COL_error}."""
    import contextlib
    kind, t, ext = parse_any(case)
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16,
             "f32": torch.float32, "tf32": torch.float32}[t]
    # tf32 cases: cuBLAS may round f32 inputs to tf32, as Strata does.
    torch.set_float32_matmul_precision("high" if t == "tf32" else "highest")
    none = contextlib.nullcontext
    columns = []  # (key, context, function)
    if kind == "attn":
        from torch.nn.attention import SDPBackend, sdpa_kernel
        sdpa = torch.nn.functional.scaled_dot_product_attention
        b, h, sq, d = ext
        q, kk, v = (torch.randn(b, h, sq, d, device="cuda", dtype=dtype)
                    for _ in range(3))
        causal = is_causal(case)

        def eager():
            return sdpa(q, kk, v, is_causal=causal)
        columns.append(("flash_ms",
                        lambda: sdpa_kernel(SDPBackend.FLASH_ATTENTION), eager))
        if hasattr(SDPBackend, "CUDNN_ATTENTION"):
            columns.append(("cudnn_ms",
                            lambda: sdpa_kernel(SDPBackend.CUDNN_ATTENTION),
                            eager))
        columns.append(("sdpa_ms", none, eager))

        # The same ops as the MLIR, for torch.compile.
        def ops():
            s = torch.matmul(q, kk.transpose(-1, -2)) * (1.0 / d ** 0.5)
            if causal:
                keep = torch.ones(sq, sq, dtype=torch.bool,
                                  device="cuda").tril()
                s = s.masked_fill(~keep, float("-inf"))
            return torch.matmul(torch.softmax(s, dim=-1), v)
    elif kind == "bmm":
        bs, m, n, k = ext
        a = torch.randn(bs, m, k, device="cuda", dtype=dtype)
        bb = torch.randn(bs, k, n, device="cuda", dtype=dtype)

        def ops():
            return torch.bmm(a, bb)
        columns.append(("eager_ms", none, ops))
    elif kind in ("softmax", "layernorm"):
        r, c = ext
        x = torch.randn(r, c, device="cuda", dtype=dtype)
        g = torch.randn(c, device="cuda", dtype=dtype)
        sh = torch.randn(c, device="cuda", dtype=dtype)

        def ops():
            if kind == "softmax":
                return torch.softmax(x, dim=-1)
            return torch.nn.functional.layer_norm(x, (c,), g, sh, eps=1e-5)
        columns.append(("eager_ms", none, ops))
    else:
        m, n, k = ext
        a = torch.randn(m, k, device="cuda", dtype=dtype)
        bb = torch.randn(k, n, device="cuda", dtype=dtype)
        bias = torch.randn(n, device="cuda", dtype=torch.float32)

        def ops():
            if kind == "gemm":
                return torch.matmul(a, bb)
            return torch.nn.functional.gelu(
                torch.matmul(a, bb).float() + bias).to(dtype)
        columns.append(("eager_ms", none, ops))

    row = {"case": case}
    late = deadline is not None and time.time() > deadline + 30
    for key, context, fn in columns:
        if late:
            row[key[:-3] + "_error"] = "skipped: out of time"
            continue
        try:
            with context():
                row[key] = median_ms(torch, fn, reps)
        except Exception as e:  # backend unavailable for this shape
            row[key[:-3] + "_error"] = short(e)
    if not compile_:
        pass
    elif deadline is not None and time.time() + 10 > deadline:
        row["inductor_error"] = "skipped: out of time"
    else:
        try:
            torch._dynamo.reset()
            compiled = torch.compile(ops)  # default mode: no autotuning
            start = time.time()
            compiled()
            torch.cuda.synchronize()
            row["inductor_compile_s"] = round(time.time() - start, 2)
            row["inductor_ms"] = median_ms(torch, compiled, min(reps, 10), 1)
        except Exception as e:  # Triton missing or failing: '-'
            row["inductor_error"] = short(e)
    torch.cuda.synchronize()
    return row


def import_torch():
    try:
        import torch
    except ImportError as e:
        sys.exit("gpu_bench.py: PyTorch is needed for the baselines: %s" % e)
    if not torch.cuda.is_available():
        sys.exit("gpu_bench.py: PyTorch sees no CUDA device")
    import warnings
    warnings.filterwarnings("ignore")
    return torch


def baselines(case_list, reps, compile_, deadline):
    """PyTorch's times of every case, as JSON lines on stdout."""
    torch = import_torch()
    print(json.dumps({"copy_gbs": copy_gbs(torch),
                      "device": torch.cuda.get_device_name(),
                      "torch": torch.__version__}), flush=True)
    for case in case_list:
        start = time.time()
        try:
            row = torch_case(torch, case, reps, compile_, deadline)
        except Exception as e:  # out of memory...: the case's columns say '-'
            row = {"case": case, "torch_error": short(e)}
        torch.cuda.empty_cache()
        print(json.dumps(row), flush=True)
        sys.stderr.write("torch %s: %.1f s\n" % (case, time.time() - start))


# --- The table -----------------------------------------------------------------

# Baseline columns: result key, header, what it is.
BASELINES = [
    ("eager_ms", "x eager"),
    ("flash_ms", "x flash"),
    ("cudnn_ms", "x cuDNN"),
    ("sdpa_ms", "x SDPA"),
    ("inductor_ms", "x Inductor"),
]


def load_results(path):
    """Rows merged by case, in their first order, and the run's facts
    (copy_gbs, device, torch). Older keys: torch_ms (eager, flash for
    attention), compile_ms (Inductor)."""
    merged, facts = {}, {}
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        r = json.loads(line)
        if "case" not in r:
            facts.update(r)
            continue
        r = dict(r)
        if "torch_ms" in r:
            key = "flash_ms" if r["case"].startswith("attn_") else "eager_ms"
            r.setdefault(key, r.pop("torch_ms"))
        if "compile_ms" in r:
            r.setdefault("inductor_ms", r.pop("compile_ms"))
        if "compile_error" in r:
            r.setdefault("inductor_error", r.pop("compile_error"))
        merged.setdefault(r["case"], {"case": r["case"]}).update(r)
    return list(merged.values()), facts


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def table(rows, facts):
    copy = number(facts.get("copy_gbs"))
    head = "%-30s %-15s %-13s %9s %8s %7s %6s" % (
        "case", "model", "check", "strata ms", "TFLOP/s", "GB/s", "%copy")
    for _, name in BASELINES:
        head += " %*s" % (max(8, len(name)), name)
    out = []
    if facts.get("device"):
        out.append("%s, torch %s" % (facts["device"], facts.get("torch", "?")))
    out += [head, "-" * len(head)]
    ratios = {key: {} for key, _ in BASELINES}
    strata_notes = {}  # message: cases
    for r in rows:
        case = r["case"]
        s = number(r.get("strata_ms"))
        check = r.get("check")
        if check in ("PASS", "FAIL") and number(r.get("check_error")) is not None:
            check = "%s %.1e" % (check, r["check_error"])
        f, b = flops(case), bytes_moved(case)
        rows_kind = f is None
        line = "%-30s %-15s %-13s %9s %8s %7s %6s" % (
            case, LABELS.get(case, "")[:15], check or "-",
            "%.3f" % s if s else "-",
            "%.1f" % (f / s * 1e-9) if s and f else "-",
            "%.0f" % (b / s * 1e-6) if s and rows_kind else "-",
            "%.0f%%" % (100 * b / s * 1e-6 / copy) if s and rows_kind and copy
            else "-")
        for key, name in BASELINES:
            base = number(r.get(key))
            width = max(8, len(name))
            if s and base:
                line += " %*.2f" % (width, base / s)
                if r.get("check") == "PASS":
                    ratios[key][case] = base / s
            else:
                line += " %*s" % (width, "-")
        out.append(line)
        for key in ("check_message", "strata_error"):
            if r.get(key):
                strata_notes.setdefault(r[key], []).append(case)
    out.append("")
    attention = [r["case"] for r in rows if r["case"].startswith("attn_")]
    gemms = [r["case"] for r in rows
             if re.match(r"(gemm|mlp|bmm)_", r["case"])]
    for what, group in (("attention", attention), ("GEMMs", gemms)):
        parts = []
        for key, name in BASELINES:
            values = [ratios[key][c] for c in group if c in ratios[key]]
            if values:
                parts.append("%s %.2f (%d)" % (name, geomean(values),
                                               len(values)))
        if parts:
            out.append("geomean over %s (cases passing their check): %s" % (
                what, ", ".join(parts)))
    out += [
        "x BASELINE: the baseline's time over Strata's (above 1: Strata is faster)",
        "eager: torch.matmul/torch.bmm (cuBLAS, tf32 allowed for tf32), the "
        "MLP's ops, torch.softmax, layer_norm in eager PyTorch",
        "flash, cuDNN, SDPA: scaled_dot_product_attention on the flash "
        "backend, the cuDNN backend, PyTorch's choice",
        "Inductor: torch.compile (default mode) of the same ops as the MLIR",
        "check: Strata on a small case of the kind against the host "
        "reference (largest relative error)",
        "TFLOP/s: 2MNK a GEMM, 4BHS²D an attention (half with a causal "
        "mask); GB/s: each byte read or written once"
        + ("; %%copy: of a device-to-device copy (%.0f GB/s)" % copy
           if copy else "")]
    compiles = [number(r.get("inductor_compile_s")) for r in rows]
    compiles = [c for c in compiles if c is not None]
    if compiles:
        out.append("torch.compile took %.0f s over %d cases" % (
            sum(compiles), len(compiles)))
    # Strata's errors with every case they hit; PyTorch's with the first.
    notes = []
    for message, where in strata_notes.items():
        where = [c for i, c in enumerate(where) if c not in where[:i]]
        if len(where) == 1:
            notes.append("%s: %s" % (where[0], message))
        else:
            notes.append("%s\n%s" % (message, textwrap.fill(
                "%d cases: %s" % (len(where), ", ".join(where)), 110,
                initial_indent="    ", subsequent_indent="      ")))
    errors = {}
    for r in rows:
        for key, value in r.items():
            if key.endswith("_error") and key not in ("strata_error",
                                                       "check_error"):
                errors.setdefault((key[:-6], value), []).append(r["case"])
    for (what, message), where in sorted(errors.items()):
        notes.append("%s on %d case%s (%s%s): %s" % (
            what, len(where), "s" if len(where) > 1 else "",
            ", ".join(where[:2]), ", ..." if len(where) > 2 else "", message))
    if notes:
        out += ["", "Notes:"] + ["  " + n for n in notes]
    return "\n".join(out)


# --- Command line --------------------------------------------------------------

def option(argv, name, default=None):
    if name in argv:
        i = argv.index(name)
        if i + 1 >= len(argv):
            sys.exit("gpu_bench.py: %s needs a value" % name)
        return argv[i + 1]
    return default


def read_cases_file(path):
    """Case names of a cases.txt (CASE CHECK per line)."""
    with open(path) as f:
        return [l.split()[0] for l in f if l.strip() and not l.startswith("#")]


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd = argv[1]
    reps = int(option(argv, "--reps", 20))
    if cmd == "cases":
        print("\n".join(cases("--quick" in argv, option(argv, "--match"))))
    elif cmd == "plan":
        out = option(argv, "--write")
        from gpu_bench_mlir import mlir
        for case in cases("--quick" in argv, option(argv, "--match")):
            small = check_case(case)
            if out:
                os.makedirs(os.path.join(out, "cases", case), exist_ok=True)
                os.makedirs(os.path.join(out, "checks"), exist_ok=True)
                for path, name in ((os.path.join(out, "cases", case,
                                                 "case.mlir"), case),
                                   (os.path.join(out, "checks",
                                                 small + ".mlir"), small)):
                    with open(path, "w") as f:
                        f.write(mlir(name))
            print(" ".join([case, small, strata_flags(case)]).strip())
    elif cmd == "mlir":
        from gpu_bench_mlir import mlir
        sys.stdout.write(mlir(argv[2]))
    elif cmd == "check":
        print(check_case(argv[2]))
    elif cmd == "flags":
        print(strata_flags(argv[2]))
    elif cmd == "label":
        print(LABELS.get(argv[2], ""))
    elif cmd == "estimate":
        case_list = cases("--quick" in argv, option(argv, "--match"))
        print("%d cases, %d checks: about %.0f s on an H200 with --reps %d" % (
            len(case_list), len({check_case(c) for c in case_list}),
            estimate(case_list, reps), reps))
    elif cmd == "row":
        row = strata_row(argv[2], argv[3], argv[4])
        print(json.dumps(row))
        summary = "check %s" % (row.get("check") or "-")
        if number(row.get("check_error")) is not None:
            summary += " (relative error %.2e)" % row["check_error"]
        if row.get("strata_ms"):
            summary += ", %.3f ms" % row["strata_ms"]
        for key in ("check_message", "strata_error"):
            if row.get(key):
                summary += "; " + row[key]
        sys.stderr.write(summary + "\n")
    elif cmd == "baselines":
        deadline = option(argv, "--deadline")
        baselines(read_cases_file(argv[2]), reps, "--no-compile" not in argv,
                  float(deadline) if deadline else None)
    elif cmd == "torch":
        torch = import_torch()
        print(json.dumps(torch_case(torch, argv[2], reps,
                                    "--no-compile" not in argv)))
    elif cmd == "table":
        rows, facts = load_results(argv[2])
        print(table(rows, facts))
    elif cmd == "parse":
        value = parse_strata(open(argv[2]).read())
        if value is None:
            sys.exit("gpu_bench.py: no 'median ... ms' line in " + argv[2])
        print(value)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
