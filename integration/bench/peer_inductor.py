#!/usr/bin/env python3
"""Torch Inductor peer of the CPU benchmark: builds in PyTorch the same
computation as the MLIR program bench.py writes for a workload kind,
compiles it with torch.compile (Inductor, CPU), times it on the inputs the
harness wrote and checks its result against the harness's reference, the
same way peer_iree.py does. Runs in the peers' virtual environment (torch,
numpy). Prints one JSON object; {"skip": reason} when it cannot run."""

import argparse
import json
import os
import shutil
import sys
import time

KINDS = ("matmul", "mlp", "softmax", "layernorm", "eltwise", "conv",
         "attention", "attention_causal")


def build(kind, inputs, torch):
    """Returns (module, activations): module(*activations) computes what
    the MLIR program of `kind` computes. Weights (the MLP's W and b, the
    convolution's filter, layer normalization's gamma and beta) become
    parameters of the module, so that Inductor's freezing may constant-fold
    and prepack them; everything else is an argument of each call."""
    nn, F = torch.nn, torch.nn.functional

    def param(t):
        return nn.Parameter(t, requires_grad=False)

    if kind == "matmul":
        # C = A * B (linalg.fill 0 + linalg.matmul).
        class M(nn.Module):
            def forward(self, a, b):
                return torch.mm(a, b)
        return M(), inputs
    if kind == "mlp":
        # y = gelu(x * W + b), erf form: 0.5 s (1 + erf(s / sqrt 2)).
        x, w, b = inputs

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.w, self.b = param(w), param(b)

            def forward(self, x):
                return F.gelu(torch.mm(x, self.w) + self.b,
                              approximate="none")
        return M(), [x]
    if kind == "softmax":
        # linalg.softmax dimension(1) on a 2-D tensor: along each row.
        class M(nn.Module):
            def forward(self, x):
                return torch.softmax(x, dim=1)
        return M(), inputs
    if kind == "layernorm":
        # Per row: (x - mean) * rsqrt(var + 1e-5) * gamma + beta, with the
        # biased variance (sum of squares / columns), as the MLIR program.
        x, g, b = inputs
        c = x.shape[1]

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.g, self.b = param(g), param(b)

            def forward(self, x):
                return F.layer_norm(x, (c,), self.g, self.b, eps=1e-5)
        return M(), [x]
    if kind == "eltwise":
        # max((x - y) * s[col] + t[row], 0).
        class M(nn.Module):
            def forward(self, x, y, s, t):
                return torch.relu((x - y) * s[None, :] + t[:, None])
        return M(), inputs
    if kind == "conv":
        # linalg.conv_2d_nhwc_hwcf, stride 1, dilation 1, on a pre-padded
        # NHWC input with an HWCF filter: a cross-correlation without
        # padding, like torch's conv2d. The input is seen as NCHW in the
        # channels-last memory format (no copy), the filter is stored as
        # torch's FCHW once, and the NCHW channels-last result is returned
        # as the NHWC tensor the MLIR program returns (a view, no copy).
        x, w = inputs

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.w = param(w.permute(3, 2, 0, 1).contiguous())

            def forward(self, x):
                y = F.conv2d(x.permute(0, 3, 1, 2), self.w)
                return y.permute(0, 2, 3, 1)
        return M(), [x]
    if kind == "attention":
        # softmax(Q K^T * (1/sqrt(d))) V over [batch*heads, seq, d], one op
        # per step as in the MLIR program, with the same f32 scale. Written
        # as PyTorch's usual [batch=1, heads, seq, d] idiom, which
        # Inductor's pattern matcher turns into its fused (flash) attention
        # kernel: 3x faster here than the same ops on 3-D tensors, which
        # it leaves as bmm, softmax, bmm.
        d = inputs[0].shape[2]
        scale = float(torch.tensor(1.0 / d ** 0.5, dtype=torch.float32))

        class M(nn.Module):
            def forward(self, q, k, v):
                q, k, v = q[None], k[None], v[None]
                p = torch.matmul(q, k.transpose(-2, -1)).mul(scale)
                return p.softmax(dim=-1).matmul(v)[0]
        return M(), inputs
    if kind == "attention_causal":
        # The causal program is what PyTorch exports for SDPA with
        # is_causal=True (same scale, keys after the query masked out).
        class M(nn.Module):
            def forward(self, q, k, v):
                q, k, v = q[None], k[None], v[None]
                return F.scaled_dot_product_attention(q, k, v,
                                                      is_causal=True)[0]
        return M(), inputs
    raise ValueError(kind)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", required=True)
    ap.add_argument("--data", required=True,
                    help="directory with meta.json, in*.bin, ref0.bin")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--budget", type=float, default=10.0)
    ap.add_argument("--cache-dir",
                    help="Inductor's cache and generated code; emptied "
                    "first, so that the compile time is a cold one")
    ap.add_argument("--mode", default="default",
                    help="torch.compile mode (default %(default)s; "
                    "max-autotune also tries Inductor's C++ GEMM templates, "
                    "at several times the compile time)")
    args = ap.parse_args()
    if args.kind not in KINDS:
        print(json.dumps({"skip": f"no PyTorch program for kind "
                          f"{args.kind!r}"}))
        return 0
    if args.cache_dir:
        shutil.rmtree(args.cache_dir, ignore_errors=True)
        os.makedirs(args.cache_dir)
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = args.cache_dir

    import numpy as np
    import torch

    import peer_common
    import torch._inductor.config as icfg

    # Threads of ATen and of Inductor's OpenMP kernels (fixed at compile
    # time from this setting).
    torch.set_num_threads(args.threads)
    # Plain f32 GEMMs (no TF32/bf16 shortcuts).
    torch.set_float32_matmul_precision("highest")
    # Inference settings: weights are constants (folded and prepacked for
    # oneDNN), everything else stays at Inductor's defaults (C++/OpenMP
    # vectorized kernels for the host's ISA).
    icfg.freezing = True

    meta, host_inputs, ref = peer_common.load_data(args.data)
    inputs = [torch.from_numpy(a) for a in host_inputs]
    model, acts = build(args.kind, inputs, torch)
    model.eval()
    fn = torch.compile(model, mode=args.mode, fullgraph=True)

    with torch.inference_mode():
        # First call: Dynamo traces, Inductor compiles (C++ kernels built
        # with the host compiler), then it runs once.
        t0 = time.perf_counter()
        out = fn(*acts)
        compile_s = time.perf_counter() - t0
        got = np.asarray(out.numpy(), dtype=np.float64)
        del out
        # Second call: the warm-up, which sets the number of timed runs.
        t0 = time.perf_counter()
        out = fn(*acts)
        warm = time.perf_counter() - t0
        del out
        samples = peer_common.time_calls(lambda: fn(*acts), warm, args.reps,
                                         args.budget)

    rel = peer_common.relative_error(got, ref)
    settings = (f"torch {torch.__version__} torch.compile(mode="
                f"{args.mode}, fullgraph) Inductor CPU, "
                f"freezing=True, inference_mode, {args.threads} thread(s), "
                "f32 matmul precision highest; compile s = first call")
    if args.kind in ("attention", "attention_causal"):
        from torch._dynamo.utils import counters
        fused = counters["inductor"]["fuse_attention"] > 0
        settings += ("; fused into scaled_dot_product_attention by the "
                     "pattern matcher" if fused else "; not fused")
    peer_common.report(samples, warm, rel, meta, compile_s=compile_s,
                       note=settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
