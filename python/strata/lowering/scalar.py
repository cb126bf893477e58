"""Scalar arith/math operations inside a linalg.generic region, chosen by
element type (float or signless integer; i1 is a bool)."""

from ..mlir_builder import bit_width, is_float


def binary(r, kind, a, b, elem):
    """kind in add, sub, mul, div, max, min, pow, and, or, xor."""
    if is_float(elem):
        name = {"add": "arith.addf", "sub": "arith.subf", "mul": "arith.mulf",
                "div": "arith.divf", "max": "arith.maximumf", "min": "arith.minimumf",
                "pow": "math.powf", "rem": "arith.remf"}[kind]
    else:
        name = {"add": "arith.addi", "sub": "arith.subi", "mul": "arith.muli",
                "div": "arith.divsi", "max": "arith.maxsi", "min": "arith.minsi",
                "and": "arith.andi", "or": "arith.ori", "xor": "arith.xori",
                "rem": "arith.remsi"}[kind]
    return r.op(name, [a, b], elem)


def unary(r, kind, a, elem):
    """Float math functions (exp, log, tanh, erf, sqrt, rsqrt, ...) and neg/abs."""
    if kind == "neg":
        if is_float(elem):
            return r.op("arith.negf", [a], elem)
        return r.op("arith.subi", [r.const(0, elem), a], elem)
    if kind == "abs":
        return r.op("math.absf" if is_float(elem) else "math.absi", [a], elem)
    return r.op(f"math.{kind}", [a], elem)


_FLOAT_PRED = {"eq": "oeq", "ne": "une", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge"}
_INT_PRED = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}
_BOOL_PRED = {"eq": "eq", "ne": "ne", "lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge"}


def compare(r, kind, a, b, elem):
    """An i1 comparison with PyTorch's semantics (NaN compares unequal)."""
    if is_float(elem):
        return r.op("arith.cmpf", [_FLOAT_PRED[kind], a, b], elem)
    pred = (_BOOL_PRED if elem == "i1" else _INT_PRED)[kind]
    return r.op("arith.cmpi", [pred, a, b], elem)


def select(r, cond, a, b, elem):
    return r.op("arith.select", [cond, a, b], elem, operand_types=f"{elem}")


def cast(r, a, src, dst):
    """Converts a scalar between element types as torch's .to() does:
    float<->float by extension/truncation, int->float signed (bool
    unsigned), float->int toward zero, anything->bool as != 0."""
    if src == dst:
        return a
    if dst == "i1":
        return compare(r, "ne", a, r.const(0, src), src)
    if is_float(src) and is_float(dst):
        op = "arith.extf" if bit_width(dst) > bit_width(src) else "arith.truncf"
        return r.op(op, [a], None, operand_types=f"{src} to {dst}")
    if is_float(dst):
        op = "arith.uitofp" if src == "i1" else "arith.sitofp"
        return r.op(op, [a], None, operand_types=f"{src} to {dst}")
    if is_float(src):
        return r.op("arith.fptosi", [a], None, operand_types=f"{src} to {dst}")
    if bit_width(dst) > bit_width(src):
        op = "arith.extui" if src == "i1" else "arith.extsi"
        return r.op(op, [a], None, operand_types=f"{src} to {dst}")
    return r.op("arith.trunci", [a], None, operand_types=f"{src} to {dst}")


def to_index(r, a, elem):
    """An integer scalar as an `index` (for tensor.extract)."""
    return r.op("arith.index_cast", [a], None, operand_types=f"{elem} to index")


def powi(r, x, n, e):
    """x**n for a small integer n by repeated multiplication (exact for
    negative bases, where powf is NaN)."""
    if n == 0:
        return r.const(1.0, e)
    acc = x
    for _ in range(abs(n) - 1):
        acc = binary(r, "mul", acc, x, e)
    return binary(r, "div", r.const(1.0, e), acc, e) if n < 0 else acc


def sigmoid(r, x, e):
    """1 / (1 + exp(-x))."""
    one = r.const(1.0, e)
    ex = unary(r, "exp", unary(r, "neg", x, e), e)
    return binary(r, "div", one, binary(r, "add", one, ex, e), e)


def sign(r, x, e):
    """-1, 0 or 1 by the sign of x (0 for NaN)."""
    zero = r.const(0, e)
    pos = cast(r, compare(r, "gt", x, zero, e), "i1", e)
    neg = cast(r, compare(r, "lt", x, zero, e), "i1", e)
    return binary(r, "sub", pos, neg, e)
