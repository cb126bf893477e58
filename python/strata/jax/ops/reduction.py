"""Reductions (reduce_sum/max/min/prod/and/or, argmax/argmin), windowed
reductions (reduce_window_max/min/sum: pooling) and scans (cumsum, cumprod,
cummax, cummin), and the softmax peephole.

A reduction is a linalg.generic with reduction iterators on a filled
accumulator (bf16/f16 accumulate in f32 and are rounded once). An argmax
carries the best value and its index in one generic with two results.
Windowed reductions over two dimensions of a rank-4 array (or one of a
rank-3 array) are the channels-last pooling named ops: the operand is read
with the window dimensions in the middle (NHWC), and the result keeps that
layout (a Laid value) for what follows.

jax.nn.softmax traces to reduce_max, sub, exp, reduce_sum and div; the
division whose operands are exactly that pattern becomes one
linalg.softmax, the form Strata's attention and row-chain kernels
recognize (the max, exp and sum above it are then dead and dropped).
"""

from ...lowering import scalar as S
from ...lowering.helpers import cast_tensor, pad, reduce, reshape, scan, transpose
from ...lowering.ops import acc_elem, pool_nhwc
from ...mlir_builder import Laid, TensorType, Value, affine_map, identity_map, is_float
from . import Known, lowering

_KINDS = {"reduce_sum": "add", "reduce_max": "max", "reduce_min": "min",
          "reduce_prod": "mul", "reduce_and": "and", "reduce_or": "or"}


@lowering(*_KINDS, layouts=True)
def reduce_(cx, x, axes, **_):
    kind = _KINDS[cx.name]
    e = cx.out.elem
    if kind in ("and", "or") and e != "i1":
        cx.unsupported("a bitwise reduction of integers")
    elem = "i1" if kind in ("and", "or") else (acc_elem(e) if kind in ("add", "mul") else None)
    out = reduce(cx, x, list(axes), kind, elem, layout=True)
    return cast_tensor(cx, out, e, layout=True)


@lowering("argmax", "argmin")
def argmax(cx, x, axes, index_dtype=None, **_):
    """The first index of the largest (smallest) element along the axis; a
    NaN is larger (smaller) than any number, as in XLA. The body also takes
    an equal element at a smaller index, so the result does not depend on
    the order the elements are visited in."""
    b = cx.b
    (d,) = axes
    ve = acc_elem(x.elem)
    ie = cx.out.elem
    maximum = cx.name == "argmax"
    rank = x.rank
    kept = [k for k in range(rank) if k != d]
    start = int(not maximum) if ve == "i1" else _init("max" if maximum else "min", ve)
    vals = b.fill(start, TensorType(cx.out.shape, ve))
    idxs = b.fill(0, cx.out)

    def body(r, v, acc, idx):
        v = S.cast(r, v, x.elem, ve)
        k = S.cast(r, r.op("arith.index_cast", [r.index(d)], None,
                           operand_types=f"index to {ie}"), ie, ie)
        better = S.compare(r, "gt" if maximum else "lt", v, acc, ve)
        tie = S.binary(r, "and", S.compare(r, "eq", v, acc, ve),
                       S.compare(r, "lt", k, idx, ie), "i1")
        take = S.binary(r, "or", better, tie, "i1")
        if is_float(ve):
            v_nan = r.op("arith.cmpf", ["uno", v, v], ve)
            acc_nan = r.op("arith.cmpf", ["uno", acc, acc], ve)
            first_nan = S.binary(r, "and", v_nan, S.binary(
                r, "or", S.binary(r, "xor", acc_nan, r.const(True, "i1"), "i1"),
                S.compare(r, "lt", k, idx, ie), "i1"), "i1")
            take = S.select(r, acc_nan, first_nan, S.binary(r, "or", take, v_nan, "i1"), "i1")
        return [S.select(r, take, v, acc, ve), S.select(r, take, k, idx, ie)]

    out_map = affine_map(rank, kept)
    its = ["reduction" if k == d else "parallel" for k in range(rank)]
    return b.generic([(x, identity_map(rank))], [(vals, out_map), (idxs, out_map)], its,
                     body, "argmax")[1]


# -- windowed reductions ---------------------------------------------------

_WINDOW = {"reduce_window_max": "max", "reduce_window_min": "min",
           "reduce_window_sum": "sum"}


def _init(kind, elem):
    """The padding and accumulator value of a windowed reduction."""
    if kind == "sum":
        return 0.0
    if is_float(elem):
        return float("-inf") if kind == "max" else float("inf")
    bits = int(elem[1:])
    return -(1 << (bits - 1)) if kind == "max" else (1 << (bits - 1)) - 1


@lowering(*_WINDOW, layouts=True)
def reduce_window(cx, x, window_dimensions, window_strides, padding, base_dilation,
                  window_dilation, **_):
    """Pooling: a window over at most two dimensions of a rank-4 array (or
    rank 3 or less, given leading unit dimensions) as pooling_nhwc_*: the
    window dimensions are read as H and W, the two others as N and C."""
    b = cx.b
    kind = _WINDOW[cx.name]
    rank = x.rank
    if any(d != 1 for d in base_dilation):
        cx.unsupported("a windowed reduction with base dilation")
    if rank > 4:
        cx.unsupported(f"a windowed reduction of a rank-{rank} array")
    win = [k for k in range(rank) if window_dimensions[k] != 1 or window_strides[k] != 1
           or window_dilation[k] != 1 or tuple(padding[k]) != (0, 0)]
    if len(win) > 2:
        cx.unsupported(f"a window over {len(win)} dimensions")
    lead = 4 - rank
    if lead:
        x = reshape(b, x, [1] * lead + list(x.shape))
    win = [lead + k for k in win]
    rest = [k for k in range(4) if k not in win]
    spatial = win + rest[:2 - len(win)]
    spatial.sort()
    batch, chan = [k for k in range(4) if k not in spatial]
    perm = (batch, spatial[0], spatial[1], chan)

    def param(values, fill):
        full = [fill] * lead + list(values)
        return [full[k] for k in spatial]

    window = param(window_dimensions, 1)
    strides = param(window_strides, 1)
    dilation = param(window_dilation, 1)
    pads = param([tuple(p) for p in padding], (0, 0))
    e = x.elem if kind != "sum" else acc_elem(x.elem)
    init = _init(kind, e)
    xt = transpose(b, x, perm)                  # Laid-aware: NHWC as computed stays so
    xt = cast_tensor(cx, xt, e)
    xp = pad(b, xt, [0] + [p[0] for p in pads] + [0], [0] + [p[1] for p in pads] + [0], init)
    out_shape = [cx.out.shape[k - lead] if k >= lead else 1 for k in spatial]
    y = pool_nhwc(b, kind, xp, window, strides, dilation, out_shape, init)
    y = cast_tensor(cx, y, cx.out.elem)
    res = y if perm == (0, 1, 2, 3) else Laid(y, perm)
    return reshape(b, res, cx.out.shape) if lead else res


# -- scans -------------------------------------------------------------------

_SCANS = {"cumsum": "add", "cumprod": "mul", "cummax": "max", "cummin": "min"}


@lowering(*_SCANS)
def cumulative(cx, x, axis, reverse=False, **_):
    kind = _SCANS[cx.name]
    e = acc_elem(cx.out.elem) if kind in ("add", "mul") else x.elem
    if e == "i1":
        cx.unsupported("a scan of booleans")
    return cast_tensor(cx, scan(cx, x, axis, kind, e, reverse), cx.out.elem)


# -- softmax ---------------------------------------------------------------

_PASS = ("broadcast_in_dim", "reshape", "stop_gradient", "copy", "copy_p")


def _through(cx, v):
    """The (primitive, operands, params) that produced v, looking through
    reshapes, broadcasts of a reduction's result back to its rank, and
    stop_gradient; the value it looked through to is the first operand."""
    d = cx.defined_by(v)
    while d is not None and d[0] in _PASS:
        v = d[1][0]
        d = cx.defined_by(v)
    return d


def _same(a, b):
    return isinstance(a, (Value, Laid)) and isinstance(b, (Value, Laid)) and a.type == b.type \
        and (a.phys.name if isinstance(a, Laid) else a.name) == \
        (b.phys.name if isinstance(b, Laid) else b.name)


def softmax_of(cx, num, den):
    """linalg.softmax of x when num = exp(x - max(x, axis)) and den =
    sum(num, axis) broadcast back (jax.nn.softmax, with or without its
    `max(-inf, .)` guard); None when the division is anything else."""
    if not isinstance(num, (Value, Laid)) or not isinstance(den, (Value, Laid)):
        return None
    if num.type != cx.out or cx.out.rank == 0:
        return None
    d_num = cx.defined_by(num)
    d_den = _through(cx, den)
    if d_num is None or d_num[0] != "exp" or d_den is None or d_den[0] != "reduce_sum":
        return None
    if not _same(d_den[1][0], num) or len(d_den[2]["axes"]) != 1:
        return None
    axis = d_den[2]["axes"][0]
    if den.shape[axis] != 1 or [s for k, s in enumerate(den.shape) if k != axis] != \
            [s for k, s in enumerate(num.shape) if k != axis]:
        return None
    d_sub = cx.defined_by(d_num[1][0])
    if d_sub is None or d_sub[0] != "sub":
        return None
    x, m = d_sub[1]
    d_max = _through(cx, m)
    if d_max is not None and d_max[0] == "max":  # max(-inf, m): the guard
        ops = d_max[1]
        inner = [o for o in ops if not (isinstance(o, Known) and o.value == float("-inf"))]
        if len(inner) != 1:
            return None
        d_max = _through(cx, inner[0])
    if d_max is None or d_max[0] != "reduce_max" or tuple(d_max[2]["axes"]) != (axis,) \
            or not _same(d_max[1][0], x) or x.type.with_elem(num.elem) != num.type:
        return None
    b = cx.b
    x = cast_tensor(cx, b.logical(x), acc_elem(x.elem))
    init = b.empty(x.type)
    s = b.op(f"{{r}} = linalg.softmax dimension({axis}) ins({x.name} : {x.type})"
             f" outs({init.name} : {x.type}) -> {x.type}", x.type, "softmax")
    return cast_tensor(cx, s, cx.out.elem)
