"""The lowering table: ATen operator overload -> function that emits its
MLIR. A lowering is `fn(cx, a)`: `cx` is the conversion context (builder,
the node, its expected result types, error helpers) and `a` the operator's
arguments bound by name from its schema (`a.self`, `a.dim`, ...), tensors as
mlir_builder.Value (or Laid, see `lowering`) and everything else as Python
values. It returns a Value, or a tuple for operators with several results.

The op-family modules below register themselves when imported.
"""

import torch

LOWERINGS = {}


def lowering(*overloads, layouts=False):
    """Registers the decorated function for the given OpOverloads; a string
    "name.overload" names an ATen overload that only some PyTorch versions
    have, skipped where it does not exist. With layouts=True the lowering
    receives tensors in permuted layouts (mlir_builder.Laid) as they are;
    the others receive every tensor in its logical layout."""

    def register(fn):
        fn.layouts = layouts
        for op in overloads:
            if isinstance(op, str):
                name, overload = op.split(".")
                op = getattr(getattr(torch.ops.aten, name, None), overload, None)
                if op is None:
                    continue
            LOWERINGS[op] = fn
        return fn

    return register


class NotLowered:
    """A result an operator has but Strata does not compute (the indices of
    a max pool, the saved statistics of a batch norm): using it is an
    unsupported-operator error naming `what`."""

    def __init__(self, what):
        self.what = what


class Args:
    """An operator's arguments by schema name, defaults filled in."""

    def __init__(self, schema, args, kwargs):
        names = []
        for i, arg in enumerate(schema.arguments):
            names.append(arg.name)
            if i < len(args):
                value = args[i]
            elif arg.name in kwargs:
                value = kwargs[arg.name]
            elif arg.has_default_value():
                value = arg.default_value
            else:
                value = None
            setattr(self, arg.name, value)
        self._names = names

    def __repr__(self):
        return ", ".join(f"{n}={getattr(self, n)!r}" for n in self._names)


from . import (adaptive_pool, attention, creation, conv, elementwise, indexing, matmul,  # noqa: E402,F401
               normalization, reduction, shape)
