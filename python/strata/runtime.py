"""Runs artifacts written by `strata-compile --emit=lib` through
libStrataRuntime (runtime/include/strata_runtime.h), with no compiler in
the process.

    from strata.runtime import Executable
    exe = Executable("mlp.so")                 # a host library
    y = exe("forward", x)                      # CPU tensors in, a new tensor out
    exe = Executable("mlp.json", device=0)     # an NVIDIA bundle on cuda:0
    y = exe("forward", x_cuda)                 # launched on the current stream

The library is found in $STRATA_RUNTIME_LIB (a file), then in the lib/
directory beside the Strata tools (strata.tools.tool_dir()/../lib), then in
<repo>/build/lib, then by ctypes.util.find_library("StrataRuntime").

Arguments are checked against the artifact's manifest (element type, shape,
contiguity, device) and passed by address without copies. torch is imported
only when a call needs it: loading an artifact and reading its manifest
work without it, and host functions also take NumPy arrays.
"""

import builtins
import ctypes
import ctypes.util
import functools
import json
import os
import sys
import threading
from pathlib import Path

OK, ERROR, NO_DEVICE = 0, 1, 77

LIBRARY_NAME = "libStrataRuntime.so"
_REPO = Path(__file__).resolve().parents[2]

# Manifest element types and their names in torch and NumPy.
TORCH_DTYPES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "f64": "float64",
                "i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8", "i1": "bool"}
# bf16 arrays are ml_dtypes' bfloat16 (as JAX's NumPy arrays are).
NUMPY_DTYPES = dict(TORCH_DTYPES)


class StrataRuntimeError(builtins.RuntimeError):
    """A failure of the Strata runtime or a call that does not match the
    artifact's manifest."""


RuntimeError = StrataRuntimeError  # noqa: A001  (strata.runtime.RuntimeError)


class NoDeviceError(StrataRuntimeError):
    """The artifact's device is absent from this machine (no driver, no GPU)."""


class ArgumentError(StrataRuntimeError, TypeError, ValueError):
    """An argument that does not match the artifact's manifest (count,
    element type, shape, contiguity, device)."""


class LibraryNotFoundError(StrataRuntimeError):
    """libStrataRuntime could not be located."""


def _candidates():
    """(description, path) of the places the library is looked for."""
    found = []
    env = os.environ.get("STRATA_RUNTIME_LIB")
    if env:
        return [("$STRATA_RUNTIME_LIB", Path(env))]
    try:
        from . import tools
        found.append(("beside the Strata tools", tools.tool_dir().parent / "lib" / LIBRARY_NAME))
    except Exception:  # no tools: only the other places
        pass
    found.append(("the build tree", _REPO / "build" / "lib" / LIBRARY_NAME))
    return found


_lib = None
_lib_lock = threading.Lock()


def library_path():
    """The path of the libStrataRuntime that `library()` loads."""
    looked = []
    for what, path in _candidates():
        if path.is_file():
            return path
        looked.append(f"{path} ({what})")
    if not os.environ.get("STRATA_RUNTIME_LIB"):
        name = ctypes.util.find_library("StrataRuntime")
        if name:
            return Path(name)
        looked.append("the system's library path (ctypes.util.find_library)")
    raise LibraryNotFoundError(
        "cannot find libStrataRuntime; looked in: " + "; ".join(looked) +
        ". Set STRATA_RUNTIME_LIB to the library file or build Strata (target "
        "StrataRuntime).")


def library():
    """The loaded libStrataRuntime (a ctypes.CDLL), loaded once."""
    global _lib
    with _lib_lock:
        if _lib is None:
            path = library_path()
            try:
                lib = ctypes.CDLL(str(path))
            except OSError as e:
                raise LibraryNotFoundError(f"cannot load {path}: {e}") from e
            lib.strata_load.argtypes = [ctypes.c_char_p, ctypes.c_int,
                                        ctypes.POINTER(ctypes.c_void_p)]
            lib.strata_load.restype = ctypes.c_int
            lib.strata_release.argtypes = [ctypes.c_void_p]
            lib.strata_release.restype = None
            lib.strata_last_error.argtypes = []
            lib.strata_last_error.restype = ctypes.c_char_p
            lib.strata_manifest_json.argtypes = [ctypes.c_void_p]
            lib.strata_manifest_json.restype = ctypes.c_char_p
            lib.strata_device_kind.argtypes = [ctypes.c_void_p]
            lib.strata_device_kind.restype = ctypes.c_char_p
            lib.strata_call.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                        ctypes.POINTER(ctypes.c_void_p), ctypes.c_int,
                                        ctypes.c_void_p]
            lib.strata_call.restype = ctypes.c_int
            lib.strata_synchronize.argtypes = [ctypes.c_void_p]
            lib.strata_synchronize.restype = ctypes.c_int
            _lib = lib
        return _lib


def _check(code, what, path=None):
    """Raises the exception of a failing return code: the runtime's message,
    prefixed by `what` unless it already names `path`."""
    if code == OK:
        return
    message = (library().strata_last_error() or b"").decode(errors="replace")
    if not message:
        message = f"{what} failed (code {code})"
    elif path is None or path not in message:
        message = f"{what}: {message}"
    raise (NoDeviceError if code == NO_DEVICE else StrataRuntimeError)(message)


def _torch():
    """torch, if it is installed (imported on first use)."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def _is_torch_tensor(x):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(x, torch.Tensor)


def _is_numpy_array(x):
    np = sys.modules.get("numpy")
    return np is not None and isinstance(x, np.ndarray)


def _ordinal(device):
    """The CUDA ordinal of `device` (None, an int, "cuda:N" or a torch.device)."""
    if device is None:
        torch = _torch()
        if torch is not None and torch.cuda.is_available():
            return torch.cuda.current_device()
        return 0
    if isinstance(device, int):
        return device
    torch = _torch()
    if torch is not None:
        d = torch.device(device)
        if d.type != "cuda":
            raise ValueError(f"device: expected a CUDA device or ordinal, got {d}")
        return d.index if d.index is not None else (
            torch.cuda.current_device() if torch.cuda.is_available() else 0)
    text = str(device)
    if text == "cuda":
        return 0
    if text.startswith("cuda:") and text[5:].isdigit():
        return int(text[5:])
    raise ValueError(f"device: expected a CUDA device or ordinal, got {device!r}")


def _is_host_artifact(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


_numpy_dtypes = {}


def _numpy_dtype_is(dtype, elem):
    """Whether a NumPy dtype is the manifest element type `elem`, compared
    as dtype objects (formatting a dtype's name costs more than the rest
    of a small call)."""
    want = _numpy_dtypes.get(elem)
    if want is None:
        import numpy as np
        try:
            want = np.dtype(NUMPY_DTYPES.get(elem, "?"))
        except TypeError:  # bfloat16 before ml_dtypes is imported
            return str(dtype) == NUMPY_DTYPES.get(elem)
        _numpy_dtypes[elem] = want
    return dtype == want


class Executable:
    """A loaded artifact: a host library (called on CPU tensors or NumPy
    arrays) or an NVIDIA bundle (called on CUDA tensors of its device).

    device: for a bundle, the CUDA device to load it on (a torch.device,
    "cuda:N" or an ordinal; default: the current CUDA device); ignored for
    host libraries."""

    def __init__(self, path, device=None):
        self.path = str(path)
        if not Path(self.path).is_file():
            raise FileNotFoundError(f"no artifact at {self.path}")
        lib = library()
        self._handle = None
        host = _is_host_artifact(self.path)
        self.ordinal = 0 if host else _ordinal(device)
        handle = ctypes.c_void_p()
        _check(lib.strata_load(self.path.encode(), self.ordinal, ctypes.byref(handle)),
               f"cannot load {self.path}", self.path)
        self._handle = handle
        self._lib = lib
        self._direct = None
        self.device_kind = lib.strata_device_kind(handle).decode()
        self.manifest = json.loads(lib.strata_manifest_json(handle).decode() or "{}")
        self._functions = {f["name"]: f for f in self.manifest.get("functions", [])}

    @property
    def functions(self):
        """The names of the artifact's functions."""
        return list(self._functions)

    @property
    def chip(self):
        return self.manifest.get("chip")

    @property
    def device(self):
        """Where the arguments live: torch.device("cpu") or ("cuda", N) (a
        string when torch is not installed)."""
        name = "cpu" if self.device_kind == "host" else f"cuda:{self.ordinal}"
        torch = _torch()
        return torch.device(name) if torch is not None else name

    def function(self, name):
        """The manifest entry of function `name`."""
        f = self._functions.get(name)
        if f is None:
            have = ", ".join(self._functions) or "none"
            raise StrataRuntimeError(f"{self.path} has no function '{name}' (it has: {have})")
        return f

    def __call__(self, name, *inputs, out=None, stream=None):
        """Runs function `name` on `inputs`; returns its output (a tuple
        when it has several). `out`: the output tensor(s) to write, else
        new ones are allocated on the executable's device."""
        if out is not None and not isinstance(out, (list, tuple)):
            out = [out]
        outputs = self.call(name, inputs, out, stream=stream)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def call(self, name, inputs, outputs=None, stream=None):
        """Runs function `name`: inputs, then outputs (allocated when None),
        each a dense row-major tensor matching the manifest. Returns the
        outputs. For a bundle the work is queued on `stream` (a
        torch.cuda.Stream, a raw CUstream as int, or None: the current
        stream of the executable's device)."""
        if self._handle is None:
            raise StrataRuntimeError(f"{self.path} was released")
        f = self.function(name)
        specs_in, specs_out = f.get("inputs", []), f.get("outputs", [])
        inputs = list(inputs)
        if len(inputs) != len(specs_in):
            raise ArgumentError(f"'{name}' takes {len(specs_in)} inputs, {len(inputs)} given")
        numpy_mode = any(_is_numpy_array(x) for x in inputs)
        if outputs is None:
            outputs = [self._empty(spec, numpy_mode) for spec in specs_out]
        else:
            outputs = list(outputs)
            if len(outputs) != len(specs_out):
                raise ArgumentError(f"'{name}' has {len(specs_out)} outputs, "
                                    f"{len(outputs)} given")
        pointers = []
        for what, xs, specs in (("input", inputs, specs_in), ("output", outputs, specs_out)):
            for k, (x, spec) in enumerate(zip(xs, specs)):
                pointers.append(self._address(x, spec, f"'{name}' {what} {k}"))
        if self.device_kind == "host" and len(pointers) > HOST_RUNTIME_MAX_BUFFERS:
            self._host_direct().call(name, pointers, specs_in + specs_out)
            return outputs
        array = (ctypes.c_void_p * max(len(pointers), 1))(*pointers)
        raw_stream = self._stream(stream)
        _check(self._lib.strata_call(self._handle, name.encode(), array, len(pointers),
                                     raw_stream), f"{self.path}: '{name}'")
        return outputs

    def _host_direct(self):
        if self._direct is None:
            self._direct = _HostEntryPoints(self.path)
        return self._direct

    def synchronize(self):
        """Waits for the work launched on the executable's device."""
        _check(self._lib.strata_synchronize(self._handle), f"{self.path}: synchronize")

    def release(self):
        """Unloads the artifact (also done when the object is collected)."""
        if getattr(self, "_handle", None) is not None:
            self._direct = None
            self._lib.strata_release(self._handle)
            self._handle = None

    __del__ = release

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    def __repr__(self):
        return (f"Executable({self.path!r}, device_kind={self.device_kind!r}, "
                f"chip={self.chip!r}, functions={self.functions})")

    # --- arguments --------------------------------------------------------

    def _empty(self, spec, numpy_mode):
        shape, elem = tuple(spec["shape"]), spec["type"]
        if numpy_mode and self.device_kind == "host":
            import numpy as np
            if elem not in NUMPY_DTYPES:
                raise ArgumentError(f"NumPy has no {elem} arrays: pass the outputs")
            if elem == "bf16":
                try:
                    import ml_dtypes  # noqa: F401  (registers numpy.dtype("bfloat16"))
                except ImportError:
                    raise ArgumentError("bf16 NumPy arrays need ml_dtypes: pass the outputs")
            return np.empty(shape, dtype=NUMPY_DTYPES[elem])
        torch = _torch()
        if torch is None:
            raise ImportError("allocating outputs needs torch (or pass NumPy arrays)")
        return torch.empty(shape, dtype=getattr(torch, TORCH_DTYPES[elem]), device=self.device)

    def _address(self, x, spec, what):
        """The address of x after checking it against spec."""
        shape, elem = tuple(spec["shape"]), spec["type"]
        want = f"{elem} {list(shape)}"
        if _is_torch_tensor(x):
            torch = sys.modules["torch"]
            if x.dtype != getattr(torch, TORCH_DTYPES.get(elem, "_"), None):
                raise ArgumentError(f"{what}: expected {want}, got {x.dtype} {list(x.shape)}")
            if tuple(x.shape) != shape:
                raise ArgumentError(f"{what}: expected shape {list(shape)}, got {list(x.shape)}")
            if not x.is_contiguous():
                raise ArgumentError(f"{what}: expected a contiguous (row-major) tensor, got "
                                 f"strides {x.stride()}; call .contiguous()")
            if self.device_kind == "host":
                if x.device.type != "cpu":
                    raise ArgumentError(f"{what}: this host artifact takes CPU tensors, "
                                     f"got one on {x.device}")
            elif x.device.type != "cuda" or x.device.index != self.ordinal:
                raise ArgumentError(f"{what}: this artifact runs on cuda:{self.ordinal}, "
                                 f"got a tensor on {x.device}")
            return x.data_ptr() or None
        if _is_numpy_array(x):
            if self.device_kind != "host":
                raise ArgumentError(f"{what}: this artifact runs on cuda:{self.ordinal}, "
                                 "got a NumPy array (host memory)")
            if not _numpy_dtype_is(x.dtype, elem):
                raise ArgumentError(f"{what}: expected {want}, got {x.dtype} {list(x.shape)}")
            if tuple(x.shape) != shape:
                raise ArgumentError(f"{what}: expected shape {list(shape)}, got {list(x.shape)}")
            if not x.flags["C_CONTIGUOUS"]:
                raise ArgumentError(f"{what}: expected a C-contiguous array; "
                                 "use numpy.ascontiguousarray")
            return x.ctypes.data or None
        raise ArgumentError(f"{what}: expected a tensor ({want}), got {type(x).__name__}")

    def _stream(self, stream):
        if self.device_kind == "host":
            return None
        if isinstance(stream, int):
            return stream or None
        if stream is not None:
            return stream.cuda_stream or None
        torch = _torch()
        if torch is None:
            return None
        return torch.cuda.current_stream(self.ordinal).cuda_stream or None


# The most buffers libStrataRuntime's host device passes to a function;
# functions taking more (a model with many parameters) are called here
# through the same ABI (docs/abi.md).
HOST_RUNTIME_MAX_BUFFERS = 32


@functools.lru_cache(maxsize=None)
def _descriptor_type(rank):
    """The ctypes struct of a rank-`rank` memref descriptor."""
    fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
              ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    return type(f"MemRef{rank}D", (ctypes.Structure,), {"_fields_": fields})


class _HostEntryPoints:
    """A host library's `_mlir_ciface_<fn>` entry points, called with one
    memref descriptor per dense row-major buffer."""

    def __init__(self, path):
        self._lib = ctypes.CDLL(path)

    def call(self, name, pointers, specs):
        try:
            fn = getattr(self._lib, f"_mlir_ciface_{name}")
        except AttributeError:
            raise StrataRuntimeError(f"the library exports no function _mlir_ciface_{name}")
        fn.restype = None
        descs = []
        for ptr, spec in zip(pointers, specs):
            shape = spec["shape"]
            d = _descriptor_type(len(shape))()
            d.allocated = d.aligned = ptr
            d.offset = 0
            stride = 1
            for k in reversed(range(len(shape))):
                d.sizes[k] = shape[k]
                d.strides[k] = stride
                stride *= shape[k]
            descs.append(d)
        fn(*[ctypes.byref(d) for d in descs])


def load(path, device=None):
    """Executable(path, device)."""
    return Executable(path, device)
