"""Gathers: XLA's gather as jnp.take, x[idx] and embedding lookups trace
it, as a linalg.generic over the result that reads the start indices as
inputs and the operand with tensor.extract at the computed position.

Indices are clamped so that each slice is in bounds (modes clip and
promise_in_bounds, as XLA does); in mode fill_or_drop (jnp.take's default)
a slice that is out of bounds gives the fill value (NaN for floats, the
smallest integer for signed integers, as jnp.take). jnp has already
wrapped negative indices before the gather.
"""

from ...lowering import scalar as S
from ...lowering.helpers import extract_slice, reshape
from ...lowering.ops import gather_at
from ...mlir_builder import affine_map, is_float
from . import lowering


@lowering("gather")
def gather(cx, x, idx, dimension_numbers, slice_sizes, mode=None, fill_value=None, **_):
    b = cx.b
    x, idx = cx.tensor(x, 0), cx.tensor(idx, 1)
    dn = dimension_numbers
    offset_dims = list(dn.offset_dims)
    start_map = list(dn.start_index_map)
    out = cx.out
    # The result's dimensions are the indices' (but the index vector, the
    # last) and the slices'; an operand batching dimension is read at the
    # position of its paired indices dimension (take_along_axis).
    batch_out = [d for d in range(out.rank) if d not in offset_dims]
    batching = dict(zip(getattr(dn, "operand_batching_dims", ()),
                        getattr(dn, "start_indices_batching_dims", ())))
    dropped = set(dn.collapsed_slice_dims) | set(batching)
    slice_dims = [d for d in range(x.rank) if d not in dropped]
    out_of = dict(zip(slice_dims, offset_dims))   # operand dim -> its result dim
    out_of.update({d: batch_out[i] for d, i in batching.items()})
    sizes = list(slice_sizes)
    # One input per component of the index vector (the last dimension).
    ins = []
    for k in range(len(start_map)):
        offsets = [0] * idx.rank
        offsets[-1] = k
        comp = extract_slice(b, idx, offsets, list(idx.shape[:-1]) + [1], [1] * idx.rank)
        comp = reshape(b, comp, idx.shape[:-1])
        ins.append((comp, affine_map(out.rank, batch_out)))
    ie = idx.elem
    fill = "FILL_OR_DROP" in str(mode)

    def starts(r, loaded):
        """(clamped start, in bounds) per indexed operand dimension."""
        res = {}
        for k, d in enumerate(start_map):
            s = S.cast(r, loaded[k], ie, "i64") if ie != "i64" else loaded[k]
            hi = x.shape[d] - sizes[d]
            ok = S.binary(r, "and", S.compare(r, "ge", s, r.const(0, "i64"), "i64"),
                          S.compare(r, "le", s, r.const(hi, "i64"), "i64"), "i1")
            s = S.binary(r, "min", S.binary(r, "max", s, r.const(0, "i64"), "i64"),
                         r.const(hi, "i64"), "i64")
            res[d] = (S.to_index(r, s, "i64"), ok)
        return res

    oks = []

    def positions(r, loaded):
        st = starts(r, loaded)
        oks[:] = [ok for _, ok in st.values()]
        pos = []
        for d in range(x.rank):
            p = st[d][0] if d in st else None
            if d in out_of:
                i = r.index(out_of[d])
                p = i if p is None else S.binary(r, "add", p, i, "index")
            pos.append(p if p is not None else r.const(0, "index"))
        return pos

    def post(r, loaded, v):
        ok = None
        for good in oks:
            ok = good if ok is None else S.binary(r, "and", ok, good, "i1")
        e = out.elem
        value = fill_value
        if value is None:
            value = float("nan") if is_float(e) else (0 if e == "i1" else -(1 << (int(e[1:]) - 1)))
        return v if ok is None else S.select(r, ok, v, r.const(value, e), e)

    return gather_at(cx, x, positions, ins, post if fill else None)
