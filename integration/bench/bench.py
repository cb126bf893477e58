#!/usr/bin/env python3
"""Strata CPU benchmark driver.

For each workload: writes the MLIR program, compiles it with strata-compile
(timed), and runs harness.cpp, which times Strata's library and the anchors
(OpenBLAS, oneDNN, a STREAM-like triad) on the same seeded inputs, each in a
process of its own, and checks Strata's result. Optional peers (other compilers) run the same MLIR
file on the same inputs. Prints a table; writes CSV and JSON to --out.

Python 3 standard library only. See README.md.
"""

import argparse
import csv
import datetime
import fnmatch
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# ---------------------------------------------------------------------------
# MLIR programs. Every function takes f32 tensors and returns one tensor;
# the library ABI appends the result as a trailing output argument.
# ---------------------------------------------------------------------------


def _t(*dims):
    return "tensor<%sxf32>" % "x".join(str(d) for d in dims)


def mlir_matmul(m, n, k):
    return f"""// C[{m}x{n}] = A[{m}x{k}] * B[{k}x{n}]
func.func @matmul(%a: {_t(m, k)}, %b: {_t(k, n)}) -> {_t(m, n)} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {_t(m, n)}
  %f = linalg.fill ins(%zero : f32) outs(%e : {_t(m, n)}) -> {_t(m, n)}
  %c = linalg.matmul ins(%a, %b : {_t(m, k)}, {_t(k, n)}) outs(%f : {_t(m, n)}) -> {_t(m, n)}
  return %c : {_t(m, n)}
}}
"""


def mlir_mlp(m, k, n):
    return f"""// MLP up-projection: y = gelu(x[{m}x{k}] * W[{k}x{n}] + b[{n}]), erf form.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @mlp(%x: {_t(m, k)}, %w: {_t(k, n)}, %b: {_t(n)}) -> {_t(m, n)} {{
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106781 : f32
  %e = tensor.empty() : {_t(m, n)}
  %f = linalg.fill ins(%zero : f32) outs(%e : {_t(m, n)}) -> {_t(m, n)}
  %h = linalg.matmul ins(%x, %w : {_t(m, k)}, {_t(k, n)}) outs(%f : {_t(m, n)}) -> {_t(m, n)}
  %e2 = tensor.empty() : {_t(m, n)}
  %y = linalg.generic {{indexing_maps = [#id, #col, #id],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%h, %b : {_t(m, n)}, {_t(n)}) outs(%e2 : {_t(m, n)}) {{
  ^bb0(%hv: f32, %bv: f32, %out: f32):
    %s = arith.addf %hv, %bv : f32
    %u = arith.mulf %s, %rsqrt2 : f32
    %erf = math.erf %u : f32
    %p = arith.addf %erf, %one : f32
    %hs = arith.mulf %s, %half : f32
    %g = arith.mulf %hs, %p : f32
    linalg.yield %g : f32
  }} -> {_t(m, n)}
  return %y : {_t(m, n)}
}}
"""


def mlir_softmax(r, c):
    return f"""// Row softmax over {r}x{c}.
func.func @softmax(%x: {_t(r, c)}) -> {_t(r, c)} {{
  %e = tensor.empty() : {_t(r, c)}
  %y = linalg.softmax dimension(1) ins(%x : {_t(r, c)}) outs(%e : {_t(r, c)}) -> {_t(r, c)}
  return %y : {_t(r, c)}
}}
"""


def mlir_layernorm(r, c):
    return f"""// Layer normalization over the rows of {r}x{c}, eps = 1e-5:
// y = (x - mean) * rsqrt(var + eps) * gamma + beta.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @layernorm(%x: {_t(r, c)}, %gamma: {_t(c)}, %beta: {_t(c)}) -> {_t(r, c)} {{
  %zero = arith.constant 0.0 : f32
  %invc = arith.constant {1.0 / c!r} : f32
  %eps = arith.constant 1.0e-05 : f32
  %e = tensor.empty() : {_t(r)}
  %z = linalg.fill ins(%zero : f32) outs(%e : {_t(r)}) -> {_t(r)}
  %sum = linalg.generic {{indexing_maps = [#id, #row],
                         iterator_types = ["parallel", "reduction"]}}
      ins(%x : {_t(r, c)}) outs(%z : {_t(r)}) {{
  ^bb0(%xv: f32, %acc: f32):
    %s = arith.addf %xv, %acc : f32
    linalg.yield %s : f32
  }} -> {_t(r)}
  %e1 = tensor.empty() : {_t(r)}
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : {_t(r)}) -> {_t(r)}
  %sq = linalg.generic {{indexing_maps = [#id, #row, #row],
                        iterator_types = ["parallel", "reduction"]}}
      ins(%x, %sum : {_t(r, c)}, {_t(r)}) outs(%z1 : {_t(r)}) {{
  ^bb0(%xv: f32, %sv: f32, %acc: f32):
    %mean = arith.mulf %sv, %invc : f32
    %d = arith.subf %xv, %mean : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  }} -> {_t(r)}
  %e2 = tensor.empty() : {_t(r, c)}
  %y = linalg.generic {{indexing_maps = [#id, #row, #row, #col, #col, #id],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%x, %sum, %sq, %gamma, %beta : {_t(r, c)}, {_t(r)}, {_t(r)}, {_t(c)}, {_t(c)})
      outs(%e2 : {_t(r, c)}) {{
  ^bb0(%xv: f32, %sv: f32, %qv: f32, %g: f32, %b: f32, %out: f32):
    %mean = arith.mulf %sv, %invc : f32
    %var = arith.mulf %qv, %invc : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.subf %xv, %mean : f32
    %n = arith.mulf %d, %rs : f32
    %sc = arith.mulf %n, %g : f32
    %o = arith.addf %sc, %b : f32
    linalg.yield %o : f32
  }} -> {_t(r, c)}
  return %y : {_t(r, c)}
}}
"""


def mlir_eltwise(r, c):
    T = _t(r, c)

    def binary(res, op, a, b, out):
        return f"""  %{out}_e = tensor.empty() : {T}
  %{res} = linalg.generic {{indexing_maps = [#id, #id, #id],
      iterator_types = ["parallel", "parallel"]}}
      ins(%{a}, %{b} : {T}, {T}) outs(%{out}_e : {T}) {{
  ^bb0(%u: f32, %v: f32, %o: f32):
    %w = {op} %u, %v : f32
    linalg.yield %w : f32
  }} -> {T}
"""
    return f"""// Elementwise chain with broadcasts, one linalg op per step:
// out = max((x - y) * s[col] + t[row], 0) over {r}x{c}.
#id = affine_map<(i, j) -> (i, j)>
func.func @eltwise(%x: {T}, %y: {T}, %s: {_t(c)}, %t: {_t(r)}) -> {T} {{
  %zero = arith.constant 0.0 : f32
{binary("d", "arith.subf", "x", "y", "d")}  %e1 = tensor.empty() : {T}
  %sb = linalg.broadcast ins(%s : {_t(c)}) outs(%e1 : {T}) dimensions = [0]
{binary("m", "arith.mulf", "d", "sb", "m")}  %e3 = tensor.empty() : {T}
  %tb = linalg.broadcast ins(%t : {_t(r)}) outs(%e3 : {T}) dimensions = [1]
{binary("a", "arith.addf", "m", "tb", "a")}  %e5 = tensor.empty() : {T}
  %z = linalg.fill ins(%zero : f32) outs(%e5 : {T}) -> {T}
{binary("o", "arith.maximumf", "a", "z", "o")}  return %o : {T}
}}
"""


def mlir_conv(n, oh, ow, c, f, kh, kw):
    ih, iw = oh + kh - 1, ow + kw - 1
    I, W, O = _t(n, ih, iw, c), _t(kh, kw, c, f), _t(n, oh, ow, f)
    return f"""// 2-D convolution, NHWC x HWCF, stride 1; the input is pre-padded
// ({ih}x{iw} in, {oh}x{ow} out).
func.func @conv(%in: {I}, %w: {W}) -> {O} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {O}
  %f = linalg.fill ins(%zero : f32) outs(%e : {O}) -> {O}
  %o = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}}
      ins(%in, %w : {I}, {W}) outs(%f : {O}) -> {O}
  return %o : {O}
}}
"""


def mlir_attention(bh, s, d):
    Q, S = _t(bh, s, d), _t(bh, s, s)
    scale = 1.0 / d**0.5
    return f"""// Attention over {bh} heads (batch x heads), sequence {s}, head size {d}:
// softmax(Q K^T / sqrt(d)) V, one op per step.
#mq = affine_map<(b, m, n, k) -> (b, m, k)>
#mk = affine_map<(b, m, n, k) -> (b, n, k)>
#mo = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(b, i, j) -> (b, i, j)>
func.func @attention(%q: {Q}, %k: {Q}, %v: {Q}) -> {Q} {{
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant {scale!r} : f32
  %e0 = tensor.empty() : {S}
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : {S}) -> {S}
  %qk = linalg.batch_matmul indexing_maps = [#mq, #mk, #mo]
      ins(%q, %k : {Q}, {Q}) outs(%f0 : {S}) -> {S}
  %e1 = tensor.empty() : {S}
  %sc = linalg.generic {{indexing_maps = [#id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}}
      ins(%qk : {S}) outs(%e1 : {S}) {{
  ^bb0(%x: f32, %out: f32):
    %y = arith.mulf %x, %scale : f32
    linalg.yield %y : f32
  }} -> {S}
  %e2 = tensor.empty() : {S}
  %p = linalg.softmax dimension(2) ins(%sc : {S}) outs(%e2 : {S}) -> {S}
  %e3 = tensor.empty() : {Q}
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : {Q}) -> {Q}
  %o = linalg.batch_matmul ins(%p, %v : {S}, {Q}) outs(%f3 : {Q}) -> {Q}
  return %o : {Q}
}}
"""


def mlir_attention_causal(bh, s, d):
    Q, S = _t(bh, s, d), _t(bh, s, s)
    scale = 1.0 / d**0.5
    return f"""// Causal attention over {bh} heads (batch x heads), sequence {s}, head
// size {d}, in the form PyTorch exports is_causal=True: a mask from aranges
// (0 where key <= query, -inf elsewhere) added to the scaled scores,
// softmax, then the safe-softmax tail (a row whose scores are all -inf
// gives 0), one op per step.
#mq = affine_map<(b, m, n, k) -> (b, m, k)>
#mk = affine_map<(b, m, n, k) -> (b, n, k)>
#mo = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>
#ij = affine_map<(b, i, j) -> (i, j)>
#i1d = affine_map<(i) -> (i)>
func.func @attention_causal(%q: {Q}, %k: {Q}, %v: {Q}) -> {Q} {{
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zi = arith.constant 0 : i64
  %true = arith.constant true
  %false = arith.constant false
  %scale = arith.constant {scale!r} : f32
  %ea = tensor.empty() : tensor<{s}xi64>
  %ar = linalg.generic {{indexing_maps = [#i1d], iterator_types = ["parallel"]}}
      outs(%ea : tensor<{s}xi64>) {{
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  }} -> tensor<{s}xi64>
  %em = tensor.empty() : tensor<{s}x{s}xf32>
  %mask = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (j)>,
                          affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}}
      ins(%ar, %ar : tensor<{s}xi64>, tensor<{s}xi64>) outs(%em : tensor<{s}x{s}xf32>) {{
  ^bb0(%kj: i64, %qi: i64, %out: f32):
    %dif = arith.subi %kj, %qi : i64
    %keep = arith.cmpi sle, %dif, %zi : i64
    %m = arith.select %keep, %zero, %ninf : f32
    linalg.yield %m : f32
  }} -> tensor<{s}x{s}xf32>
  %e0 = tensor.empty() : {S}
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : {S}) -> {S}
  %qk = linalg.batch_matmul indexing_maps = [#mq, #mk, #mo]
      ins(%q, %k : {Q}, {Q}) outs(%f0 : {S}) -> {S}
  %e1 = tensor.empty() : {S}
  %sc = linalg.generic {{indexing_maps = [#id, #ij, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}}
      ins(%qk, %mask : {S}, tensor<{s}x{s}xf32>) outs(%e1 : {S}) {{
  ^bb0(%x: f32, %m: f32, %out: f32):
    %y = arith.mulf %x, %scale : f32
    %z = arith.addf %y, %m : f32
    linalg.yield %z : f32
  }} -> {S}
  %e2 = tensor.empty() : {S}
  %p = linalg.softmax dimension(2) ins(%sc : {S}) outs(%e2 : {S}) -> {S}
  %eb = tensor.empty() : tensor<{bh}x{s}xi1>
  %fb = linalg.fill ins(%false : i1) outs(%eb : tensor<{bh}x{s}xi1>) -> tensor<{bh}x{s}xi1>
  %any = linalg.generic {{indexing_maps = [#id, #row],
                         iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%sc : {S}) outs(%fb : tensor<{bh}x{s}xi1>) {{
  ^bb0(%x: f32, %out: i1):
    %masked = arith.cmpf oeq, %x, %ninf : f32
    %kept = arith.xori %masked, %true : i1
    %r = arith.ori %out, %kept : i1
    linalg.yield %r : i1
  }} -> tensor<{bh}x{s}xi1>
  %e4 = tensor.empty() : {S}
  %ps = linalg.generic {{indexing_maps = [#row, #id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}}
      ins(%any, %p : tensor<{bh}x{s}xi1>, {S}) outs(%e4 : {S}) {{
  ^bb0(%a: i1, %x: f32, %out: f32):
    %y = arith.select %a, %x, %zero : f32
    linalg.yield %y : f32
  }} -> {S}
  %e3 = tensor.empty() : {Q}
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : {Q}) -> {Q}
  %o = linalg.batch_matmul ins(%ps, %v : {S}, {Q}) outs(%f3 : {Q}) -> {Q}
  return %o : {Q}
}}
"""


# The function name in each program is the workload kind.
GENERATORS = {
    "matmul": mlir_matmul,
    "mlp": mlir_mlp,
    "softmax": mlir_softmax,
    "layernorm": mlir_layernorm,
    "eltwise": mlir_eltwise,
    "conv": mlir_conv,
    "attention": mlir_attention,
    "attention_causal": mlir_attention_causal,
}

BANDWIDTH_KINDS = {"softmax", "layernorm", "eltwise"}


def shape_text(kind, dims):
    if kind == "matmul":
        return "%dx%dx%d (MxNxK)" % dims
    if kind == "mlp":
        return "%dx%d->%d" % dims
    if kind in BANDWIDTH_KINDS:
        return "%dx%d" % dims
    if kind == "conv":
        n, oh, ow, c, f, kh, kw = dims
        return "%dx%d N%d %d->%d %dx%d" % (oh, ow, n, c, f, kh, kw)
    if kind == "attention":
        return "BH%d S%d d%d" % dims
    if kind == "attention_causal":
        return "BH%d S%d d%d causal" % dims
    return ",".join(map(str, dims))


# name, kind, dims (harness order: see harness.cpp's usage)
FULL_WORKLOADS = [
    ("gemm_1024", "matmul", (1024, 1024, 1024)),
    ("gemm_2048", "matmul", (2048, 2048, 2048)),
    ("gemm_4096", "matmul", (4096, 4096, 4096)),
    ("gemm_1000", "matmul", (1000, 1000, 1000)),
    ("gemm_513x257x129", "matmul", (513, 257, 129)),
    ("gemm_256x1024x4096", "matmul", (256, 1024, 4096)),
    ("gemm_128x4096x11008", "matmul", (128, 4096, 11008)),
    ("mlp_256x1024x4096", "mlp", (256, 1024, 4096)),
    ("softmax_4096x4096", "softmax", (4096, 4096)),
    ("layernorm_4096x4096", "layernorm", (4096, 4096)),
    ("eltwise_4096x4096", "eltwise", (4096, 4096)),
    ("conv3x3_56x56x64x64", "conv", (1, 56, 56, 64, 64, 3, 3)),
    ("conv1x1_56x56x256x64", "conv", (1, 56, 56, 256, 64, 1, 1)),
    ("attention_8x1024x64", "attention", (8, 1024, 64)),
    ("attention_8x2048x128", "attention", (8, 2048, 128)),
    ("attention_causal_8x1024x64", "attention_causal", (8, 1024, 64)),
    ("attention_causal_8x2048x128", "attention_causal", (8, 2048, 128)),
]

# Small shapes for a smoke run; bandwidth-bound ops fit in cache here, so
# their GB/s is not comparable with DRAM triad bandwidth.
QUICK_WORKLOADS = [
    ("gemm_256", "matmul", (256, 256, 256)),
    ("gemm_513x257x129", "matmul", (513, 257, 129)),
    ("gemm_128x512x1024", "matmul", (128, 512, 1024)),
    ("mlp_64x256x1024", "mlp", (64, 256, 1024)),
    ("softmax_1024x1024", "softmax", (1024, 1024)),
    ("layernorm_1024x1024", "layernorm", (1024, 1024)),
    ("eltwise_1024x1024", "eltwise", (1024, 1024)),
    ("conv3x3_14x14x64x64", "conv", (1, 14, 14, 64, 64, 3, 3)),
    ("conv1x1_14x14x256x64", "conv", (1, 14, 14, 256, 64, 1, 1)),
    ("attention_2x256x64", "attention", (2, 256, 64)),
    ("attention_causal_2x256x64", "attention_causal", (2, 256, 64)),
]


# name pattern -> kind, dims from the pattern's numbers (harness order)
SHAPED_NAMES = [
    (r"gemm_(\d+)x(\d+)x(\d+)", "matmul", lambda m, n, k: (m, n, k)),
    (r"mlp_(\d+)x(\d+)x(\d+)", "mlp", lambda m, k, n: (m, k, n)),
    (r"conv(\d+)x(\d+)_(\d+)x(\d+)x(\d+)x(\d+)", "conv",
     lambda kh, kw, oh, ow, c, f: (1, oh, ow, c, f, kh, kw)),
    (r"softmax_(\d+)x(\d+)", "softmax", lambda r, c: (r, c)),
    (r"layernorm_(\d+)x(\d+)", "layernorm", lambda r, c: (r, c)),
    (r"eltwise_(\d+)x(\d+)", "eltwise", lambda r, c: (r, c)),
    (r"attention_causal_(\d+)x(\d+)x(\d+)", "attention_causal",
     lambda b, s, d: (b, s, d)),
    (r"attention_(\d+)x(\d+)x(\d+)", "attention", lambda b, s, d: (b, s, d)),
]


def shaped_workload(name):
    """The workload a name in the benchmark's naming form describes
    (gemm_1000x37x511), or None."""
    for pattern, kind, dims in SHAPED_NAMES:
        match = re.fullmatch(pattern, name)
        if match:
            return (name, kind, dims(*(int(v) for v in match.groups())))
    return None


def select_workloads(quick, only):
    pool = QUICK_WORKLOADS if quick else FULL_WORKLOADS
    if not only:
        return list(pool)
    pats = [p.strip() for p in only.split(",") if p.strip()]
    # --only may also name a full-size workload during --quick, and the
    # other way round.
    everything = {w[0]: w for w in FULL_WORKLOADS + QUICK_WORKLOADS}
    chosen = []
    for pat in pats:
        hits = [w for w in pool
                if w[0] == pat or w[1] == pat or w[0].split("_")[0] == pat
                or fnmatch.fnmatchcase(w[0], pat)]
        if not hits and pat in everything:
            hits = [everything[pat]]
        # Any shape by name, in the names' own form (gemm_MxNxK,
        # conv3x3_HxWxCxF, softmax_RxC, ...), to measure unseen shapes.
        if not hits:
            shaped = shaped_workload(pat)
            if shaped:
                hits = [shaped]
        if not hits:
            names = ", ".join(w[0] for w in pool)
            sys.exit(f"bench.py: --only {pat!r} matches no workload; "
                     f"known: {names}")
        chosen += [w for w in hits if w not in chosen]
    return chosen


# ---------------------------------------------------------------------------
# Machine model: strata-hw info host
# ---------------------------------------------------------------------------

_PREFIX = {"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}


def _rate(value, unit):
    m = re.match(r"([kKMGTP]?)", unit)
    return float(value) * _PREFIX[m.group(1)]


def read_machine(strata_hw):
    """Peak f32 FLOP/s per core and for the chip, DRAM bandwidth (B/s)."""
    out = subprocess.run([strata_hw, "info", "host"], capture_output=True,
                         text=True, timeout=60)
    if out.returncode != 0:
        raise RuntimeError(f"strata-hw info host failed: {out.stderr.strip()}")
    text = out.stdout
    lines = text.splitlines()
    chip = core = dram = None
    for i, line in enumerate(lines):
        m = re.match(r"\s*f32\s+([\d.]+)\s*([kKMGTP]?)FLOP/s", line)
        if m and chip is None:
            chip = _rate(m.group(1), m.group(2))
            if i + 1 < len(lines):
                pc = re.search(r"per core\s+([\d.]+)\s*([kKMGTP]?)FLOP/s",
                               lines[i + 1])
                if pc:
                    core = _rate(pc.group(1), pc.group(2))
        m = re.match(r"\s*dram\s+\S+\s+.*?([\d.]+)\s*([kKMGTP]?)B/s", line)
        if m and dram is None:
            dram = _rate(m.group(1), m.group(2))
    cores = None
    m = re.search(r"chip\s+(\d+)\s*>\s*core\s+(\d+)", text)
    if m:
        cores = int(m.group(1)) * int(m.group(2))
    if core is None and chip is not None:
        core = chip / (cores or 1)
    if chip is None or dram is None:
        raise RuntimeError("cannot read the f32 peak or DRAM bandwidth from "
                           "`strata-hw info host`:\n" + text)
    model = lines[0].strip() if lines else "host"
    return {"model": model, "f32_peak_core": core, "f32_peak_chip": chip,
            "cores": cores, "dram_bw": dram, "strata_hw_info": text}


def roofline_time(flops, nbytes, machine, threads):
    peak = min(machine["f32_peak_core"] * threads, machine["f32_peak_chip"])
    return max(flops / peak if flops else 0.0, nbytes / machine["dram_bw"])


# ---------------------------------------------------------------------------
# Building and running
# ---------------------------------------------------------------------------

OPENBLAS_INC = "/usr/include/x86_64-linux-gnu/openblas-pthread"
OPENBLAS_LIB = "/usr/lib/x86_64-linux-gnu/openblas-pthread"
HARNESS_FLAGS = ["-std=c++17", "-O3", "-march=native", "-fno-math-errno",
                 "-fveclib=libmvec", "-Wall", "-Wextra"]


def build_harness(cxx, build_dir):
    src = os.path.join(HERE, "harness.cpp")
    exe = os.path.join(build_dir, "strata-bench-harness")
    inc = OPENBLAS_INC if os.path.isdir(OPENBLAS_INC) else None
    libdir = OPENBLAS_LIB if os.path.isdir(OPENBLAS_LIB) else None
    cmd = [cxx] + HARNESS_FLAGS + ([f"-I{inc}"] if inc else []) + \
        [src, "-o", exe] + ([f"-L{libdir}", f"-Wl,-rpath,{libdir}"]
                            if libdir else []) + \
        ["-lopenblas", "-ldnnl", "-lmvec", "-ldl", "-lpthread"]
    stamp = os.path.join(build_dir, "harness.cmd")
    os.makedirs(build_dir, exist_ok=True)
    fresh = (os.path.exists(exe) and os.path.exists(stamp)
             and os.path.getmtime(exe) >= os.path.getmtime(src)
             and open(stamp).read() == shlex.join(cmd))
    if not fresh:
        log(f"building the harness: {shlex.join(cmd)}")
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("bench.py: the harness does not build "
                     "(are libopenblas-dev and libdnnl-dev installed? "
                     "run.sh installs them):\n" + r.stderr)
        with open(stamp, "w") as f:
            f.write(shlex.join(cmd))
    return exe, shlex.join(cmd)


def anchor_env(threads, hugetlb):
    """The harness's environment: OpenBLAS picks its best kernel, both
    libraries use `threads` threads."""
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    env["OPENBLAS_NUM_THREADS"] = str(threads)
    env["OMP_NUM_THREADS"] = str(threads)  # oneDNN (OpenMP runtime)
    # No KMP_BLOCKTIME or OMP_WAIT_POLICY: every library is timed in a
    # process of its own (see measure), so no OpenMP runtime's idle threads
    # spin on the cores of another's, and each keeps its default waiting.
    # (KMP_BLOCKTIME=0 would put Strata's threads to sleep after every
    # parallel region; waking a sleeping vCPU costs about 0.13 ms here,
    # which doubled a 0.14 ms two-core GEMM.)
    if hugetlb:
        env["GLIBC_TUNABLES"] = "glibc.malloc.hugetlb=1"
    return env


def pin(threads):
    """Command prefix that confines a process to `threads` cores. Strata's
    `host` description counts the cores the compiler may use, so a pinned
    compile makes code for that many threads, as many as the anchors get."""
    if threads >= (os.cpu_count() or 1) or not shutil.which("taskset"):
        return []
    return ["taskset", "-c", "0-%d" % (threads - 1)]


def compile_strata(strata_compile, mlir, lib, threads, retries=3, extra=()):
    """Returns (seconds, error or None). Retries when the tool is being
    rebuilt under us (missing, busy, killed, or replaced during the run)."""
    cmd = pin(threads) + [strata_compile, mlir, "--target=host", "-o",
                          lib] + list(extra)
    err = None
    for attempt in range(retries + 1):
        try:
            before = os.stat(strata_compile).st_mtime
            t0 = time.perf_counter()
            r = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=1800)
            dt = time.perf_counter() - t0
        except (OSError, subprocess.TimeoutExpired) as e:
            err = f"{shlex.join(cmd)}: {e}"
            if isinstance(e, subprocess.TimeoutExpired):
                return None, err
            time.sleep(10)
            continue
        if r.returncode == 0 and os.path.exists(lib):
            return dt, None
        err = (f"{shlex.join(cmd)} exited with {r.returncode}:\n"
               f"{(r.stderr or r.stdout).strip()[-3000:]}")
        replaced = (not os.path.exists(strata_compile)
                    or os.stat(strata_compile).st_mtime != before)
        if r.returncode < 0 or replaced:
            if attempt < retries:
                log(f"strata-compile failed ({r.returncode}); it may be "
                    "being rebuilt, retrying in 10 s")
                time.sleep(10)
                continue
        break
    return None, err


def run_harness(exe, wl, lib, args, env, dump_dir, log_path, time="all"):
    name, kind, dims = wl
    cmd = pin(args.threads) + [
           exe, "--kind", kind, "--dims", ",".join(map(str, dims)),
           "--threads", str(args.threads), "--reps", str(args.reps),
           "--budget", str(args.budget), "--seed", str(args.seed),
           "--time", time]
    if lib:
        cmd += ["--lib", lib, "--fn", kind]
    if dump_dir:
        cmd += ["--dump", dump_dir]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           timeout=args.timeout)
    except subprocess.TimeoutExpired:
        with open(log_path, "w") as f:
            f.write(shlex.join(cmd) + f"\ntimed out after {args.timeout} s\n")
        return None, f"harness timed out after {args.timeout} s", cmd
    with open(log_path, "w") as f:
        f.write(shlex.join(cmd) + "\n" + r.stderr + "\n" + r.stdout)
    last = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    if r.returncode != 0 or not last:
        tail = r.stderr.strip()[-2000:]
        return None, f"harness exited with {r.returncode}: {tail}", cmd
    return json.loads(last[-1]), None, cmd


def _pooled(parts):
    """One timing from the same measurement in several processes: their
    samples pooled (median and minimum of all)."""
    samples = [t for p in parts for t in p.get("samples_s") or []]
    if not samples:
        return None
    samples.sort()
    n = len(samples)
    med = samples[n // 2] if n % 2 else 0.5 * (samples[n // 2 - 1]
                                               + samples[n // 2])
    return {"median_s": med, "min_s": samples[0], "runs": n}


def _merged(parts):
    """The first of several runs of one measurement, its timing pooled over
    all of them (see _pooled), without the raw samples."""
    merged = dict(parts[0])
    merged.update(_pooled(parts) or {})
    merged.pop("samples_s", None)
    return merged


def measure(exe, wl, lib, args, env, dump_dir, log_base):
    """Times the anchors and Strata in turns, each in a process of its own
    on the same seeded inputs (two OpenMP runtimes in one process, Strata's
    libomp and oneDNN's libgomp, slow each other down, whatever their
    settings): anchors, Strata, anchors, Strata, anchors. Each side's samples
    are pooled over its runs, so a burst of load on a shared machine (they
    last seconds here) falls on both sides rather than on one. Returns
    (result, error, strata command) like run_harness."""
    anchor_runs, strata_runs = [], []
    serr, cmd = None, []
    for turn in range(5):
        if turn % 2 == 0:
            part, err, _ = run_harness(
                exe, wl, None, args, env, None,
                log_base + ".anchors%d.log" % (turn // 2 + 1), "anchors")
            if err:
                return None, err, cmd
            anchor_runs.append(part)
            continue
        part, err, cmd = run_harness(
            exe, wl, lib, args, env, dump_dir if turn == 1 else None,
            log_base + (".log" if turn == 1 else ".2.log"), "strata")
        if err:
            serr = serr or err
        else:
            strata_runs.append(part)
    if serr:
        # Strata's call may have crashed its process: the anchors' row
        # still says what they reach.
        sig = ""
        m = re.match(r"harness exited with (-\d+)", serr)
        if m:
            sig = f" (signal {-int(m.group(1))})"
        res = dict(anchor_runs[0])
        res["strata"] = {"status": "error",
                         "error": f"the call crashed the harness{sig}; "
                         f"log: {os.path.basename(log_base)}.log"}
    else:
        # Both of Strata's runs must pass their checks (a failing one is
        # the one reported); timings pooled.
        res = strata_runs[0]
        parts = [r["strata"] for r in strata_runs]
        failing = [p for p in parts if p.get("status") != "ok"]
        res["strata"] = failing[0] if failing else _merged(parts)
    anchors = []
    for parts in zip(*(r["anchors"] for r in anchor_runs)):
        failed = [a for a in parts if "error" in a]
        anchors.append(failed[0] if failed else _merged(list(parts)))
    res["anchors"] = anchors
    if all("triad" in r for r in anchor_runs):
        t = _merged([r["triad"] for r in anchor_runs])
        t["gbs"] = t["bytes"] / t["median_s"] / 1e9
        res["triad"] = t
    return res, None, cmd


# ---------------------------------------------------------------------------
# Peers: other compilers on the same MLIR file and the same inputs.
# A peer is a function (ctx, workload, mlir_path, dump_dir) -> dict with
# median_s, runs, rel_err, compile_s, note; it raises PeerSkip when it
# cannot run (not installed, unsupported op, ...).
# ---------------------------------------------------------------------------


class PeerSkip(Exception):
    pass


def _venv_python(ctx):
    py = os.path.join(ctx["venv"], "bin", "python")
    if not os.path.exists(py):
        raise PeerSkip(f"no virtual environment at {ctx['venv']} "
                       "(run.sh --peers creates it)")
    return py


def _run_peer_script(ctx, script, what, dump_dir, args):
    """Runs a peer runner (peer_*.py) in the peers' venv on the harness's
    inputs and returns the JSON object it prints last."""
    run = [_venv_python(ctx), os.path.join(HERE, script), *args,
           "--data", dump_dir, "--threads", str(ctx["threads"]),
           "--reps", str(ctx["reps"]), "--budget", str(ctx["budget"])]
    r = subprocess.run(run, capture_output=True, text=True, env=ctx["env"],
                       timeout=ctx["timeout"])
    last = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    if r.returncode != 0 or not last:
        raise PeerSkip(f"{what} run failed: " + (r.stderr or r.stdout)
                       .strip()[-1500:])
    return json.loads(last[-1])


def peer_iree(ctx, wl, mlir_path, dump_dir):
    iree_compile = os.path.join(ctx["venv"], "bin", "iree-compile")
    if not os.path.exists(iree_compile):
        raise PeerSkip("iree-compile is not installed in "
                       f"{ctx['venv']} (pip install iree-base-compiler "
                       "iree-base-runtime; run.sh --peers does it)")
    vmfb = os.path.join(ctx["work"], wl[0] + ".iree.vmfb")
    cmd = [iree_compile, mlir_path, "--iree-hal-target-backends=llvm-cpu",
           "--iree-llvmcpu-target-cpu=host", "-o", vmfb]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    compile_s = time.perf_counter() - t0
    if r.returncode != 0:
        raise PeerSkip("iree-compile failed: " + r.stderr.strip()[-1500:])
    res = _run_peer_script(ctx, "peer_iree.py", "IREE", dump_dir,
                           ["--vmfb", vmfb, "--fn", wl[1]])
    res["compile_s"] = compile_s
    res["note"] = ("iree-compile --iree-hal-target-backends=llvm-cpu "
                   "--iree-llvmcpu-target-cpu=host; Python runtime, "
                   f"local-task, {ctx['threads']} worker(s), inputs "
                   "on the device before timing")
    return res


def peer_inductor(ctx, wl, mlir_path, dump_dir):
    """Torch Inductor: peer_inductor.py builds the same computation in
    PyTorch (not from the MLIR file: Inductor takes no MLIR) and runs it
    through torch.compile on the harness's inputs."""
    py = _venv_python(ctx)
    r = subprocess.run([py, "-c", "import torch"], capture_output=True)
    if r.returncode != 0:
        raise PeerSkip(f"torch is not installed in {ctx['venv']} "
                       "(pip install torch numpy; run.sh --peers does it)")
    name, kind, _ = wl
    res = _run_peer_script(
        ctx, "peer_inductor.py", "Inductor", dump_dir,
        ["--kind", kind,
         "--cache-dir", os.path.join(ctx["work"], name + ".inductor")])
    if "skip" in res:
        raise PeerSkip(res["skip"])
    return res


# Workloads whose speed comes from S2's groups: Strata's own unfused code
# (strata-compile --no-fuse) is measured beside them, as what fusion gains.
FUSED_KINDS = ("mlp", "softmax", "layernorm", "attention", "attention_causal")


def peer_unfused(ctx, wl, mlir_path, dump_dir):
    """Strata itself with fusion off, on the same inputs (the harness runs
    it as it runs the fused library)."""
    name, kind, _ = wl
    if kind not in FUSED_KINDS:
        raise PeerSkip("no fusion groups in this workload")
    lib = os.path.join(ctx["work"], name + ".unfused.so")
    compile_s, err = compile_strata(ctx["strata_compile"], mlir_path, lib,
                                    ctx["threads"], extra=["--no-fuse"])
    if err:
        raise PeerSkip(f"--no-fuse compile failed: {err.splitlines()[-1]}")
    args = argparse.Namespace(threads=ctx["threads"], reps=ctx["reps"],
                              budget=ctx["budget"], seed=ctx["seed"],
                              timeout=ctx["timeout"])
    hres, herr, _ = run_harness(ctx["harness"], wl, lib, args, ctx["env"],
                                None, os.path.join(ctx["logs"],
                                                   name + ".unfused.log"),
                                "strata")
    if herr:
        raise PeerSkip(herr.splitlines()[-1])
    st = hres["strata"]
    if st.get("status") != "ok":
        raise PeerSkip(f"--no-fuse result {st.get('status')}")
    return {"median_s": st.get("median_s"), "runs": st.get("runs"),
            "rel_err": st.get("rel_err"), "compile_s": compile_s,
            "note": "Strata --no-fuse", "pass": True}


PEERS = {"iree": peer_iree, "inductor": peer_inductor,
         "unfused": peer_unfused}


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------


def log(msg):
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def fmt(v, digits=3):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    if v == 0:
        return "0"
    if abs(v) >= 100:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.{digits - 1}f}" if abs(v) >= 1 else f"{v:.{digits}g}"


def perf(seconds, flops, nbytes, bandwidth):
    if not seconds:
        return None
    return (nbytes if bandwidth else flops) / seconds / 1e9


def _peer_note(p):
    err = p.get("rel_err")
    check = ("result FAILS the check" if not p.get("pass") else "result ok") \
        + (f" (rel err {err:.1e})" if err is not None else "")
    return f"{p.get('note', '')}; {check}"


def make_rows(res, machine, threads):
    """Flattens one workload's result into table/CSV rows, one per anchor
    or peer it is compared with."""
    rows = []
    bw = res["kind"] in BANDWIDTH_KINDS
    unit = "GB/s" if bw else "GFLOP/s"
    flops, nbytes = res.get("flops") or 0, res.get("bytes") or 0
    roof = roofline_time(flops, nbytes, machine, threads) if nbytes else None
    st = res.get("strata") or {}
    s_med = st.get("median_s")
    s_val = perf(s_med, flops, nbytes, bw)
    base = {
        "workload": res["name"], "kind": res["kind"], "shape": res["shape"],
        "threads": threads, "unit": unit,
        "strata": s_val, "strata_median_ms": s_med and s_med * 1e3,
        "strata_runs": st.get("runs"),
        "strata_warmup_only": st.get("warmup_only"),
        "strata_roofline": (roof / s_med) if (roof and s_med) else None,
        "compile_s": res.get("compile_s"),
        "strata_rel_err": st.get("rel_err"),
        "checked_against": st.get("checked_against"),
        "status": res.get("status"),
    }
    comps = []
    if bw and res.get("triad"):
        t = res["triad"]
        comps.append({"anchor": "triad", "anchor_value": t.get("gbs"),
                      "anchor_median_ms": t["median_s"] * 1e3
                      if t.get("median_s") else None,
                      "anchor_runs": t.get("runs"),
                      "anchor_roofline": None,
                      "anchor_note": "STREAM-like triad, 3 x 128 MiB"})
    for a in res.get("anchors", []):
        comps.append({
            "anchor": a["name"],
            "anchor_value": perf(a.get("median_s"), flops, nbytes, bw),
            "anchor_median_ms": a["median_s"] * 1e3
            if a.get("median_s") else None,
            "anchor_runs": a.get("runs"),
            "anchor_roofline": (roof / a["median_s"])
            if (roof and a.get("median_s")) else None,
            "anchor_note": a.get("error") or a.get("note")})
    for p in res.get("peers", []):
        comps.append({
            "anchor": "peer:" + p["name"],
            "anchor_value": perf(p.get("median_s"), flops, nbytes, bw),
            "anchor_median_ms": p["median_s"] * 1e3
            if p.get("median_s") else None,
            "anchor_runs": p.get("runs"),
            "anchor_roofline": (roof / p["median_s"])
            if (roof and p.get("median_s")) else None,
            "anchor_note": p.get("skipped") or _peer_note(p)})
    if not comps:
        comps.append({"anchor": None})
    for c in comps:
        row = dict(base)
        row.update(c)
        v = c.get("anchor_value")
        row["ratio"] = (s_val / v) if (s_val and v) else None
        rows.append(row)
    return rows


CSV_FIELDS = ["workload", "kind", "shape", "threads", "unit", "strata",
              "strata_median_ms", "strata_runs", "strata_warmup_only",
              "anchor", "anchor_value",
              "anchor_median_ms", "anchor_runs", "ratio", "strata_roofline",
              "anchor_roofline", "compile_s", "strata_rel_err",
              "checked_against", "status", "anchor_note"]


def print_table(rows, out=sys.stdout):
    head = ["workload", "shape", "Strata", "unit", "vs", "anchor", "ratio",
            "roof%", "compile s", "check"]
    body = []
    prev = None
    for r in rows:
        first = r["workload"] != prev
        prev = r["workload"]
        st = r["status"]
        strata = fmt(r["strata"]) if r["strata"] else st
        if r["strata"] and r.get("strata_warmup_only"):
            strata += "*"
        if r["strata"] and st == "wrong":
            strata += " (wrong)"
        check = "-"
        if r["strata_rel_err"] is not None or st in ("ok", "wrong"):
            check = ("ok " if st == "ok" else "FAIL ") + (
                f"{r['strata_rel_err']:.0e}" if r["strata_rel_err"]
                is not None else "NaN/Inf")
        anchor_val = fmt(r.get("anchor_value"))
        if "FAILS the check" in (r.get("anchor_note") or ""):
            anchor_val += " (wrong)"
        if r.get("anchor") and r.get("anchor_value") is None:
            anchor_val = "skipped" if r["anchor"].startswith("peer:") \
                else "error"
        body.append([
            r["workload"] if first else "", r["shape"] if first else "",
            strata if first else "", r["unit"] if first else "",
            r.get("anchor") or "-", anchor_val,
            fmt(r.get("ratio")),
            fmt(100 * r["strata_roofline"], 2)
            if (first and r["strata_roofline"]) else "",
            fmt(r["compile_s"]) if (first and r["compile_s"]) else "",
            check if first else ""])
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    line = "  ".join(h.ljust(w) for h, w in zip(head, widths))
    print(line, file=out)
    print("-" * len(line), file=out)
    for b in body:
        print("  ".join(str(x).ljust(w) for x, w in zip(b, widths)), file=out)


def git_describe():
    try:
        rev = subprocess.run(["git", "-C", REPO, "rev-parse", "--short",
                              "HEAD"], capture_output=True, text=True,
                             timeout=30).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True,
                               text=True, timeout=30).stdout.strip()
        return rev + ("-dirty" if dirty else "") if rev else None
    except (OSError, subprocess.TimeoutExpired):
        return None


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(
        description="Benchmark Strata's host code against CPU anchors.")
    ap.add_argument("--out", default="/tmp/strata-bench",
                    help="results directory (default %(default)s)")
    ap.add_argument("--quick", action="store_true",
                    help="small shapes, short budgets: a smoke run")
    ap.add_argument("--only", metavar="NAME",
                    help="comma-separated workload names, kinds (matmul, "
                    "softmax, ...), name prefixes (gemm, conv3x3) or globs")
    ap.add_argument("--reps", type=int, default=10,
                    help="timed runs per measurement, at most (default 10)")
    ap.add_argument("--budget", type=float,
                    help="seconds of timed runs per Strata measurement; "
                    "fewer reps are taken when one run is long (default 10, "
                    "2 with --quick); at least one timed run after the "
                    "warm-up always")
    ap.add_argument("--threads", type=int, choices=(1, 2), default=1,
                    help="threads (cores) for Strata, the anchors and the "
                    "peers")
    ap.add_argument("--seed", type=int, default=1, help="input seed")
    ap.add_argument("--peers", default="",
                    help="comma-separated peers to run as well: "
                    + ", ".join(PEERS) + " (or 'all')")
    ap.add_argument("--venv", default="/tmp/strata-bench-venv",
                    help="virtual environment with the peers' packages")
    ap.add_argument("--bin", default=os.environ.get(
        "STRATA_BIN", os.path.join(REPO, "build", "bin")),
        help="directory with strata-compile and strata-hw "
        "(default $STRATA_BIN or <repo>/build/bin)")
    ap.add_argument("--cxx", default=os.environ.get("CXX_BENCH",
                                                    "clang++-22"),
                    help="compiler for the harness (default clang++-22)")
    ap.add_argument("--harness", help="a prebuilt harness binary")
    ap.add_argument("--build-dir", default="/tmp/strata-bench-build",
                    help="where the harness is built")
    ap.add_argument("--timeout", type=int, default=3600,
                    help="seconds per harness run before it is killed")
    ap.add_argument("--no-hugetlb", action="store_true",
                    help="do not set GLIBC_TUNABLES=glibc.malloc.hugetlb=1")
    args = ap.parse_args()
    if args.budget is None:
        args.budget = 2.0 if args.quick else 10.0
    if args.reps < 1:
        ap.error("--reps must be at least 1")

    strata_compile = os.path.join(args.bin, "strata-compile")
    strata_hw = os.path.join(args.bin, "strata-hw")
    for tool in (strata_compile, strata_hw):
        if not os.access(tool, os.X_OK):
            sys.exit(f"bench.py: {tool} not found; build Strata or pass "
                     "--bin")
    peers = [p.strip() for p in args.peers.split(",") if p.strip()]
    if peers == ["all"]:
        peers = list(PEERS)
    for p in peers:
        if p not in PEERS:
            sys.exit(f"bench.py: unknown peer {p!r}; known: "
                     + ", ".join(PEERS))

    workloads = select_workloads(args.quick, args.only)
    machine = read_machine(strata_hw)
    if args.harness:
        exe, build_cmd = args.harness, None
    else:
        exe, build_cmd = build_harness(args.cxx, args.build_dir)

    out = args.out
    for sub in ("mlir", "lib", "logs", "data"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    env = anchor_env(args.threads, not args.no_hugetlb)
    ctx = {"venv": args.venv, "threads": args.threads, "reps": args.reps,
           "budget": args.budget, "timeout": args.timeout, "env": env,
           "work": os.path.join(out, "lib"), "seed": args.seed,
           "strata_compile": strata_compile, "harness": exe,
           "logs": os.path.join(out, "logs")}

    log(f"{len(workloads)} workload(s), {args.threads} thread(s), "
        f"results in {out}")
    results = []
    info = {}
    for i, wl in enumerate(workloads, 1):
        name, kind, dims = wl
        res = {"name": name, "kind": kind, "dims": list(dims),
               "shape": shape_text(kind, dims)}
        mlir = os.path.join(out, "mlir", name + ".mlir")
        with open(mlir, "w") as f:
            f.write(GENERATORS[kind](*dims))
        lib = os.path.join(out, "lib", name + ".so")
        if os.path.exists(lib):
            os.remove(lib)
        log(f"[{i}/{len(workloads)}] {name}: compiling")
        compile_s, cerr = compile_strata(strata_compile, mlir, lib, args.threads)
        res["compile_s"] = compile_s
        if cerr:
            res["compile_error"] = cerr
            log(f"{name}: strata-compile failed:\n{cerr}")
        dump = None
        if peers:
            dump = os.path.join(out, "data", name)
            os.makedirs(dump, exist_ok=True)
        log(f"[{i}/{len(workloads)}] {name}: running the harness")
        hres, herr, hcmd = measure(
            exe, wl, None if cerr else lib, args, env, dump,
            os.path.join(out, "logs", name))
        res["harness_command"] = shlex.join(hcmd)
        if herr:
            res["status"] = "harness failed"
            res["error"] = herr
            log(f"{name}: {herr}")
        else:
            res.update({k: hres[k] for k in ("flops", "bytes", "strata",
                                              "anchors", "reference",
                                              "tolerance")})
            if "triad" in hres:
                res["triad"] = hres["triad"]
            info = hres.get("info", info)
            st = hres["strata"].get("status")
            res["status"] = ("compile failed" if cerr else
                             {"ok": "ok", "wrong": "wrong"}.get(st,
                                                                 "run failed"))
            if st == "error":
                res["error"] = hres["strata"].get("error")
        res["peers"] = []
        for p in peers:
            if herr:
                res["peers"].append({"name": p, "skipped": "no inputs "
                                     "(the harness failed)"})
                continue
            try:
                pr = PEERS[p](ctx, wl, mlir, dump)
                pr["name"] = p
                res["peers"].append(pr)
            except PeerSkip as e:
                log(f"{name}: peer {p} skipped: {e}")
                res["peers"].append({"name": p, "skipped": str(e)})
            except (OSError, subprocess.TimeoutExpired) as e:
                log(f"{name}: peer {p} failed: {e}")
                res["peers"].append({"name": p, "skipped": str(e)})
        if dump:
            shutil.rmtree(dump, ignore_errors=True)
        results.append(res)
        for row in make_rows(res, machine, args.threads)[:1]:
            log(f"{name}: Strata {fmt(row['strata'])} {row['unit']}, "
                f"status {res['status']}")

    rows = []
    for res in results:
        rows += make_rows(res, machine, args.threads)

    peak = min(machine["f32_peak_core"] * args.threads,
               machine["f32_peak_chip"])
    print()
    print(f"Strata CPU benchmark on {machine['model']}; {args.threads} "
          f"thread(s) for Strata (compiled for that many cores), the anchors "
          f"and the peers; f32 peak {peak / 1e9:.1f} GFLOP/s for "
          f"{args.threads} core(s), DRAM {machine['dram_bw'] / 1e9:.1f} GB/s "
          "(strata-hw info host)")
    print(f"OpenBLAS core: {info.get('openblas_corename', '?')}; oneDNN "
          f"{info.get('dnnl_version', '?')}; OPENBLAS_CORETYPE and "
          "OPENBLAS_L2_SIZE unset; "
          + ("GLIBC_TUNABLES=glibc.malloc.hugetlb=1" if not args.no_hugetlb
             else "default malloc"))
    print()
    print_table(rows)
    print()
    print("ratio = Strata / anchor (higher is better for Strata); roof% = "
          "Strata's share of its roofline; GB/s = compulsory traffic.")
    if any(r.get("strata_warmup_only") for r in rows):
        print(f"* one call took over {3 * args.budget:g} s: the warm-up call "
              "is the only sample.")

    # Files.
    csv_path = os.path.join(out, "results.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if r.get(k) is None else r.get(k))
                        for k in CSV_FIELDS})
    meta = {
        "date": datetime.datetime.now().astimezone().isoformat(
            timespec="seconds"),
        "command": shlex.join([sys.executable] + sys.argv),
        "repo": REPO, "commit": git_describe(),
        "host": platform.node(), "cpu": _cpu_model(),
        "machine": {k: v for k, v in machine.items()},
        "threads": args.threads, "reps": args.reps, "budget_s": args.budget,
        "quick": args.quick, "seed": args.seed,
        "anchor_env": {
            "OPENBLAS_CORETYPE": "unset", "OPENBLAS_L2_SIZE": "unset",
            "OPENBLAS_NUM_THREADS": env["OPENBLAS_NUM_THREADS"],
            "OMP_NUM_THREADS": env["OMP_NUM_THREADS"],
            "GLIBC_TUNABLES": env.get("GLIBC_TUNABLES")},
        "harness_build": build_cmd, "library_info": info, "peers": peers,
    }
    json_path = os.path.join(out, "results.json")
    with open(json_path, "w") as f:
        json.dump({"meta": meta, "workloads": results, "rows": rows}, f,
                  indent=1)
    print(f"\nwrote {csv_path} and {json_path}")
    bad = [r for r in results if r.get("status") != "ok"]
    for r in bad:
        why = r.get("error") or r.get("compile_error") or ""
        if r.get("status") == "wrong":
            st = r.get("strata", {})
            def e(v):
                return "NaN/Inf in the output" if v is None else f"{v:.2e}"
            why = (f"relative error {e(st.get('rel_err'))} after the first "
                   f"call, {e(st.get('rel_err_after_runs'))} after the "
                   f"timed ones; tolerance {r.get('tolerance')}")
        why = why.strip().splitlines()
        print(f"not ok: {r['name']}: {r['status']}"
              + (f": {why[-1][:300]}" if why else ""))
    return 1 if bad else 0


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


if __name__ == "__main__":
    sys.exit(main())
