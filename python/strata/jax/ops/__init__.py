"""The lowering table: JAX primitive name -> function that emits its MLIR.
A lowering is `fn(cx, *operands, **params)`: `cx` is the conversion context
(strata.jax.export.Context: the builder, the equation, its result types,
error helpers), the operands are tensors as mlir_builder.Value (or Laid, see
`lowering`) or Python scalars for literals and folded scalars, and the
params are the equation's, as JAX recorded them. It returns a Value, or a
list for primitives with several results.

The primitive-family modules below register themselves when imported.
"""

from dataclasses import dataclass

LOWERINGS = {}


@dataclass(frozen=True)
class Known:
    """A scalar known at conversion (a literal, or a folded scalar
    equation): its Python value and element type."""

    value: object
    elem: str


def lowering(*names, layouts=False):
    """Registers the decorated function for the given primitive names. With
    layouts=True the lowering receives tensors in permuted layouts
    (mlir_builder.Laid) as they are; the others receive every tensor in its
    logical layout."""

    def register(fn):
        fn.layouts = layouts
        for name in names:
            LOWERINGS[name] = fn
        return fn

    return register


from . import contraction, elementwise, indexing, reduction, shape  # noqa: E402,F401
