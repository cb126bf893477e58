"""Flax models compiled with strata.jax for the host and compared with
jax.jit (XLA on the CPU), relative L2 error <= 1e-5 in f32: an MLP, a
pre-norm transformer encoder block, a GPT-2-style causal block and a small
ResNet (flax_models.py), through `model.apply` with the variables as an
argument; a Flax nnx module; then the API: pytrees in and out, NumPy in and
out, the per-signature cache, static Python values, closed-over arrays as
arguments or as constants, and export. Skipped when JAX or Flax is not
installed."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("flax")
jnp = jax.numpy

import flax_models  # noqa: E402
import strata.jax as sj  # noqa: E402
from test_jax_ops import TOL, check, rel_err  # noqa: E402


@pytest.mark.parametrize("name", list(flax_models.MODELS))
def test_linen_model(name):
    model, variables, x = flax_models.build(name)
    check(model.apply, variables, x, name=name)


def test_nnx_module():
    from flax import nnx

    class Net(nnx.Module):
        def __init__(self, rngs):
            self.fc1 = nnx.Linear(12, 32, rngs=rngs)
            self.norm = nnx.LayerNorm(32, rngs=rngs)
            self.fc2 = nnx.Linear(32, 5, rngs=rngs)

        def __call__(self, x):
            return self.fc2(nnx.gelu(self.norm(self.fc1(x))))

    net = Net(nnx.Rngs(0))
    x = jnp.asarray(np.random.default_rng(0).standard_normal((4, 12)), jnp.float32)
    fn = sj.jit(net)
    assert rel_err(fn(x), net(x)) <= TOL
    # The module's state is an argument: an update is seen, not recompiled.
    net.fc2.bias[...] = net.fc2.bias[...] + 1.0
    assert rel_err(fn(x), net(x)) <= TOL
    assert fn.cache_info().misses == 1


def test_pytrees_in_and_out():
    def f(params, inputs):
        h = inputs["x"] @ params["w"] + params["b"]
        return {"h": h, "stats": (h.sum(), jnp.tanh(h))}

    rng = np.random.default_rng(1)
    params = {"w": jnp.asarray(rng.standard_normal((6, 3)), jnp.float32),
              "b": jnp.zeros(3, jnp.float32)}
    inputs = {"x": jnp.asarray(rng.standard_normal((2, 6)), jnp.float32)}
    check(f, params, inputs, name="pytrees")
    text = sj.export(f, params, inputs)
    assert "%arg0_w" in text and "%arg1_x" in text  # named by their paths


def test_numpy_in_numpy_out_jax_in_jax_out():
    f = sj.jit(lambda x, y: x * y + 1)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = f(a, a)
    assert isinstance(out, np.ndarray) and np.allclose(out, a * a + 1)
    out = f(jnp.asarray(a), a)
    assert isinstance(out, jax.Array) and np.allclose(out, a * a + 1)
    # float64 NumPy input is taken as JAX takes it (float32 without x64).
    assert np.allclose(f(a.astype(np.float64), a), a * a + 1)


def test_signature_cache_and_static_values():
    f = sj.jit(lambda x, scale: jnp.tanh(x) * scale)
    x4, x9 = jnp.ones((4, 3)), jnp.ones((9, 3))
    f(x4, 2.0)
    f(x4 + 1, 2.0)
    assert f.cache_info() == (1, 1, 1)
    f(x9, 2.0)                       # a new shape compiles
    f(x4, 3.0)                       # a Python number is static: compiles
    f(x4.astype(jnp.bfloat16), 2.0)  # so does a new dtype
    assert f.cache_info().misses == 4
    assert np.allclose(f(x4, 3.0), np.tanh(1.0) * 3.0)


def test_closed_over_arrays_are_arguments_or_constants():
    model, variables, x = flax_models.build("mlp")
    want = jax.jit(model.apply)(variables, x)
    closed = lambda x: model.apply(variables, x)  # noqa: E731
    text = sj.export(closed, x)
    assert "%const" in text and "arith.constant dense" not in text
    assert rel_err(sj.jit(closed)(x), want) <= TOL
    text = sj.export(closed, x, constants=True)
    assert "%const" not in text and "arith.constant dense" in text
    assert rel_err(sj.jit(closed, constants=True)(x), want) <= TOL


def test_export_and_decorator():
    @sj.jit
    def f(x):
        return jax.nn.relu(x) * 2

    x = jnp.linspace(-1, 1, 8, dtype=jnp.float32)
    assert np.allclose(f(x), np.maximum(np.asarray(x), 0) * 2)
    text = sj.export(lambda x: jax.nn.relu(x) * 2, x)
    assert text.startswith("func.func @forward(%arg0: tensor<8xf32>) -> tensor<8xf32>")
    assert "linalg.generic" in f.mlir(x)
