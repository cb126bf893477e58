"""The models of the front end's tests and benchmark, at small sizes: an
MLP, a GPT-2-style decoder block with a causal mask, a token + position
embedding, and constructors for PyTorch's encoder layer and ResNet-18."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Fn(nn.Module):
    """A plain function as a module (what torch.export traces)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


class MLP(nn.Module):
    def __init__(self, d_in=64, hidden=128, d_out=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(hidden, hidden), nn.GELU(),
                                 nn.Linear(hidden, d_out))

    def forward(self, x):
        return self.net(x)


class CausalSelfAttention(nn.Module):
    """GPT-2 attention: one packed projection, heads, a causal mask kept as
    a buffer and applied with masked_fill, softmax, output projection."""

    def __init__(self, d_model, n_head, max_len):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(d_model, 3 * d_model)
        self.c_proj = nn.Linear(d_model, d_model)
        self.attn_drop = nn.Dropout(0.1)
        self.register_buffer("bias", torch.tril(torch.ones(max_len, max_len))
                             .view(1, 1, max_len, max_len))

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.c_attn(x).split(c, dim=2)
        hd = c // self.n_head
        q = q.view(b, t, self.n_head, hd).transpose(1, 2)
        k = k.view(b, t, self.n_head, hd).transpose(1, 2)
        v = v.view(b, t, self.n_head, hd).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        att = att.masked_fill(self.bias[:, :, :t, :t] == 0, float("-inf"))
        att = self.attn_drop(F.softmax(att, dim=-1))
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        return self.c_proj(y)


class GPT2Block(nn.Module):
    """Pre-norm decoder block: x + attn(ln(x)), then x + mlp(ln(x)) with the
    tanh form of GELU."""

    def __init__(self, d_model=64, n_head=4, max_len=64):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d_model)
        self.attn = CausalSelfAttention(d_model, n_head, max_len)
        self.ln_2 = nn.LayerNorm(d_model)
        self.c_fc = nn.Linear(d_model, 4 * d_model)
        self.c_proj = nn.Linear(4 * d_model, d_model)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.c_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class SDPABlock(nn.Module):
    """Attention written with F.scaled_dot_product_attention (causal)."""

    def __init__(self, d_model=64, n_head=4):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.n_head, c // self.n_head).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.out(y.transpose(1, 2).reshape(b, t, c))


class LlamaBlock(nn.Module):
    """LLaMA-style decoder block: RMSNorm, rotary position embeddings on q
    and k (rotate-half form), causal scaled_dot_product_attention, then
    RMSNorm and a SwiGLU feed-forward, each with a residual."""

    def __init__(self, d_model=64, n_head=4, ff=172, max_len=64, eps=1e-6):
        super().__init__()
        self.n_head, self.eps = n_head, eps
        self.norm_1 = nn.Parameter(1 + 0.1 * torch.randn(d_model))
        self.norm_2 = nn.Parameter(1 + 0.1 * torch.randn(d_model))
        self.wq = nn.Linear(d_model, d_model, bias=False)
        self.wk = nn.Linear(d_model, d_model, bias=False)
        self.wv = nn.Linear(d_model, d_model, bias=False)
        self.wo = nn.Linear(d_model, d_model, bias=False)
        self.w1 = nn.Linear(d_model, ff, bias=False)
        self.w3 = nn.Linear(d_model, ff, bias=False)
        self.w2 = nn.Linear(ff, d_model, bias=False)
        half = d_model // n_head // 2
        freq = 1.0 / (10000 ** (torch.arange(half).float() / half))
        angle = torch.outer(torch.arange(max_len).float(), freq)
        self.register_buffer("cos", torch.cat([angle.cos(), angle.cos()], -1))
        self.register_buffer("sin", torch.cat([angle.sin(), angle.sin()], -1))

    def rms(self, x, w):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * w

    def rotary(self, x, t):
        h = x.shape[-1] // 2
        rotated = torch.cat([-x[..., h:], x[..., :h]], -1)
        return x * self.cos[:t] + rotated * self.sin[:t]

    def forward(self, x):
        b, t, c = x.shape
        h = self.rms(x, self.norm_1)
        heads = lambda y: y.view(b, t, self.n_head, c // self.n_head).transpose(1, 2)
        q, k, v = heads(self.wq(h)), heads(self.wk(h)), heads(self.wv(h))
        q, k = self.rotary(q, t), self.rotary(k, t)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.wo(y.transpose(1, 2).reshape(b, t, c))
        h = self.rms(x, self.norm_2)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


class SDPA(nn.Module):
    """F.scaled_dot_product_attention alone on (batch, heads, tokens, head
    dim) inputs: causal, or with an explicit mask given with the inputs."""

    def __init__(self, is_causal=False):
        super().__init__()
        self.is_causal = is_causal

    def forward(self, q, k, v, mask=None):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask,
                                              is_causal=self.is_causal)


class TokenEmbedding(nn.Module):
    """Token and learned position embeddings, then a layer norm."""

    def __init__(self, vocab=100, d_model=32, max_len=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d_model)
        self.wpe = nn.Embedding(max_len, d_model)
        self.ln = nn.LayerNorm(d_model)

    def forward(self, idx):
        pos = torch.arange(idx.shape[1])
        return self.ln(self.wte(idx) + self.wpe(pos))


def encoder_layer(d_model=64, n_head=4, ff=128, norm_first=False, activation="relu"):
    return nn.TransformerEncoderLayer(d_model, n_head, ff, batch_first=True,
                                      norm_first=norm_first, activation=activation)


def resnet18():
    import torchvision
    return torchvision.models.resnet18(weights=None)


def resnet10():
    """ResNet-18's structure with one basic block per stage (every kind of
    layer, half the convolutions): for tests that compile it again."""
    from torchvision.models.resnet import BasicBlock, ResNet
    return ResNet(BasicBlock, [1, 1, 1, 1], num_classes=100)


def randomize_batch_norms(model):
    """Non-trivial running statistics and affine parameters (fresh batch
    norms are the identity, which would hide errors)."""
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.2, 0.2)
    return model
