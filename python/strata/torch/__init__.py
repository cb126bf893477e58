"""Strata's PyTorch front end.

    import strata.torch as st
    fn = st.compile(model, example_inputs)      # export, strata-compile, load
    out = fn(*inputs)
    text = st.export(model, example_inputs)     # the linalg MLIR Strata compiles
    opt = torch.compile(model, backend="strata")

Programs go through torch.export and the core ATen decompositions, then
become linalg-on-tensors MLIR (strata.torch.export); parameters and buffers
are arguments of the MLIR function, passed by the compiled callable.
"""

from .compile import StrataModule, compile  # noqa: A004
from .errors import (ConversionError, StrataCompileError, ToolNotFoundError,
                     UnsupportedOperatorError)
from .export import convert, export, export_program
from .dynamo import register_backend, strata_backend

register_backend()

__all__ = ["compile", "export", "export_program", "convert", "StrataModule",
           "strata_backend", "UnsupportedOperatorError", "ConversionError",
           "StrataCompileError", "ToolNotFoundError"]
