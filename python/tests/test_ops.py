"""Single operators (and small groups of them) compiled with Strata for the
host and compared with PyTorch eager: elementwise math with broadcasting,
comparisons and selects, reductions, shape operations, gathers,
convolutions and pooling in their less common forms."""

import pytest
import torch
import torch.nn.functional as F

import strata.torch as st
from conftest import assert_close
from models import Fn


def r(*shape):
    return torch.randn(*shape)


def pos(*shape):
    return torch.rand(*shape) + 0.1


torch.manual_seed(0)
CASES = {
    # Elementwise, with PyTorch broadcasting (size-1 and missing dims).
    "add_broadcast": (lambda x, y: x + 2.5 * y, [r(4, 1, 6), r(5, 1)]),
    "sub_rsub_scalar": (lambda x: (x - 1.5) + (2.0 - x) * 3, [r(3, 7)]),
    "mul_div": (lambda x, y: x * y / (y.abs() + 1), [r(2, 3, 4), r(4)]),
    "div_floor_trunc": (lambda x, y: torch.div(x, y, rounding_mode="floor")
                        + torch.div(x, y, rounding_mode="trunc"), [r(5, 6) * 4, pos(6)]),
    "unary_math": (lambda x: torch.exp(x) + torch.log(x.abs() + 1) + torch.sqrt(x.abs())
                   + torch.rsqrt(x.abs() + 1) + torch.tanh(x) + torch.sigmoid(x)
                   + torch.erf(x) + torch.sin(x) + torch.cos(x), [r(8, 16)]),
    "more_math": (lambda x: torch.exp2(x) + torch.expm1(x) + torch.log1p(x.abs())
                  + torch.log2(x.abs() + 1) + torch.log10(x.abs() + 1) + torch.tan(x * 0.5)
                  + torch.atan(x) + torch.asin(x.tanh() * 0.9) + torch.acos(x.tanh() * 0.9)
                  + torch.sinh(x)
                  + torch.cosh(x), [r(8, 16)]),
    "nan_inf": (lambda x, y: torch.isnan(x).float() * 2 + torch.isinf(x).float()
                + torch.fmax(x, y).nan_to_num(0.0, 9.0, -9.0), [
                    torch.tensor([[1.0, float("nan"), float("inf")], [-float("inf"), 2.0, 0.0]]),
                    torch.tensor([3.0, float("nan"), 1.0])]),
    "bitwise_logical": (lambda i, j: ((i & 3) | (j ^ 5)) + (~i)
                        + torch.logical_xor(i > 2, j < 3).long(), [
                            torch.randint(0, 9, (3, 5)), torch.randint(0, 9, (5,))]),
    "rounding": (lambda x: torch.floor(x) + torch.ceil(x) * 2 + torch.round(x) * 3
                 + torch.trunc(x) * 5 + torch.sign(x) * 7, [r(6, 9) * 3]),
    "pow": (lambda x: x.pow(2) + x.pow(3) + x.abs().pow(0.5) + x.abs().pow(1.7)
            + (x.abs() + 1).pow(-1), [r(4, 8)]),
    "activations": (lambda x: F.relu(x) + F.silu(x) + F.hardtanh(x, -0.5, 0.5)
                    + F.leaky_relu(x, 0.1) + F.hardswish(x) + F.elu(x) + F.relu6(x),
                    [r(4, 33)]),
    "gelu_erf_tanh": (lambda x: F.gelu(x) + F.gelu(x, approximate="tanh"), [r(16, 40)]),
    "clamp_minimum": (lambda x, y: torch.clamp(x, -0.3, 0.7) + torch.maximum(x, y)
                      + torch.minimum(x, y) + x.clamp(min=0.1), [r(5, 5), r(5)]),
    "compare_where": (lambda x, y: torch.where(x > y, x, y * 2)
                      + torch.where((x <= 0) & (y != 0) | (x == y), 1.0, -1.0), [r(6, 7), r(7)]),
    "masked_fill_triu": (lambda x: x.masked_fill(torch.ones(8, 8, dtype=torch.bool).triu(1),
                                                 float("-inf")).softmax(-1), [r(2, 8, 8)]),
    "int_arith_cast": (lambda i, x: (i * 3 + 1).float() * x + (i > 2).float(),
                       [torch.randint(0, 5, (4, 6)), r(4, 6)]),
    "arange_full": (lambda x: x + torch.arange(x.shape[-1]).float()
                    + torch.full((x.shape[-1],), 0.5), [r(3, 10)]),
    # Reductions.
    "sum_mean": (lambda x: x.sum(-1, keepdim=True) + x.mean((0, 2), keepdim=True), [r(3, 4, 5)]),
    "amax_amin": (lambda x: x.amax(1) - x.amin(1) + x.max(), [r(6, 7, 3)]),
    "var_std": (lambda x: x.var(-1) + x.std(0).sum() + x.var(-1, unbiased=False), [r(5, 32)]),
    "softmax_dims": (lambda x: x.softmax(0) + x.softmax(1) + x.log_softmax(-1), [r(6, 7, 8)]),
    "prod_any_all": (lambda x: x.prod(-1) + (x > 0).any(-1).float() + (x > -2).all(-1).float(),
                     [pos(4, 5)]),
    "fmod_remainder": (lambda x, y: torch.fmod(x, y) + torch.remainder(x, y)
                       + torch.fmod(x, 1.5) + torch.remainder(x, -0.7), [r(4, 6) * 3, r(6) + 0.05]),
    "remainder_int": (lambda i: (i % 3) + torch.fmod(i, 4) + torch.remainder(i, -5),
                      [torch.randint(-9, 9, (4, 5))]),
    "logsumexp": (lambda x: torch.logsumexp(x, dim=-1), [r(4, 9)]),
    "cumsum": (lambda x, i: x.cumsum(1) + i.cumsum(-1).float()[:, :1],
               [r(3, 7), torch.randint(0, 2, (3, 5))]),
    # Shapes and data movement.
    "view_permute": (lambda x: x.view(2, 3, 4, 5).permute(0, 2, 3, 1).reshape(8, 15),
                     [r(6, 20)]),
    "transpose_contiguous": (lambda x: x.transpose(0, 2).contiguous().view(-1) * 2, [r(2, 3, 4)]),
    "squeeze_unsqueeze": (lambda x: x.unsqueeze(0).squeeze(2).unsqueeze(-1) + 1, [r(3, 1, 4)]),
    "expand_repeat": (lambda x: x.expand(3, 4, 5) + x.repeat(3, 1, 1), [r(4, 1)]),
    "slice_select": (lambda x: x[:, 1:5:2, -3:] + x[:, 0:2, :3] + x[:, 3].unsqueeze(1)[..., :3],
                     [r(2, 6, 7)]),
    "split_chunk_unbind": (lambda x: torch.stack([a * i for i, a in enumerate(x.chunk(3, -1))])
                           .sum(0) + x.unbind(0)[1][..., :2].sum(), [r(4, 6)]),
    "cat_stack": (lambda x, y: torch.cat([x, y, x], dim=1)
                  + torch.stack([x, x, y[:, :2]], 2).sum(-1)
                  .repeat(1, 4), [r(3, 2), r(3, 4)]),
    "pad": (lambda x: F.pad(x, (1, 2, 0, 3), value=0.5), [r(2, 3, 4)]),
    "flatten_unflatten": (lambda x: x.flatten(1).unflatten(1, (5, 6)).sum(1), [r(2, 5, 2, 3)]),
    "roll": (lambda x: torch.roll(x, (2, -1), (1, 2)) + torch.roll(x, 5), [r(2, 5, 4)]),
    "slice_scatter": (lambda x, y: torch.slice_scatter(x, y, 1, 1, 7, 2) * 2, [r(3, 8), r(3, 3)]),
    # as_strided of a permuted tensor (a reshape of its storage order) and
    # overlapping windows (a gather).
    "as_strided": (lambda x: torch.as_strided(x.permute(0, 2, 1) + 1, (2, 3, 2), (12, 1, 6), 1),
                   [r(2, 3, 4)]),
    "as_strided_windows": (lambda x: torch.as_strided(x * 2, (4, 3), (2, 1)), [r(10)]),
    "index_put_mask": (lambda x, m: x.masked_fill(m, 0.0)
                       + torch.index_put(x, (m,), torch.tensor(0.5)),
                       [r(4, 6), torch.rand(4, 6) > 0.5]),
    # Gathers.
    "index_tensor": (lambda x, i, j: x[i] + x[:, j][..., :1].sum() + x[i, j].unsqueeze(-1),
                     [r(7, 5), torch.tensor([0, 3, -1]), torch.tensor([4, 0, 2])]),
    "index_select_gather": (lambda x, i, g: x.index_select(1, i).sum(1)
                            + x.gather(1, g).sum(1),
                            [r(4, 9), torch.tensor([1, 8, 3]), torch.randint(0, 9, (4, 5))]),
    # Contractions.
    "matmul_broadcast": (lambda a, b: torch.matmul(a, b), [r(2, 3, 5, 7), r(7, 4)]),
    "bmm_baddbmm": (lambda a, b, c: torch.baddbmm(c, a, b, alpha=0.5, beta=2.0), [
        r(3, 4, 6), r(3, 6, 5), r(3, 4, 5)]),
    "matmul_transposed_inputs": (lambda a, b: a @ b.t() + (a.t() @ a).sum()
                                 + b.transpose(0, 1)[:1, :].sum(), [r(5, 8), r(3, 8)]),
    "mv_dot": (lambda a, v: a @ v + (v @ v), [r(5, 8), r(8)]),
    # Convolutions and pooling.
    "conv1d": (torch.nn.Conv1d(3, 5, 3, stride=2, padding=1), [r(2, 3, 17)]),
    "conv2d_dilated": (torch.nn.Conv2d(4, 6, 3, padding=2, dilation=2, bias=False),
                       [r(1, 4, 9, 11)]),
    "conv2d_groups": (torch.nn.Conv2d(6, 9, 3, stride=2, padding=1, groups=3), [r(2, 6, 10, 10)]),
    "conv2d_depthwise": (torch.nn.Conv2d(4, 4, 5, padding=2, groups=4), [r(1, 4, 8, 8)]),
    "max_pool_ceil": (lambda x: F.max_pool2d(x, 3, 2, padding=1, ceil_mode=True),
                      [r(1, 3, 10, 10)]),
    "avg_pool_pad": (lambda x: F.avg_pool2d(x, 3, 2, padding=1)
                     + F.avg_pool2d(x, 3, 2, padding=1, count_include_pad=False), [r(2, 3, 9, 9)]),
    "adaptive_avg_pool": (lambda x: F.adaptive_avg_pool2d(x, (2, 3)), [r(1, 4, 8, 9)]),
    # Windows of different sizes that overlap (5 -> 3, 2 -> 7 upsamples).
    "adaptive_pool_nonuniform": (lambda x: F.adaptive_avg_pool2d(x, (3, 7))
                                 + F.adaptive_max_pool2d(x, (3, 7)), [r(1, 4, 5, 2)]),
    "adaptive_pool_13_6": (lambda x: F.adaptive_avg_pool2d(x, 6), [r(2, 3, 13, 13)]),
    "group_norm": (torch.nn.GroupNorm(2, 6), [r(2, 6, 5, 5)]),
    "batch_norm_1d": (torch.nn.BatchNorm1d(7), [r(4, 7)]),
}


def _init_stats(m):
    """Non-trivial running statistics for batch norms."""
    for mod in m.modules():
        if isinstance(mod, torch.nn.modules.batchnorm._BatchNorm):
            mod.running_mean.uniform_(-0.5, 0.5)
            mod.running_var.uniform_(0.5, 2.0)
    return m


@pytest.mark.parametrize("name", sorted(CASES))
def test_op(name):
    fn, inputs = CASES[name]
    model = fn if isinstance(fn, torch.nn.Module) else Fn(fn)
    model = _init_stats(model).eval()
    want = model(*inputs)
    got = st.compile(model, inputs)(*inputs)
    assert_close(got, want, name)


def test_bf16_linear():
    """bf16 operands, f32 accumulation, one rounding: as PyTorch's CPU."""
    lin = torch.nn.Linear(32, 16).to(torch.bfloat16).eval()
    x = r(4, 32).to(torch.bfloat16)
    got = st.compile(lin, (x,))(x)
    assert got.dtype == torch.bfloat16
    assert_close(got.float(), lin(x).float(), "bf16_linear", tol=1e-2)


def test_plain_function():
    x, y = r(3, 5), r(5)
    fn = st.compile(lambda a, b: torch.tanh(a) * b, (x, y))
    assert_close(fn(x, y), torch.tanh(x) * y, "plain_function")


def test_kwargs_and_tuple_outputs():
    """Keyword arguments, several results in a nested structure, a
    returned input and a constant output."""
    class M(torch.nn.Module):
        def forward(self, x, *, scale):
            return {"y": x * scale, "pair": (x.sum(0), x)}, 3

    x = r(3, 4)
    fn = st.compile(M(), (x,), kwargs={"scale": 2.0})
    got = fn(x, scale=2.0)
    assert got[1] == 3
    assert_close([got[0]["y"], *got[0]["pair"]], [x * 2.0, x.sum(0), x], "kwargs")
    assert got[0]["pair"][1].data_ptr() != x.data_ptr()
