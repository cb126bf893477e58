"""st.compile: export, strata-compile, load; one compiled library per
input signature.

A StrataModule is called like the model. Each distinct signature of its
arguments (the shapes and dtypes of the tensors, the values of everything
else, the structure of the arguments) is exported and compiled once; later
calls with the same signature reuse that library. Libraries with the same
MLIR text are compiled once per process.
"""

import atexit
import hashlib
import os
import shutil
import tempfile
import threading
from collections import namedtuple
from pathlib import Path

import torch
import torch.fx._pytree as fx_pytree
import torch.utils._pytree as pytree

from .. import tools
from .export import ELEM_DTYPES, convert, export_program
from .runtime import Library

CacheInfo = namedtuple("CacheInfo", "hits misses entries")

_workdir = None
_libraries = {}
_lock = threading.Lock()


def _default_workdir():
    """A per-process directory for MLIR files and libraries, removed at exit
    unless $STRATA_TORCH_KEEP is set."""
    global _workdir
    if _workdir is None:
        _workdir = Path(tempfile.mkdtemp(prefix="strata-torch-"))
        if not os.environ.get("STRATA_TORCH_KEEP"):
            atexit.register(shutil.rmtree, _workdir, True)
    return _workdir


def build_library(program, target="host", workdir=None):
    """Compiles a Program into a loaded Library (once per MLIR text and
    target in this process)."""
    digest = hashlib.sha256(f"{target}\n{program.mlir}".encode()).hexdigest()[:16]
    with _lock:
        if digest in _libraries:
            return _libraries[digest]
        wd = Path(workdir) if workdir else _default_workdir()
        wd.mkdir(parents=True, exist_ok=True)
        src = wd / f"{program.func_name}-{digest}.mlir"
        lib = wd / f"{program.func_name}-{digest}.so"
        src.write_text(program.mlir)
        try:
            tools.compile_mlir(src, lib, target=target)
        except tools.StrataCompileError as e:
            if workdir is None and not os.environ.get("STRATA_TORCH_KEEP"):
                e.args = (e.args[0] + "\n(the file is removed at exit unless "
                          "STRATA_TORCH_KEEP=1 is set)",)
            raise
        _libraries[digest] = Library(lib, program.func_name)
        return _libraries[digest]


class CompiledProgram:
    """One exported program and its library, callable on flattened user
    inputs; returns the outputs in the model's output structure.

    Parameters and buffers are taken from the exported program (they share
    storage with the model's, so in-place updates are seen). Arguments the
    program wants in another layout (transposed weights, channels-last
    images) are permuted copies; those of parameters are kept until the
    source tensor changes (its version counter or storage). A result the
    program returns in another layout is permuted back and made
    contiguous."""

    def __init__(self, program, library):
        self.program = program
        self.library = library
        self.in_spec = program.exported.call_spec.in_spec
        self._permuted = {}

    def flatten(self, args, kwargs):
        if self.in_spec is None:
            return pytree.tree_leaves((args, kwargs))
        return fx_pytree.tree_flatten_spec((args, kwargs), self.in_spec)

    def _argument(self, flat, kind, key, perm):
        src = flat[key] if kind == "input" else self.program.state_tensor(kind, key)
        if perm is None:
            return src.detach().contiguous()
        cached = self._permuted.get((kind, key, perm))
        stamp = (src._version, src.data_ptr())
        if cached is not None and cached[0] is src and cached[1] == stamp:
            return cached[2]
        y = src.detach().permute(perm).contiguous()
        if kind != "input" or isinstance(src, torch.nn.Parameter):
            # Parameters (Dynamo passes them as inputs) are kept permuted.
            self._permuted[(kind, key, perm)] = (src, stamp, y)
        return y

    def __call__(self, args, kwargs):
        flat = self.flatten(args, kwargs)
        inputs = []
        for (kind, key, perm), t in zip(self.program.args, self.program.arg_types):
            x = self._argument(flat, kind, key, perm)
            if x.dtype != ELEM_DTYPES[t.elem] or tuple(x.shape) != t.shape:
                raise TypeError(f"argument {kind} {key}: expected {t}, got "
                                f"{tuple(x.shape)} {x.dtype}")
            inputs.append(x)
        outputs = [torch.empty(t.shape, dtype=ELEM_DTYPES[t.elem])
                   for t in self.program.result_types]
        self.library(inputs, outputs)
        flat_out = []
        for kind, payload, perm in self.program.results:
            if kind != "tensor":
                flat_out.append(payload)
            elif perm is None:
                flat_out.append(outputs[payload])
            else:
                flat_out.append(outputs[payload].permute(perm).contiguous())
        return pytree.tree_unflatten(flat_out, self.program.out_spec)


def signature(args, kwargs):
    """The cache key of a call: the argument structure, tensor shapes and
    dtypes, and the values of non-tensor arguments."""
    leaves, spec = pytree.tree_flatten((args, kwargs))
    key = []
    for x in leaves:
        if isinstance(x, torch.Tensor):
            key.append(("tensor", tuple(x.shape), x.dtype, x.device.type))
        else:
            key.append((type(x).__name__, x if _hashable(x) else repr(x)))
    return str(spec), tuple(key)


def _hashable(x):
    try:
        hash(x)
        return True
    except TypeError:
        return False


class StrataModule:
    """A model compiled with Strata for the host CPU; call it like the model.
    Compiles once per input signature (see `signature`)."""

    def __init__(self, model, target="host", workdir=None, func_name="forward"):
        self.model = model
        self.target = target
        self.workdir = workdir
        self.func_name = func_name
        self._cache = {}
        self._hits = 0
        self._misses = 0

    def program_for(self, args, kwargs=None):
        """The CompiledProgram for these arguments, compiling on a miss."""
        kwargs = kwargs or {}
        key = signature(args, kwargs)
        entry = self._cache.get(key)
        if entry is not None:
            self._hits += 1
            return entry
        self._misses += 1
        for x in pytree.tree_leaves((args, kwargs)):
            if isinstance(x, torch.Tensor) and x.device.type != "cpu":
                raise ValueError(f"Strata's host target takes CPU tensors, got {x.device}")
        program = convert(export_program(self.model, args, kwargs), self.func_name)
        entry = CompiledProgram(program, build_library(program, self.target, self.workdir))
        self._cache[key] = entry
        return entry

    def __call__(self, *args, **kwargs):
        return self.program_for(args, kwargs)(args, kwargs)

    def cache_info(self):
        """Hits and misses of the signature cache, and its size."""
        return CacheInfo(self._hits, self._misses, len(self._cache))

    def mlir(self, *args, **kwargs):
        """The MLIR text compiled for these arguments."""
        return self.program_for(args, kwargs).program.mlir


def compile(model, example_inputs, target="host", kwargs=None, workdir=None):  # noqa: A001
    """Compiles model for example_inputs now (so that unsupported operators
    are reported here) and returns a StrataModule that runs it, compiling
    again for other input shapes."""
    module = StrataModule(model, target, workdir)
    module.program_for(tuple(example_inputs), kwargs or {})
    return module
