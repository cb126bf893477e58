#!/usr/bin/env python3
"""Helpers of gpu_bench.sh: Strata on an NVIDIA GPU next to PyTorch.

  gpu_bench.py cases [--quick]            the cases, one per line
  gpu_bench.py mlir CASE                  the case as linalg MLIR (stdout)
  gpu_bench.py parse FILE                 median ms from strata-run --bench output
  gpu_bench.py torch CASE [--reps N]      ms of torch.matmul (cuBLAS) and
                                          torch.compile on the GPU, as JSON
  gpu_bench.py table RESULTS.jsonl        the table of ratios

  gpu_bench.py check CASE                 the smaller case checked first
  gpu_bench.py flags CASE                 strata-run options the case needs

A case is KIND_TYPE_MxNxK: KIND gemm (C = A * B) or mlp (gelu(A * B +
bias)), TYPE f16 or bf16; operands row-major, accumulation in f32, the result
in TYPE, as cuBLAS does it. gemm_tf32_MxNxK multiplies f32 matrices on
the tensor cores' tf32 (inputs rounded to 10 mantissa bits, f32 result):
strata-run --allow-tf32 against torch.matmul with
torch.backends.cuda.matmul.allow_tf32 = True. bmm_TYPE_BxMxNxK is a batched GEMM (B products
of M x K by K x N, torch.bmm). softmax_TYPE_RxC and layernorm_TYPE_RxC
(TYPE f32) normalize R rows of C elements (torch.softmax over the last dim,
torch.nn.functional.layer_norm with a scale and a shift, eps 1e-5).
attn_TYPE_BxHxSxD is scaled dot-product attention softmax(Q Kᵀ / sqrt(D)) V
of B x H heads of S tokens of D, written as PyTorch exports it (transpose,
batch_matmul, scale, softmax, batch_matmul in TYPE, batch and heads as one
batch dimension); its PyTorch columns are scaled_dot_product_attention with
the flash backend and torch.compile of the same ops. attn_TYPE_BxHxSxD_causal
is the same with is_causal=True as PyTorch exports it (a mask from aranges,
0 where the key is at most the query and -inf elsewhere, added to the
scaled scores; the safe-softmax tail that gives 0 for a row with no key);
its PyTorch column is the flash backend with is_causal=True.
"""
import json
import re
import sys

# Square GEMMs, and a wide one with a short k (few k tiles to pipeline).
GEMMS = [(4096, 4096, 4096), (8192, 8192, 8192), (8192, 8192, 1024)]
# Transformer projections of a 7B-class model on 4096 tokens: QKV, MLP up,
# MLP down, attention output.
TRANSFORMER = [(4096, 12288, 4096), (4096, 11008, 4096), (4096, 4096, 11008),
               (4096, 4096, 4096)]
MLPS = [(4096, 11008, 4096)]
# f32 GEMMs on tf32 tensor cores: square, and the MLP down projection.
TF32_GEMMS = [(4096, 4096, 4096), (8192, 8192, 8192), (4096, 4096, 11008)]
# Batched GEMMs of attention (batch x heads 32, sequence 1024, head
# dimension 128): Q K^T (k = 128: the warps' mma.sync, wgmma's k tiles
# would be too few) and P V. Rows of a transformer (4096 tokens, hidden
# sizes).
BMMS = [(32, 1024, 1024, 128), (32, 1024, 128, 1024)]
ROWS = [(4096, 4096), (4096, 11008)]
# Attention (batch, heads, sequence, head dim) of real models: Llama-2 7B
# (32 heads of 128) at 2K and 8K tokens, BERT-large-like (16 heads of 64) at
# 512, a GPT-2-like 12 heads of 64 at 1K.
ATTENTION = [(4, 32, 2048, 128), (1, 32, 8192, 128), (16, 16, 512, 64),
             (8, 12, 1024, 64)]
# Causal attention (decoder self-attention): the Llama-2 7B and GPT-2-like
# shapes above.
CAUSAL = [(4, 32, 2048, 128), (8, 12, 1024, 64)]


def cases(quick):
    out = []
    for t in ("f16", "bf16"):
        for m, n, k in (GEMMS[:1] if quick else GEMMS + TRANSFORMER[:3]):
            out.append("gemm_%s_%dx%dx%d" % (t, m, n, k))
        for m, n, k in (MLPS if not quick else [(2048, 4096, 2048)]):
            out.append("mlp_%s_%dx%dx%d" % (t, m, n, k))
        for b, m, n, k in (BMMS[:1] if quick else BMMS):
            out.append("bmm_%s_%dx%dx%dx%d" % (t, b, m, n, k))
        for b, h, sq, d in (ATTENTION[:1] if quick else ATTENTION):
            out.append("attn_%s_%dx%dx%dx%d" % (t, b, h, sq, d))
        for b, h, sq, d in (CAUSAL[:1] if quick else CAUSAL):
            out.append("attn_%s_%dx%dx%dx%d_causal" % (t, b, h, sq, d))
    for m, n, k in (TF32_GEMMS[:1] if quick else TF32_GEMMS):
        out.append("gemm_tf32_%dx%dx%d" % (m, n, k))
    for kind in ("softmax", "layernorm"):
        for r, c in (ROWS[:1] if quick else ROWS):
            out.append("%s_f32_%dx%d" % (kind, r, c))
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
    """strata-run options of a case: tf32 GEMMs must be allowed to round
    their f32 inputs."""
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
    kind and type, small enough for the reference; rows of a length that is
    not a multiple of a warp, and an odd number of them."""
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
    return "%s_%s_1024x1024x512" % (kind, t)


def mlir_bmm(case, t, b, m, n, k):
    return "\n".join([
        "// %s: generated by integration/bench/gpu_bench.py" % case,
        "#id = affine_map<(b, i, j) -> (b, i, j)>",
        "func.func @bmm(%%a: tensor<%dx%dx%dx%s>, %%b: tensor<%dx%dx%dx%s>) -> tensor<%dx%dx%dx%s> {"
        % (b, m, k, t, b, k, n, t, b, m, n, t),
        "  %zero = arith.constant 0.0 : f32",
        "  %%e = tensor.empty() : tensor<%dx%dx%dxf32>" % (b, m, n),
        "  %%f = linalg.fill ins(%%zero : f32) outs(%%e : tensor<%dx%dx%dxf32>) -> tensor<%dx%dx%dxf32>"
        % (b, m, n, b, m, n),
        "  %%c = linalg.batch_matmul ins(%%a, %%b : tensor<%dx%dx%dx%s>, tensor<%dx%dx%dx%s>) outs(%%f : tensor<%dx%dx%dxf32>) -> tensor<%dx%dx%dxf32>"
        % (b, m, k, t, b, k, n, t, b, m, n, b, m, n),
        "  %%o = tensor.empty() : tensor<%dx%dx%dx%s>" % (b, m, n, t),
        "  %%r = linalg.generic {indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]} ins(%%c : tensor<%dx%dx%dxf32>) outs(%%o : tensor<%dx%dx%dx%s>) {"
        % (b, m, n, b, m, n, t),
        "  ^bb0(%x: f32, %y: " + t + "):",
        "    %%t = arith.truncf %%x : f32 to %s" % t,
        "    linalg.yield %t : " + t,
        "  } -> tensor<%dx%dx%dx%s>" % (b, m, n, t),
        "  return %%r : tensor<%dx%dx%dx%s>" % (b, m, n, t),
        "}"]) + "\n"


# -inf of each type, as MLIR writes it (hexadecimal bits).
NEG_INF = {"f32": "0xFF800000", "f16": "0xFC00", "bf16": "0xFF80"}


def mlir_attention(case, t, b, h, sq, d):
    n = b * h
    qkv = "tensor<%dx%dx%dx%s>" % (n, sq, d, t)
    kt = "tensor<%dx%dx%dx%s>" % (n, d, sq, t)
    ss = "tensor<%dx%dx%dx%s>" % (n, sq, sq, t)
    rows = "tensor<%dx%dxi1>" % (n, sq)
    scale = 1.0 / d ** 0.5
    causal = is_causal(case)
    lines = [
        "// %s: generated by integration/bench/gpu_bench.py" % case,
        "#id = affine_map<(b, i, j) -> (b, i, j)>"] + ([
            "#ij = affine_map<(b, i, j) -> (i, j)>",
            "#row = affine_map<(b, i, j) -> (b, i)>"] if causal else []) + [
        "func.func @attention(%%q: %s, %%k: %s, %%v: %s) -> %s {" % (qkv, qkv, qkv, qkv),
        "  %%zero = arith.constant 0.0 : %s" % t,
        "  %%kt0 = tensor.empty() : %s" % kt,
        "  %%kt = linalg.transpose ins(%%k : %s) outs(%%kt0 : %s) permutation = [0, 2, 1]" % (qkv, kt),
        "  %%s0 = tensor.empty() : %s" % ss,
        "  %%s1 = linalg.fill ins(%%zero : %s) outs(%%s0 : %s) -> %s" % (t, ss, ss),
        "  %%s = linalg.batch_matmul ins(%%q, %%kt : %s, %s) outs(%%s1 : %s) -> %s" % (qkv, kt, ss, ss),
        "  %%x = linalg.generic {indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]} ins(%%s : %s) outs(%%s0 : %s) {" % (ss, ss),
        "  ^bb0(%%in: %s, %%out: %s):" % (t, t),
        "    %%c = arith.constant %.9g : %s" % (scale, t),
        "    %%r = arith.mulf %%in, %%c : %s" % t,
        "    linalg.yield %%r : %s" % t,
        "  } -> %s" % ss]
    soft = "%x"
    if causal:
        # As PyTorch exports is_causal=True: an arange, the mask from it,
        # added to the scores; after the softmax, rows with no key give 0.
        mask = "tensor<%dx%dx%s>" % (sq, sq, t)
        lines += [
            "  %%ninf = arith.constant %s : %s" % (NEG_INF[t], t),
            "  %z64 = arith.constant 0 : i64",
            "  %true = arith.constant true",
            "  %false = arith.constant false",
            "  %%ar0 = tensor.empty() : tensor<%dxi64>" % sq,
            "  %%ar = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = [\"parallel\"]} outs(%%ar0 : tensor<%dxi64>) {" % sq,
            "  ^bb0(%o: i64):",
            "    %i = linalg.index 0 : index",
            "    %c = arith.index_cast %i : index to i64",
            "    linalg.yield %c : i64",
            "  } -> tensor<%dxi64>" % sq,
            "  %%m0 = tensor.empty() : %s" % mask,
            "  %%m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%%ar, %%ar : tensor<%dxi64>, tensor<%dxi64>) outs(%%m0 : %s) {" % (sq, sq, mask),
            "  ^bb0(%%kj: i64, %%qi: i64, %%o: %s):" % t,
            "    %dif = arith.subi %kj, %qi : i64",
            "    %keep = arith.cmpi sle, %dif, %z64 : i64",
            "    %%mk = arith.select %%keep, %%zero, %%ninf : %s" % t,
            "    linalg.yield %%mk : %s" % t,
            "  } -> %s" % mask,
            "  %%xm = linalg.generic {indexing_maps = [#id, #ij, #id], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]} ins(%%x, %%m : %s, %s) outs(%%s0 : %s) {" % (ss, mask, ss),
            "  ^bb0(%%a: %s, %%mv: %s, %%o: %s):" % (t, t, t),
            "    %%r = arith.addf %%a, %%mv : %s" % t,
            "    linalg.yield %%r : %s" % t,
            "  } -> %s" % ss]
        soft = "%xm"
    lines += [
        "  %%p0 = tensor.empty() : %s" % ss,
        "  %%p = linalg.softmax dimension(2) ins(%s : %s) outs(%%p0 : %s) -> %s" % (soft, ss, ss, ss)]
    probs = "%p"
    if causal:
        lines += [
            "  %%a0 = tensor.empty() : %s" % rows,
            "  %%a1 = linalg.fill ins(%%false : i1) outs(%%a0 : %s) -> %s" % (rows, rows),
            "  %%any = linalg.generic {indexing_maps = [#id, #row], iterator_types = [\"parallel\", \"parallel\", \"reduction\"]} ins(%%xm : %s) outs(%%a1 : %s) {" % (ss, rows),
            "  ^bb0(%%a: %s, %%o: i1):" % t,
            "    %%masked = arith.cmpf oeq, %%a, %%ninf : %s" % t,
            "    %kept = arith.xori %masked, %true : i1",
            "    %r = arith.ori %o, %kept : i1",
            "    linalg.yield %r : i1",
            "  } -> %s" % rows,
            "  %%ps = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]} ins(%%any, %%p : %s, %s) outs(%%p0 : %s) {" % (rows, ss, ss),
            "  ^bb0(%%a: i1, %%pv: %s, %%o: %s):" % (t, t),
            "    %%r = arith.select %%a, %%pv, %%zero : %s" % t,
            "    linalg.yield %%r : %s" % t,
            "  } -> %s" % ss]
        probs = "%ps"
    lines += [
        "  %%o0 = tensor.empty() : %s" % qkv,
        "  %%o1 = linalg.fill ins(%%zero : %s) outs(%%o0 : %s) -> %s" % (t, qkv, qkv),
        "  %%o = linalg.batch_matmul ins(%s, %%v : %s, %s) outs(%%o1 : %s) -> %s" % (probs, ss, qkv, qkv, qkv),
        "  return %%o : %s" % qkv,
        "}"]
    return "\n".join(lines) + "\n"


def mlir_rows(case, kind, t, r, c):
    x = "tensor<%dx%dx%s>" % (r, c, t)
    row = "tensor<%dx%s>" % (r, t)
    col = "tensor<%dx%s>" % (c, t)
    head = ["// %s: generated by integration/bench/gpu_bench.py" % case]
    if kind == "softmax":
        return "\n".join(head + [
            "func.func @softmax(%%x: %s) -> %s {" % (x, x),
            "  %%e = tensor.empty() : %s" % x,
            "  %%y = linalg.softmax dimension(1) ins(%%x : %s) outs(%%e : %s) -> %s" % (x, x, x),
            "  return %%y : %s" % x,
            "}"]) + "\n"
    n = "%d.0" % c
    return "\n".join(head + [
        "#x = affine_map<(i, j) -> (i, j)>",
        "#r = affine_map<(i, j) -> (i)>",
        "#c = affine_map<(i, j) -> (j)>",
        "#v = affine_map<(i) -> (i)>",
        "func.func @layernorm(%%x: %s, %%g: %s, %%b: %s) -> %s {" % (x, col, col, x),
        "  %zero = arith.constant 0.0 : " + t,
        "  %%re = tensor.empty() : %s" % row,
        "  %%ri = linalg.fill ins(%%zero : %s) outs(%%re : %s) -> %s" % (t, row, row),
        "  %%sum = linalg.generic {indexing_maps = [#x, #r], iterator_types = [\"parallel\", \"reduction\"]} ins(%%x : %s) outs(%%ri : %s) {" % (x, row),
        "  ^bb0(%%v: %s, %%a: %s):" % (t, t),
        "    %%s = arith.addf %%a, %%v : %s" % t,
        "    linalg.yield %%s : %s" % t,
        "  } -> %s" % row,
        "  %%mean = linalg.generic {indexing_maps = [#v, #v], iterator_types = [\"parallel\"]} ins(%%sum : %s) outs(%%re : %s) {" % (row, row),
        "  ^bb0(%%s: %s, %%o: %s):" % (t, t),
        "    %%n = arith.constant %s : %s" % (n, t),
        "    %%m = arith.divf %%s, %%n : %s" % t,
        "    linalg.yield %%m : %s" % t,
        "  } -> %s" % row,
        "  %%sq = linalg.generic {indexing_maps = [#x, #r, #r], iterator_types = [\"parallel\", \"reduction\"]} ins(%%x, %%mean : %s, %s) outs(%%ri : %s) {" % (x, row, row),
        "  ^bb0(%%v: %s, %%m: %s, %%a: %s):" % (t, t, t),
        "    %%d = arith.subf %%v, %%m : %s" % t,
        "    %%d2 = arith.mulf %%d, %%d : %s" % t,
        "    %%s = arith.addf %%a, %%d2 : %s" % t,
        "    linalg.yield %%s : %s" % t,
        "  } -> %s" % row,
        "  %%rstd = linalg.generic {indexing_maps = [#v, #v], iterator_types = [\"parallel\"]} ins(%%sq : %s) outs(%%re : %s) {" % (row, row),
        "  ^bb0(%%s: %s, %%o: %s):" % (t, t),
        "    %%n = arith.constant %s : %s" % (n, t),
        "    %eps = arith.constant 1.0e-5 : " + t,
        "    %%var = arith.divf %%s, %%n : %s" % t,
        "    %%ve = arith.addf %%var, %%eps : %s" % t,
        "    %%r = math.rsqrt %%ve : %s" % t,
        "    linalg.yield %%r : %s" % t,
        "  } -> %s" % row,
        "  %%out = tensor.empty() : %s" % x,
        "  %%y = linalg.generic {indexing_maps = [#x, #r, #r, #c, #c, #x], iterator_types = [\"parallel\", \"parallel\"]} ins(%%x, %%mean, %%rstd, %%g, %%b : %s, %s, %s, %s, %s) outs(%%out : %s) {" % (x, row, row, col, col, x),
        "  ^bb0(%%v: %s, %%m: %s, %%rs: %s, %%gv: %s, %%bv: %s, %%o: %s):" % ((t,) * 6),
        "    %%d = arith.subf %%v, %%m : %s" % t,
        "    %%nn = arith.mulf %%d, %%rs : %s" % t,
        "    %%sc = arith.mulf %%nn, %%gv : %s" % t,
        "    %%r = arith.addf %%sc, %%bv : %s" % t,
        "    linalg.yield %%r : %s" % t,
        "  } -> %s" % x,
        "  return %%y : %s" % x,
        "}"]) + "\n"


def mlir_tf32_gemm(case, m, n, k):
    """An f32 GEMM, f32 result: the tf32 cases (--allow-tf32 rounds the
    inputs)."""
    return "\n".join([
        "// %s: generated by integration/bench/gpu_bench.py" % case,
        "func.func @gemm(%%a: tensor<%dx%dxf32>, %%b: tensor<%dx%dxf32>) -> tensor<%dx%dxf32> {"
        % (m, k, k, n, m, n),
        "  %zero = arith.constant 0.0 : f32",
        "  %%e = tensor.empty() : tensor<%dx%dxf32>" % (m, n),
        "  %%f = linalg.fill ins(%%zero : f32) outs(%%e : tensor<%dx%dxf32>) -> tensor<%dx%dxf32>"
        % (m, n, m, n),
        "  %%c = linalg.matmul ins(%%a, %%b : tensor<%dx%dxf32>, tensor<%dx%dxf32>) outs(%%f : tensor<%dx%dxf32>) -> tensor<%dx%dxf32>"
        % (m, k, k, n, m, n, m, n),
        "  return %%c : tensor<%dx%dxf32>" % (m, n),
        "}"]) + "\n"


def mlir(case):
    kind, t, ext = parse_any(case)
    if kind == "bmm":
        return mlir_bmm(case, t, *ext)
    if kind in ("softmax", "layernorm"):
        return mlir_rows(case, kind, t, *ext)
    if kind == "attn":
        return mlir_attention(case, t, *ext)
    kind, t, m, n, k = parse_case(case)
    if t == "tf32":
        return mlir_tf32_gemm(case, m, n, k)
    bias_arg = ", %%bias: tensor<%dxf32>" % n if kind == "mlp" else ""
    lines = [
        "// %s: generated by integration/bench/gpu_bench.py" % case,
        "#id = affine_map<(i, j) -> (i, j)>",
        "#row = affine_map<(i, j) -> (j)>",
        "func.func @%s(%%a: tensor<%dx%dx%s>, %%b: tensor<%dx%dx%s>%s) -> tensor<%dx%dx%s> {"
        % (kind, m, k, t, k, n, t, bias_arg, m, n, t),
        "  %zero = arith.constant 0.0 : f32",
        "  %%e = tensor.empty() : tensor<%dx%dxf32>" % (m, n),
        "  %%f = linalg.fill ins(%%zero : f32) outs(%%e : tensor<%dx%dxf32>) -> tensor<%dx%dxf32>"
        % (m, n, m, n),
        "  %%c = linalg.matmul ins(%%a, %%b : tensor<%dx%dx%s>, tensor<%dx%dx%s>) outs(%%f : tensor<%dx%dxf32>) -> tensor<%dx%dxf32>"
        % (m, k, t, k, n, t, m, n, m, n),
        "  %%o = tensor.empty() : tensor<%dx%dx%s>" % (m, n, t),
    ]
    if kind == "gemm":
        lines += [
            "  %%r = linalg.generic {indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\"]} ins(%%c : tensor<%dx%dxf32>) outs(%%o : tensor<%dx%dx%s>) {"
            % (m, n, m, n, t),
            "  ^bb0(%x: f32, %y: " + t + "):",
            "    %%t = arith.truncf %%x : f32 to %s" % t,
            "    linalg.yield %t : " + t,
            "  } -> tensor<%dx%dx%s>" % (m, n, t),
        ]
    else:
        lines += [
            "  %%r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = [\"parallel\", \"parallel\"]} ins(%%c, %%bias : tensor<%dx%dxf32>, tensor<%dxf32>) outs(%%o : tensor<%dx%dx%s>) {"
            % (m, n, n, m, n, t),
            "  ^bb0(%x: f32, %bb: f32, %y: " + t + "):",
            "    %half = arith.constant 0.5 : f32",
            "    %one = arith.constant 1.0 : f32",
            "    %rs2 = arith.constant 0.707106781 : f32",
            "    %s = arith.addf %x, %bb : f32",
            "    %u = arith.mulf %s, %rs2 : f32",
            "    %erf = math.erf %u : f32",
            "    %p = arith.addf %erf, %one : f32",
            "    %h = arith.mulf %s, %half : f32",
            "    %g = arith.mulf %h, %p : f32",
            "    %%t = arith.truncf %%g : f32 to %s" % t,
            "    linalg.yield %t : " + t,
            "  } -> tensor<%dx%dx%s>" % (m, n, t),
        ]
    lines += ["  return %%r : tensor<%dx%dx%s>" % (m, n, t), "}"]
    return "\n".join(lines) + "\n"


def parse_strata(text):
    """Median milliseconds of the first function strata-run timed."""
    m = re.search(r": median ([0-9.]+) ms over \d+ runs", text)
    return float(m.group(1)) if m else None


def torch_times(case, reps):
    import torch
    kind, t, ext = parse_any(case)
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16,
             "f32": torch.float32, "tf32": torch.float32}[t]
    # tf32 cases: cuBLAS may round f32 inputs to tf32, as Strata does.
    torch.backends.cuda.matmul.allow_tf32 = t == "tf32"
    compiled_fn = None
    if kind == "attn":
        from torch.nn.attention import SDPBackend, sdpa_kernel
        b, h, sq, d = ext
        q, kk, v = (torch.randn(b, h, sq, d, device="cuda", dtype=dtype)
                    for _ in range(3))

        causal = is_causal(case)

        def eager():
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                return torch.nn.functional.scaled_dot_product_attention(
                    q, kk, v, is_causal=causal)

        # torch.compile of the same ops as the MLIR.
        def compiled_fn():
            s = torch.matmul(q, kk.transpose(-1, -2)) * (1.0 / d ** 0.5)
            if causal:
                keep = torch.ones(sq, sq, dtype=torch.bool,
                                  device="cuda").tril()
                s = s.masked_fill(~keep, float("-inf"))
            return torch.matmul(torch.softmax(s, dim=-1), v)
    elif kind == "bmm":
        bs, m, n, k = ext
        a = torch.randn(bs, m, k, device="cuda", dtype=dtype)
        b = torch.randn(bs, k, n, device="cuda", dtype=dtype)

        def eager():
            return torch.bmm(a, b)
    elif kind in ("softmax", "layernorm"):
        r, c = ext
        x = torch.randn(r, c, device="cuda", dtype=dtype)
        g = torch.randn(c, device="cuda", dtype=dtype)
        sh = torch.randn(c, device="cuda", dtype=dtype)

        def eager():
            if kind == "softmax":
                return torch.softmax(x, dim=-1)
            return torch.nn.functional.layer_norm(x, (c,), g, sh, eps=1e-5)
    else:
        _, _, m, n, k = parse_case(case)
        a = torch.randn(m, k, device="cuda", dtype=dtype)
        b = torch.randn(k, n, device="cuda", dtype=dtype)
        bias = torch.randn(n, device="cuda", dtype=torch.float32)

        def eager():
            if kind == "gemm":
                return torch.matmul(a, b)
            return torch.nn.functional.gelu(torch.matmul(a, b).float() + bias).to(dtype)

    def timed(fn):
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(reps):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        times.sort()
        return times[len(times) // 2]

    result = {"case": case, "torch_ms": timed(eager)}
    try:
        compiled = torch.compile(compiled_fn or eager,
                                 mode="max-autotune-no-cudagraphs")
        result["compile_ms"] = timed(compiled)
    except Exception as e:  # Triton missing or failing: the column says so
        result["compile_error"] = str(e).splitlines()[0][:120]
    return result


def flops(case):
    """Multiply-add FLOPs of a contraction; None for the rows (bandwidth
    bound: their column shows '-')."""
    kind, _, ext = parse_any(case)
    if kind in ("softmax", "layernorm"):
        return None
    if kind == "attn":
        b, h, sq, d = ext
        return 4.0 * b * h * sq * sq * d
    out = 2.0
    for e in ext:
        out *= e
    return out


def table(rows):
    head = "%-28s %10s %10s %10s %8s %8s %9s" % (
        "case", "strata ms", "cuBLAS ms", "compile ms", "x cuBLAS", "x compile",
        "TFLOP/s")
    out = [head, "-" * len(head)]
    for r in rows:
        s, c, t = r.get("strata_ms"), r.get("torch_ms"), r.get("compile_ms")
        def fmt(v):
            return "%10.3f" % v if v else "%10s" % "-"
        def ratio(a, b):
            return "%8.2f" % (a / b) if a and b else "%8s" % "-"
        f = flops(r["case"])
        tflops = "%9.1f" % (f / s * 1e-9) if s and f else "%9s" % "-"
        out.append("%-28s %s %s %s %s %s %s" % (
            r["case"], fmt(s), fmt(c), fmt(t), ratio(c, s), ratio(t, s), tflops))
    out.append("x cuBLAS / x compile: the other's time over Strata's (above 1: Strata is faster)")
    out.append("cuBLAS: PyTorch eager (torch.matmul/torch.bmm; for softmax and layernorm PyTorch's own kernels; for attention flash scaled_dot_product_attention)")
    return "\n".join(out)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd = argv[1]
    if cmd == "cases":
        print("\n".join(cases("--quick" in argv)))
    elif cmd == "mlir":
        sys.stdout.write(mlir(argv[2]))
    elif cmd == "check":
        print(check_case(argv[2]))
    elif cmd == "flags":
        print(strata_flags(argv[2]))
    elif cmd == "parse":
        value = parse_strata(open(argv[2]).read())
        if value is None:
            sys.exit("gpu_bench.py: no 'median ... ms' line in " + argv[2])
        print(value)
    elif cmd == "torch":
        reps = int(argv[argv.index("--reps") + 1]) if "--reps" in argv else 20
        print(json.dumps(torch_times(argv[2], reps)))
    elif cmd == "table":
        merged = {}
        for line in open(argv[2]):
            line = line.strip()
            if line:
                r = json.loads(line)
                merged.setdefault(r["case"], {"case": r["case"]}).update(r)
        print(table(list(merged.values())))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
