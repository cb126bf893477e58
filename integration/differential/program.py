"""The text of one generated program: a function of static tensors built op
by op, each op appended as MLIR text (linalg on tensors, tensor reshapes,
slices and pads). Knows MLIR's syntax, decides nothing: the random choices
are generator.py's."""

import re

# Element types the generator uses and their -inf bit patterns (the init
# of a max reduction; a hex literal because MLIR's float syntax has no inf).
NEG_INF = {"f32": "0xFF800000", "f16": "0xFC00", "bf16": "0xFF80"}


def tensor_type(shape, dtype):
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype + ">"


def dims(rank):
    return [f"d{i}" for i in range(rank)]


def affine_map(rank, results):
    return f"affine_map<({', '.join(dims(rank))}) -> ({', '.join(results)})>"


def identity_map(rank):
    return affine_map(rank, dims(rank))


def num_elements(shape):
    count = 1
    for d in shape:
        count *= d
    return count


class Value:
    """An SSA tensor value. `mag` is a rough bound of its elements' magnitude
    (inputs are uniform in [-1, 1]), so that the generator keeps exp and
    low-precision types away from overflow and NaN."""

    def __init__(self, name, shape, dtype, mag, is_arg=False):
        self.name, self.shape, self.dtype = name, list(shape), dtype
        self.mag, self.is_arg = mag, is_arg
        self.nonneg = False  # all elements >= 0 (sums of them do not cancel)
        self.used = False  # read by an op of the program

    @property
    def type(self):
        return tensor_type(self.shape, self.dtype)

    @property
    def rank(self):
        return len(self.shape)


class Program:
    """One public function @case: arguments added on demand, ops appended
    in order, one or more results."""

    def __init__(self):
        self.args, self.lines, self.values = [], [], []
        self.results = []
        self.counter = 0
        self.ops = []  # names of the ops appended (the case's summary)

    def fresh(self, prefix="v"):
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def arg(self, shape, dtype):
        value = Value(f"%arg{len(self.args)}", shape, dtype, 1.0, is_arg=True)
        self.args.append(value)
        return value

    def add(self, value, op):
        """Records an op's result as usable by the ops after it."""
        self.values.append(value)
        self.ops.append(op)
        return value

    def emit(self, text):
        self.lines.extend("  " + line for line in text.strip("\n").split("\n"))

    # ------------------------------------------------------------ helpers
    def constant(self, literal, dtype):
        name = self.fresh("c")
        self.emit(f"{name} = arith.constant {literal} : {dtype}")
        return name

    def empty(self, shape, dtype):
        name = self.fresh("e")
        self.emit(f"{name} = tensor.empty() : {tensor_type(shape, dtype)}")
        return name

    def filled(self, shape, dtype, literal):
        """tensor.empty filled with `literal` (the init of a reduction)."""
        c = self.constant(literal, dtype)
        e = self.empty(shape, dtype)
        name = self.fresh("f")
        t = tensor_type(shape, dtype)
        self.emit(f"{name} = linalg.fill ins({c} : {dtype}) outs({e} : {t}) -> {t}")
        return name

    # ---------------------------------------------------------- linalg ops
    def generic(self, inputs, maps, out_shape, out_dtype, iterators, body,
                init=None):
        """A linalg.generic. `body(args, out)` gets the block arguments'
        names and returns (lines, yielded name)."""
        out_type = tensor_type(out_shape, out_dtype)
        init = init or self.empty(out_shape, out_dtype)
        name = self.fresh()
        block_args = [f"%in{i}" for i in range(len(inputs))]
        lines, result = body(block_args, "%out")
        sig = ", ".join(f"{a}: {v.dtype}" for a, v in zip(block_args, inputs))
        sig = (sig + ", " if sig else "") + f"%out: {out_dtype}"
        ins = ""
        if inputs:
            ins = (f" ins({', '.join(v.name for v in inputs)} : "
                   f"{', '.join(v.type for v in inputs)})")
        iters = ", ".join(f'"{i}"' for i in iterators)
        self.emit(
            f"{name} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
            f"iterator_types = [{iters}]}}{ins} outs({init} : {out_type}) {{\n"
            f"^bb0({sig}):\n"
            + "".join(f"  {line}\n" for line in lines)
            + f"  linalg.yield {result} : {out_dtype}\n"
            f"}} -> {out_type}")
        return name

    def named(self, op, inputs, out_shape, out_dtype, init=None, attrs="",
              suffix=""):
        """A named linalg op: `op attrs ins(...) outs(init) suffix`."""
        out_type = tensor_type(out_shape, out_dtype)
        init = init or self.empty(out_shape, out_dtype)
        name = self.fresh()
        attrs = f" {attrs}" if attrs else ""
        suffix = f" {suffix}" if suffix else ""
        self.emit(
            f"{name} = linalg.{op}{attrs} ins({', '.join(v.name for v in inputs)} : "
            f"{', '.join(v.type for v in inputs)}) outs({init} : {out_type}){suffix}"
            + ("" if op in ("transpose", "broadcast", "reduce") else f" -> {out_type}"))
        return name

    def reduce(self, x, dims_, out_shape, combiner, init):
        out_type = tensor_type(out_shape, x.dtype)
        name = self.fresh()
        self.emit(
            f"{name} = linalg.reduce ins({x.name} : {x.type}) outs({init} : {out_type}) "
            f"dimensions = [{', '.join(map(str, dims_))}]\n"
            f"  (%in: {x.dtype}, %acc: {x.dtype}) {{\n"
            f"    %r = {combiner} %in, %acc : {x.dtype}\n"
            f"    linalg.yield %r : {x.dtype}\n"
            f"  }}")
        return name

    # ---------------------------------------------------------- tensor ops
    def pad(self, x, low, high, literal):
        out = [d + lo + hi for d, lo, hi in zip(x.shape, low, high)]
        c = self.constant(literal, x.dtype)
        name = self.fresh()
        idx = ", ".join(f"%i{i}: index" for i in range(x.rank))
        self.emit(
            f"{name} = tensor.pad {x.name} low[{', '.join(map(str, low))}] "
            f"high[{', '.join(map(str, high))}] {{\n"
            f"^bb0({idx}):\n"
            f"  tensor.yield {c} : {x.dtype}\n"
            f"}} : {x.type} to {tensor_type(out, x.dtype)}")
        return name, out

    def extract_slice(self, x, offsets, sizes, strides, out_shape):
        name = self.fresh()
        self.emit(
            f"{name} = tensor.extract_slice {x.name}[{', '.join(map(str, offsets))}] "
            f"[{', '.join(map(str, sizes))}] [{', '.join(map(str, strides))}] : "
            f"{x.type} to {tensor_type(out_shape, x.dtype)}")
        return name

    def collapse(self, x, groups, out_shape):
        name = self.fresh()
        self.emit(
            f"{name} = tensor.collapse_shape {x.name} {reassociation(groups)} : "
            f"{x.type} into {tensor_type(out_shape, x.dtype)}")
        return name

    def expand(self, x, groups, out_shape):
        name = self.fresh()
        self.emit(
            f"{name} = tensor.expand_shape {x.name} {reassociation(groups)} "
            f"output_shape [{', '.join(map(str, out_shape))}] : "
            f"{x.type} into {tensor_type(out_shape, x.dtype)}")
        return name

    def reads(self, name):
        """Whether an op reads the SSA value `name` (beyond defining it)."""
        pattern = re.compile(re.escape(name) + r"(?![\w])")
        return sum(len(pattern.findall(line)) for line in self.lines) > (
            0 if name.startswith("%arg") else 1)

    def uses(self, name):
        """How many ops (and the return) read `name`: ops name their
        operands on their first line, so lines that mention it."""
        pattern = re.compile(re.escape(name) + r"(?![\w])")
        defining = re.compile(r"^\s*" + re.escape(name) + r" = ")
        n = sum(1 for line in self.lines
                if pattern.search(line) and not defining.match(line))
        return n + sum(1 for v in self.results if v.name == name)

    # -------------------------------------------------------------- text
    def text(self, header=""):
        params = ", ".join(f"{a.name}: {a.type}" for a in self.args)
        results = ", ".join(v.type for v in self.results)
        if len(self.results) > 1:
            results = f"({results})"
        ret = ", ".join(v.name for v in self.results)
        ret_types = ", ".join(v.type for v in self.results)
        body = "\n".join(self.lines)
        return (f"{header}func.func @case({params}) -> {results} {{\n{body}\n"
                f"  return {ret} : {ret_types}\n}}\n")


def reassociation(groups):
    return "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"
