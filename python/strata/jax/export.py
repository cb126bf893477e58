"""From a JAX function to linalg-on-tensors MLIR: `jax.make_jaxpr`, then a
walk over the closed jaxpr that hands each equation to the lowering of its
primitive (strata.jax.ops) and checks each result against the abstract value
JAX recorded for it, so that a lowering bug is an error here, never a wrong
result.

Call-like primitives (jit/pjit, closed_call, custom_jvp_call,
custom_vjp_call, remat) are inlined: their inner jaxpr is walked with the
caller's values; their derivative rules are never needed for inference.
Scalar equations whose inputs are all known (literals, folded scalars) are
evaluated here and their results used as literals (the arithmetic of
`jnp.remainder` on a Python divisor, the start of a `dynamic_slice`).

The function's arguments are the flattened array inputs, in order; the
closed jaxpr's constants (arrays the function closes over: parameters
captured in a lambda) follow as arguments the caller passes, or become
dense constants in the program with `constants=True`. Constants of inner
jaxprs are always dense constants.
"""

from dataclasses import dataclass, field

import numpy as np
from jax.extend.core import DropVar, Literal

from .. import compiler
from ..lowering.helpers import cast_tensor, copy
from ..mlir_builder import Builder, Laid, TensorType, Value, inverse
from .errors import ConversionError, UnsupportedPrimitiveError
from .ops import LOWERINGS, Known

DTYPES = {"float32": "f32", "float64": "f64", "bfloat16": "bf16", "float16": "f16",
          "int64": "i64", "int32": "i32", "int16": "i16", "int8": "i8", "bool": "i1"}

# Primitives whose equation calls an inner jaxpr, and the parameter that
# holds it: walked inline.
CALLS = {"pjit": "jaxpr", "jit": "jaxpr", "closed_call": "call_jaxpr",
         "core_call": "call_jaxpr", "named_call": "call_jaxpr", "remat": "jaxpr",
         "checkpoint": "jaxpr", "remat2": "jaxpr", "custom_jvp_call": "call_jaxpr",
         "custom_vjp_call": "call_jaxpr", "custom_vjp_call_jaxpr": "fun_jaxpr"}

CONTROL_FLOW = ("cond", "while", "scan", "fori_loop", "switch")

# Scalar equations evaluated at conversion when their inputs are known; any
# other primitive is emitted even on known inputs.
_FOLDABLE = {"add", "sub", "mul", "div", "rem", "max", "min", "neg", "sign", "abs", "eq",
             "ne", "lt", "le", "gt", "ge", "and", "or", "not", "select_n",
             "convert_element_type", "floor", "ceil", "round", "integer_pow", "clamp"}


@dataclass
class Program(compiler.Program):
    """A converted function: the MLIR text and how to call it.

    args: one (kind, key, perm) per function argument: kind `input` (key:
    the index among the flattened array inputs) or `const` (key: the
    index among the closed jaxpr's constants, `consts`); perm, when not
    None, the permutation the caller applies to that array first (an
    image passed channels-last). results: one (index, perm) per output of
    the jaxpr: the function result it is, and the permutation that turns
    that result into the output (None: none)."""

    consts: list = field(default_factory=list, repr=False)


def elem_of(dtype, what="a value"):
    """The MLIR element type of a NumPy/JAX dtype."""
    try:
        name = np.dtype(dtype).name
    except TypeError:  # JAX's extended dtypes (PRNG keys)
        name = str(dtype)
    if name not in DTYPES:
        raise UnsupportedPrimitiveError(what, reason=f"element type {name}")
    return DTYPES[name]


def tensor_type(aval, what="a value", empty=True):
    """The TensorType of a ShapedArray (static shapes only; zero-size
    dimensions where `empty`: intermediates such as the empty pieces that
    jnp.pad concatenates, which are skipped)."""
    shape = []
    for s in aval.shape:
        if not isinstance(s, (int, np.integer)):
            raise UnsupportedPrimitiveError(what, reason=f"dynamic dimension {s}")
        if s == 0 and not empty:
            raise UnsupportedPrimitiveError(what, reason="an array with a zero-size dimension")
        shape.append(int(s))
    return TensorType(tuple(shape), elem_of(aval.dtype, what))


def source_of(eqn):
    """The user's source line an equation was traced from, if recorded."""
    try:
        from jax._src import source_info_util
        return source_info_util.summarize(eqn.source_info)
    except Exception:  # private API: the message goes without the line
        return None


def dense_constant(b, array, t):
    """An array known at conversion as a tensor of type t: a fill when all
    its elements are equal, else an arith.constant with the raw bytes (in
    hex; booleans go through i8, whose hex form is one byte per element)."""
    array = np.ascontiguousarray(np.asarray(array).reshape(t.shape))
    flat = array.reshape(-1)
    if flat.size and (flat == flat[0]).all():
        return b.fill(flat[0].item(), t)
    if t.elem == "i1":
        i8 = dense_constant(b, array.astype(np.int8), t.with_elem("i8"))
        return cast_tensor(_Cx(b), i8, "i1")
    data = array.astype(array.dtype.newbyteorder("<")).tobytes().hex().upper()
    return b.op(f'{{r}} = arith.constant dense<"0x{data}"> : {t}', t, "cst")


class _Cx:
    """The minimal context of the helpers that only emit (copy, cast)."""

    def __init__(self, b):
        self.b = b


class Context:
    """What a lowering sees of its equation: the builder, the result types,
    the equation's input types, error helpers and the provenance of its
    operands (for peepholes)."""

    def __init__(self, converter, eqn):
        self.conv = converter
        self.b = converter.b
        self.eqn = eqn
        self.name = eqn.primitive.name
        self.outs = [tensor_type(v.aval, self.name) for v in eqn.outvars]
        self.out = self.outs[0] if self.outs else None

    def unsupported(self, reason=None):
        raise UnsupportedPrimitiveError(self.name, self.conv.fn_name, self.conv.source(self.eqn),
                                        reason)

    def in_type(self, i):
        return tensor_type(self.eqn.invars[i].aval, self.name)

    def tensor(self, x, i):
        """Operand i as a tensor: a known scalar becomes a filled one."""
        if isinstance(x, (Value, Laid)):
            return x
        return self.b.fill(x, self.in_type(i))

    def defined_by(self, v):
        """(primitive name, operands, params) of the equation that produced
        the tensor v, or None (an argument, a constant)."""
        if not isinstance(v, (Value, Laid)):
            return None
        key = v.phys.name if isinstance(v, Laid) else v.name
        return self.conv.defs.get(key)


class Converter:
    """Walks one closed jaxpr and builds its MLIR function."""

    def __init__(self, closed, func_name="forward", fn_name=None, constants=False,
                 arg_names=None):
        self.closed = closed
        self.func_name = func_name
        self.fn_name = fn_name
        self.constants = constants
        self.arg_names = arg_names
        self.b = Builder()
        # Result tensor name -> (primitive, operands, params): the
        # provenance the peepholes (softmax) follow.
        self.defs = {}
        # The call equations being inlined, innermost last.
        self.calls = []

    def source(self, eqn):
        """The user's source line of an equation; for one traced inside a
        library's own jit (jnp.sort's), that of the innermost call with
        one."""
        for e in [eqn] + self.calls[::-1]:
            where = source_of(e)
            if where:
                return where
        return None

    def run(self):
        jaxpr, b = self.closed.jaxpr, self.b
        env = {}
        for i, v in enumerate(jaxpr.invars):
            try:
                t = tensor_type(v.aval, f"argument {i}", empty=False)
            except UnsupportedPrimitiveError as e:
                raise UnsupportedPrimitiveError(e.primitive, self.fn_name,
                                                reason=e.reason) from None
            hint = self.arg_names[i] if self.arg_names else f"arg{i}"
            env[v] = b.argument(hint or f"arg{i}", t, ("input", i, None), keep=True)
        consts = []
        for i, (v, c) in enumerate(zip(jaxpr.constvars, self.closed.consts)):
            t = tensor_type(v.aval, "a constant")
            if self.constants:
                env[v] = dense_constant(b, np.asarray(c), t)
            else:
                env[v] = b.argument(f"const{i}", t, ("const", len(consts), None), keep=False)
                consts.append(c)
        self.walk(jaxpr, env)
        return self.finish(jaxpr, env, consts)

    # -- the walk ------------------------------------------------------
    def read(self, env, v):
        if isinstance(v, Literal):
            return Known(np.asarray(v.val).item(), elem_of(v.aval.dtype, "a literal"))
        return env[v]

    def walk(self, jaxpr, env):
        for eqn in jaxpr.eqns:
            ins = [self.read(env, v) for v in eqn.invars]
            outs = self.equation(eqn, ins)
            for var, val in zip(eqn.outvars, outs):
                if not isinstance(var, DropVar):
                    env[var] = val

    def equation(self, eqn, ins):
        try:
            return self._equation(eqn, ins)
        except UnsupportedPrimitiveError as e:
            if e.source is not None or e.function is not None:
                raise
            # Raised without its context (an element type JAX traced):
            # name the function and the line.
            raise UnsupportedPrimitiveError(eqn.primitive.name, self.fn_name, self.source(eqn),
                                            e.reason) from None

    def _equation(self, eqn, ins):
        name = eqn.primitive.name
        if name in CALLS:
            return self.inline(eqn, ins)
        if name in CONTROL_FLOW:
            raise UnsupportedPrimitiveError(name, self.fn_name, self.source(eqn),
                                            "control flow: Strata compiles straight-line programs")
        folded = self.fold(eqn, ins)
        if folded is not None:
            return folded
        types = [tensor_type(v.aval, name) for v in eqn.outvars]
        if types and all(t.numel == 0 for t in types):
            # An empty array has no elements to compute (concatenations
            # skip it).
            return [self.b.empty(t) for t in types]
        lower = LOWERINGS.get(name)
        if lower is None:
            raise UnsupportedPrimitiveError(name, self.fn_name, self.source(eqn))
        cx = Context(self, eqn)
        layouts = getattr(lower, "layouts", False)
        args = [x.value if isinstance(x, Known) else
                (x if layouts else self.b.logical(x)) for x in ins]
        try:
            result = lower(cx, *args, **eqn.params)
        except (UnsupportedPrimitiveError, ConversionError):
            raise
        except Exception as e:  # a lowering bug: say where it happened
            where = self.source(eqn)
            raise ConversionError(f"strata.jax: converting '{name}'"
                                  f"{f' at {where}' if where else ''} failed: "
                                  f"{type(e).__name__}: {e}") from e
        results = list(result) if isinstance(result, (list, tuple)) else [result]
        self.check(cx, results)
        for r in results:
            key = r.phys.name if isinstance(r, Laid) else r.name
            self.defs.setdefault(key, (name, ins, eqn.params))
        return results

    def inline(self, eqn, ins):
        inner = eqn.params[CALLS[eqn.primitive.name]]
        jaxpr = getattr(inner, "jaxpr", inner)
        consts = getattr(inner, "consts", [])
        env = {}
        for v, c in zip(jaxpr.constvars, consts):
            env[v] = dense_constant(self.b, np.asarray(c), tensor_type(v.aval, "a constant"))
        # custom_vjp_call passes its constants first; they are its inputs.
        for v, x in zip(jaxpr.invars, ins[len(ins) - len(jaxpr.invars):]):
            env[v] = x
        self.calls.append(eqn)
        try:
            self.walk(jaxpr, env)
        finally:
            self.calls.pop()
        return [self.read(env, v) for v in jaxpr.outvars]

    def fold(self, eqn, ins):
        """The results of a scalar equation on known inputs, as Known
        values; None when it is emitted instead."""
        if (eqn.primitive.name not in _FOLDABLE or not ins
                or not all(isinstance(x, Known) for x in ins)
                or any(v.aval.shape != () for v in eqn.outvars)):
            return None
        try:
            vals = [np.asarray(x.value, dtype=v.aval.dtype) for x, v in zip(ins, eqn.invars)]
            out = eqn.primitive.bind(*vals, **eqn.params)
        except Exception:  # noqa: BLE001  (emitted instead)
            return None
        outs = out if eqn.primitive.multiple_results else [out]
        return [Known(np.asarray(o).item(), elem_of(v.aval.dtype))
                for o, v in zip(outs, eqn.outvars)]

    def check(self, cx, results):
        """Each result must have the type JAX recorded."""
        if len(results) != len(cx.outs):
            raise ConversionError(f"the lowering of {cx.name} gave {len(results)} results, "
                                  f"JAX has {len(cx.outs)}")
        for got, want in zip(results, cx.outs):
            if not isinstance(got, (Value, Laid)) or got.type != want:
                have = got.type if isinstance(got, (Value, Laid)) else type(got).__name__
                raise ConversionError(f"the lowering of {cx.name} produced {have}, "
                                      f"JAX expects {want}")

    # -- results -------------------------------------------------------
    def finish(self, jaxpr, env, consts):
        b = self.b
        results, values, seen = [], [], set()
        arg_names = {a.name for a in b.args}
        for k, var in enumerate(jaxpr.outvars):
            v = self.read(env, var)
            perm = None
            tensor_type(var.aval, f"result {k}", empty=False)
            if isinstance(v, Known):
                v = b.fill(v.value, tensor_type(var.aval, f"result {k}"))
            elif isinstance(v, Laid):
                v, perm = v.phys, tuple(inverse(v.perm))
            elif v.name in b.transpose_source:
                v, perm = b.transpose_source[v.name]
                perm = tuple(perm)
            # A permuted result is returned as computed and permuted by the
            # caller; a result is a fresh buffer: never an argument, never
            # the same buffer twice.
            if v.name in arg_names or v.name in seen:
                v = copy(_Cx(b), v)
            seen.add(v.name)
            results.append((len(values), perm))
            values.append(v)
        text, args = b.function(self.func_name, values)
        sources = [b.arg_info[a.name][0] for a in args]
        return Program(text, self.func_name, sources, [a.type for a in args], results,
                       [v.type for v in values], consts)


def convert(closed, func_name="forward", fn_name=None, constants=False, arg_names=None):
    """The Program of a ClosedJaxpr."""
    return Converter(closed, func_name, fn_name, constants, arg_names).run()


def function_name(fn):
    """A readable name of a traced callable (a bound method: Class.method)."""
    fn = getattr(fn, "func", fn)  # functools.partial
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    return name or type(fn).__name__


def export(fn, *args, constants=False, func_name="forward", **kwargs):
    """The linalg-on-tensors MLIR that Strata compiles for fn(*args,
    **kwargs), as text. Arrays among the arguments (any pytree of them)
    become function arguments; every other leaf is a static value. fn may
    be a Flax nnx.Module (its state becomes the first argument)."""
    from .jit import StrataFunction, trace
    fn, args, kwargs, _ = StrataFunction(fn)._bind(args, kwargs)
    return trace(fn, args, kwargs, constants=constants, func_name=func_name)[0].mlir
