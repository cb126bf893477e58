"""Calls a Strata host library through ctypes with the ABI of docs/abi.md:
`_mlir_ciface_<fn>(Desc *in..., Desc *out...)`, each argument a pointer to
a memref descriptor {allocated, aligned, offset, sizes[r], strides[r]}, the
outputs allocated by the caller after the inputs."""

import ctypes
import functools


@functools.lru_cache(maxsize=None)
def descriptor_type(rank):
    """The ctypes struct of a rank-`rank` memref descriptor."""
    fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
              ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    return type(f"MemRef{rank}D", (ctypes.Structure,), {"_fields_": fields})


def descriptor(t):
    """The descriptor of a contiguous CPU tensor (it does not keep t alive)."""
    if t.device.type != "cpu" or not t.is_contiguous():
        raise ValueError("Strata host libraries take contiguous CPU tensors")
    d = descriptor_type(t.dim())()
    ptr = t.data_ptr()
    d.allocated = d.aligned = ptr
    d.offset = 0
    for k in range(t.dim()):
        d.sizes[k] = t.shape[k]
        d.strides[k] = t.stride(k)
    return d


class Library:
    """A loaded Strata library and one of its entry points."""

    def __init__(self, path, func_name):
        self.path = str(path)
        self._lib = ctypes.CDLL(self.path)
        self._fn = getattr(self._lib, f"_mlir_ciface_{func_name}")
        self._fn.restype = None

    def __call__(self, inputs, outputs):
        """Runs the function: inputs and outputs are contiguous CPU tensors;
        outputs are written, and must not overlap the inputs."""
        descs = [descriptor(t) for t in list(inputs) + list(outputs)]
        self._fn(*[ctypes.byref(d) for d in descs])
