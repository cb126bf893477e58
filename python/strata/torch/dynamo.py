"""The TorchDynamo backend "strata": torch.compile(model, backend="strata").

Dynamo hands the backend each graph it captured (a torch-level FX
GraphModule); code between graphs, at graph breaks, runs eagerly as usual.
The backend compiles a graph when it is first called with a given input
signature: it re-exports the GraphModule with torch.export on the actual
inputs (so shapes are static and core ATen decompositions apply, exactly as
for st.compile) and runs the Strata library. Dynamo's symbolic sizes arrive
as plain integers at call time and are part of the signature.

A graph Strata cannot convert (an unsupported operator) runs eagerly, with
a warning naming the operator and module: a graph break of our own, never
a wrong result. Inference only: the results carry no autograd history.

Options (torch.compile(..., options={...})): "target", the Strata target
(default: that of the inputs' device: "host" for CPU tensors, the GPU's
description for CUDA tensors), and "workdir", where the MLIR and artifacts
go.
"""

import warnings

import torch

from .compile import StrataModule, signature
from .errors import UnsupportedOperatorError

BACKEND_NAME = "strata"


class GraphRunner:
    """Runs one Dynamo graph through Strata, per input signature, or eagerly
    where it cannot be converted."""

    def __init__(self, gm, target=None, workdir=None):
        self.gm = gm
        self.module = StrataModule(gm, target=target, workdir=workdir, func_name="graph")
        self.eager = set()

    def __call__(self, *args):
        key = signature(args, {})
        if key not in self.eager:
            try:
                with torch.no_grad():
                    program = self.module.program_for(args)
            except UnsupportedOperatorError as e:
                warnings.warn(f"{e}\nstrata: this graph runs eagerly", stacklevel=2)
                self.eager.add(key)
            else:
                return program(args, {})
        return self.gm(*args)


OPTIONS = ("target", "workdir")


def strata_backend(gm, example_inputs, options=None, target=None, **kwargs):
    """A Dynamo backend: returns the callable that replaces gm. `options`
    as torch.compile passes them: {"target": ..., "workdir": ...}."""
    del example_inputs, kwargs  # compiled lazily, on the real inputs (mode, name)
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ValueError(f"strata backend: unknown option(s) {', '.join(map(repr, unknown))}; "
                         f"it takes {', '.join(map(repr, OPTIONS))}")
    target = options.get("target", target)
    return GraphRunner(gm, target, options.get("workdir"))


def register_backend():
    """Registers "strata" with Dynamo unless the package's entry point
    (torch_dynamo_backends) already provides it."""
    from torch._dynamo import list_backends
    from torch._dynamo import register_backend as register

    if BACKEND_NAME not in list_backends(exclude_tags=()):
        register(strata_backend, name=BACKEND_NAME)
