"""Strata's PyTorch front end.

    import strata.torch as st
    fn = st.compile(model, example_inputs)      # export, strata-compile, load
    out = fn(*inputs)                           # CPU or CUDA tensors (the GPU's target)
    text = st.export(model, example_inputs)     # the linalg MLIR Strata compiles
    opt = torch.compile(model, backend="strata")

Programs go through torch.export and the core ATen decompositions, then
become linalg-on-tensors MLIR (strata.torch.export); parameters and buffers
are arguments of the MLIR function, passed by the compiled callable. The
artifacts run through strata.runtime.
"""

from .compile import StrataModule, compile, default_target  # noqa: A004
from .errors import (ConversionError, StrataCompileError, ToolNotFoundError,
                     UnsupportedOperatorError)
from .export import convert, export, export_program
from .dynamo import register_backend, strata_backend

register_backend()

__all__ = ["compile", "export", "export_program", "convert", "StrataModule", "default_target",
           "strata_backend", "UnsupportedOperatorError", "ConversionError",
           "StrataCompileError", "ToolNotFoundError"]
