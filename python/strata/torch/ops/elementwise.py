"""Pointwise operators: arithmetic, comparisons, logic, math functions and
activations. Each becomes one linalg.generic over the broadcast result
shape; bf16/f16 values are computed in f32 and rounded once, as PyTorch's
CPU kernels do."""

import math

import torch

from ...mlir_builder import Laid, Value
from . import NotLowered, lowering
from ...lowering import scalar as S
from ...lowering.helpers import cast_tensor, elementwise, predicate

aten = torch.ops.aten


def lowering_ew(*overloads):
    """Pointwise operators keep the layout of their operands."""
    return lowering(*overloads, layouts=True)


def _ew(cx, inputs, fn, compute=None):
    return elementwise(cx, inputs, cx.out, fn, compute, layout=True)


def _alpha(r, x, alpha, elem):
    if alpha is None or alpha == 1:
        return x
    return S.binary(r, "mul", x, r.const(alpha, elem), elem)


def _elem(cx):
    """The computation's element type: the result's (f32 for bf16/f16)."""
    e = cx.out.elem
    return "f32" if e in ("bf16", "f16") else e


# -- arithmetic ----------------------------------------------------------

@lowering_ew(aten.add.Tensor, aten.add.Scalar)
def add(cx, a):
    e = _elem(cx)
    return _ew(cx, [a.self, a.other],
               lambda r, x, y: S.binary(r, "add", x, _alpha(r, y, a.alpha, e), e))


@lowering_ew(aten.sub.Tensor, aten.sub.Scalar)
def sub(cx, a):
    e = _elem(cx)
    return _ew(cx, [a.self, a.other],
               lambda r, x, y: S.binary(r, "sub", x, _alpha(r, y, a.alpha, e), e))


@lowering_ew(aten.rsub.Tensor, aten.rsub.Scalar)
def rsub(cx, a):
    e = _elem(cx)
    return _ew(cx, [a.self, a.other],
               lambda r, x, y: S.binary(r, "sub", y, _alpha(r, x, a.alpha, e), e))


@lowering_ew(aten.mul.Tensor, aten.mul.Scalar)
def mul(cx, a):
    e = _elem(cx)
    if e == "i1":
        return _ew(cx, [a.self, a.other], lambda r, x, y: S.binary(r, "and", x, y, e))
    return _ew(cx, [a.self, a.other], lambda r, x, y: S.binary(r, "mul", x, y, e))


@lowering_ew(aten.div.Tensor, aten.div.Scalar, aten.div.Tensor_mode, aten.div.Scalar_mode)
def div(cx, a):
    e = _elem(cx)
    mode = getattr(a, "rounding_mode", None)

    def fn(r, x, y):
        if e.startswith("i"):
            if mode == "floor":
                return r.op("arith.floordivsi", [x, y], e)
            return S.binary(r, "div", x, y, e)
        q = S.binary(r, "div", x, y, e)
        if mode == "trunc":
            return S.unary(r, "trunc", q, e)
        if mode == "floor":
            return S.unary(r, "floor", q, e)
        return q

    return _ew(cx, [a.self, a.other], fn)


@lowering_ew(aten.maximum.default, aten.minimum.default, aten.fmax.default,
             aten.fmin.default)
def maximum(cx, a):
    e = _elem(cx)
    name = cx.target.__name__.split(".")[0]
    kind = "max" if name in ("maximum", "fmax") else "min"
    if name in ("fmax", "fmin") and e.startswith("f"):
        return _ew(cx, [a.self, a.other],
                   lambda r, x, y: r.op(f"arith.{kind}numf", [x, y], e))
    if e == "i1":
        kind = "or" if kind == "max" else "and"
    return _ew(cx, [a.self, a.other], lambda r, x, y: S.binary(r, kind, x, y, e))


@lowering_ew(aten.fmod.Tensor, aten.fmod.Scalar, aten.remainder.Tensor,
             aten.remainder.Scalar, aten.remainder.Scalar_Tensor)
def fmod(cx, a):
    """fmod: the remainder of truncated division (sign of the dividend, C's
    fmod); remainder: of floored division (sign of the divisor, Python's
    %), the fmod plus the divisor when the two signs differ."""
    e = _elem(cx)
    floored = cx.target.__name__.startswith("remainder")

    def fn(r, x, y):
        rem = S.binary(r, "rem", x, y, e)
        if not floored:
            return rem
        zero = r.const(0, e)
        nonzero = S.compare(r, "ne", rem, zero, e)
        differ = S.binary(r, "xor", S.compare(r, "lt", rem, zero, e),
                          S.compare(r, "lt", y, zero, e), "i1")
        fix = S.binary(r, "and", nonzero, differ, "i1")
        return S.select(r, fix, S.binary(r, "add", rem, y, e), rem, e)

    return _ew(cx, [a.self, a.other], fn)


@lowering_ew(aten.pow.Tensor_Scalar, aten.pow.Tensor_Tensor, aten.pow.Scalar)
def pow_(cx, a):
    e = _elem(cx)
    base = a.self
    exp = a.exponent
    if isinstance(exp, (int, float)) and not isinstance(exp, bool):
        if float(exp).is_integer() and abs(exp) <= 8:
            if e.startswith("i") and exp < 0:
                cx.unsupported("negative integer power of an integer tensor")
            return _ew(cx, [base], lambda r, x: S.powi(r, x, int(exp), e))
        if exp == 0.5:
            return _ew(cx, [base], lambda r, x: S.unary(r, "sqrt", x, e))
        if exp == -0.5:
            return _ew(cx, [base], lambda r, x: S.unary(r, "rsqrt", x, e))
    if e.startswith("i"):
        cx.unsupported("integer power with a tensor or non-integer exponent")
    return _ew(cx, [base, exp], lambda r, x, y: S.binary(r, "pow", x, y, e))


# -- comparisons and logic ---------------------------------------------------

def _compare(kind):
    def lower(cx, a):
        e = cx.result_type(a.self, a.other)
        return _ew(cx, [a.self, a.other],
                   predicate(lambda r, x, y: S.compare(r, kind, x, y, e)), compute=e)
    return lower


for _k in ("eq", "ne", "lt", "le", "gt", "ge"):
    lowering_ew(getattr(aten, _k).Tensor, getattr(aten, _k).Scalar)(_compare(_k))


def _logical(kind):
    def lower(cx, a):
        ins = [a.self] if kind == "not" else [a.self, a.other]

        def fn(r, *xs):
            if kind == "not":
                return S.binary(r, "xor", xs[0], r.const(True, "i1"), "i1")
            return S.binary(r, kind, xs[0], xs[1], "i1")
        return _ew(cx, ins, predicate(fn), compute="i1")
    return lower


lowering_ew(aten.logical_not.default)(_logical("not"))
lowering_ew(aten.logical_and.default)(_logical("and"))
lowering_ew(aten.logical_or.default)(_logical("or"))
lowering_ew(aten.logical_xor.default)(_logical("xor"))


@lowering_ew(aten.bitwise_not.default, aten.bitwise_and.Tensor, aten.bitwise_or.Tensor,
             aten.bitwise_xor.Tensor, aten.bitwise_and.Scalar, aten.bitwise_or.Scalar,
             aten.bitwise_xor.Scalar)
def bitwise(cx, a):
    e = cx.out.elem
    if e.startswith("f") or e == "bf16":
        cx.unsupported("bitwise operation on a floating-point tensor")
    kind = cx.target.__name__.split(".")[0].split("_")[1]
    if kind == "not":
        ones = True if e == "i1" else -1
        return _ew(cx, [a.self], lambda r, x: S.binary(r, "xor", x, r.const(ones, e), e))
    return _ew(cx, [a.self, a.other], lambda r, x, y: S.binary(r, kind, x, y, e))


def _select(cx, cond, x, y):
    """cond ? x : y with the condition as a bool and the branches cast to
    the result type."""
    e = _elem(cx)
    if isinstance(cond, (Value, Laid)) and cond.elem != "i1":
        cond = cast_tensor(cx, cond, "i1", layout=True)
    return elementwise(cx, [cond, x, y], cx.out,
                       lambda r, c, a, b: S.select(r, c, a, b, e), compute=e, raw=(0,),
                       layout=True)


@lowering_ew(aten.where.self, aten.where.ScalarSelf, aten.where.ScalarOther,
             aten.where.Scalar)
def where(cx, a):
    return _select(cx, a.condition, a.self, a.other)


@lowering_ew(aten.masked_fill.Scalar, aten.masked_fill.Tensor)
def masked_fill(cx, a):
    return _select(cx, a.mask, a.value, a.self)


# -- math functions -------------------------------------------------------

_UNARY = {
    aten.exp.default: "exp", aten.exp2.default: "exp2", aten.expm1.default: "expm1",
    aten.log.default: "log", aten.log2.default: "log2", aten.log10.default: "log10",
    aten.log1p.default: "log1p", aten.sqrt.default: "sqrt", aten.rsqrt.default: "rsqrt",
    aten.tanh.default: "tanh", aten.erf.default: "erf", aten.sin.default: "sin",
    aten.cos.default: "cos", aten.tan.default: "tan", aten.atan.default: "atan",
    aten.asin.default: "asin", aten.acos.default: "acos", aten.sinh.default: "sinh",
    aten.cosh.default: "cosh", aten.ceil.default: "ceil", aten.floor.default: "floor",
    aten.round.default: "roundeven", aten.trunc.default: "trunc",
    aten.abs.default: "abs", aten.neg.default: "neg",
}


def _unary(kind):
    def lower(cx, a):
        e = _elem(cx)
        if kind in ("ceil", "floor", "roundeven", "trunc") and e.startswith("i"):
            return _ew(cx, [a.self], lambda r, x: x)
        return _ew(cx, [a.self], lambda r, x: S.unary(r, kind, x, e))
    return lower


for _op, _kind in _UNARY.items():
    lowering_ew(_op)(_unary(_kind))


@lowering_ew(aten.reciprocal.default)
def reciprocal(cx, a):
    e = _elem(cx)
    return _ew(cx, [a.self], lambda r, x: S.binary(r, "div", r.const(1.0, e), x, e))


@lowering_ew(aten.sign.default)
def sign(cx, a):
    e = _elem(cx)
    return _ew(cx, [a.self], lambda r, x: S.sign(r, x, e))


@lowering_ew(aten.isnan.default)
def isnan(cx, a):
    e = cx.result_type(a.self)
    return _ew(cx, [a.self], predicate(lambda r, x: r.op("arith.cmpf", ["uno", x, x], e)),
               compute=e)


@lowering_ew(aten.isinf.default)
def isinf(cx, a):
    e = cx.result_type(a.self)

    def fn(r, x):
        ax = S.unary(r, "abs", x, e)
        return S.compare(r, "eq", ax, r.const(float("inf"), e), e)
    return _ew(cx, [a.self], predicate(fn), compute=e)


# -- activations ------------------------------------------------------------

@lowering_ew(aten.relu.default)
def relu(cx, a):
    e = _elem(cx)
    return _ew(cx, [a.self], lambda r, x: S.binary(r, "max", x, r.const(0, e), e))


@lowering_ew(aten.sigmoid.default)
def sigmoid(cx, a):
    e = _elem(cx)
    return _ew(cx, [a.self], lambda r, x: S.sigmoid(r, x, e))


@lowering_ew(aten.silu.default)
def silu(cx, a):
    e = _elem(cx)
    return _ew(cx, [a.self], lambda r, x: S.binary(r, "mul", x, S.sigmoid(r, x, e), e))


@lowering_ew(aten.gelu.default)
def gelu(cx, a):
    """GELU, erf form 0.5·x·(1 + erf(x/√2)) or tanh form
    0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))."""
    e = _elem(cx)

    def fn(r, x):
        half, one = r.const(0.5, e), r.const(1.0, e)
        if a.approximate == "tanh":
            x3 = S.binary(r, "mul", S.binary(r, "mul", x, x, e), x, e)
            inner = S.binary(r, "add", x, S.binary(r, "mul", x3, r.const(0.044715, e), e), e)
            k = r.const(math.sqrt(2 / math.pi), e)
            t = S.unary(r, "tanh", S.binary(r, "mul", inner, k, e), e)
        else:
            t = S.unary(r, "erf", S.binary(r, "mul", x, r.const(math.sqrt(0.5), e), e), e)
        return S.binary(r, "mul", S.binary(r, "mul", x, half, e), S.binary(r, "add", one, t, e), e)
    return _ew(cx, [a.self], fn)


def _clamp(r, x, lo, hi, e):
    if lo is not None:
        x = S.binary(r, "max", x, lo, e)
    if hi is not None:
        x = S.binary(r, "min", x, hi, e)
    return x


@lowering_ew(aten.clamp.default, aten.clamp.Tensor, aten.clamp_min.default,
             aten.clamp_max.default, aten.clamp_min.Tensor, aten.clamp_max.Tensor)
def clamp(cx, a):
    e = _elem(cx)
    name = cx.target.__name__.split(".")[0]
    lo = getattr(a, "min", None) if name != "clamp_max" else None
    hi = getattr(a, "max", None) if name != "clamp_min" else None
    ins = [a.self] + [v for v in (lo, hi) if v is not None]

    def fn(r, x, *bounds):
        bounds = list(bounds)
        l = bounds.pop(0) if lo is not None else None
        h = bounds.pop(0) if hi is not None else None
        return _clamp(r, x, l, h, e)
    return _ew(cx, ins, fn)


@lowering_ew(aten.hardtanh.default)
def hardtanh(cx, a):
    e = _elem(cx)
    return _ew(cx, [a.self, a.min_val, a.max_val], lambda r, x, l, h: _clamp(r, x, l, h, e))


@lowering_ew(aten.leaky_relu.default)
def leaky_relu(cx, a):
    e = _elem(cx)

    def fn(r, x):
        pos = S.compare(r, "gt", x, r.const(0.0, e), e)
        return S.select(r, pos, x, S.binary(r, "mul", x, r.const(a.negative_slope, e), e), e)
    return _ew(cx, [a.self], fn)


@lowering_ew(aten.hardsigmoid.default, aten.hardswish.default)
def hardsigmoid(cx, a):
    e = _elem(cx)
    swish = cx.target.__name__.startswith("hardswish")

    def fn(r, x):
        t = S.binary(r, "add", x, r.const(3.0, e), e)
        t = _clamp(r, t, r.const(0.0, e), r.const(6.0, e), e)
        t = S.binary(r, "div", t, r.const(6.0, e), e)
        return S.binary(r, "mul", x, t, e) if swish else t
    return _ew(cx, [a.self], fn)


@lowering_ew(aten.elu.default)
def elu(cx, a):
    e = _elem(cx)

    def fn(r, x):
        pos = S.compare(r, "gt", x, r.const(0.0, e), e)
        xs = S.binary(r, "mul", x, r.const(a.input_scale, e), e)
        neg = S.binary(r, "mul", S.unary(r, "expm1", xs, e), r.const(a.alpha, e), e)
        return S.binary(r, "mul", S.select(r, pos, x, neg, e), r.const(a.scale, e), e)
    return _ew(cx, [a.self], fn)


@lowering_ew(aten.native_dropout.default)
def native_dropout(cx, a):
    """Dropout is the identity in inference; in training it is random."""
    if a.train is None or a.train:
        cx.unsupported("dropout in training mode (call model.eval() before exporting)")
    return (a.input, NotLowered("the mask of a dropout"))
