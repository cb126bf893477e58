"""Scaled dot-product attention. Export keeps
aten.scaled_dot_product_attention whole (decompositions.py), and this
lowering writes it as the chain the core maps to one attention kernel
(docs/architecture.md: S2's groups on the host, one kernel per
chain on the hierarchy targets), in the inputs' own element type:

    Kt = transpose(K);  S = 0; S += Q Kt          [batch, queries, keys]
    S = select(mask, S * scale, -inf)             one elementwise op of S
    P = linalg.softmax(S)                         [zero rows all masked]
    O = 0; O += P V

PyTorch's own decomposition upcasts bf16/f16 to f32, scales Q and K
separately and adds its safe-softmax tail to every form: five kernels in
f32 on a GPU instead of one on the matrix units. Here a causal mask is
written from the loop indices (the kernel then skips the keys past each
query block); a mask tensor is a second input of the scale, applied where
it is given. Batch dimensions are flattened into one."""

import math

import torch

from . import lowering
from ...lowering import scalar as S
from ...lowering.helpers import broadcast_shape, broadcast_to, reshape

aten = torch.ops.aten


def _batch_matmul(b, x, y, out_t):
    """x @ y for [n, m, k] x [n, k, n'] into a zero-filled out_t, in the
    operands' element type (the kernel accumulates in f32)."""
    acc = b.fill(0.0, out_t)
    return b.op(f"{{r}} = linalg.batch_matmul ins({x.name}, {y.name} : {x.type}, {y.type})"
                f" outs({acc.name} : {out_t}) -> {out_t}", out_t, "mm")


def _map3(dims):
    return "affine_map<(d0, d1, d2) -> (%s)>" % ", ".join(dims)


def _repeat_heads(cx, x, heads):
    """x [..., h, s, e] with its h heads each repeated heads // h times
    (enable_gqa: query head i reads key head i // group)."""
    *lead, h, s, e = x.shape
    group = heads // h
    y = reshape(cx.b, x, lead + [h, 1, s, e])
    y = broadcast_to(cx, y, lead + [h, group, s, e])
    return reshape(cx.b, y, lead + [heads, s, e])


@lowering(aten.scaled_dot_product_attention.default)
def scaled_dot_product_attention(cx, a):
    b = cx.b
    q, k, v = a.query, a.key, a.value
    t = q.elem
    if k.elem != t or v.elem != t or t not in ("f32", "f16", "bf16", "f64"):
        cx.unsupported(f"scaled_dot_product_attention of {q.elem}, {k.elem} and "
                       f"{v.elem} (expected one floating-point type)")
    if a.dropout_p:
        cx.unsupported("scaled_dot_product_attention with dropout_p > 0")
    if q.rank < 2 or k.rank != q.rank or v.rank != q.rank:
        cx.unsupported("scaled_dot_product_attention of query, key and value "
                       "of different ranks")
    mask = a.attn_mask
    if mask is not None and a.is_causal:
        cx.unsupported("scaled_dot_product_attention with both attn_mask and is_causal")
    if a.enable_gqa and q.rank >= 3 and k.shape[-3] != q.shape[-3]:
        heads = q.shape[-3]
        if heads % k.shape[-3] or heads % v.shape[-3]:
            cx.unsupported(f"enable_gqa with {heads} query heads and "
                           f"{k.shape[-3]} key heads (not a multiple)")
        k, v = _repeat_heads(cx, k, heads), _repeat_heads(cx, v, heads)
    q, k, v = b.logical(q), b.logical(k), b.logical(v)
    lq, e = q.shape[-2:]
    lk, ev = v.shape[-2:]
    if k.shape[-2:] != (lk, e):
        cx.unsupported(f"scaled_dot_product_attention key {list(k.shape)} for "
                       f"query {list(q.shape)} and value {list(v.shape)}")
    batch = list(broadcast_shape(q.shape[:-2], k.shape[:-2], v.shape[:-2]))
    n = math.prod(batch)
    q3 = reshape(b, broadcast_to(cx, q, batch + [lq, e]), [n, lq, e])
    k3 = reshape(b, broadcast_to(cx, k, batch + [lk, e]), [n, lk, e])
    v3 = reshape(b, broadcast_to(cx, v, batch + [lk, ev]), [n, lk, ev])
    kt_t = k3.type.with_shape([n, e, lk])
    kt0 = b.empty(kt_t)
    kt = b.op(f"{{r}} = linalg.transpose ins({k3.name} : {k3.type}) outs({kt0.name} : {kt_t})"
              " permutation = [0, 2, 1]", kt_t, "kt")
    s_t = q3.type.with_shape([n, lq, lk])
    scores = _batch_matmul(b, q3, kt, s_t)
    scale = a.scale if a.scale is not None else 1.0 / math.sqrt(e)
    compute = "f32" if t in ("bf16", "f16") else t

    # The scale and the mask, one op of the scores (the mask tensor, when
    # given, is its second input).
    ins = [(scores, _map3(["d0", "d1", "d2"]))]
    if mask is not None:
        mask = b.logical(mask)
        if mask.rank > len(batch) + 2:
            cx.unsupported(f"attn_mask {list(mask.shape)} for scores "
                           f"{batch + [lq, lk]}")
        m = broadcast_to(cx, mask, batch + [lq, lk]) if mask.rank > 2 else mask
        if m.rank > 2:
            m = reshape(b, m, [n, lq, lk])
            ins.append((m, _map3(["d0", "d1", "d2"])))
        else:
            # A [queries, keys] (or broadcast) mask shared by every batch.
            dims = ["d1", "d2"][2 - m.rank:]
            dims = [d if m.shape[i] != 1 else "0" for i, d in enumerate(dims)]
            ins.append((m, "affine_map<(d0, d1, d2) -> (%s)>" % ", ".join(dims)))
    ninf = float("-inf")

    def scaled(r, x, *rest):
        y = S.cast(r, x, t, compute)
        y = S.binary(r, "mul", y, r.const(scale, compute), compute)
        if a.is_causal:
            # Top-left aligned, as PyTorch: query i sees keys j <= i.
            i, j = r.index(1), r.index(2)
            keep = r.op("arith.cmpi", ["ule", j, i], "index")
            y = S.select(r, keep, y, r.const(ninf, compute), compute)
        if len(rest) == 2:  # the mask's value, then the init's
            mv = rest[0]
            if mask.elem == "i1":
                y = S.select(r, mv, y, r.const(ninf, compute), compute)
            else:
                y = S.binary(r, "add", y, S.cast(r, mv, mask.elem, compute), compute)
        return S.cast(r, y, compute, t)

    s0 = b.empty(s_t)
    x = b.generic(ins, [(s0, _map3(["d0", "d1", "d2"]))], ["parallel"] * 3,
                  scaled, "scaled")[0]
    p0 = b.empty(s_t)
    p = b.op(f"{{r}} = linalg.softmax dimension(2) ins({x.name} : {s_t})"
             f" outs({p0.name} : {s_t}) -> {s_t}", s_t, "p")
    if mask is not None:
        # PyTorch's safe softmax: a row whose keys are all masked gives 0.
        rows_t = s_t.with_shape([n, lq]).with_elem("i1")
        any0 = b.fill(False, rows_t)

        def kept(r, xv, acc):
            masked = S.compare(r, "eq", xv, r.const(ninf, t), t)
            live = S.binary(r, "xor", masked, r.const(True, "i1"), "i1")
            return S.binary(r, "or", acc, live, "i1")

        row = _map3(["d0", "d1"])
        live = b.generic([(x, _map3(["d0", "d1", "d2"]))], [(any0, row)],
                         ["parallel", "parallel", "reduction"], kept, "live")[0]

        def zeroed(r, lv, pv, _):
            return S.select(r, lv, pv, r.const(0.0, t), t)

        p1 = b.empty(s_t)
        p = b.generic([(live, row), (p, _map3(["d0", "d1", "d2"]))],
                      [(p1, _map3(["d0", "d1", "d2"]))], ["parallel"] * 3, zeroed, "p")[0]
    o = _batch_matmul(b, p, v3, v3.type.with_shape([n, lq, ev]))
    return reshape(b, o, batch + [lq, ev])
