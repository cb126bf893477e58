"""Decompositions added to PyTorch's core ATen table before conversion.

Under torch.no_grad() in eval mode, nn.TransformerEncoderLayer and
nn.MultiheadAttention take PyTorch's fused "fast path" operators, which
have no decomposition of their own. They are written out here in ordinary
operators (layer norm, linear, softmax attention, ...), which
run_decompositions then lowers to core ATen like any other code.
"""

import math

import torch
import torch.nn.functional as F

aten = torch.ops.aten


def _project(x, w, b):
    return F.linear(x, w, b)


def native_multi_head_attention(query, key, value, embed_dim, num_head, qkv_weight,
                                qkv_bias, proj_weight, proj_bias, mask=None,
                                need_weights=True, average_attn_weights=True,
                                mask_type=None):
    """aten._native_multi_head_attention: batch-first [B, L, E] inputs, the
    packed in-projection, scaled dot-product attention with an optional mask
    (bool: True is masked out; float: added to the scores; mask_type 0:
    [L, S], 1: key padding [B, S], 2: [B, H, L, S]), the out-projection."""
    b, lq, e = query.shape
    s = key.shape[1]
    hd = embed_dim // num_head
    wq, wk, wv = qkv_weight.chunk(3)
    bq, bk, bv = qkv_bias.chunk(3)
    q = _project(query, wq, bq).view(b, lq, num_head, hd).transpose(1, 2)
    k = _project(key, wk, bk).view(b, s, num_head, hd).transpose(1, 2)
    v = _project(value, wv, bv).view(b, s, num_head, hd).transpose(1, 2)
    scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
    if mask is not None:
        if mask_type == 1:
            m = mask.view(b, 1, 1, s)
        elif mask.dim() == 2:
            m = mask.view(1, 1, lq, s)
        else:
            m = mask
        if m.dtype == torch.bool:
            scores = scores.masked_fill(m, float("-inf"))
        else:
            scores = scores + m
    attn = torch.softmax(scores, dim=-1)
    out = torch.matmul(attn, v).transpose(1, 2).reshape(b, lq, e)
    out = F.linear(out, proj_weight, proj_bias)
    if not need_weights:
        return out, query.new_empty(0)
    return out, attn.mean(dim=1) if average_attn_weights else attn


def transformer_encoder_layer_fwd(src, embed_dim, num_heads, qkv_weight, qkv_bias,
                                  proj_weight, proj_bias, use_gelu, norm_first, eps,
                                  norm_weight_1, norm_bias_1, norm_weight_2, norm_bias_2,
                                  ffn_weight_1, ffn_bias_1, ffn_weight_2, ffn_bias_2,
                                  mask=None, mask_type=None):
    """aten._transformer_encoder_layer_fwd: self-attention and feed-forward
    blocks with residuals, layer norms before (norm_first) or after each."""
    def norm(x, w, b):
        return F.layer_norm(x, (embed_dim,), w, b, eps)

    x = src
    if norm_first:
        x = norm(x, norm_weight_1, norm_bias_1)
    x = native_multi_head_attention(x, x, x, embed_dim, num_heads, qkv_weight, qkv_bias,
                                    proj_weight, proj_bias, mask, False, True, mask_type)[0]
    x = x + src
    if not norm_first:
        x = norm(x, norm_weight_1, norm_bias_1)
    residual = x
    if norm_first:
        x = norm(x, norm_weight_2, norm_bias_2)
    h = F.linear(x, ffn_weight_1, ffn_bias_1)
    h = F.gelu(h) if use_gelu else F.relu(h)
    x = F.linear(h, ffn_weight_2, ffn_bias_2) + residual
    if not norm_first:
        x = norm(x, norm_weight_2, norm_bias_2)
    return x


def decomposition_table():
    """PyTorch's default (core ATen) table plus the ones above, less
    scaled dot-product attention: PyTorch's math form upcasts bf16/f16 to
    f32 and splits the scale, so attention stays one operator that
    ops/attention.py writes as the chain the core fuses."""
    table = torch.export.default_decompositions()
    table.pop(aten.scaled_dot_product_attention.default, None)
    table[aten._native_multi_head_attention.default] = native_multi_head_attention
    table[aten._transformer_encoder_layer_fwd.default] = transformer_encoder_layer_fwd
    return table
