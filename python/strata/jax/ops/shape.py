"""Shapes and data movement: broadcast_in_dim, reshape, squeeze,
expand_dims, transpose, concatenate, split, slice, dynamic_slice,
dynamic_update_slice, pad, rev and iota.

Every value is a fresh row-major tensor, so a reshape is a
tensor.expand_shape/collapse_shape, and so is a transpose or a broadcast
that only moves or inserts size-1 dimensions (JAX writes many: keepdims
broadcasts of reductions, the unit axes of attention's einsums). A real
transpose of a function argument is left to the caller (the builder's
permuted arguments); one of a value in a permuted layout composes with it.
"""

from ...lowering import scalar as S
from ...lowering.helpers import (broadcast_to, concatenate as concat, drop_dims, extract_slice,
                                 insert_slice, pad, reshape, transpose)
from ...lowering.ops import gather_at
from ...mlir_builder import Laid, Value, affine_map, identity_map, inverse
from . import lowering


def unit_moves(shape, perm):
    """Whether permuting `shape` by perm moves only size-1 dimensions (the
    others keep their order): then it is a reshape."""
    real = [p for p in perm if shape[p] != 1]
    return real == sorted(real)


def permute(b, v, perm):
    """v (a Value or Laid) permuted: result dimension i is v's dimension
    perm[i]; a reshape when only size-1 dimensions move (from the source
    of a permuted value when that is one), else a transpose (composed with
    v's layout or the transpose v is)."""
    perm = [int(p) for p in perm]
    src, comp = v, perm
    if isinstance(v, Laid):
        inv = inverse(v.perm)
        src, comp = v.phys, [inv[p] for p in perm]
    elif v.name in b.transpose_source:
        src, first = b.transpose_source[v.name]
        comp = [first[p] for p in perm]
    shape = [v.shape[p] for p in perm]
    if unit_moves(src.shape, comp):
        return reshape(b, src, shape)
    return transpose(b, v, perm)


def pad_general(cx, v, low, high, interior, value):
    """XLA's pad: `interior` elements of `value` between neighbours, then
    `low`/`high` at the edges, where a negative amount removes elements.
    value: a Python scalar or a rank-0 tensor."""
    b = cx.b
    v = b.logical(v)
    rank = v.rank
    scalar = value
    if isinstance(value, (Value, Laid)):
        scalar = b.op(f"{{r}} = tensor.extract {value.name}[] : {value.type}",
                      value.type, "padv").name
    if any(interior):
        shape = [s + (s - 1) * i for s, i in zip(v.shape, interior)]
        t = v.type.with_shape(shape)
        dest = broadcast_to(cx, value, shape) if isinstance(value, (Value, Laid)) else \
            b.fill(value, t)
        v = insert_slice(b, v, dest, [0] * rank, [i + 1 for i in interior])
    crop_lo = [max(-lo, 0) for lo in low]
    crop_hi = [max(-hi, 0) for hi in high]
    if any(crop_lo) or any(crop_hi):
        sizes = [s - a - z for s, a, z in zip(v.shape, crop_lo, crop_hi)]
        v = extract_slice(b, v, crop_lo, sizes, [1] * rank)
    return pad(b, v, [max(lo, 0) for lo in low], [max(hi, 0) for hi in high], scalar)


@lowering("broadcast_in_dim")
def broadcast_in_dim(cx, x, shape, broadcast_dimensions, **_):
    """out[i...] = x[i[bd[0]], i[bd[1]], ...]: a reshape when it only adds
    size-1 dimensions, else a copy reading x through a projected map."""
    b, out = cx.b, cx.out
    if not isinstance(x, (Value, Laid)):
        return b.fill(x, out)
    bd = list(broadcast_dimensions)
    if x.type.numel == out.numel:
        return reshape(b, x, out.shape)
    stretched = [i for i in range(x.rank) if x.shape[i] == 1 and out.shape[bd[i]] != 1]
    v = drop_dims(b, x, stretched)
    m = affine_map(out.rank, [bd[i] for i in range(x.rank) if i not in stretched])
    init = b.empty(out)
    res = b.generic([(v, m)], [(init, identity_map(out.rank))], ["parallel"] * out.rank,
                    lambda r, a, _o: a, "bcast")[0]
    b.broadcast_source[res.name] = x
    return res


@lowering("reshape", layouts=True)
def reshape_(cx, x, new_sizes=None, dimensions=None, **_):
    if dimensions is not None:
        x = permute(cx.b, x, dimensions)
    return reshape(cx.b, cx.tensor(x, 0), cx.out.shape)


@lowering("squeeze", "expand_dims")
def squeeze(cx, x, **_):
    return reshape(cx.b, cx.tensor(x, 0), cx.out.shape)


@lowering("transpose", layouts=True)
def transpose_(cx, x, permutation, **_):
    return permute(cx.b, cx.tensor(x, 0), permutation)


@lowering("concatenate")
def concatenate(cx, *xs, dimension, **_):
    parts = [cx.tensor(x, k) for k, x in enumerate(xs)]
    return concat(cx, parts, int(dimension), cx.out)


@lowering("split")
def split(cx, x, sizes, axis, **_):
    b = cx.b
    outs, start = [], 0
    for s in sizes:
        offsets, shape = [0] * x.rank, list(x.shape)
        offsets[axis], shape[axis] = start, s
        outs.append(x if s == x.shape[axis] else
                    extract_slice(b, x, offsets, shape, [1] * x.rank))
        start += s
    return outs


@lowering("slice")
def slice_(cx, x, start_indices, limit_indices, strides=None, **_):
    x = cx.tensor(x, 0)
    strides = list(strides) if strides else [1] * x.rank
    if tuple(cx.out.shape) == tuple(x.shape):
        return x
    return extract_slice(cx.b, x, list(start_indices), list(cx.out.shape), strides)


def _clamped_starts(x, starts, sizes):
    """XLA clamps a dynamic slice's start so that the slice fits."""
    return [min(max(int(s), 0), d - n) for s, d, n in zip(starts, x.shape, sizes)]


@lowering("dynamic_slice")
def dynamic_slice(cx, x, *starts, slice_sizes, **_):
    """A slice at known starts (literals, folded scalars); at starts
    computed at run time, a gather reading each start (clamped)."""
    b = cx.b
    x = cx.tensor(x, 0)
    sizes = list(slice_sizes)
    if not any(isinstance(s, (Value, Laid)) for s in starts):
        return extract_slice(b, x, _clamped_starts(x, starts, sizes), sizes, [1] * x.rank)
    known = {k: s for k, s in enumerate(starts) if not isinstance(s, (Value, Laid))}
    dynamic = [(k, s) for k, s in enumerate(starts) if isinstance(s, (Value, Laid))]
    rank = x.rank

    def positions(r, loaded):
        pos = []
        for d in range(rank):
            if d in known:
                start = r.const(min(max(int(known[d]), 0), x.shape[d] - sizes[d]), "index")
            else:
                k = [kk for kk, _ in dynamic].index(d)
                e = dynamic[k][1].elem
                s = S.to_index(r, loaded[k], e)
                lo, hi = r.const(0, "index"), r.const(x.shape[d] - sizes[d], "index")
                start = S.binary(r, "min", S.binary(r, "max", s, lo, "index"), hi, "index")
            pos.append(S.binary(r, "add", start, r.index(d), "index"))
        return pos
    ins = [(s, affine_map(rank, [])) for _, s in dynamic]
    return gather_at(cx, x, positions, ins)


@lowering("dynamic_update_slice")
def dynamic_update_slice(cx, x, update, *starts, **_):
    if any(isinstance(s, (Value, Laid)) for s in starts):
        cx.unsupported("dynamic_update_slice at positions computed at run time (a scatter)")
    x, update = cx.tensor(x, 0), cx.tensor(update, 1)
    return insert_slice(cx.b, update, x, _clamped_starts(x, starts, update.shape))


@lowering("pad")
def pad_(cx, x, value, padding_config, **_):
    x = cx.tensor(x, 0)
    low, high, interior = ([int(c[k]) for c in padding_config] for k in range(3))
    return pad_general(cx, x, low, high, interior, value)


@lowering("rev")
def rev(cx, x, dimensions, **_):
    """x read backwards along `dimensions` (a gather at n - 1 - i)."""
    x = cx.tensor(x, 0)
    dims = set(int(d) for d in dimensions)

    def positions(r, _):
        pos = []
        for d in range(x.rank):
            i = r.index(d)
            if d in dims:
                i = S.binary(r, "sub", r.const(x.shape[d] - 1, "index"), i, "index")
            pos.append(i)
        return pos
    return gather_at(cx, x, positions, [])


@lowering("iota")
def iota(cx, dtype=None, shape=None, dimension=0, **_):
    """The index along `dimension`, in the result's element type."""
    out = cx.out
    e = out.elem
    compute = "f32" if e in ("bf16", "f16") else e
    via = "i64" if compute.startswith("f") or compute == "i1" else compute

    def body(r, _o):
        i = r.op("arith.index_cast", [r.index(int(dimension))], None,
                 operand_types=f"index to {via}")
        return S.cast(r, S.cast(r, i, via, compute), compute, e)
    init = cx.b.empty(out)
    return cx.b.generic([], [(init, identity_map(out.rank))], ["parallel"] * out.rank,
                        body, "iota")[0]
