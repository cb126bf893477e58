"""st.compile: export, strata-compile, load; one compiled artifact per
input signature.

A StrataModule is called like the model. Each distinct signature of its
arguments (the shapes, dtypes and devices of the tensors, the values of
everything else, the structure of the arguments) is exported and compiled
once; later calls with the same signature reuse that artifact. Artifacts
with the same MLIR text and target are compiled once per process, and host
libraries are kept in a persistent on-disk cache keyed by the program, the
target and the compiler, so that a later process loads them instead of
compiling again (strata.compiler, shared with the JAX front end).

CPU tensors run on the host target; CUDA tensors on the NVIDIA target of
their GPU (or the `target` given), through an NVIDIA bundle launched on the
current stream. The artifacts are run by strata.runtime.
"""

import contextlib

import torch
import torch.fx._pytree as fx_pytree
import torch.utils._pytree as pytree

from .. import compiler
from ..compiler import CacheInfo, disk_cache_dir, target_device_type  # noqa: F401
from .export import ELEM_DTYPES, convert, export_program, parameter_inputs

# CUDA compute capabilities and the shipped description of that GPU.
CUDA_TARGETS = {(9, 0): "nvidia-h200"}
CUDA_TARGETS_BY_MAJOR = {8: "nvidia-a100"}


def default_target(device):
    """The target for tensors on `device`: "host" for the CPU; for a CUDA
    device the description of that GPU (by compute capability)."""
    device = torch.device(device)
    if device.type == "cpu":
        return "host"
    if device.type != "cuda":
        raise ValueError(f"Strata runs CPU and CUDA tensors, got tensors on {device}")
    cap = tuple(torch.cuda.get_device_capability(device))
    target = CUDA_TARGETS.get(cap) or CUDA_TARGETS_BY_MAJOR.get(cap[0])
    if target is None:
        raise ValueError(
            f"no Strata target is known for {torch.cuda.get_device_name(device)} (compute "
            f"capability {cap[0]}.{cap[1]}) on {device}: pass target=, e.g. "
            'target="nvidia-h200" (a shipped description or a description file)')
    return target


def build_executable(program, target="host", workdir=None, device=None):
    """strata.compiler.build_executable for a torch `device` (a CUDA device
    for NVIDIA targets; default: the current one)."""
    ordinal = None
    if target_device_type(target) == "cuda":
        device = torch.device(device if device is not None else "cuda")
        ordinal = device.index if device.index is not None else torch.cuda.current_device()
    return compiler.build_executable(program, target, workdir, ordinal)


class CompiledProgram:
    """One exported program and its executable, callable on flattened user
    inputs; returns the outputs in the model's output structure.

    Parameters and buffers are taken from the exported program (they share
    storage with the model's, so in-place updates are seen). Arguments the
    program wants in another layout (transposed weights, channels-last
    images) are permuted copies; those of parameters are kept until the
    source tensor changes (its version counter or storage). A result the
    program returns in another layout is permuted back and made
    contiguous."""

    def __init__(self, program, executable, device=None):
        self.program = program
        self.executable = executable
        self.device = torch.device(device if device is not None else "cpu")
        self.in_spec = program.exported.call_spec.in_spec
        self._permuted = {}

    def flatten(self, args, kwargs):
        if self.in_spec is None:
            return pytree.tree_leaves((args, kwargs))
        return fx_pytree.tree_flatten_spec((args, kwargs), self.in_spec)

    def _argument(self, flat, kind, key, perm):
        src = flat[key] if kind == "input" else self.program.state_tensor(kind, key)
        moved = kind != "input" and src.device != self.device
        if perm is None and not moved:
            return src.detach().contiguous()
        cached = self._permuted.get((kind, key, perm))
        stamp = (src._version, src.data_ptr())
        if cached is not None and cached[0] is src and cached[1] == stamp:
            return cached[2]
        # A constant made on the CPU by a program running on the GPU is
        # moved once (kept like a permuted parameter).
        y = src.detach().to(self.device)
        y = (y if perm is None else y.permute(perm)).contiguous()
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
        outputs = [torch.empty(t.shape, dtype=ELEM_DTYPES[t.elem], device=self.device)
                   for t in self.program.result_types]
        self.executable.call(self.program.func_name, inputs, outputs)
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
            key.append(("tensor", tuple(x.shape), x.dtype, str(x.device)))
        else:
            key.append((type(x).__name__, x if _hashable(x) else repr(x)))
    return str(spec), tuple(key)


def _hashable(x):
    try:
        hash(x)
        return True
    except TypeError:
        return False


def call_device(model, args, kwargs):
    """The one device of the call's tensors (and the model's parameters and
    buffers); a clear error when they are on several."""
    devices = {}
    for x in pytree.tree_leaves((args, kwargs)):
        if isinstance(x, torch.Tensor):
            devices.setdefault(str(x.device), x.device)
    if len(devices) > 1:
        raise ValueError(f"the inputs are on several devices ({', '.join(sorted(devices))}): "
                         "Strata runs a program on one device; move them to one")
    device = next(iter(devices.values()), None)
    if isinstance(model, torch.nn.Module):
        state = list(model.named_parameters(remove_duplicate=False))
        state += list(model.named_buffers(remove_duplicate=False))
        for name, t in state:
            if device is None:
                device = t.device
            elif t.device != device:
                kind = "parameter" if isinstance(t, torch.nn.Parameter) else "buffer"
                raise ValueError(f"{kind} '{name}' is on {t.device}, the inputs on {device}: "
                                 f"move the model with model.to('{device}')")
    return device if device is not None else torch.device("cpu")


@contextlib.contextmanager
def _export_context(device):
    """On CUDA, an attention that does get decomposed (not through
    aten.scaled_dot_product_attention, which export keeps whole) takes
    PyTorch's math path: the fused kernels PyTorch would pick there have
    no decomposition."""
    if device.type != "cuda":
        yield
        return
    from torch.nn.attention import SDPBackend, sdpa_kernel
    with sdpa_kernel(SDPBackend.MATH):
        yield


class StrataModule:
    """A model compiled with Strata; call it like the model. Compiles once
    per input signature (see `signature`). `target`: None for the target of
    the inputs' device ("host" for CPU tensors, the GPU's description for
    CUDA tensors), else a target name or description file."""

    def __init__(self, model, target=None, workdir=None, func_name="forward"):
        self.model = model
        self.target = target
        self.workdir = workdir
        self.func_name = func_name
        self._cache = compiler.SignatureCache()

    def program_for(self, args, kwargs=None):
        """The CompiledProgram for these arguments, compiling on a miss."""
        kwargs = kwargs or {}
        key = signature(args, kwargs)
        entry = self._cache.get(key)
        if entry is not None:
            return entry
        device = call_device(self.model, args, kwargs)
        target = self.target or default_target(device)
        if target_device_type(target) != device.type:
            want = "CPU" if target_device_type(target) == "cpu" else "CUDA"
            raise ValueError(f"target {target!r} runs on {want} tensors, the inputs are on "
                             f"{device}: move them, or leave target= unset for the target "
                             "of their device")
        with _export_context(device):
            program = convert(export_program(self.model, args, kwargs), self.func_name,
                              parameter_inputs(args, kwargs))
        exe = build_executable(program, target, self.workdir, device)
        entry = CompiledProgram(program, exe, device)
        self._cache.put(key, entry)
        return entry

    def __call__(self, *args, **kwargs):
        return self.program_for(args, kwargs)(args, kwargs)

    def cache_info(self):
        """Hits and misses of the signature cache, and its size."""
        return self._cache.cache_info()

    def mlir(self, *args, **kwargs):
        """The MLIR text compiled for these arguments."""
        return self.program_for(args, kwargs).program.mlir


def compile(model, example_inputs, target=None, kwargs=None, workdir=None):  # noqa: A001
    """Compiles model for example_inputs now (so that unsupported operators
    are reported here) and returns a StrataModule that runs it, compiling
    again for other input shapes. target: None for the inputs' device
    ("host" on the CPU, e.g. "nvidia-h200" on an H200), or a target name."""
    module = StrataModule(model, target, workdir)
    module.program_for(tuple(example_inputs), kwargs or {})
    return module
