"""Flax models of the JAX front end's tests and benchmark
(integration/bench/jax_models.py): an MLP, a pre-norm transformer encoder
block (GELU, Flax's multi-head attention), a GPT-2-style causal block
(fused QKV projection, jax.nn.dot_product_attention with is_causal) and a
small ResNet (convolutions, batch norm in inference mode, max pooling,
global average pooling). `build(name, size)` makes a model, its variables
(random weights; random batch statistics for the batch norms) and an
input."""

import jax
import jax.numpy as jnp
import numpy as np
from flax import linen as nn


class MLP(nn.Module):
    hidden: int = 128
    out: int = 32

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(self.hidden)(x))
        x = nn.relu(nn.Dense(self.hidden)(x))
        return nn.Dense(self.out)(x)


class EncoderBlock(nn.Module):
    """Pre-norm: x + MHA(LN(x)), then x + FF(LN(x)) with a GELU."""

    heads: int = 4
    ff: int = 128

    @nn.compact
    def __call__(self, x):
        h = nn.LayerNorm()(x)
        x = x + nn.MultiHeadDotProductAttention(num_heads=self.heads)(h)
        h = nn.LayerNorm()(x)
        h = nn.Dense(x.shape[-1])(nn.gelu(nn.Dense(self.ff)(h), approximate=False))
        return x + h


class GPT2Block(nn.Module):
    """GPT-2's block: one QKV projection, causal attention, an output
    projection, then a 4x MLP with the tanh GELU; pre-norm."""

    heads: int = 4

    @nn.compact
    def __call__(self, x):
        b, t, d = x.shape
        h = nn.LayerNorm(epsilon=1e-5, name="ln_1")(x)
        qkv = nn.Dense(3 * d, name="c_attn")(h)
        q, k, v = (a.reshape(b, t, self.heads, d // self.heads) for a in jnp.split(qkv, 3, -1))
        a = jax.nn.dot_product_attention(q, k, v, is_causal=True).reshape(b, t, d)
        x = x + nn.Dense(d, name="c_proj")(a)
        h = nn.LayerNorm(epsilon=1e-5, name="ln_2")(x)
        h = nn.Dense(4 * d, name="c_fc")(h)
        return x + nn.Dense(d, name="mlp_proj")(nn.gelu(h, approximate=True))


class BasicBlock(nn.Module):
    features: int
    stride: int = 1

    @nn.compact
    def __call__(self, x):
        norm = lambda: nn.BatchNorm(use_running_average=True)  # noqa: E731
        h = nn.Conv(self.features, (3, 3), self.stride, use_bias=False)(x)
        h = nn.relu(norm()(h))
        h = norm()(nn.Conv(self.features, (3, 3), use_bias=False)(h))
        if self.stride != 1 or x.shape[-1] != self.features:
            x = norm()(nn.Conv(self.features, (1, 1), self.stride, use_bias=False)(x))
        return nn.relu(x + h)


class ResNet(nn.Module):
    """A ResNet-10-like network on NHWC images: a 3x3 stem, max pooling,
    basic blocks per stage (the first of each later stage strided), global
    average pooling and a classifier."""

    widths: tuple = (16, 32)
    classes: int = 10

    @nn.compact
    def __call__(self, x):
        x = nn.Conv(self.widths[0], (3, 3), use_bias=False)(x)
        x = nn.relu(nn.BatchNorm(use_running_average=True)(x))
        x = nn.max_pool(x, (3, 3), (2, 2), "SAME")
        for k, w in enumerate(self.widths):
            x = BasicBlock(w, 1 if k == 0 else 2)(x)
        return nn.Dense(self.classes)(jnp.mean(x, axis=(1, 2)))


def randomize_batch_stats(variables, seed=1):
    """Batch statistics that are not the identity (mean 0, variance 1), so
    that the inference batch norms are checked."""
    if "batch_stats" not in variables:
        return variables
    rng = np.random.default_rng(seed)
    stats = jax.tree_util.tree_map(lambda a: a, variables["batch_stats"])

    def fresh(path, a):
        name = str(path[-1])
        if "var" in name:
            return jnp.asarray(rng.random(a.shape) + 0.5, a.dtype)
        return jnp.asarray(rng.standard_normal(a.shape) * 0.1, a.dtype)
    stats = jax.tree_util.tree_map_with_path(fresh, stats)
    return {**variables, "batch_stats": stats}


SIZES = {
    # name: (test size, benchmark size): constructor arguments and input shape
    "mlp": ((dict(hidden=128, out=32), (16, 64)),
            (dict(hidden=2048, out=512), (256, 512))),
    "encoder_block": ((dict(heads=4, ff=128), (2, 16, 64)),
                      (dict(heads=4, ff=1024), (4, 128, 256))),
    "gpt2_block": ((dict(heads=4), (2, 16, 64)),
                   (dict(heads=4), (4, 128, 256))),
    "resnet": ((dict(widths=(8, 16)), (1, 16, 16, 3)),
               (dict(widths=(64, 128, 256)), (1, 112, 112, 3))),
}

MODELS = {"mlp": MLP, "encoder_block": EncoderBlock, "gpt2_block": GPT2Block,
          "resnet": ResNet}


def build(name, bench=False, seed=0):
    """(model, variables, input) of a model at its test or benchmark size."""
    kwargs, shape = SIZES[name][1 if bench else 0]
    model = MODELS[name](**kwargs)
    rng = np.random.default_rng(seed)
    x = jnp.asarray(rng.standard_normal(shape), jnp.float32)
    variables = model.init(jax.random.key(seed), x)
    return model, randomize_batch_stats(variables), x
