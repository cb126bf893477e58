#!/usr/bin/env python3
"""Runs the mapped IR of a fused attention kernel on the host and compares
its result with a reference computed here.

  attention-emulate.py CASE TARGET WORKDIR [--scale-q] [--mask-offset=C]

CASE is a gpu_bench.py attention case (attn_TYPE_BxHxSxD). The case is
compiled with `strata-compile --emit=mlir` for TARGET; the mapped IR (one
block loop of group loops of lane loops, barriers between phases, group-level
vector.contract) then runs sequentially on the host through upstream MLIR
(mlir-opt, mlir-runner): foralls become loops, barriers and the memory-space
and mapping attributes are dropped. That is exact only for blocks of one
group, where every lane loop is a whole phase between two barriers; the
script refuses schedules with more groups. What it checks is the kernel's
arithmetic: tile indices, guards of the partial query and key tiles, masking,
the online softmax and the final division, against softmax(scale(Q Kᵀ)) V
computed in double precision from the same inputs (the scores rounded to the
inputs' type before the scale, as the input program does). With --scale-q
the program scales Q instead of the scores (as JAX exports it): Q scaled is
a temporary, which bufferization places in the output's buffer.

Causal cases (attn_..._causal) keep the scores with key - query <= C (C = 0
unless --mask-offset says otherwise: the constant of the program's mask is
edited) and, as PyTorch's safe softmax, give 0 on rows that keep no key
(C < 0 makes the first queries such rows; those must be exactly 0). The
mapped IR must bound the key loop by the mask (key tiles skipped).
"""
import math
import os
import re
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))
import gpu_bench  # noqa: E402
import gpu_bench_mlir  # noqa: E402


def round_to(t, x):
    """x rounded to type t (f16: IEEE half; bf16: round to nearest even)."""
    if t == "f16":
        return struct.unpack("<e", struct.pack("<e", x))[0]
    if t == "bf16":
        bits = struct.unpack("<I", struct.pack("<f", x))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    return struct.unpack("<f", struct.pack("<f", x))[0]


def inputs(n, s, d, seed):
    """Deterministic values exactly representable in f16 and bf16."""
    out = []
    for b in range(n):
        for i in range(s):
            for j in range(d):
                v = ((b * 131 + i * 31 + j * 7 + seed * 17) % 61) - 30
                out.append(v / 16.0)
    return out


def dense(values, shape, t):
    def nested(vals, dims):
        if len(dims) == 1:
            return "[" + ", ".join(repr(v) for v in vals) + "]"
        step = len(vals) // dims[0]
        return "[" + ", ".join(nested(vals[i * step:(i + 1) * step], dims[1:])
                               for i in range(dims[0])) + "]"
    return "dense<%s>" % nested(values, shape)


def strip(mapped):
    """The mapped IR without Strata's attributes, barriers and memory space."""
    out = []
    for line in mapped.splitlines():
        if line.startswith("module attributes"):
            out.append("module {")
            continue
        if line.strip() == "gpu.barrier":
            continue
        line = line.replace(', #strata.mem<"shared">', "")
        line = re.sub(r"\} \{mapping = .*\}$", "}", line)
        line = re.sub(r' \{strata\.intrinsic = "[^"]*"\}', "", line)
        out.append(line)
    return "\n".join(out)


def scale_q_first(program, t, n, s, d):
    """The program with Q scaled before the product instead of the scores."""
    lines, out, skip = program.splitlines(), [], False
    for line in lines:
        if line.startswith("  %x = linalg.generic"):
            skip = True
            continue
        if skip:
            skip = not line.startswith("  } ->")
            continue
        out.append(line)
    qkv = "tensor<%dx%dx%dx%s>" % (n, s, d, t)
    text = "\n".join(out) + "\n"
    text = text.replace("linalg.softmax dimension(2) ins(%x :",
                        "linalg.softmax dimension(2) ins(%s :")
    text = text.replace("linalg.batch_matmul ins(%q, %kt", "linalg.batch_matmul ins(%qs, %kt")
    scale = "  %zero = arith.constant 0.0 : " + t + "\n"
    return text.replace(scale, scale + "\n".join([
        "  %qs0 = tensor.empty() : " + qkv,
        "  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = "
        "[\"parallel\", \"parallel\", \"parallel\"]} ins(%q : " + qkv +
        ") outs(%qs0 : " + qkv + ") {",
        "  ^bb0(%in: " + t + ", %out: " + t + "):",
        "    %c = arith.constant " + "%.9g" % (1.0 / d ** 0.5) + " : " + t,
        "    %r = arith.mulf %in, %c : " + t,
        "    linalg.yield %r : " + t,
        "  } -> " + qkv]) + "\n")


def main():
    case, target, work = sys.argv[1], sys.argv[2], sys.argv[3]
    scale_q = "--scale-q" in sys.argv
    causal = gpu_bench.is_causal(case)
    offset = 0
    for a in sys.argv[4:]:
        if a.startswith("--mask-offset="):
            offset = int(a.split("=", 1)[1])
    t, b, h, s, d = gpu_bench.parse_attention(case)
    n = b * h
    os.makedirs(work, exist_ok=True)
    stem = case + (".q" if scale_q else "") + (".m%d" % offset if offset else "")
    src = os.path.join(work, stem + ".mlir")
    program = gpu_bench_mlir.mlir(case)
    if scale_q:
        program = scale_q_first(program, t, n, s, d)
    if offset:
        # The mask keeps key - query <= %z64.
        mask = "  %z64 = arith.constant 0 : i64"
        assert causal and mask in program
        program = program.replace(mask, "  %%z64 = arith.constant %d : i64" % offset)
    with open(src, "w") as f:
        f.write(program)
    mapped = subprocess.run(
        ["strata-compile", src, "--target=" + target, "--emit=mlir", "-o", "-"],
        check=True, capture_output=True, text=True).stdout
    m = re.search(r'groups = \["[^"]+", (\d+)\]', mapped)
    if not m or 'kind = "attention"' not in mapped:
        sys.exit("attention-emulate.py: no attention kernel in the mapped IR")
    if causal and "arith.minui" not in mapped:
        sys.exit("attention-emulate.py: the key loop is not bounded by the mask")
    if int(m.group(1)) != 1:
        sys.exit("attention-emulate.py: %s groups per block; only blocks of "
                 "one group run exactly in sequence" % m.group(1))
    q, k, v = (inputs(n, s, d, seed) for seed in (1, 2, 3))
    shape = [n, s, d]
    ty = "memref<%dx%dx%dx%s>" % (n, s, d, t)
    fty = "memref<%dx%dx%dxf32>" % (n, s, d)
    module = strip(mapped).rstrip()
    assert module.endswith("}")
    module = module[:-1] + "\n".join([
        '  memref.global "private" constant @q : ' + ty +
        " = " + dense(q, shape, t),
        '  memref.global "private" constant @k : ' + ty + " = " + dense(k, shape, t),
        '  memref.global "private" constant @v : ' + ty + " = " + dense(v, shape, t),
        "  func.func private @printMemrefF32(memref<*xf32>)",
        "  func.func @main() {",
        "    %q = memref.get_global @q : " + ty,
        "    %k = memref.get_global @k : " + ty,
        "    %v = memref.get_global @v : " + ty,
        "    %o = memref.alloc() : " + ty,
        "    call @attention(%q, %k, %v, %o) : (" + ", ".join([ty] * 4) + ") -> ()",
        "    %f = memref.alloc() : " + fty,
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    %cn = arith.constant " + str(n) + " : index",
        "    %cs = arith.constant " + str(s) + " : index",
        "    %cd = arith.constant " + str(d) + " : index",
        "    scf.for %i = %c0 to %cn step %c1 {",
        "      scf.for %j = %c0 to %cs step %c1 {",
        "        scf.for %l = %c0 to %cd step %c1 {",
        "          %x = memref.load %o[%i, %j, %l] : " + ty,
        ("          %y = arith.extf %x : " + t + " to f32") if t != "f32"
        else "          %y = arith.addf %x, %x : f32",
        "          memref.store %y, %f[%i, %j, %l] : " + fty,
        "        }", "      }", "    }",
        "    %u = memref.cast %f : " + fty + " to memref<*xf32>",
        "    call @printMemrefF32(%u) : (memref<*xf32>) -> ()",
        "    return", "  }", "}", ""])
    host = os.path.join(work, stem + ".host.mlir")
    with open(host, "w") as f:
        f.write(module)
    lowered = subprocess.run(
        ["mlir-opt", host, "--pass-pipeline=builtin.module("
         "func.func(scf-forall-to-for),convert-vector-to-scf,"
         "convert-linalg-to-loops,lower-affine,convert-scf-to-cf,"
         "convert-vector-to-llvm{vector-contract-lowering=outerproduct},"
         "expand-strided-metadata,lower-affine,"
         "convert-math-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,"
         "convert-index-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"
         "convert-ub-to-llvm,"
         "reconcile-unrealized-casts)"],
        check=True, capture_output=True, text=True).stdout
    runner = shutil.which("mlir-runner")
    lib = os.path.join(os.path.dirname(runner), "..", "lib")
    out = subprocess.run(
        [runner, "-e", "main", "--entry-point-result=void",
         "--shared-libs=" + os.path.join(lib, "libmlir_runner_utils.so") + "," +
         os.path.join(lib, "libmlir_c_runner_utils.so")],
        input=lowered, check=True, capture_output=True, text=True).stdout
    data = out[out.index("data ="):]
    got = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|nan|inf", data)]
    if t == "f32":
        got = [g / 2 for g in got]  # printed as x + x
    if len(got) != n * s * d:
        sys.exit("attention-emulate.py: %d values printed, expected %d" %
                 (len(got), n * s * d))
    scale = 1.0 / d ** 0.5
    num = den = 0.0
    empty_rows = 0
    for bh in range(n):
        base = bh * s * d
        for i in range(s):
            scores = []
            for j in range(s):
                if scale_q:
                    dot = sum(round_to(t, q[base + i * d + x] * round_to(t, scale)) *
                              k[base + j * d + x] for x in range(d))
                    scores.append(round_to(t, dot))
                    continue
                dot = sum(q[base + i * d + x] * k[base + j * d + x] for x in range(d))
                scores.append(round_to(t, round_to(t, dot) * round_to(t, scale)))
            keep = [not causal or j - i <= offset for j in range(s)]
            if not any(keep):
                # PyTorch's safe softmax: a row with no key gives 0, exactly.
                empty_rows += 1
                for c in range(d):
                    if got[base + i * d + c] != 0.0:
                        sys.exit("attention-emulate.py: row %d of %d has no key "
                                 "but gives %r" % (i, bh, got[base + i * d + c]))
                continue
            mx = max(x for x, kept in zip(scores, keep) if kept)
            p = [math.exp(x - mx) if kept else 0.0 for x, kept in zip(scores, keep)]
            total = sum(p)
            for c in range(d):
                ref = sum(p[j] * v[base + j * d + c] for j in range(s)) / total
                diff = got[base + i * d + c] - ref
                num += diff * diff
                den += ref * ref
    err = math.sqrt(num / den)
    tolerance = {"f32": 1e-5, "f16": 5e-3, "bf16": 3e-2}[t]
    if empty_rows:
        print("%d rows with no key: 0" % empty_rows)
    print("%s on %s: relative error %.2e (tolerance %.0e)" % (case, target, err, tolerance))
    if not err <= tolerance:
        sys.exit("attention-emulate.py: error over tolerance")
    print("ok")


if __name__ == "__main__":
    main()
