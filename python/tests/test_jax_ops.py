"""JAX primitives (alone and in small groups) compiled with strata.jax for
the host and compared with jax.jit (XLA on the CPU) on random inputs:
elementwise arithmetic and math, comparisons and selects, casts,
reductions and argmax, scans, softmax, dot_general with any batch and
contracting dimensions, convolutions in both layouts with strides,
padding, dilations and groups, pooling, shapes and data movement,
gathers, call primitives (jit, custom_jvp, custom_vjp, checkpoint), and
jax.nn.dot_product_attention; then the errors of unsupported primitives.
Skipped when JAX is not installed."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax

import strata.jax as sj  # noqa: E402

TOL = 1e-5  # f32 relative L2 error
LOW_TOL = 2e-2  # bf16 / f16


def rel_err(got, want):
    """Relative L2 error of a float array; integer and bool arrays must be
    equal (inf if not)."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        return float("inf")
    if not np.issubdtype(want.dtype, np.floating) and want.dtype != jnp.bfloat16:
        return 0.0 if np.array_equal(got, want) else float("inf")
    got, want = np.atleast_1d(got.astype(np.float64)), np.atleast_1d(want.astype(np.float64))
    same_nan = np.isnan(got) == np.isnan(want)
    if not same_nan.all():
        return float("inf")
    got, want = np.where(np.isnan(got), 0.0, got), np.where(np.isnan(want), 0.0, want)
    inf = np.isinf(want)
    if not (np.isinf(got) == inf).all() or (got[inf] != want[inf]).any():
        return float("inf")
    got, want = np.where(inf, 0.0, got), np.where(inf, 0.0, want)
    denom = np.linalg.norm(want)
    diff = np.linalg.norm(got - want)
    return diff / denom if denom else diff


def check(fn, *args, tol=TOL, name="case"):
    """fn through strata.jax against jax.jit on the same arguments."""
    want = jax.jit(fn)(*args)
    got = sj.jit(fn)(*args)
    gl, wl = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)
    assert jax.tree_util.tree_structure(got) == jax.tree_util.tree_structure(want)
    worst = max(rel_err(g, w) for g, w in zip(gl, wl))
    print(f"{name}: relative L2 error {worst:.3e}")
    assert worst <= tol, f"{name}: relative L2 error {worst:.3e} > {tol:.0e}"


rng = np.random.default_rng(0)


def r(*shape, dtype=np.float32):
    return jnp.asarray(rng.standard_normal(shape), dtype=dtype)


def pos(*shape):
    return jnp.asarray(rng.random(shape) + 0.1, dtype=jnp.float32)


def ints(lo, hi, *shape, dtype=np.int32):
    return jnp.asarray(rng.integers(lo, hi, shape), dtype=dtype)


def _custom_vjp_fn():
    @jax.custom_vjp
    def clip_grad(x):
        return jnp.tanh(x) * 2

    clip_grad.defvjp(lambda x: (clip_grad(x), x), lambda x, g: (g,))
    return lambda x: clip_grad(x) + 1


NHWC = ("NHWC", "HWIO", "NHWC")
NCHW = ("NCHW", "OIHW", "NCHW")


def conv(x, w, stride=(1, 1), padding="SAME", dn=NHWC, groups=1, lhs_dil=None, rhs_dil=None):
    return lax.conv_general_dilated(x, w, stride, padding, lhs_dilation=lhs_dil,
                                    rhs_dilation=rhs_dil, dimension_numbers=dn,
                                    feature_group_count=groups)


CASES = {
    # Elementwise arithmetic with NumPy broadcasting and scalar literals.
    "arith_broadcast": (lambda x, y, z: x + 2.5 * y - x / (jnp.abs(z) + 1) * z - 1.5,
                        [r(4, 1, 6), r(5, 1), r(6)]),
    "max_min_neg_abs": (lambda x, y: jnp.maximum(x, y) + jnp.minimum(x, 0.2) - (-x) * jnp.abs(y),
                        [r(3, 7), r(7)]),
    "pow": (lambda x, y, n: x ** y + x ** 3 + x ** -2 + jnp.power(x - 1.1, n) + jnp.square(x)
            + lax.pow(x - 1.1, 3),
            [pos(4, 8), r(4, 8), ints(-3, 4, 8)]),
    "exp_log": (lambda x: jnp.exp(x) + jnp.log(jnp.abs(x) + 1) + jnp.log1p(jnp.abs(x))
                + jnp.expm1(x) + jnp.exp2(x) + jnp.tanh(x), [r(8, 16)]),
    "logistic_erf_sqrt": (lambda x: jax.nn.sigmoid(x) + lax.erf(x) + lax.erfc(x)
                          + lax.rsqrt(jnp.abs(x) + 1) + jnp.sqrt(jnp.abs(x)), [r(8, 16)]),
    "trig": (lambda x, y: jnp.sin(x) + jnp.cos(x) + jnp.tan(x * 0.5) + jnp.arctan(x)
             + jnp.arcsin(jnp.tanh(x) * 0.9) + jnp.arccos(jnp.tanh(x) * 0.9) + jnp.sinh(x)
             + jnp.cosh(x) + jnp.arctan2(x, y), [r(6, 9), r(6, 9)]),
    "sign_rounding": (lambda x: jnp.sign(x) + jnp.floor(x) * 2 + jnp.ceil(x) * 3
                      + jnp.round(x) * 5 + lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO) * 7,
                      [jnp.asarray(np.round(rng.standard_normal((6, 9)) * 6) / 2, jnp.float32)]),
    "compare_select": (lambda x, y, k: jnp.where(x > y, x, y * 2)
                       + jnp.where((x <= 0) & (y != 0) | (x == y), 1.0, -1.0)
                       + (x >= 0.5) * 1.0 + (x < y) * 2.0
                       + lax.select_n(k, x, x * 2, x * y), [r(6, 7), r(7), ints(0, 3, 6, 7)]),
    "logic_int_bool": (lambda i, j: ((i & 3) | (j ^ 5)) + (~i) + (jnp.logical_xor(i > 2, j < 3)
                                                                 | ~(i == j)).astype(jnp.int32),
                       [ints(0, 9, 3, 5), ints(0, 9, 5)]),
    "is_finite_nan": (lambda x: jnp.where(jnp.isfinite(x), x, 7.0) + jnp.isnan(x) * 2.0
                      + jnp.nan_to_num(x, nan=0.0, posinf=9.0, neginf=-9.0),
                      [jnp.array([[1.0, np.nan, np.inf], [-np.inf, 2.0, 0.0]], jnp.float32)]),
    "clamp_clip": (lambda x, lo: lax.clamp(-0.5, x, 0.7) + jnp.clip(x, lo, 1.0), [r(5, 6), r(6)]),
    "convert": (lambda x, i, b: x.astype(jnp.int32) + i.astype(jnp.float32)
                + b.astype(jnp.float32) + x.astype(jnp.bfloat16).astype(jnp.float32)
                + (x > 0).astype(jnp.int32), [r(4, 5) * 4, ints(-5, 5, 4, 5),
                                               jnp.asarray(rng.random((4, 5)) > 0.5)]),
    "rem_floor_divide": (lambda x, y, i: lax.rem(x, jnp.broadcast_to(y, x.shape))
                         + jnp.remainder(x, y)
                         + jnp.floor_divide(x, y) + (i % 3) + (i // 4) + lax.rem(i, 5),
                         [r(4, 6) * 3, r(6) + 0.05, ints(-9, 9, 4, 6)]),
    # Reductions.
    "reduce_sum_max_min": (lambda x: x.sum(-1, keepdims=True) + x.mean((0, 2), keepdims=True)
                           + x.max(1, keepdims=True) - x.min((0, 1)) + x.var(-1, keepdims=True),
                           [r(3, 4, 5)]),
    "reduce_prod_all_any": (lambda x: x.prod(-1) + jnp.all(x > 0.2, -1) + jnp.any(x > 1.0, -1),
                            [pos(4, 5)]),
    "reduce_int": (lambda i: i.sum(0) + i.max(1).sum() + i.min(), [ints(-9, 9, 4, 6)]),
    "argmax_argmin": (lambda x, t: (jnp.argmax(x, -1), jnp.argmin(x, 0), jnp.argmax(t, 1),
                                    jnp.argmin(t, 1)), [r(5, 7), jnp.array([[1., 3., 3., 0.], [2., 2., 1., 2.],
                                                               [0., np.nan, 5., np.nan]])]),
    "cumsum_cumprod": (lambda x, i: jnp.cumsum(x, 1) + lax.cumsum(x, 0, reverse=True)
                       + lax.cumprod(x * 0.5, axis=1) + lax.cummax(x, axis=1, reverse=True)
                       + jnp.cumsum(i, -1)[:, :1], [r(3, 7), ints(0, 3, 3, 7)]),
    "softmax": (lambda x: jax.nn.softmax(x) + jax.nn.softmax(x, axis=0) * 2
                + jax.nn.log_softmax(x, axis=-1), [r(6, 7, 8)]),
    "logsumexp": (lambda x: jax.nn.logsumexp(x, axis=-1), [r(4, 9)]),
    # Contractions.
    "matmul_bias": (lambda x, w, b: x @ w + b, [r(5, 8), r(8, 3), r(3)]),
    "batched_matmul": (lambda x, y: jnp.einsum("bij,bjk->bik", x, y), [r(3, 4, 6), r(3, 6, 5)]),
    "einsum_batch_middle": (lambda q, k: jnp.einsum("btnh,bsnh->bnts", q, k),
                            [r(2, 5, 3, 4), r(2, 6, 3, 4)]),
    "einsum_contract_two": (lambda x, y: jnp.einsum("ijk,jkl->il", x, y),
                            [r(3, 4, 5), r(4, 5, 2)]),
    "einsum_transposed_rhs": (lambda x, y: jnp.einsum("bik,bjk->bji", x, y),
                              [r(2, 3, 4), r(2, 5, 4)]),
    "dot_vector_outer": (lambda x, v, u: x @ v + jnp.dot(v, v) + jnp.outer(v, u).sum(1)
                         + u @ x.T @ x @ v, [r(8, 8), r(8), r(8)]),
    "dense_general": (lambda x, w: lax.dot_general(x, w, (((1, 2), (0, 1)), ((), ()))),
                      [r(3, 4, 5, 2), r(4, 5, 6)]),
    "matmul_bf16": (lambda x, w: (x.astype(jnp.bfloat16) @ w.astype(jnp.bfloat16)
                                  ).astype(jnp.float32), [r(8, 16), r(16, 8)], LOW_TOL),
    "matmul_preferred_f32": (lambda x, w: lax.dot_general(
        x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), (((1,), (0,)), ((), ())),
        preferred_element_type=jnp.float32), [r(8, 16), r(16, 8)], LOW_TOL),
    # Convolutions.
    "conv_nhwc_same": (lambda x, w, b: conv(x, w) + b, [r(2, 8, 8, 3), r(3, 3, 3, 4), r(4)]),
    "conv_nchw_stride_valid": (lambda x, w: conv(x, w, (2, 2), "VALID", NCHW),
                               [r(1, 3, 9, 9), r(4, 3, 3, 3)]),
    "conv_dilated_explicit_pad": (lambda x, w: conv(x, w, (1, 2), ((2, 1), (0, 3)),
                                                    rhs_dil=(2, 1)), [r(1, 9, 8, 2),
                                                                      r(3, 2, 2, 5)]),
    "conv_transpose_lhs_dilation": (lambda x, w: lax.conv_transpose(
        x, w, (2, 2), "SAME", dimension_numbers=NHWC), [r(1, 5, 5, 3), r(3, 3, 3, 2)]),
    "conv_depthwise_grouped": (lambda x, wd, wg: conv(x, wd, groups=4)
                               + conv(x, wg, groups=2)[..., :4],
                               [r(1, 6, 6, 4), r(3, 3, 1, 4), r(3, 3, 2, 6)]),
    "conv_1d_negative_pad": (lambda x, w: lax.conv_general_dilated(
        x, w, (1,), ((-1, 2),), dimension_numbers=("NWC", "WIO", "NWC")),
        [r(2, 10, 3), r(3, 3, 4)]),
    # Pooling.
    "max_avg_pool_nhwc": (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1),
                                                      (1, 2, 2, 1), "SAME")
                          + lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1),
                                              (1, 2, 2, 1), "SAME") / 4,
                          [r(2, 8, 8, 3)]),
    "pool_nchw_min_1d": (lambda x, y: lax.reduce_window(x, jnp.inf, lax.min, (1, 1, 2, 2),
                                                        (1, 1, 2, 2), "VALID").sum()
                         + lax.reduce_window(y, -jnp.inf, lax.max, (1, 3, 1), (1, 2, 1),
                                             ((0, 0), (1, 1), (0, 0))),
                         [r(1, 3, 6, 6), r(2, 9, 4)]),
    # Shapes and data movement.
    "reshape_transpose_squeeze": (lambda x: jnp.transpose(x.reshape(2, 3, 4, 5), (0, 2, 3, 1))
                                  .reshape(8, 15)[None].squeeze(0) + jnp.expand_dims(x[:1, 0],
                                                                                    0),
                                  [r(6, 20)]),
    "broadcast_in_dim": (lambda x, s: jnp.broadcast_to(x[:, None, :], (4, 3, 5)) * s
                         + lax.broadcast_in_dim(x, (5, 4, 2), (1, 0)).transpose(1, 2, 0)
                         .sum(1, keepdims=True), [r(4, 5), jnp.float32(1.5)]),
    "concat_split_slice": (lambda x, y: jnp.concatenate([x, y, x[:, ::2]], 1)[1:3]
                           + jnp.concatenate(jnp.split(y, 2, axis=1)[::-1], 1).sum()
                           + x[:, 3:7:2].sum(), [r(4, 6), r(4, 4)]),
    "dynamic_slice_update": (lambda x, i: lax.dynamic_slice(x, (1, 2), (2, 3))
                             + lax.dynamic_slice(x, (i, 9), (2, 3))
                             + lax.dynamic_update_slice(x, jnp.ones((2, 2)), (1, 1))[:2, :3],
                             [r(5, 6), jnp.int32(2)]),
    "pad_negative_interior": (lambda x: (jnp.pad(x, ((1, 2), (0, 1))),
                                         lax.pad(x, 0.5, ((-1, 2, 1), (1, -2, 0))),
                                         jnp.pad(x, ((0, 0), (2, 1)), mode="edge")),
                              [r(4, 6)]),
    "rev_iota": (lambda x: jnp.flip(x, 1) + jnp.arange(6.0) + lax.broadcasted_iota(
        jnp.int32, (4, 6), 0), [r(4, 6)]),
    # Gathers.
    "take_embedding": (lambda e, i: jnp.take(e, i, axis=0), [r(10, 4), ints(0, 10, 2, 3)]),
    "take_out_of_bounds_fill": (lambda e, i: jnp.take(e, i, axis=1), [r(3, 5), ints(-2, 7, 4)]),
    "index_negative": (lambda e, i: e[i] + e[i, 1:2], [r(10, 4), ints(-10, 10, 5)]),
    "take_along_axis": (lambda x, i: jnp.take_along_axis(x, i, axis=1),
                        [r(4, 6), ints(0, 6, 4, 3)]),
    # Calls: jit, custom_jvp (relu, gelu), custom_vjp, checkpoint, stop_gradient.
    "call_primitives": (lambda x: jax.jit(lambda y: jax.nn.relu(y) * 2)(x)
                        + jax.nn.gelu(x) + jax.nn.gelu(x, approximate=False)
                        + jax.checkpoint(jnp.sin)(x) + lax.stop_gradient(x) + jax.nn.silu(x),
                        [r(4, 8)]),
    "custom_vjp": (_custom_vjp_fn(), [r(4, 8)]),
    # Attention as jax.nn writes it.
    "dot_product_attention": (lambda q, k, v: jax.nn.dot_product_attention(q, k, v),
                              [r(2, 8, 2, 16), r(2, 6, 2, 16), r(2, 6, 2, 16)]),
    "dot_product_attention_causal": (lambda q, k, v: jax.nn.dot_product_attention(
        q, k, v, is_causal=True), [r(1, 8, 4, 8), r(1, 8, 4, 8), r(1, 8, 4, 8)]),
    "dot_product_attention_bias_mask": (lambda q, k, v, bias, m: jax.nn.dot_product_attention(
        q, k, v, bias=bias, mask=m), [r(2, 5, 2, 8), r(2, 5, 2, 8), r(2, 5, 2, 8),
                                       r(1, 2, 5, 5), jnp.asarray(rng.random((2, 1, 5, 5))
                                                                  > 0.3)]),
    # Low precision kept as traced.
    "bf16_elementwise": (lambda x, y: (jax.nn.gelu(x) * y + 1).sum(-1),
                         [r(4, 8, dtype=jnp.bfloat16), r(8, dtype=jnp.bfloat16)], LOW_TOL),
    "f16_softmax": (lambda x: jax.nn.softmax(x, -1), [r(4, 8, dtype=jnp.float16)], LOW_TOL),
}


@pytest.mark.parametrize("name", list(CASES))
def test_primitive(name):
    fn, args, *tol = CASES[name]
    check(fn, *args, tol=tol[0] if tol else TOL, name=name)


def test_bf16_result_type():
    """bf16 stays bf16: the program's result is bf16, not a wider type."""
    x = r(4, 8, dtype=jnp.bfloat16)
    text = sj.export(lambda x: jnp.tanh(x) * 2, x)
    assert "-> tensor<4x8xbf16>" in text
    assert sj.jit(lambda x: jnp.tanh(x) * 2)(x).dtype == jnp.bfloat16


def test_softmax_is_one_op():
    """jax.nn.softmax becomes one linalg.softmax (the max, exp and sum
    above the division are dropped)."""
    text = sj.export(jax.nn.softmax, r(4, 8))
    assert text.count("linalg.softmax") == 1
    assert "math.exp" not in text


def test_unsupported_primitive_names_source_and_function():
    def uses_a_loop(x):
        return lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2), (0, x))[1]

    with pytest.raises(sj.UnsupportedPrimitiveError) as e:
        sj.export(uses_a_loop, r(3))
    msg = str(e.value)
    assert "'while'" in msg and "uses_a_loop" in msg and "test_jax_ops.py" in msg


def test_unsupported_primitive_in_a_nested_call():
    def sorts(x):
        return jax.jit(lambda y: jnp.sort(y, axis=-1) * 2)(x)

    with pytest.raises(sj.UnsupportedPrimitiveError, match=r"'sort'.*sorts") as e:
        sj.jit(sorts)(r(3, 4))
    assert e.value.primitive == "sort" and "test_jax_ops.py" in (e.value.source or "")


def test_unsupported_form_says_why():
    x, w = r(1, 4, 4, 4, 2), r(1, 1, 1, 2, 2)
    with pytest.raises(sj.UnsupportedPrimitiveError, match="3-D convolution"):
        sj.export(lambda x, w: lax.conv_general_dilated(
            x, w, (1, 1, 1), "SAME", dimension_numbers=("NDHWC", "DHWIO", "NDHWC")), x, w)


def test_unsupported_element_types_are_named():
    def sample(key):
        return jax.random.normal(key, (3,))

    with pytest.raises(sj.UnsupportedPrimitiveError, match=r"argument 0 .*key.*\.sample'"):
        sj.export(sample, jax.random.key(0))
    with pytest.raises(sj.UnsupportedPrimitiveError,
                       match=r"'convert_element_type' \(element type uint8\)"):
        sj.export(lambda x: x.astype(jnp.uint8), r(3))
