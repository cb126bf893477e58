"""F.scaled_dot_product_attention as Strata exports it (ops/attention.py):
the inputs' own element type end to end (bf16 stays bf16), numbers on the
host against eager in f32, and one fused attention kernel on the NVIDIA
targets (counted in the lowered IR; no GPU needed)."""

import re
import subprocess

import pytest
import torch
import torch.nn.functional as F

import strata.torch as st
from conftest import assert_close
from strata import tools
from strata.torch.export import convert, export_program

# Relative L2 error against eager in f32: the scores and P are rounded to
# the element type (8 bits of mantissa for bf16, 11 for f16).
TOL = {torch.float32: 1e-4, torch.float16: 2e-3, torch.bfloat16: 1.5e-2}
IDS = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16"}


class Attention(torch.nn.Module):
    def __init__(self, **options):
        super().__init__()
        self.options = options

    def forward(self, q, k, v, mask=None):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, **self.options)


def qkv(dtype, batch, heads, lq, lk, e, ev=None, kv_heads=None):
    g = torch.Generator().manual_seed(lq * 131 + lk * 7 + e)
    kv = kv_heads or heads
    shapes = [(batch, heads, lq, e), (batch, kv, lk, e), (batch, kv, lk, ev or e)]
    return [torch.randn(*s, generator=g).to(dtype) for s in shapes]


def check(model, inputs, dtype, name):
    with torch.no_grad():
        want = model(*[x.float() if x.is_floating_point() else x for x in inputs])
    got = st.compile(model, inputs)(*inputs)
    assert got.dtype == dtype
    return assert_close(got.float(), want, name, TOL[dtype])


@pytest.mark.parametrize("dtype", list(TOL), ids=IDS.get)
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
def test_host(dtype, causal):
    # 37 queries, 53 keys: no tile divides them; causal is top-left aligned.
    inputs = qkv(dtype, 2, 3, 37, 53, 40)
    check(Attention(is_causal=causal), inputs, dtype, f"sdpa[{IDS[dtype]},{causal}]")


@pytest.mark.parametrize("kind", ["bool", "float"])
def test_host_masks(kind):
    # A mask broadcast over the heads; with the bool mask the first query
    # sees no key, and PyTorch's safe softmax gives that row 0.
    q, k, v = qkv(torch.bfloat16, 2, 2, 19, 23, 16)
    keep = torch.rand(2, 1, 19, 23, generator=torch.Generator().manual_seed(3)) > 0.3
    keep[..., 0] = True
    if kind == "bool":
        keep[:, :, 0, :] = False
        mask = keep
    else:
        mask = torch.zeros(keep.shape).masked_fill(~keep, float("-inf")).to(torch.bfloat16)
    check(Attention(), (q, k, v, mask), torch.bfloat16, f"sdpa_mask[{kind}]")


def test_host_gqa_and_scale():
    # Grouped-query attention (8 query heads over 2 key/value heads), an
    # explicit scale and a value head dim unlike the key's.
    inputs = qkv(torch.float32, 1, 8, 17, 17, 32, ev=24, kv_heads=2)
    check(Attention(enable_gqa=True, scale=0.3, is_causal=True), inputs, torch.float32,
          "sdpa_gqa")


def test_export_keeps_bf16():
    q, k, v = qkv(torch.bfloat16, 2, 4, 64, 64, 32)
    mlir = st.export(Attention(is_causal=True), (q, k, v))
    assert "f32>" not in re.sub(r"//.*", "", mlir), mlir  # no f32 tensor anywhere
    assert mlir.count("linalg.batch_matmul") == 2
    assert re.search(r"linalg\.softmax dimension\(2\) ins\(\S+ : tensor<8x64x64xbf16>", mlir)


def test_dropout_is_refused():
    q, k, v = qkv(torch.float32, 1, 1, 4, 4, 4)
    with pytest.raises(Exception, match="dropout_p"):
        st.export(Attention(dropout_p=0.5), (q, k, v))


def kernels(mlir, tmp_path, target):
    src = tmp_path / "attention.mlir"
    src.write_text(mlir)
    out = tmp_path / "attention.lowered.mlir"
    subprocess.run([str(tools.tool("strata-compile")), str(src), f"--target={target}",
                    "--emit=lowered", "-o", str(out)], check=True)
    return out.read_text().count("nvvm.kernel")


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32], ids=IDS.get)
@pytest.mark.parametrize("shape,causal", [((2, 4, 128, 64), False), ((1, 12, 197, 64), False),
                                          ((2, 8, 256, 128), True), ((1, 4, 77, 80), True)],
                         ids=["128x64", "197x64", "256x128-causal", "77x80-causal"])
def test_one_kernel_on_nvidia(dtype, shape, causal, tmp_path):
    b, h, s, e = shape
    mlir = convert(export_program(Attention(is_causal=causal),
                                  qkv(dtype, b, h, s, s, e))).mlir
    for target in ("nvidia-h200", "nvidia-a100"):
        assert kernels(mlir, tmp_path, target) == 1, target
