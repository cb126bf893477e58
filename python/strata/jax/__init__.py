"""Strata's JAX front end.

    import strata.jax as sj
    fn = sj.jit(f)                        # trace, convert, strata-compile, load
    y = fn(x)                             # jax or NumPy arrays; pytrees of them
    y = sj.jit(model.apply)(params, x)    # Flax linen: the parameters are arguments
    y = sj.jit(nnx_model)(x)              # Flax nnx: the module's state is passed
    text = sj.export(f, x)                # the linalg MLIR Strata compiles

Functions are traced with jax.make_jaxpr and their closed jaxpr becomes
linalg-on-tensors MLIR (strata.jax.export, one lowering module per
primitive family in strata.jax.ops); the host libraries strata-compile
writes run through strata.runtime. See docs/jax-frontend.md.
"""

from .errors import (ConversionError, StrataCompileError, StrataJaxError, ToolNotFoundError,
                     UnsupportedPrimitiveError)
from .export import Program, convert, export
from .jit import StrataFunction, jit

__all__ = ["jit", "export", "convert", "Program", "StrataFunction", "StrataJaxError",
           "UnsupportedPrimitiveError", "ConversionError", "StrataCompileError",
           "ToolNotFoundError"]
