"""Writes a module of fused groups with sizes drawn (seeded) from primes,
powers of two and their neighbours: a linear layer with a bias + ReLU
epilogue, attention (Q*K^T, scale, softmax, P*V), and convolutions with
drawn windows, strides and dilations, so fusion and window decomposition
meet remainders, unit loops and tiles of several blocks."""
import random
import sys

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
count = int(sys.argv[2]) if len(sys.argv) > 2 else 3
rng = random.Random(seed)
dims = [1, 2, 3, 7, 13, 16, 17, 33, 64, 97, 131, 200]


def pick():
    return rng.choice(dims)


def t(*shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


out = []
for i in range(count):
    m, k, n = pick(), pick(), pick()
    out.append(f"""
func.func @linear{i}(%x: {t(m, k)}, %w: {t(k, n)}, %b: {t(n)}) -> {t(m, n)} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {t(m, n)}
  %f = linalg.fill ins(%z : f32) outs(%e : {t(m, n)}) -> {t(m, n)}
  %c = linalg.matmul ins(%x, %w : {t(m, k)}, {t(k, n)}) outs(%f : {t(m, n)}) -> {t(m, n)}
  %o = tensor.empty() : {t(m, n)}
  %y = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}}
      ins(%c, %b : {t(m, n)}, {t(n)}) outs(%o : {t(m, n)}) {{
  ^bb0(%v: f32, %bb: f32, %u: f32):
    %s = arith.addf %v, %bb : f32
    %r = arith.maximumf %s, %z : f32
    linalg.yield %r : f32
  }} -> {t(m, n)}
  return %y : {t(m, n)}
}}""")
    b, s, d = rng.choice([1, 2, 3]), pick(), rng.choice([1, 8, 17, 64])
    q, kt, sc = t(b, s, d), t(b, d, s), t(b, s, s)
    out.append(f"""
func.func @attention{i}(%q: {q}, %k: {q}, %v: {q}) -> {q} {{
  %z = arith.constant 0.0 : f32
  %kte = tensor.empty() : {kt}
  %kt = linalg.transpose ins(%k : {q}) outs(%kte : {kt}) permutation = [0, 2, 1]
  %se = tensor.empty() : {sc}
  %si = linalg.fill ins(%z : f32) outs(%se : {sc}) -> {sc}
  %s = linalg.batch_matmul ins(%q, %kt : {q}, {kt}) outs(%si : {sc}) -> {sc}
  %scaled = linalg.generic {{indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}}
      ins(%s : {sc}) outs(%se : {sc}) {{
  ^bb0(%x: f32, %u: f32):
    %c = arith.constant 0.125 : f32
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  }} -> {sc}
  %pe = tensor.empty() : {sc}
  %p = linalg.softmax dimension(2) ins(%scaled : {sc}) outs(%pe : {sc}) -> {sc}
  %oe = tensor.empty() : {q}
  %oi = linalg.fill ins(%z : f32) outs(%oe : {q}) -> {q}
  %o = linalg.batch_matmul ins(%p, %v : {sc}, {q}) outs(%oi : {q}) -> {q}
  return %o : {q}
}}""")
    kh, kw = rng.choice([1, 2, 3, 5]), rng.choice([1, 3])
    st, dl = rng.choice([1, 2]), rng.choice([1, 2])
    oh, ow = rng.choice([1, 5, 16, 23]), rng.choice([1, 7, 16, 29])
    c, f = rng.choice([1, 3, 16, 33]), rng.choice([1, 8, 16, 40])
    ih, iw = (oh - 1) * st + (kh - 1) * dl + 1, (ow - 1) * st + (kw - 1) * dl + 1
    out.append(f"""
func.func @conv{i}(%x: {t(2, ih, iw, c)}, %w: {t(kh, kw, c, f)}) -> {t(2, oh, ow, f)} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {t(2, oh, ow, f)}
  %i = linalg.fill ins(%z : f32) outs(%e : {t(2, oh, ow, f)}) -> {t(2, oh, ow, f)}
  %y = linalg.conv_2d_nhwc_hwcf {{dilations = dense<{dl}> : tensor<2xi64>, strides = dense<{st}> : tensor<2xi64>}}
      ins(%x, %w : {t(2, ih, iw, c)}, {t(kh, kw, c, f)}) outs(%i : {t(2, oh, ow, f)}) -> {t(2, oh, ow, f)}
  return %y : {t(2, oh, ow, f)}
}}""")
print("\n".join(out))
