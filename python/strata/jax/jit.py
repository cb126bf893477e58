"""strata.jax.jit: trace, convert, strata-compile, load; one compiled
program per input signature.

A StrataFunction is called like the function. Its arguments are any pytree
(dicts of parameters, tuples, dataclasses JAX knows); the arrays among the
leaves (jax.Array, NumPy arrays and scalars) are the program's inputs, every
other leaf (Python numbers, strings, None) is a static value baked into the
program, as `jax.jit`'s static arguments are. Each distinct signature (the
tree structure, the arrays' shapes and dtypes, the static values) is traced
with `jax.make_jaxpr`, converted and compiled once; later calls with the
same signature reuse the program. Compiling goes through strata.compiler
(per-process and on-disk caches shared with the PyTorch front end).

Outputs have the function's output structure: jax.Arrays, or NumPy arrays
when every array argument was a NumPy array. Arrays are passed to the host
library by address (a jax.Array on the CPU is read in place); an argument
the program takes permuted (a channels-last image, a transposed weight) is
permuted by the caller, and for jax.Arrays, which are immutable, the
permuted copy is kept while the same array is passed again.
"""

import jax
import numpy as np

from .. import compiler
from .export import convert, function_name

# MLIR element type -> NumPy dtype (bf16: ml_dtypes' bfloat16, as JAX's).
NP_DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
             "bf16": jax.numpy.bfloat16, "i64": np.int64, "i32": np.int32, "i16": np.int16,
             "i8": np.int8, "i1": np.bool_}


def _is_array(x):
    return isinstance(x, (jax.Array, np.ndarray, np.generic))


def _key_part(path):
    """A pytree path entry as a name part (dict key, index, attribute)."""
    for attr in ("key", "idx", "name"):
        if hasattr(path, attr):
            return str(getattr(path, attr))
    return str(path)


def _arg_names(args, kwargs, mask):
    """A readable name per array leaf: argument position or keyword, then
    the path inside it (`arg0_params_Dense_0_kernel`)."""
    leaves = jax.tree_util.tree_flatten_with_path((args, kwargs))[0]
    names = []
    for (path, _), is_arr in zip(leaves, mask):
        if not is_arr:
            continue
        parts = [_key_part(p) for p in path]
        head = f"arg{parts[1]}" if parts[0] == "0" else parts[1]
        names.append("_".join([head] + parts[2:]))
    return names


def trace(fn, args, kwargs, constants=False, func_name="forward"):
    """(Program, output tree, array mask of the flattened arguments) of
    fn(*args, **kwargs)."""
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
    mask = [_is_array(x) for x in leaves]
    # Weakly typed arrays (jnp.asarray(2.0)) promote as jax.jit traces them.
    specs = [jax.ShapeDtypeStruct(np.shape(x), x.dtype, weak_type=_weak(x))
             for x, m in zip(leaves, mask) if m]

    def flat_fn(*arrays):
        it = iter(arrays)
        full = [next(it) if m else x for x, m in zip(leaves, mask)]
        a, k = jax.tree_util.tree_unflatten(treedef, full)
        return fn(*a, **k)

    closed, out_shape = jax.make_jaxpr(flat_fn, return_shape=True)(*specs)
    out_tree = jax.tree_util.tree_structure(out_shape)
    program = convert(closed, func_name, function_name(fn), constants,
                      _arg_names(args, kwargs, mask))
    return program, out_tree, mask


def _weak(x):
    return bool(getattr(x, "weak_type", False))


def signature(leaves, treedef):
    """The cache key of a call: the tree structure, the arrays' shapes,
    dtypes and weak types, the static leaves' values."""
    key = []
    for x in leaves:
        if _is_array(x):
            key.append(("array", x.shape, x.dtype, _weak(x)))
        else:
            try:
                hash(x)
                key.append((type(x).__name__, x))
            except TypeError:
                key.append((type(x).__name__, repr(x)))
    return treedef, tuple(key)


class CompiledProgram:
    """One converted program and its executable, called on the flattened
    arguments; returns the outputs in the function's output structure."""

    def __init__(self, program, executable, out_tree, mask):
        self.program = program
        self.executable = executable
        self.out_tree = out_tree
        self.mask = mask
        self._permuted = {}
        self._alloc = None  # the jitted allocation of the results

    def _argument(self, arrays, kind, key, perm, t):
        src = arrays[key] if kind == "input" else self.program.consts[key]
        if perm is None:
            return np.asarray(src, dtype=NP_DTYPES[t.elem])
        cached = self._permuted.get((kind, key, perm))
        if cached is not None and cached[0] is src:
            return cached[1]
        x = np.ascontiguousarray(np.transpose(np.asarray(src, dtype=NP_DTYPES[t.elem]), perm))
        if isinstance(src, jax.Array):  # immutable: the copy stays valid
            self._permuted[(kind, key, perm)] = (src, x)
        return x

    def __call__(self, leaves):
        arrays = [x for x, m in zip(leaves, self.mask) if m]
        inputs = []
        for (kind, key, perm), t in zip(self.program.args, self.program.arg_types):
            x = self._argument(arrays, kind, key, perm, t)
            if tuple(x.shape) != t.shape:
                raise TypeError(f"argument {kind} {key}: expected {t}, got {x.shape} {x.dtype}")
            inputs.append(x)
        as_numpy = bool(arrays) and all(isinstance(x, (np.ndarray, np.generic)) for x in arrays)
        results = None if as_numpy else self._jax_outputs()
        if results is None:
            outputs = [np.empty(t.shape, dtype=NP_DTYPES[t.elem])
                       for t in self.program.result_types]
        else:
            results, outputs = results
        self.executable.call(self.program.func_name, inputs, outputs)
        flat = []
        for index, perm in self.program.results:
            if results is None:
                y = outputs[index]
                flat.append(y if perm is None else np.ascontiguousarray(np.transpose(y, perm)))
            else:
                y = results[index]
                flat.append(y if perm is None else jax.numpy.transpose(y, perm))
        return jax.tree_util.tree_unflatten(self.out_tree, flat)

    def _jax_outputs(self):
        """(jax.Arrays, NumPy views of their buffers) for the results, or
        None where the views would not share the buffers. Making a jax.Array
        from a NumPy array costs a transfer (about 150 us, even for a few
        elements); instead one cached jitted function makes all of a call's
        results (filled, so never a shared constant), which the library then
        writes in place: each is a fresh buffer nothing else references."""
        if self._alloc is False:
            return None
        if self._alloc is None:
            types = [(t.shape, NP_DTYPES[t.elem]) for t in self.program.result_types]
            self._alloc = jax.jit(lambda s: tuple(jax.numpy.full(shape, s, dtype)
                                                  for shape, dtype in types))
        results = self._alloc(0)
        views = []
        for y in results:
            y.block_until_ready()
            v = np.asarray(y)
            if v.__array_interface__["data"][0] != y.unsafe_buffer_pointer():
                self._alloc = False  # a copy: allocate NumPy outputs instead
                return None
            views.append(v)
        return results, views


class StrataFunction:
    """A function compiled with Strata; call it like the function. Compiles
    once per signature (see `signature`). target: a host target name or
    description file ("host": this machine's CPU). constants: arrays the
    function closes over become constants of the program (compiled in)
    instead of arguments passed at each call."""

    def __init__(self, fn, target="host", constants=False, workdir=None, func_name="forward"):
        if compiler.target_device_type(target) != "cpu":
            raise ValueError(f"strata.jax runs host targets, got {target!r}")
        self.fn = fn
        self.target = target
        self.constants = constants
        self.workdir = workdir
        self.func_name = func_name
        self._cache = compiler.SignatureCache()
        self._nnx = _nnx_module(fn)

    def _bind(self, args, kwargs):
        """(function, args, kwargs, static key) of a call. An nnx.Module is
        called through its current state (an argument, so that parameter
        updates are seen) and its graph definition (static)."""
        if self._nnx is None:
            return self.fn, args, kwargs, None
        graphdef, state = self._nnx.split(self.fn)
        merge = self._nnx.merge

        def call(state_, *a, **k):
            return merge(graphdef, state_)(*a, **k)
        call.__qualname__ = type(self.fn).__qualname__
        return call, (state,) + tuple(args), kwargs, graphdef

    def _entry(self, fn, args, kwargs, static):
        leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
        key = (signature(leaves, treedef), static)
        entry = self._cache.get(key)
        if entry is None:
            program, out_tree, mask = trace(fn, args, kwargs, self.constants, self.func_name)
            exe = compiler.build_executable(program, self.target, self.workdir)
            entry = CompiledProgram(program, exe, out_tree, mask)
            self._cache.put(key, entry)
        return entry, leaves

    def program_for(self, *args, **kwargs):
        """The CompiledProgram for these arguments, compiling on a miss."""
        return self._entry(*self._bind(args, kwargs))[0]

    def __call__(self, *args, **kwargs):
        entry, leaves = self._entry(*self._bind(args, kwargs))
        return entry(leaves)

    def mlir(self, *args, **kwargs):
        """The MLIR text compiled for these arguments."""
        return self.program_for(*args, **kwargs).program.mlir

    def cache_info(self):
        """Hits and misses of the signature cache, and its size."""
        return self._cache.cache_info()


def _nnx_module(fn):
    """flax.nnx when fn is an nnx.Module, else None (flax not imported
    unless the caller has)."""
    import sys
    nnx = sys.modules.get("flax.nnx")
    if nnx is not None and isinstance(fn, nnx.Module):
        return nnx
    return None


def jit(fn=None, *, target="host", constants=False, workdir=None):
    """Compiles fn with Strata for `target` ("host") on its first call for
    each signature of its arguments; returns a StrataFunction. Usable as a
    decorator, with or without arguments. fn may be a function, a bound
    method (a Flax linen `model.apply`, called with the parameters as an
    argument) or a Flax nnx.Module."""
    if fn is None:
        return lambda f: StrataFunction(f, target, constants, workdir)
    return StrataFunction(fn, target, constants, workdir)
