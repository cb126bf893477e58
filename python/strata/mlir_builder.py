"""Emits MLIR text for one function: SSA naming, tensor types, scalar
constants, linalg.generic with its region, the named ops the lowerings use,
and dead-code elimination before printing.

Every emitted operation is a record of the SSA names it defines and uses, so
values that no result depends on (the statistics of a layer norm, a
transposed weight that a matmul reads through its indexing maps instead) are
dropped from the text. All names are unique within the function, nested
regions included, which is what makes the name-based use analysis exact.
"""

import math
import re
import struct
from dataclasses import dataclass

_NAME = re.compile(r"%[A-Za-z_][\w$.]*|%\d+")


@dataclass(frozen=True)
class TensorType:
    """A ranked tensor type with a static shape; elem is an MLIR scalar type
    name (f32, bf16, i64, i1, ...)."""

    shape: tuple
    elem: str

    @property
    def rank(self):
        return len(self.shape)

    @property
    def numel(self):
        return math.prod(self.shape)

    def with_shape(self, shape):
        return TensorType(tuple(shape), self.elem)

    def with_elem(self, elem):
        return TensorType(self.shape, elem)

    def __str__(self):
        dims = "".join(f"{d}x" for d in self.shape)
        return f"tensor<{dims}{self.elem}>"


class _Typed:
    """shape, elem and rank of a value with a `type` (a TensorType)."""

    @property
    def shape(self):
        return self.type.shape

    @property
    def elem(self):
        return self.type.elem

    @property
    def rank(self):
        return self.type.rank


@dataclass(frozen=True)
class Value(_Typed):
    """An SSA value of the function: its name (with %) and tensor type."""

    name: str
    type: TensorType


@dataclass(frozen=True)
class Laid(_Typed):
    """A tensor stored in a permuted layout: `phys` holds it with physical
    dimension i being logical dimension perm[i] (channels-last results of
    convolutions: perm (0, 2, 3, 1)). shape/type/rank are the logical ones;
    helpers that do not handle layouts take `logical(b, x)` first."""

    phys: Value
    perm: tuple

    @property
    def type(self):
        shape = [0] * len(self.perm)
        for i, p in enumerate(self.perm):
            shape[p] = self.phys.shape[i]
        return self.phys.type.with_shape(shape)


def inverse(perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return inv


def is_float(elem):
    return elem in ("f16", "bf16", "f32", "f64")


def is_int(elem):
    return elem.startswith("i")


def bit_width(elem):
    return {"bf16": 16, "f16": 16, "f32": 32, "f64": 64}.get(elem) or int(elem[1:])


def affine_map(n_dims, results):
    """affine_map<(d0, ..., dn-1) -> (results)>; results are dim indices or
    expression strings."""
    dims = ", ".join(f"d{i}" for i in range(n_dims))
    res = ", ".join(f"d{r}" if isinstance(r, int) else str(r) for r in results)
    return f"affine_map<({dims}) -> ({res})>"


def identity_map(rank):
    return affine_map(rank, range(rank))


def float_literal(value, elem):
    """A float attribute that round-trips: infinities and NaN in hex, finite
    values in decimal exact for the element type."""
    value = float(value)
    if math.isfinite(value):
        if elem == "f64" or abs(value) >= 3.4e38:
            return f"{value:.17e}"
        # 9 significant digits identify an f32 (and so a bf16 or f16).
        return f"{struct.unpack('<f', struct.pack('<f', value))[0]:.8e}"
    bits = {"f32": (32, 8), "f64": (64, 11), "bf16": (16, 8), "f16": (16, 5)}[elem]
    width, exp_bits = bits
    mant_bits = width - 1 - exp_bits
    exp = ((1 << exp_bits) - 1) << mant_bits
    if math.isnan(value):
        pattern = exp | (1 << (mant_bits - 1))
    else:
        pattern = exp | ((1 << (width - 1)) if value < 0 else 0)
    return f"0x{pattern:0{width // 4}X}"


class Op:
    """One emitted operation: its text lines, results and used names."""

    __slots__ = ("lines", "results", "uses")

    def __init__(self, lines, results):
        self.lines = lines
        self.results = tuple(results)
        text = "\n".join(lines)
        self.uses = set(_NAME.findall(text)) - set(self.results)


class Region:
    """The body of a linalg.generic (or tensor.pad): scalar operations on
    block arguments. Constants are hoisted to the function by the builder."""

    def __init__(self, builder, indent="    "):
        self.b = builder
        self.indent = indent
        self.lines = []

    def op(self, name, operands, result_type, operand_types=None):
        """`%r = name %a, %b : type`; for ops whose operand type differs
        from the result (casts, comparisons) give operand_types as a string
        such as `f32 to i64`. Returns the result's name."""
        r = self.b.fresh("s")
        ty = operand_types if operand_types else result_type
        self.lines.append(f"{self.indent}{r} = {name} {', '.join(operands)} : {ty}")
        return r

    def raw(self, text):
        """A line that defines one fresh value; text has `{r}` where the
        name goes."""
        r = self.b.fresh("s")
        self.lines.append(self.indent + text.replace("{r}", r))
        return r

    def const(self, value, elem):
        return self.b.scalar(value, elem)

    def index(self, dim):
        return self.raw(f"{{r}} = linalg.index {dim} : index")


class Builder:
    """Builds one `func.func`: arguments, a body of Op records, results."""

    def __init__(self):
        self._counter = {}
        self._names = set()
        self.args = []
        # Argument name -> (source, keep): where the caller takes it from,
        # and whether it stays in the signature when unused.
        self.arg_info = {}
        self._permuted_args = {}
        self.arg_permutable = {}
        self._permuted_of = {}
        self._materialized = {}
        self.ops = []
        self._consts = {}
        self._const_ops = []
        # Provenance of values, for the lowerings' peephole choices: result
        # name of a reshape -> the value it reshapes (chains of reshapes
        # start from the original), of a transpose -> (source, permutation)
        # (a transpose of a transpose is one transpose), of a broadcast ->
        # its source (a matmul by a broadcast weight is a plain matmul).
        self.view_source = {}
        self.transpose_source = {}
        self.broadcast_source = {}

    # -- names ---------------------------------------------------------
    def fresh(self, hint="v"):
        hint = re.sub(r"\W", "_", hint) or "v"
        if hint[0].isdigit():
            hint = "v" + hint
        n = self._counter.get(hint, 0)
        while True:
            name = f"%{hint}{n}" if n or hint in ("s", "v") else f"%{hint}"
            n += 1
            if name not in self._names:
                break
        self._counter[hint] = n
        self._names.add(name)
        return name

    # -- arguments and constants -----------------------------------------
    def argument(self, hint, ttype, source, keep=True, permutable=True):
        """A function argument; source is (kind, key, perm) as the caller
        finds it (perm: None, or the permutation the caller applies).
        permutable=False for data that changes on every call (a model's
        activations): the caller would copy it on every call, outside the
        program, so a transpose of it stays in the program."""
        v = Value(self.fresh(hint), ttype)
        self.args.append(v)
        self.arg_info[v.name] = (source, keep)
        self.arg_permutable[v.name] = permutable
        return v

    def permuted_argument(self, v, perm):
        """For an argument v: another argument holding v permuted by perm
        (v.shape[perm[i]] along dimension i), which the caller prepares
        (once, for a parameter), instead of a transpose in the program;
        None if v is not an argument, or not a permutable one."""
        if v.name not in self.arg_info or not self.arg_permutable[v.name]:
            return None
        perm = tuple(perm)
        if v.name in self._permuted_of:  # a permuted argument: permute its base
            base, first = self._permuted_of[v.name]
            v, perm = base, tuple(first[p] for p in perm)
        if perm == tuple(range(v.rank)):
            return v
        key = (v.name, perm)
        if key not in self._permuted_args:
            source, _ = self.arg_info[v.name]
            t = v.type.with_shape([v.shape[p] for p in perm])
            arg = self.argument(v.name[1:] + "_t", t, (source[0], source[1], perm), keep=False)
            self.arg_info[v.name] = (source, False)  # unused, the original goes
            self.args.remove(arg)
            self.args.insert(self.args.index(v) + 1, arg)  # beside its source
            self._permuted_args[key] = arg
            self._permuted_of[arg.name] = (v, perm)
        return self._permuted_args[key]

    def scalar(self, value, elem):
        """An arith.constant of a scalar type, emitted once per function."""
        if elem == "i1":
            text, typed = ("true" if value else "false"), ""
        elif elem == "index" or is_int(elem):
            text, typed = str(int(value)), f" : {elem}"
        else:
            text, typed = float_literal(value, elem), f" : {elem}"
        key = (text, elem)
        if key not in self._consts:
            name = self.fresh("c")
            self._consts[key] = name
            self._const_ops.append(Op([f"  {name} = arith.constant {text}{typed}"], [name]))
        return self._consts[key]

    def logical(self, x):
        """x in its logical layout: a Laid value transposed back (once)."""
        if not isinstance(x, Laid):
            return x
        key = (x.phys.name, x.perm)
        if key not in self._materialized:
            inv = inverse(x.perm)
            t = x.type
            init = self.empty(t)
            out = self.op(
                f"{{r}} = linalg.transpose ins({x.phys.name} : {x.phys.type})"
                f" outs({init.name} : {t})"
                f" permutation = [{', '.join(map(str, inv))}]", t, "t")
            self.transpose_source[out.name] = (x.phys, inv)
            self._materialized[key] = out
        return self._materialized[key]

    # -- generic emission ----------------------------------------------
    def emit(self, lines, results):
        self.ops.append(Op(lines if isinstance(lines, list) else [lines], results))

    def op(self, text_fmt, ttype, hint="v"):
        """A one-result op; text_fmt has `{r}` for the result name."""
        r = self.fresh(hint)
        self.emit("  " + text_fmt.replace("{r}", r), [r])
        return Value(r, ttype)

    def empty(self, ttype):
        return self.op(f"{{r}} = tensor.empty() : {ttype}", ttype, "empty")

    def fill(self, value, ttype):
        """A tensor of ttype filled with a Python scalar."""
        c = self.scalar(value, ttype.elem)
        e = self.empty(ttype)
        return self.op(f"{{r}} = linalg.fill ins({c} : {ttype.elem})"
                       f" outs({e.name} : {ttype}) -> {ttype}", ttype, "fill")

    def generic(self, ins, outs, iterators, body, hint="v"):
        """linalg.generic. ins: [(Value, map)]; outs: [(Value, map)] (the
        inits); body(region, *block_args) returns the yielded scalar names
        (one per output, a str or a list). Returns the result Values."""
        region = Region(self)
        in_args = [self.fresh("in") for _ in ins]
        out_args = [self.fresh("out") for _ in outs]
        yielded = body(region, *(in_args + out_args))
        if isinstance(yielded, str):
            yielded = [yielded]
        results = [self.fresh(hint) for _ in outs]
        join = ", ".join
        maps = join(m for _, m in ins + outs)
        its = join(f'"{i}"' for i in iterators)
        head = (f"  {join(results)} = linalg.generic {{indexing_maps = [{maps}],"
                f" iterator_types = [{its}]}}")
        if ins:
            head += f" ins({join(v.name for v, _ in ins)} : {join(str(v.type) for v, _ in ins)})"
        head += f" outs({join(v.name for v, _ in outs)} : {join(str(v.type) for v, _ in outs)}) {{"
        block = [f"{a}: {v.elem}" for a, (v, _) in zip(in_args + out_args, ins + outs)]
        lines = [head, f"  ^bb0({join(block)}):"] + region.lines
        lines.append(f"    linalg.yield {join(yielded)} : {join(v.elem for v, _ in outs)}")
        types = join(str(v.type) for v, _ in outs)
        lines.append(f"  }} -> {types if len(outs) == 1 else f'({types})'}")
        self.emit(lines, results)
        return [Value(r, v.type) for r, (v, _) in zip(results, outs)]

    # -- printing ------------------------------------------------------
    def _live_ops(self, returned):
        live = set(returned)
        kept = []
        for op in reversed(self.ops):
            if any(r in live for r in op.results):
                kept.append(op)
                live |= op.uses
        consts = [op for op in self._const_ops if op.results[0] in live]
        return consts + kept[::-1]

    def function(self, name, results):
        """The `func.func @name` text returning the given Values, and the
        arguments it has (unused ones that need not stay are dropped)."""
        ops = self._live_ops([r.name for r in results])
        used = set().union(*(op.uses for op in ops)) | {r.name for r in results}
        args = [a for a in self.args if self.arg_info[a.name][1] or a.name in used]
        sig = ", ".join(f"{a.name}: {a.type}" for a in args)
        rtypes = ", ".join(str(r.type) for r in results)
        if len(results) != 1:
            rtypes = f"({rtypes})"
        lines = [f"func.func @{name}({sig}) -> {rtypes} {{"]
        for op in ops:
            lines.extend(op.lines)
        lines.append(f"  return {', '.join(r.name for r in results)} : "
                     f"{', '.join(str(r.type) for r in results)}")
        lines.append("}")
        return "\n".join(lines) + "\n", args
