"""Reductions (sum, mean, prod, amax/amin, any/all, var) as linalg.generic
with reduction iterators on a filled accumulator, softmax as
linalg.softmax (log_softmax from a max, an exp-sum and a log), and
cumulative sums as a triangular reduction (helpers.scan)."""

import torch

from . import lowering
from ...lowering import scalar as S
from ...lowering.helpers import (cast_tensor, elementwise, norm_dims, reduce, reshape, scan,
                                 sum_sq_dev)

aten = torch.ops.aten


def _acc(elem):
    """Accumulator type of a sum: f32 for low-precision floats, i64 for
    integers and bools (as torch.sum)."""
    if elem in ("bf16", "f16"):
        return "f32"
    if elem.startswith("i"):
        return "i64"
    return elem


def _dims(a, rank):
    return norm_dims(getattr(a, "dim", None), rank)


def _count(v, dims):
    n = 1
    for d in dims:
        n *= v.shape[d]
    return n


@lowering(aten.sum.dim_IntList, aten.sum.default, layouts=True)
def sum_(cx, a):
    v = a.self
    out = reduce(cx, v, _dims(a, v.rank), "add", _acc(cx.out.elem),
                 bool(getattr(a, "keepdim", False)), layout=True)
    return cast_tensor(cx, out, cx.out.elem, layout=True)


@lowering(aten.mean.dim, aten.mean.default, layouts=True)
def mean(cx, a):
    v = a.self
    dims = _dims(a, v.rank)
    e = _acc(cx.out.elem)
    s = reduce(cx, v, dims, "add", e, bool(getattr(a, "keepdim", False)), layout=True)
    n = _count(v, dims)
    return elementwise(cx, [s], cx.out, lambda r, x: S.binary(r, "div", x, r.const(n, e), e),
                       compute=e, layout=True)


@lowering(aten.prod.dim_int, aten.prod.default)
def prod(cx, a):
    v = a.self
    out = reduce(cx, v, _dims(a, v.rank), "mul", _acc(cx.out.elem),
                 bool(getattr(a, "keepdim", False)))
    return cast_tensor(cx, out, cx.out.elem)


@lowering(aten.amax.default, aten.amin.default, aten.max.default, aten.min.default,
          layouts=True)
def amax(cx, a):
    v = a.self
    kind = "max" if cx.target.__name__.split(".")[0] in ("amax", "max") else "min"
    out = reduce(cx, v, _dims(a, v.rank), kind, None, bool(getattr(a, "keepdim", False)),
                 layout=True)
    return cast_tensor(cx, out, cx.out.elem, layout=True)


@lowering(aten.any.dim, aten.any.dims, aten.any.default, aten.all.dim, aten.all.default,
          aten.all.dims)
def any_(cx, a):
    v = a.self
    if v.elem != "i1":
        v = cast_tensor(cx, v, "i1")
    kind = "or" if cx.target.__name__.startswith("any") else "and"
    out = reduce(cx, v, _dims(a, v.rank), kind, "i1", bool(getattr(a, "keepdim", False)))
    return cast_tensor(cx, out, cx.out.elem)


def _variance(cx, v, dims, correction, keepdim):
    """Two-pass variance (the mean, then the squared deviations) and the
    mean."""
    e = _acc(v.elem)
    n = _count(v, dims)
    m = reduce(cx, v, dims, "add", e, keepdim=True)
    m = elementwise(cx, [m], m.type, lambda r, x: S.binary(r, "div", x, r.const(n, e), e),
                    compute=e)
    ss = sum_sq_dev(cx, v, m, dims, e)
    denom = max(n - correction, 0)
    var = elementwise(cx, [ss], ss.type,
                      lambda r, x: S.binary(r, "div", x, r.const(denom, e), e), compute=e)
    if not keepdim:
        var, m = _squeeze_dims(cx, var, dims), _squeeze_dims(cx, m, dims)
    return var, m


def _squeeze_dims(cx, m, dims):
    """m without its (size-1) dimensions dims."""
    return reshape(cx.b, m, [s for k, s in enumerate(m.shape) if k not in dims])


def _correction(a):
    c = getattr(a, "correction", None)
    if c is None:
        unbiased = getattr(a, "unbiased", True)
        return 1 if unbiased is None or unbiased else 0
    return c


@lowering(aten.var.correction, aten.var.dim)
def var(cx, a):
    v = a.self
    out, _ = _variance(cx, v, _dims(a, v.rank), _correction(a), bool(a.keepdim))
    return cast_tensor(cx, out, cx.out.elem)


@lowering(aten.var_mean.correction)
def var_mean(cx, a):
    v = a.self
    var_, mean_ = _variance(cx, v, _dims(a, v.rank), _correction(a), bool(a.keepdim))
    return (cast_tensor(cx, var_, cx.outs[0].elem), cast_tensor(cx, mean_, cx.outs[1].elem))


@lowering(aten._softmax.default, aten.softmax.int)
def softmax(cx, a):
    v = a.self
    d = norm_dims(a.dim, v.rank)[0]
    e = _acc(v.elem)
    x = cast_tensor(cx, v, e)
    init = cx.b.empty(x.type)
    s = cx.b.op(f"{{r}} = linalg.softmax dimension({d}) ins({x.name} : {x.type})"
                f" outs({init.name} : {x.type}) -> {x.type}", x.type, "softmax")
    return cast_tensor(cx, s, cx.out.elem)


@lowering(aten._log_softmax.default, aten.log_softmax.int)
def log_softmax(cx, a):
    """x - max - log(sum(exp(x - max))) along the dimension."""
    v = a.self
    d = norm_dims(a.dim, v.rank)
    e = _acc(v.elem)
    m = reduce(cx, v, d, "max", e, keepdim=True)
    shifted = elementwise(cx, [v, m], v.type.with_elem(e),
                          lambda r, x, y: S.binary(r, "sub", x, y, e), compute=e)
    s = reduce(cx, shifted, d, "add", e, keepdim=True, pre=lambda r, x: S.unary(r, "exp", x, e))
    return elementwise(cx, [shifted, s], cx.out,
                       lambda r, x, y: S.binary(r, "sub", x, S.unary(r, "log", y, e), e),
                       compute=e)


@lowering(aten.logsumexp.default)
def logsumexp(cx, a):
    v = a.self
    d = norm_dims(a.dim, v.rank)
    e = _acc(v.elem)
    m = reduce(cx, v, d, "max", e, keepdim=True)
    shifted = elementwise(cx, [v, m], v.type.with_elem(e),
                          lambda r, x, y: S.binary(r, "sub", x, y, e), compute=e)
    s = reduce(cx, shifted, d, "add", e, keepdim=True, pre=lambda r, x: S.unary(r, "exp", x, e))
    out = elementwise(cx, [s, m], s.type,
                      lambda r, x, y: S.binary(r, "add", S.unary(r, "log", x, e), y, e), compute=e)
    if not a.keepdim:
        out = _squeeze_dims(cx, out, d)
    return cast_tensor(cx, out, cx.out.elem)


@lowering(aten.cumsum.default)
def cumsum(cx, a):
    v = cx.b.logical(a.self)
    out_elem = cx.out.elem
    if v.rank == 0:
        return cast_tensor(cx, v, out_elem)
    out = scan(cx, v, norm_dims(a.dim, v.rank)[0], "add", _acc(out_elem))
    return cast_tensor(cx, out, out_elem)
