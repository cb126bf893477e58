"""Tensor-level building blocks shared by the lowerings of both front ends:
broadcasting elementwise generics, reshapes through expand/collapse_shape,
transposes, reductions and scans, slices, concatenation, padding and casts.

Broadcasting follows NumPy (and PyTorch): shapes align on the right and a
size-1 dimension stretches. A stretched size-1 dimension is first collapsed away
(tensor.collapse_shape), so every indexing map is a projected permutation
(no constant-0 results), the form every linalg transformation handles.

Elementwise generics and reductions also take values in a permuted layout
(mlir_builder.Laid) when their lowering allows it (`layout=True`): they
loop over the physical layout and read every operand through a permuted
map, so that channels-last results of convolutions stay channels-last
through batch norms, activations and residual additions. Every other
helper takes the logical value first.
"""

import math

from ..mlir_builder import (Laid, TensorType, Value, affine_map, identity_map, inverse,
                            is_float)
from . import scalar as S


def norm_dim(dim, rank):
    """A dimension index in [0, rank), accepting negative indices."""
    r = max(rank, 1)
    if not -r <= dim < r:
        raise IndexError(f"dimension {dim} out of range for rank {rank}")
    return dim % r


def norm_dims(dims, rank):
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        return list(range(rank))
    if isinstance(dims, int):
        dims = [dims]
    return sorted({norm_dim(d, rank) for d in dims})


# -- reshapes -----------------------------------------------------------

def _segments(old, new):
    """Pairs (old dims, new dims) of contiguous groups with equal products,
    the finest common coarsening of two shapes of the same (non-zero)
    element count; None if there is none."""
    segs, i, j = [], 0, 0
    while i < len(old) and j < len(new):
        gi, gj, po, pn = [i], [j], old[i], new[j]
        i, j = i + 1, j + 1
        while po != pn:
            if po < pn and i < len(old):
                gi.append(i); po *= old[i]; i += 1
            elif pn < po and j < len(new):
                gj.append(j); pn *= new[j]; j += 1
            else:
                return None
        segs.append((gi, gj))
    if not segs:
        return None
    segs[-1][0].extend(range(i, len(old)))
    segs[-1][1].extend(range(j, len(new)))
    if any(old[k] != 1 for k in range(i, len(old))) or any(new[k] != 1 for k in range(j, len(new))):
        return None
    return segs


def _reassoc(groups):
    return "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"


def collapse(b, v, groups):
    """tensor.collapse_shape with the given reassociation (list of lists)."""
    v = b.logical(v)
    shape = [1] * len(groups)
    for k, g in enumerate(groups):
        for d in g:
            shape[k] *= v.shape[d]
    t = v.type.with_shape(shape)
    return b.op(f"{{r}} = tensor.collapse_shape {v.name} {_reassoc(groups)} : {v.type} into {t}", t)


def expand(b, v, groups, shape):
    v = b.logical(v)
    t = v.type.with_shape(shape)
    out = ", ".join(map(str, shape))
    return b.op(f"{{r}} = tensor.expand_shape {v.name} {_reassoc(groups)} output_shape [{out}]"
                f" : {v.type} into {t}", t)


def reshape(b, v, shape):
    """A reshape of a contiguous tensor, as collapse_shape and/or
    expand_shape over the common segments of both shapes. A reshape of a
    reshape starts from the original value."""
    shape = tuple(int(s) for s in shape)
    if tuple(v.shape) == shape:
        return v
    v = b.logical(v)
    v = b.view_source.get(v.name, v)
    if tuple(v.shape) == shape:
        return v
    if v.type.numel != math.prod(shape):
        raise ValueError(f"cannot reshape {v.type} to {list(shape)}")
    if v.rank == 0:
        out = expand(b, v, [], shape)
    elif not shape:
        out = collapse(b, v, [])
    else:
        segs = _segments(list(v.shape), list(shape))
        if segs is None:
            raise ValueError(f"cannot reshape {v.type} to {list(shape)}")
        out = v
        if any(len(gi) > 1 for gi, _ in segs):
            out = collapse(b, v, [gi for gi, _ in segs])
        if any(len(gj) > 1 for _, gj in segs):
            out = expand(b, out, [gj for _, gj in segs], shape)
    b.view_source[out.name] = v
    return out


def drop_dims(b, v, dims):
    """Removes the size-1 dimensions `dims` of v (one collapse_shape)."""
    dims = set(dims)
    if not dims:
        return v
    return reshape(b, v, [v.shape[d] for d in range(v.rank) if d not in dims])


# -- broadcasting and elementwise ----------------------------------------

def broadcast_shape(*shapes):
    rank = max((len(s) for s in shapes), default=0)
    out = [1] * rank
    for s in shapes:
        for k, d in enumerate(s):
            o = rank - len(s) + k
            if d != 1:
                if out[o] not in (1, d):
                    raise ValueError(f"shapes {shapes} do not broadcast")
                out[o] = d
    return tuple(out)


def operand_map(b, x, out_shape, out_perm=None):
    """x (a Value or Laid), reshaped if needed, and its indexing map when
    read with PyTorch broadcasting in a loop nest over out_shape (logical),
    laid out by out_perm (loop dimension i is logical dimension
    out_perm[i]; None: the identity)."""
    rank = len(out_shape)
    v, perm = (x.phys, x.perm) if isinstance(x, Laid) else (x, tuple(range(x.rank)))
    loop_of = inverse(out_perm) if out_perm is not None else list(range(rank))
    lead = rank - v.rank
    stretched = [i for i in range(v.rank)
                 if v.shape[i] == 1 and out_shape[lead + perm[i]] != 1]
    dims = [loop_of[lead + perm[i]] for i in range(v.rank) if i not in stretched]
    if stretched:
        v = drop_dims(b, v, stretched)
    return v, affine_map(rank, dims)


def _as_laid(b, x):
    """x as a Laid view of the value it is a transpose of, if it is one."""
    if isinstance(x, Value) and x.name in b.transpose_source:
        src, perm = b.transpose_source[x.name]
        return Laid(src, tuple(inverse(perm)))
    return x


def elementwise(cx, inputs, out_type, fn, compute=None, hint="v", raw=(), layout=False):
    """One linalg.generic over out_type's shape. inputs are Values (any
    broadcastable shape and element type) or Python scalars; each is cast
    to `compute` (default: the output's element type, f32 for bf16/f16),
    except the positions in `raw`, which keep their own type (a select's
    condition), and fn(region, *scalars) returns the result in `compute`,
    which is cast to the output's element type. With layout=True and an
    input of the result's rank in a permuted layout, the result has that
    layout (a Laid); otherwise inputs are taken in their logical layout."""
    b = cx.b
    out_elem = out_type.elem
    if compute is None:
        compute = "f32" if out_elem in ("bf16", "f16") else out_elem
    perm = None
    if layout:
        perm = next((x.perm for x in inputs if isinstance(x, Laid) and x.rank == out_type.rank),
                    None)
    else:
        inputs = [b.logical(x) for x in inputs]
    if perm is not None:
        # A transposed value is read from its source through the map.
        inputs = [_as_laid(b, x) for x in inputs]
    ins, slots = [], []
    for pos, x in enumerate(inputs):
        if isinstance(x, (Value, Laid)):
            v, m = operand_map(b, x, out_type.shape, perm)
            slots.append(("arg", len(ins), x.elem if pos not in raw else None))
            ins.append((v, m))
        else:
            slots.append(("const", x, "i1" if pos in raw else compute))
    phys_t = out_type if perm is None else out_type.with_shape([out_type.shape[p] for p in perm])
    init = b.empty(phys_t)

    def body(r, *args):
        vals = []
        for kind, payload, elem in slots:
            if kind == "arg":
                a = args[payload]
                vals.append(a if elem is None else S.cast(r, a, elem, compute))
            else:
                vals.append(r.const(payload, elem))
        res = fn(r, *vals)
        return S.cast(r, res, result_elem(r, res, compute, fn), out_elem)

    out = b.generic(ins, [(init, identity_map(out_type.rank))],
                    ["parallel"] * out_type.rank, body, hint)[0]
    return out if perm is None else Laid(out, perm)


def result_elem(r, res, compute, fn):
    """The element type of fn's result: compute, or i1 for predicates
    (fn.returns_bool)."""
    return "i1" if getattr(fn, "returns_bool", False) else compute


def predicate(fn):
    """Marks a scalar function of `elementwise` as returning an i1."""
    fn.returns_bool = True
    return fn


def cast_tensor(cx, v, elem, layout=False):
    """v converted to element type elem (as torch's .to)."""
    if v.elem == elem:
        return v if layout else cx.b.logical(v)
    return elementwise(cx, [v], v.type.with_elem(elem), lambda r, a: a,
                       compute=elem if elem != "i1" else None, layout=layout)


def broadcast_to(cx, v, shape):
    """v materialized at a broadcast shape (aten.expand)."""
    shape = tuple(shape)
    v = cx.b.logical(v)
    if tuple(v.shape) == shape:
        return v
    out = elementwise(cx, [v], v.type.with_shape(shape), lambda r, a: a, compute=v.elem)
    cx.b.broadcast_source[out.name] = v
    return out


def copy(cx, v):
    """A fresh tensor equal to v (so that results never alias arguments)."""
    return elementwise(cx, [v], v.type, lambda r, a: a, compute=v.elem, hint="copy")


# -- data movement ---------------------------------------------------------

def transpose(b, v, perm):
    """v permuted (result dimension i is v's dimension perm[i]). A function
    argument is instead passed permuted by the caller (Strata fuses a
    transpose into the operation that consumes it, to that operation's
    cost); a Laid value, or a transpose, is permuted from its source in one
    transpose."""
    perm = [int(p) for p in perm]
    if perm == list(range(v.rank)):
        return b.logical(v)
    if isinstance(v, Laid):
        inv = inverse(v.perm)
        src, perm = v.phys, [inv[p] for p in perm]
        if perm == list(range(src.rank)):
            return src
        v = src
    if v.name in b.transpose_source:
        src, first = b.transpose_source[v.name]
        v, perm = src, [first[p] for p in perm]
        if perm == list(range(v.rank)):
            return v
    arg = b.permuted_argument(v, perm)
    if arg is not None:
        return arg
    t = v.type.with_shape([v.shape[p] for p in perm])
    init = b.empty(t)
    out = b.op(f"{{r}} = linalg.transpose ins({v.name} : {v.type}) outs({init.name} : {t})"
               f" permutation = [{', '.join(map(str, perm))}]", t, "t")
    b.transpose_source[out.name] = (v, perm)
    return out


def extract_slice(b, v, offsets, sizes, strides, result_shape=None):
    """tensor.extract_slice; result_shape may drop unit dims (rank-reducing)."""
    v = b.logical(v)
    t = v.type.with_shape(result_shape if result_shape is not None else sizes)
    j = lambda xs: ", ".join(map(str, xs))
    return b.op(f"{{r}} = tensor.extract_slice {v.name}[{j(offsets)}] [{j(sizes)}] [{j(strides)}]"
                f" : {v.type} to {t}", t, "slice")


def insert_slice(b, src, dest, offsets, strides=None):
    src, dest = b.logical(src), b.logical(dest)
    j = lambda xs: ", ".join(map(str, xs))
    strides = strides or [1] * src.rank
    return b.op(f"{{r}} = tensor.insert_slice {src.name} into {dest.name}[{j(offsets)}]"
                f" [{j(src.shape)}] [{j(strides)}] : {src.type} into {dest.type}",
                dest.type, "ins")


def concatenate(cx, parts, d, out):
    """The tensors `parts` (cast to out's element type; empty ones
    skipped) concatenated along dimension d: each inserted into one
    destination tensor at its offset."""
    parts = [t for t in parts if t.type.numel > 0]
    if len(parts) == 1:
        return cast_tensor(cx, parts[0], out.elem)
    dest = cx.b.empty(out)
    offset = 0
    for p in parts:
        p = cast_tensor(cx, p, out.elem)
        offsets = [0] * out.rank
        offsets[d] = offset
        dest = insert_slice(cx.b, p, dest, offsets)
        offset += p.shape[d]
    return dest


def pad(b, v, low, high, value):
    """tensor.pad with a constant value (a Python scalar, or the SSA name
    of a scalar defined before)."""
    v = b.logical(v)
    if not any(low) and not any(high):
        return v
    shape = [s + lo + hi for s, lo, hi in zip(v.shape, low, high)]
    t = v.type.with_shape(shape)
    c = value if isinstance(value, str) else b.scalar(value, v.elem)
    idx = ", ".join(f"{b.fresh('i')}: index" for _ in shape)
    j = lambda xs: ", ".join(map(str, xs))
    r = b.fresh("pad")
    b.emit([f"  {r} = tensor.pad {v.name} low[{j(low)}] high[{j(high)}] {{",
            f"  ^bb0({idx}):",
            f"    tensor.yield {c} : {v.elem}",
            f"  }} : {v.type} to {t}"], [r])
    return Value(r, t)


# -- reductions --------------------------------------------------------------

_IDENTITY = {"add": 0.0, "mul": 1.0, "max": float("-inf"), "min": float("inf"),
             "or": 0, "and": 1}


def reduce(cx, v, dims, kind, elem=None, keepdim=False, pre=None, layout=False):
    """Reduces v over dims with kind (add, mul, max, min, or, and) in
    element type elem (default v's, f32 for bf16/f16); pre(region, x)
    maps each element first (e.g. a square). The result keeps the reduced
    dimensions as size 1 when keepdim. With layout=True a Laid v is reduced
    in its physical layout and the result keeps the induced layout."""
    b = cx.b
    dims = norm_dims(dims, v.rank)
    if isinstance(v, Laid) and layout:
        inv = inverse(v.perm)
        out = reduce(cx, v.phys, [inv[d] for d in dims], kind, elem, keepdim, pre)
        if keepdim:
            return Laid(out, v.perm)
        kept = [p for p in v.perm if p not in dims]
        order = sorted(kept)
        perm = tuple(order.index(p) for p in kept)
        return out if perm == tuple(range(len(perm))) else Laid(out, perm)
    v = b.logical(v)
    if elem is None:
        elem = "f32" if v.elem in ("bf16", "f16") else v.elem
    out_shape = [v.shape[d] for d in range(v.rank) if d not in dims]
    out_t = TensorType(tuple(out_shape), elem)
    ident = _IDENTITY[kind]
    if not is_float(elem) and kind in ("max", "min"):
        bits = int(elem[1:])
        ident = -(1 << (bits - 1)) if kind == "max" else (1 << (bits - 1)) - 1
        if elem == "i1":
            ident = 0 if kind == "max" else 1
    init = b.fill(ident, out_t)
    kept = [d for d in range(v.rank) if d not in dims]
    its = ["reduction" if d in dims else "parallel" for d in range(v.rank)]

    def body(r, x, acc):
        x = S.cast(r, x, v.elem, elem)
        if pre is not None:
            x = pre(r, x)
        op = kind
        if elem == "i1" and kind in ("max", "min"):
            op = "or" if kind == "max" else "and"
        return S.binary(r, op, acc, x, elem)

    out = b.generic([(v, identity_map(v.rank))], [(init, affine_map(v.rank, kept))],
                    its, body, "red")[0]
    if keepdim:
        out = reshape(b, out, [1 if d in dims else v.shape[d] for d in range(v.rank)])
    return out


def sum_sq_dev(cx, x, mean, dims, e):
    """The sum over dims of (x - mean)² in element type e, the reduced
    dimensions kept as size 1; mean has size 1 on dims. One reduction
    generic reading x and the mean (the second pass of a variance)."""
    b = cx.b
    x = b.logical(x)
    rank = x.rank
    kept = [d for d in range(rank) if d not in dims]
    out_t = TensorType(tuple(x.shape[d] for d in kept), e)
    init = b.fill(0.0, out_t)
    m = reshape(b, mean, out_t.shape)
    its = ["reduction" if d in dims else "parallel" for d in range(rank)]

    def body(r, v, mv, acc):
        d = S.binary(r, "sub", S.cast(r, v, x.elem, e), mv, e)
        return S.binary(r, "add", acc, S.binary(r, "mul", d, d, e), e)

    res = b.generic([(x, identity_map(rank)), (m, affine_map(rank, kept))],
                    [(init, affine_map(rank, kept))], its, body, "sqdev")[0]
    return reshape(b, res, [1 if d in dims else x.shape[d] for d in range(rank)])


def scan(cx, v, d, kind, e, reverse=False):
    """The inclusive scan of v (logical, rank >= 1) along dimension d with
    kind (add, mul, max, min) in element type e: out[..., i, ...] combines
    x[..., k, ...] over k <= i (k >= i when reverse). One generic with an
    extra reduction loop k over the scanned dimension whose body combines
    x[k] where k is in range. Quadratic in the scanned length, which suits
    the short scans models make (position ids from an attention mask)."""
    rank = v.rank
    k = rank  # the extra loop
    ident = _IDENTITY[kind]
    if not is_float(e) and kind in ("max", "min"):
        bits = int(e[1:])
        ident = -(1 << (bits - 1)) if kind == "max" else (1 << (bits - 1)) - 1
    init = cx.b.fill(ident, TensorType(v.shape, e))

    def body(r, x, acc):
        keep = S.compare(r, "ge" if reverse else "le", r.index(k), r.index(d), "index")
        x = S.select(r, keep, S.cast(r, x, v.elem, e), r.const(ident, e), e)
        return S.binary(r, kind, acc, x, e)

    read = [k if i == d else i for i in range(rank)]
    return cx.b.generic([(v, affine_map(rank + 1, read))],
                        [(init, affine_map(rank + 1, list(range(rank))))],
                        ["parallel"] * rank + ["reduction"], body, "cumsum")[0]
