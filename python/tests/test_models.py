"""Whole models exported with st.compile, compiled for the host and compared
with PyTorch eager (random weights, relative L2 error <= 1e-4)."""

import pytest
import torch
import torch.nn.functional as F

import models
import strata.torch as st
from conftest import assert_close


def check(model, inputs, name, kwargs=None):
    model = model.eval()
    kwargs = kwargs or {}
    with torch.no_grad():
        want = model(*inputs, **kwargs)
    fn = st.compile(model, inputs, kwargs=kwargs)
    got = fn(*inputs, **kwargs)
    return assert_close(got, want, name)


def test_mlp():
    check(models.MLP(), (torch.randn(16, 64),), "mlp")


@pytest.mark.parametrize("norm_first,activation", [(False, "relu"), (True, "gelu")])
def test_encoder_layer(norm_first, activation):
    layer = models.encoder_layer(norm_first=norm_first, activation=activation)
    check(layer, (torch.randn(2, 16, 64),), f"encoder_layer[{norm_first},{activation}]")


def test_encoder_layer_masks():
    """A causal attention mask and a key-padding mask (True: masked out)."""
    layer = models.encoder_layer()
    x = torch.randn(2, 16, 64)
    causal = torch.ones(16, 16, dtype=torch.bool).triu(1)
    padding = torch.zeros(2, 16, dtype=torch.bool)
    padding[1, 12:] = True
    check(layer, (x,), "encoder_layer_masks",
          kwargs={"src_mask": causal, "src_key_padding_mask": padding})


def test_gpt2_block():
    check(models.GPT2Block(), (torch.randn(2, 32, 64),), "gpt2_block")


def test_llama_block():
    check(models.LlamaBlock(), (torch.randn(2, 32, 64),), "llama_block")


def test_sdpa_block():
    check(models.SDPABlock(), (torch.randn(2, 16, 64),), "sdpa_block")


@pytest.mark.parametrize("heads", [1, 3])
def test_sdpa_causal(heads):
    # 77 tokens: no tile divides them.
    q, k, v = (torch.randn(2, heads, 77, 32) for _ in range(3))
    check(models.SDPA(is_causal=True), (q, k, v), f"sdpa_causal[{heads}]")


@pytest.mark.parametrize("kind,batch", [("bool", 2), ("float", 2),
                                        ("bool", 1)])
def test_sdpa_mask(kind, batch):
    # A mask broadcast over the heads (and with batch 1 over the batch: one
    # fused group on the host). With a bool mask the first query sees no
    # key: the safe softmax gives that row 0 (a plain one, NaN).
    q, k, v = (torch.randn(2, 3, 21, 16) for _ in range(3))
    keep = torch.rand(batch, 1, 21, 21) > 0.3
    keep[:, :, :, 0] = True
    if kind == "bool":
        keep[:, :, 0, :] = False
        mask = keep
    else:
        mask = torch.zeros(keep.shape).masked_fill(~keep, float("-inf"))
    check(models.SDPA(), (q, k, v, mask), f"sdpa_mask[{kind},{batch}]")


def test_token_embedding():
    idx = torch.randint(0, 100, (2, 16))
    check(models.TokenEmbedding(), (idx,), "token_embedding")


def test_resnet18():
    model = models.randomize_batch_norms(models.resnet18())
    check(model, (torch.randn(1, 3, 64, 64),), "resnet18")


def test_sdpa_view_after_transpose():
    """PyTorch's fused attention returns a result whose transpose is
    contiguous, so a reshape of that transpose is a view and a view of it
    is legal; the decomposed attention returns other strides, on which the
    reshape copies and records strides the view cannot take (Hugging Face
    GPT-2 does this). Views become
    reshapes before decomposing."""
    def fn(q, k, v):
        b, h, t, d = q.shape
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return y.reshape(b, -1, t, d).transpose(1, 2).reshape(b, t, -1).view(-1, h * d) * 2

    q, k, v = (torch.randn(2, 4, 16, 8) for _ in range(3))
    check(models.Fn(fn), (q, k, v), "sdpa_view")
