"""Compiling and loading programs, shared by the front ends: strata-compile
through strata.tools, a per-process table of artifacts (one per MLIR text
and target), a persistent on-disk cache of host libraries, and loading
through strata.runtime. Nothing here imports a framework.

A program is any object with `mlir` (the text) and `func_name` (the
function the caller runs). Host libraries are kept in the on-disk cache
(see `disk_cache_dir`) keyed by the program, the target and the compiler,
so that a later process loads them instead of compiling again; NVIDIA
bundles stay per process.
"""

import atexit
import contextlib
import hashlib
import json
import os
import shutil
import tempfile
import threading
from collections import namedtuple
from dataclasses import dataclass
from pathlib import Path

from . import runtime as strata_runtime
from . import tools

CacheInfo = namedtuple("CacheInfo", "hits misses entries")


@dataclass
class Program:
    """A converted program: its MLIR text, the function the caller runs,
    where each function argument comes from and each result goes (one
    record per argument and per result, in the front end's terms: see
    strata.torch.export.Program and strata.jax.export.Program) and their
    types."""

    mlir: str
    func_name: str
    args: list
    arg_types: list
    results: list
    result_types: list


class SignatureCache:
    """The compiled programs of a callable by call signature, with hit and
    miss counts; a miss is recorded by the lookup that found nothing."""

    def __init__(self):
        self._entries = {}
        self._hits = 0
        self._misses = 0
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                self._misses += 1
            else:
                self._hits += 1
            return entry

    def put(self, key, entry):
        with self._lock:
            self._entries[key] = entry

    def cache_info(self):
        """Hits and misses of the signature cache, and its size."""
        return CacheInfo(self._hits, self._misses, len(self._entries))

    def __len__(self):
        return len(self._entries)

    def __iter__(self):
        """The signatures compiled so far."""
        return iter(list(self._entries))


_workdir = None
_artifacts = {}
_executables = {}
_lock = threading.Lock()


def _keep_files():
    """$STRATA_KEEP (or $STRATA_TORCH_KEEP, its earlier name) is set."""
    return bool(os.environ.get("STRATA_KEEP") or os.environ.get("STRATA_TORCH_KEEP"))


def _default_workdir():
    """A per-process directory for MLIR files and libraries, removed at exit
    unless $STRATA_KEEP is set."""
    global _workdir
    if _workdir is None:
        _workdir = Path(tempfile.mkdtemp(prefix="strata-"))
        if not _keep_files():
            atexit.register(shutil.rmtree, _workdir, True)
    return _workdir


def disk_cache_dir():
    """The persistent cache of host libraries: $STRATA_CACHE_DIR ("off" or
    empty: none), else $XDG_CACHE_HOME/strata, else ~/.cache/strata."""
    env = os.environ.get("STRATA_CACHE_DIR")
    if env is not None:
        return None if env in ("", "off") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "strata"


def _compiler_identity():
    """strata-compile and the Strata libraries beside it, by size and
    modification time: a rebuilt compiler misses the cache."""
    try:
        exe = Path(tools.tool("strata-compile")).resolve()
    except tools.ToolNotFoundError:
        return None
    files = [exe] + sorted((exe.parent.parent / "lib").glob("libStrata*.so*"))
    return ";".join(f"{f.name}:{f.stat().st_size}:{f.stat().st_mtime_ns}"
                    for f in files if f.is_file())


def _target_identity(target):
    """What the description of `target` depends on besides the compiler:
    a description file's text; for `host`, the processor and the cores
    this process may use (the detected description's core count)."""
    name = str(target)
    if name.endswith(".json") and Path(name).is_file():
        return hashlib.sha256(Path(name).read_bytes()).hexdigest()
    if name != "host":
        return ""
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{model};{len(os.sched_getaffinity(0))} cores"


def _disk_cached(program, target, kind):
    """The path of a host library in the persistent cache, or None when the
    cache is off or the artifact is not a host library (an NVIDIA bundle
    stays per process)."""
    directory = disk_cache_dir()
    compiler = _compiler_identity() if directory is not None and kind == "cpu" else None
    if compiler is None:
        return None
    key = hashlib.sha256("\n".join([str(target), _target_identity(target), compiler,
                                    program.mlir]).encode()).hexdigest()[:32]
    return directory / f"{program.func_name}-{key}.so"


def _store(path, cached):
    """Copies a compiled library into the cache (atomically: a concurrent
    reader sees the whole file or none); a cache that cannot be written is
    skipped."""
    with contextlib.suppress(OSError):
        cached.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cached.parent, prefix=".tmp-")
        os.close(fd)
        shutil.copyfile(path, tmp)
        os.replace(tmp, cached)


def target_device_type(target):
    """"cpu" or "cuda": where the artifacts of `target` run."""
    name = str(target)
    if name.endswith(".json") and Path(name).is_file():
        plugin = json.loads(Path(name).read_text()).get("plugin")
    else:
        plugin = name.split("-")[0]
    if plugin in ("host", "cpu"):
        return "cpu"
    if plugin == "nvidia":
        return "cuda"
    raise ValueError(f"target {target!r}: Strata's front ends run host and NVIDIA targets "
                     '(e.g. "host", "nvidia-h200")')


def build_executable(program, target="host", workdir=None, ordinal=None):
    """Compiles a program for `target` and loads it with strata.runtime (an
    NVIDIA bundle on CUDA device `ordinal`); compiled once per MLIR text
    and target in this process (host libraries: once per MLIR text,
    target and compiler on this machine, through the on-disk cache),
    loaded once per device."""
    digest = hashlib.sha256(f"{target}\n{program.mlir}".encode()).hexdigest()[:16]
    kind = target_device_type(target)
    if kind != "cuda":
        ordinal = None
    with _lock:
        exe = _executables.get((digest, ordinal))
        if exe is not None:
            return exe
        path = _artifacts.get(digest)
        if path is None:
            cached = _disk_cached(program, target, kind)
            if cached and cached.is_file():
                path = cached
            else:
                path = _compile(program, target, workdir, digest, kind)
                if cached:
                    _store(path, cached)
            _artifacts[digest] = path
        exe = strata_runtime.Executable(path, device=ordinal)
        if program.func_name not in exe.functions:
            raise strata_runtime.StrataRuntimeError(
                f"{path} has no function '{program.func_name}' (it has: "
                f"{', '.join(exe.functions) or 'none'})")
        _executables[(digest, ordinal)] = exe
        return exe


def _compile(program, target, workdir, digest, kind):
    wd = Path(workdir) if workdir else _default_workdir()
    wd.mkdir(parents=True, exist_ok=True)
    src = wd / f"{program.func_name}-{digest}.mlir"
    out = wd / f"{program.func_name}-{digest}{'.so' if kind == 'cpu' else '.json'}"
    src.write_text(program.mlir)
    try:
        tools.compile_mlir(src, out, target=target, emit="lib")
    except tools.StrataCompileError as e:
        if workdir is None and not _keep_files():
            e.args = (e.args[0] + "\n(the file is removed at exit unless "
                      "STRATA_KEEP=1 is set)",)
        raise
    return out
