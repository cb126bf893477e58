"""Elementwise primitives: arithmetic, comparisons, logic, selects, casts
and math functions. Each becomes one linalg.generic over the result shape
(operands of rank 0 or with size-1 dimensions are read through broadcast
maps); bf16/f16 values are computed in f32 and rounded once per primitive,
as XLA's CPU backend does. Values in a permuted layout (the channels-last
result of an NCHW convolution) keep it."""

from ...lowering import scalar as S
from ...lowering.helpers import cast_tensor, elementwise, predicate
from ...mlir_builder import Laid, Value
from . import lowering
from .reduction import softmax_of


def _compute(elem):
    """The element type a primitive on `elem` computes in."""
    return "f32" if elem in ("bf16", "f16") else elem


def _ew(cx, inputs, fn, compute=None, raw=()):
    return elementwise(cx, inputs, cx.out, fn, compute, raw=raw, layout=True)


def _operand_elem(cx):
    """The computation type of a primitive whose operands share a type."""
    return _compute(cx.in_type(0).elem)


def lowering_ew(*names):
    """Elementwise primitives keep the layout of their operands."""
    return lowering(*names, layouts=True)


# -- arithmetic ----------------------------------------------------------

# On booleans XLA's add and mul are or and and, max and min likewise.
_BOOL_KIND = {"add": "or", "mul": "and", "max": "or", "min": "and", "sub": "xor"}


def _binary(kind):
    def lower(cx, x, y, **_):
        e = _compute(cx.out.elem)
        k = _BOOL_KIND.get(kind, kind) if e == "i1" else kind
        return _ew(cx, [x, y], lambda r, a, b: S.binary(r, k, a, b, e))
    return lower


for _k in ("add", "sub", "mul", "max", "min", "rem"):
    lowering_ew(_k)(_binary(_k))
lowering_ew("add_any")(_binary("add"))


@lowering_ew("div")
def div(cx, x, y, **_):
    # jax.nn.softmax's tail, exp(x - max) / sum: one linalg.softmax.
    sm = softmax_of(cx, x, y)
    if sm is not None:
        return sm
    e = _compute(cx.out.elem)
    return _ew(cx, [x, y], lambda r, a, b: S.binary(r, "div", a, b, e))


@lowering_ew("pow")
def pow_(cx, x, y, **_):
    """x ** y; an integer exponent keeps the sign of a negative base for
    odd powers (powf alone would give NaN)."""
    e = _compute(cx.out.elem)
    ye = cx.in_type(1).elem
    if e.startswith("i"):
        cx.unsupported("integer pow")
    if not ye.startswith("i"):
        return _ew(cx, [x, y], lambda r, a, b: S.binary(r, "pow", a, b, e))
    if not isinstance(y, (Value, Laid)):  # a known integer exponent
        return integer_pow(cx, x, int(y))

    def fn(r, a, n):
        p = S.binary(r, "pow", S.unary(r, "abs", a, e), S.cast(r, n, ye, e), e)
        odd = S.cast(r, S.binary(r, "and", n, r.const(1, ye), ye), ye, "i1")
        flip = S.binary(r, "and", odd, S.compare(r, "lt", a, r.const(0.0, e), e), "i1")
        return S.select(r, flip, S.unary(r, "neg", p, e), p, e)
    return _ew(cx, [x, y], fn, raw=(1,))


@lowering_ew("integer_pow")
def integer_pow(cx, x, y, **_):
    e = _compute(cx.out.elem)
    if e.startswith("i") and y < 0:
        cx.unsupported("negative integer power of an integer array")
    if abs(y) > 16:
        return _ew(cx, [x], lambda r, a: S.binary(r, "pow", a, r.const(float(y), e), e))
    return _ew(cx, [x], lambda r, a: S.powi(r, a, y, e))


@lowering_ew("square")
def square(cx, x, **_):
    e = _compute(cx.out.elem)
    return _ew(cx, [x], lambda r, a: S.binary(r, "mul", a, a, e))


@lowering_ew("atan2")
def atan2(cx, x, y, **_):
    e = _compute(cx.out.elem)
    return _ew(cx, [x, y], lambda r, a, b: r.op("math.atan2", [a, b], e))


@lowering_ew("clamp")
def clamp(cx, lo, x, hi, **_):
    """clamp(min, x, max) = min(max(x, min), max)."""
    e = _compute(cx.out.elem)
    return _ew(cx, [lo, x, hi], lambda r, lo_, a, hi_: S.binary(
        r, "min", S.binary(r, "max", a, lo_, e), hi_, e))


# -- comparisons, logic, selects -------------------------------------------

def _compare(kind):
    def lower(cx, x, y, **_):
        e = _operand_elem(cx)
        return _ew(cx, [x, y], predicate(lambda r, a, b: S.compare(r, kind, a, b, e)),
                   compute=e)
    return lower


for _k in ("eq", "ne", "lt", "le", "gt", "ge"):
    lowering_ew(_k)(_compare(_k))


def _logical(kind):
    def lower(cx, *xs, **_):
        e = cx.out.elem
        if e.startswith("f") or e == "bf16":
            cx.unsupported(f"'{kind}' of floating-point values")

        def fn(r, *vs):
            if kind == "not":
                return S.binary(r, "xor", vs[0], r.const(True if e == "i1" else -1, e), e)
            return S.binary(r, kind, vs[0], vs[1], e)
        return _ew(cx, list(xs), fn)
    return lower


for _k in ("and", "or", "xor", "not"):
    lowering_ew(_k)(_logical(_k))


@lowering_ew("select_n")
def select_n(cx, which, *cases, **_):
    """cases[which]: a boolean `which` picks cases[1] where true, an
    integer one indexes the cases (a chain of selects)."""
    if not isinstance(which, (Value, Laid)):
        return cx.tensor(cases[int(which)], 1 + int(which))
    e = _compute(cx.out.elem)
    we = cx.in_type(0).elem

    def fn(r, w, *vs):
        if we == "i1":
            return S.select(r, w, vs[1], vs[0], e)
        out = vs[0]
        for k in range(1, len(vs)):
            hit = S.compare(r, "eq", w, r.const(k, we), we)
            out = S.select(r, hit, vs[k], out, e)
        return out
    return _ew(cx, [which, *cases], fn, raw=(0,))


@lowering_ew("convert_element_type")
def convert_element_type(cx, x, **_):
    return cast_tensor(cx, cx.tensor(x, 0), cx.out.elem, layout=True)


@lowering_ew("copy", "copy_p", "stop_gradient", "optimization_barrier")
def identity(cx, *xs, **_):
    xs = [cx.tensor(x, k) for k, x in enumerate(xs)]
    return xs if cx.name == "optimization_barrier" else xs[0]


@lowering_ew("reduce_precision")
def reduce_precision(cx, x, exponent_bits, mantissa_bits, **_):
    """Rounding to bf16 (8, 7) or f16 (5, 10) bits: a round trip through
    that type; the input's own precision: the identity."""
    own = {"bf16": (8, 7), "f16": (5, 10), "f32": (8, 23), "f64": (11, 52)}
    via = {(8, 7): "bf16", (5, 10): "f16"}.get((exponent_bits, mantissa_bits))
    if own.get(cx.out.elem) == (exponent_bits, mantissa_bits):
        return x
    if via is None:
        cx.unsupported(f"rounding to {exponent_bits} exponent and {mantissa_bits} "
                       "mantissa bits")
    e = cx.out.elem
    return _ew(cx, [x], lambda r, a: S.cast(r, S.cast(r, a, e, via), via, e), compute=e)


# -- math functions -------------------------------------------------------

_UNARY = {"exp": "exp", "exp2": "exp2", "log": "log", "log1p": "log1p", "expm1": "expm1",
          "tanh": "tanh", "erf": "erf", "sqrt": "sqrt", "rsqrt": "rsqrt", "cbrt": "cbrt",
          "sin": "sin", "cos": "cos", "tan": "tan", "asin": "asin", "acos": "acos",
          "atan": "atan", "sinh": "sinh", "cosh": "cosh", "asinh": "asinh",
          "acosh": "acosh", "atanh": "atanh", "floor": "floor", "ceil": "ceil",
          "abs": "abs", "neg": "neg"}


def _unary(kind):
    def lower(cx, x, **_):
        e = _compute(cx.out.elem)
        if kind in ("floor", "ceil") and e.startswith("i"):
            return x
        return _ew(cx, [x], lambda r, a: S.unary(r, kind, a, e))
    return lower


for _name, _kind in _UNARY.items():
    lowering_ew(_name)(_unary(_kind))


@lowering_ew("erfc")
def erfc(cx, x, **_):
    # 1 - erf(x): erf has a vectorized approximation on the host, math.erfc
    # is a scalar libm call (five times slower in the exact GELU).
    e = _compute(cx.out.elem)
    return _ew(cx, [x], lambda r, a: S.binary(r, "sub", r.const(1.0, e),
                                              S.unary(r, "erf", a, e), e))


@lowering_ew("logistic")
def logistic(cx, x, **_):
    e = _compute(cx.out.elem)
    return _ew(cx, [x], lambda r, a: S.sigmoid(r, a, e))


@lowering_ew("sign")
def sign(cx, x, **_):
    e = _compute(cx.out.elem)
    return _ew(cx, [x], lambda r, a: S.sign(r, a, e))


@lowering_ew("round")
def round_(cx, x, rounding_method=0, **_):
    """Rounding method 0: halves away from zero (math.round); 1: to even."""
    e = _compute(cx.out.elem)
    kind = "roundeven" if int(rounding_method) == 1 else "round"
    return _ew(cx, [x], lambda r, a: S.unary(r, kind, a, e))


@lowering_ew("is_finite")
def is_finite(cx, x, **_):
    e = _operand_elem(cx)

    def fn(r, a):
        return S.compare(r, "lt", S.unary(r, "abs", a, e), r.const(float("inf"), e), e)
    return _ew(cx, [x], predicate(fn), compute=e)
