"""From a PyTorch program to linalg-on-tensors MLIR: torch.export, the core
ATen decompositions, then a walk over the graph that hands each operator to
its lowering (strata.torch.ops) and checks the result type against the one
PyTorch recorded for the node.

Parameters, buffers and lifted constants become arguments of the function,
after the user's tensor inputs, in the graph's order; the Program records
where each argument comes from so that the compiled callable can pass them.
"""

import operator
import os
from dataclasses import dataclass, field

import torch
import torch.utils._pytree as pytree
from torch.export import ExportedProgram
from torch.export.graph_signature import (ConstantArgument, InputKind, OutputKind,
                                          TensorArgument)

from .. import compiler
from .decompositions import decomposition_table
from .errors import ConversionError, UnsupportedOperatorError
from ..mlir_builder import Builder, Laid, TensorType, Value, inverse
from .ops import LOWERINGS, Args, NotLowered
from ..lowering.helpers import copy

DTYPES = {torch.float32: "f32", torch.float64: "f64", torch.bfloat16: "bf16",
          torch.float16: "f16", torch.int64: "i64", torch.int32: "i32",
          torch.int16: "i16", torch.int8: "i8", torch.bool: "i1"}
ELEM_DTYPES = {v: k for k, v in DTYPES.items()}

# Operators that only assert facts about the graph; they produce nothing.
_ASSERTS = {getattr(torch.ops.aten, n).default for n in
            ("_assert_tensor_metadata", "_assert_scalar", "sym_constrain_range",
             "sym_constrain_range_for_size", "_assert_async")
            if hasattr(torch.ops.aten, n)}


@dataclass
class Program(compiler.Program):
    """A converted program: the MLIR text and how to call it.

    args: one (kind, key, perm) per function argument, kind `input` (key:
    index among the flattened user inputs), `state` (key: a parameter or
    buffer name) or `constant` (key: a lifted constant's name); perm, when
    not None, is the permutation the caller applies to that tensor (a
    weight passed already transposed). results: one (kind, payload, perm)
    per flattened user output, `tensor` (payload: the function result
    index; perm: None, or the permutation that turns the result into the
    output) or `value` (payload: a constant output)."""

    out_spec: object
    exported: ExportedProgram = field(repr=False)

    def state_tensor(self, kind, key):
        ep = self.exported
        if kind == "state":
            return ep.state_dict[key] if key in ep.state_dict else ep.constants[key]
        return ep.constants[key]


def tensor_type(val, what):
    """The TensorType of a FakeTensor (static shapes only)."""
    if val.dtype not in DTYPES:
        raise UnsupportedOperatorError(what, reason=f"element type {val.dtype}")
    shape = []
    for s in val.shape:
        if not isinstance(s, int):
            raise UnsupportedOperatorError(what, reason=f"dynamic dimension {s}")
        shape.append(s)
    return TensorType(tuple(shape), DTYPES[val.dtype])


def module_location(node):
    """(module path, module class, source line) where a node was traced."""
    stack = node.meta.get("nn_module_stack") or {}
    path, cls = None, None
    if stack:
        path, cls = list(stack.values())[-1]
        cls = cls if isinstance(cls, str) else getattr(cls, "__qualname__", str(cls))
    line = None
    trace = (node.meta.get("stack_trace") or "").split("\n")
    torch_dir = os.path.dirname(torch.__file__)
    for k, entry in enumerate(trace):
        entry = entry.strip()
        if entry.startswith("File ") and torch_dir not in entry:
            code = trace[k + 1].strip() if k + 1 < len(trace) else ""
            line = f"{entry}: {code}" if code else entry
    return path, cls, line


class Context:
    """What a lowering sees of its node: the builder, the expected result
    types and error helpers."""

    def __init__(self, converter, node):
        self.b = converter.b
        self.node = node
        self.target = node.target
        val = node.meta.get("val")
        what = str(node.target)
        if isinstance(val, (list, tuple)):
            self.outs = [tensor_type(v, what) if isinstance(v, torch.Tensor) else None
                         for v in val]
            self.out = None
        elif isinstance(val, torch.Tensor):
            self.out = tensor_type(val, what) if not _is_empty(val) else None
            self.outs = [self.out]
        else:
            self.out, self.outs = None, [None]

    def unsupported(self, reason):
        raise UnsupportedOperatorError(str(self.target), *module_location(self.node),
                                       reason=reason)

    def result_type(self, *xs):
        """The element type PyTorch computes a binary op in (its type
        promotion of tensors, zero-dim tensors and Python scalars)."""
        probes = []
        for x in xs:
            if isinstance(x, (Value, Laid)):
                probes.append(torch.empty((1,) * min(x.rank, 1), dtype=ELEM_DTYPES[x.elem]))
            else:
                probes.append(x)
        if len(probes) == 1:
            dt = probes[0].dtype
        else:
            dt = torch.result_type(*probes)
        e = DTYPES[dt]
        return "f32" if e in ("bf16", "f16") else e


def _is_empty(val):
    return any(s == 0 for s in val.shape)


class Converter:
    """Walks one ExportedProgram and builds its MLIR function."""

    def __init__(self, ep, func_name, permutable_inputs=()):
        self.ep = ep
        self.func_name = func_name
        self.permutable_inputs = set(permutable_inputs)
        self.b = Builder()
        self.env = {}

    def run(self):
        ep, sig = self.ep, self.ep.graph_signature
        placeholders = [n for n in ep.graph.nodes if n.op == "placeholder"]
        if len(placeholders) != len(sig.input_specs):
            raise ConversionError("placeholders and input specs differ in number")
        args, state = [], []
        user_index = 0
        for node, spec in zip(placeholders, sig.input_specs):
            if spec.kind == InputKind.USER_INPUT:
                if isinstance(spec.arg, ConstantArgument):
                    self.env[node] = spec.arg.value
                else:
                    args.append((node, ("input", user_index)))
                user_index += 1
            elif spec.kind in (InputKind.PARAMETER, InputKind.BUFFER):
                state.append((node, ("state", spec.target)))
            elif spec.kind == InputKind.CONSTANT_TENSOR:
                state.append((node, ("constant", spec.target)))
            else:
                raise UnsupportedOperatorError(f"input {spec.arg.name}",
                                               reason=f"{spec.kind.name} inputs")
        for node, (kind, key) in args + state:
            val = node.meta["val"]
            if not isinstance(val, torch.Tensor):
                self.env[node] = val
                continue
            t = tensor_type(val, f"input {node.name}")
            # User inputs stay in the signature; unused state is dropped.
            # Parameters and buffers may be passed permuted (the caller
            # keeps the copy); user inputs only where they are parameters
            # too (Dynamo passes them as inputs).
            self.env[node] = self.b.argument(
                node.name, t, (kind, key, None), keep=kind == "input",
                permutable=kind != "input" or key in self.permutable_inputs)

        for node in ep.graph.nodes:
            if node.op == "call_function":
                self.env[node] = self.call(node)
            elif node.op == "get_attr":
                raise UnsupportedOperatorError(f"get_attr {node.target}", *module_location(node),
                                               reason="submodules and control flow")
        return self.finish(sig)

    def value(self, x, node, layouts=False):
        """The converted value of an argument (nested lists included); a
        tensor in a permuted layout is transposed back unless layouts."""
        if isinstance(x, torch.fx.Node):
            v = self.env[x]
            if isinstance(v, NotLowered):
                raise UnsupportedOperatorError(str(node.target), *module_location(node),
                                               reason=f"it uses {v.what}")
            return v if layouts else self.b.logical(v)
        if isinstance(x, (list, tuple)):
            return type(x)(self.value(y, node, layouts) for y in x)
        return x

    def call(self, node):
        target = node.target
        if target is operator.getitem:
            src = self.env[node.args[0]]
            return src if isinstance(src, NotLowered) else src[node.args[1]]
        if target in _ASSERTS:
            return None
        if target is torch.ops.aten.sym_size.int:
            return node.meta["val"]
        lower = LOWERINGS.get(target)
        if lower is None:
            raise UnsupportedOperatorError(str(target), *module_location(node))
        cx = Context(self, node)
        if all(t is None for t in cx.outs):
            # Only empty tensors (placeholders of unused results).
            return NotLowered(f"the empty tensor made by {target}")
        schema = getattr(target, "_schema", None)
        if schema is None:
            raise UnsupportedOperatorError(str(target), *module_location(node))
        layouts = getattr(lower, "layouts", False)
        a = Args(schema, self.value(node.args, node, layouts),
                 self.value(node.kwargs, node, layouts))
        try:
            result = lower(cx, a)
        except (UnsupportedOperatorError, ConversionError):
            raise
        except Exception as e:  # a lowering bug: say where it happened
            path, cls, line = module_location(node)
            where = f" in module '{path}' ({cls})" if path is not None else ""
            raise ConversionError(f"converting {target} (node {node.name}){where} failed: "
                                  f"{type(e).__name__}: {e}") from e
        self.check(node, cx, result)
        return result

    def check(self, node, cx, result):
        """A lowering's result must have the type PyTorch recorded."""
        got = result if isinstance(result, tuple) else (result,)
        for g, want in zip(got, cx.outs):
            if want is None or isinstance(g, NotLowered):
                continue
            if not isinstance(g, (Value, Laid)) or g.type != want:
                have = g.type if isinstance(g, (Value, Laid)) else type(g).__name__
                raise ConversionError(f"the lowering of {node.target} (node {node.name}) "
                                      f"produced {have}, PyTorch expects {want}")

    def finish(self, sig):
        output = next(n for n in self.ep.graph.nodes if n.op == "output")
        outs = output.args[0]
        for spec in sig.output_specs:
            if spec.kind != OutputKind.USER_OUTPUT:
                target = spec.target or spec.arg.name
                raise UnsupportedOperatorError(
                    f"output {spec.arg.name}", reason=f"{spec.kind.name} of {target}: the program "
                    "updates state in place (is the model in training mode? call model.eval())")
        results, values, seen = [], [], set()
        arg_names = {a.name for a in self.b.args}
        for spec, out in zip(sig.output_specs, outs):
            if not isinstance(spec.arg, TensorArgument):
                results.append(("value", getattr(spec.arg, "value", None), None))
                continue
            v = self.value(out, output, layouts=True)
            perm = None
            # A permuted result is returned as computed and permuted by the
            # caller: a transpose at the end of the program would be fused
            # into the operation computing the value, to its cost. Unless
            # the permutation keeps the innermost dimension (a sequence-
            # first encoder's output): the program then writes whole rows,
            # at no cost, where the caller would copy on every call.
            if isinstance(v, Laid):
                p = tuple(inverse(v.perm))
                if p[-1] == len(p) - 1:
                    v = self.b.logical(v)
                else:
                    v, perm = v.phys, p
            elif v.name in self.b.transpose_source:
                src, p = self.b.transpose_source[v.name]
                if p[-1] != len(p) - 1:
                    v, perm = src, tuple(p)
            if v.name in arg_names or v.name in seen:
                # A result is a fresh buffer: never an argument, never
                # the same buffer twice.
                v = copy(_OutputContext(self.b), v)
            seen.add(v.name)
            results.append(("tensor", len(values), perm))
            values.append(v)
        text, args = self.b.function(self.func_name, values)
        sources = [self.b.arg_info[a.name][0] for a in args]
        return Program(text, self.func_name, sources, [a.type for a in args], results,
                       [v.type for v in values], self.ep.call_spec.out_spec, self.ep)


class _OutputContext:
    """The minimal context the copy helper needs."""

    def __init__(self, b):
        self.b = b


def export_program(model, args, kwargs=None):
    """torch.export of model(*args, **kwargs), decomposed to core ATen."""
    if not isinstance(model, torch.nn.Module):
        model = _FunctionModule(model)
    ep = torch.export.export(model, tuple(args), kwargs or {})
    _views_as_reshapes(ep)
    return ep.run_decompositions(decomposition_table())


def _views_as_reshapes(ep):
    """Every aten.view becomes aten.reshape before decomposing. A view is
    legal only for the strides PyTorch recorded while tracing, and
    decomposing can change them: the math form of scaled dot-product
    attention returns a contiguous result where the fused kernel returned
    a transposed one, and a later view of it would fail to retrace.
    Tensors have value semantics here, so a reshape (a view, or a copy
    then a view, as the new strides require) means the same."""
    for node in ep.graph_module.graph.nodes:
        if node.op == "call_function" and node.target is torch.ops.aten.view.default:
            node.target = torch.ops.aten.reshape.default
    ep.graph_module.recompile()


class _FunctionModule(torch.nn.Module):
    """Wraps a plain function so that torch.export can trace it."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args, **kwargs):
        return self.fn(*args, **kwargs)


def convert(ep, func_name="forward", permutable_inputs=()):
    """The Program of an ExportedProgram (core ATen). permutable_inputs:
    indices of the flattened user inputs that are parameters (the caller
    may keep permuted copies of them)."""
    return Converter(ep, func_name, permutable_inputs).run()


def parameter_inputs(args, kwargs):
    """Indices of the flattened user inputs that are nn.Parameters (Dynamo
    passes a model's weights as inputs): those the program may take
    permuted, the caller keeping the permuted copy."""
    flat = pytree.tree_leaves((tuple(args), kwargs or {}))
    return [i for i, x in enumerate(flat) if isinstance(x, torch.nn.Parameter)]


def export(model, example_inputs, kwargs=None, func_name="forward"):
    """The linalg-on-tensors MLIR that Strata compiles for
    model(*example_inputs, **kwargs), as text."""
    return convert(export_program(model, example_inputs, kwargs), func_name,
                   parameter_inputs(example_inputs, kwargs)).mlir
