"""Writes a module of matmul, batch_matmul, softmax and reduction functions
with sizes drawn (seeded) from small primes, powers of two and their
neighbours, so the vectorized host code meets remainders and unit loops."""
import random
import sys

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
count = int(sys.argv[2]) if len(sys.argv) > 2 else 6
rng = random.Random(seed)
dims = [1, 2, 3, 5, 7, 13, 15, 16, 17, 31, 33, 64, 97]

def pick():
    return rng.choice(dims)

out = []
for i in range(count):
    m, n, k, b = pick(), pick(), pick(), rng.choice([1, 2, 3])
    out.append(f"""
func.func @mm{i}(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %c = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%f : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %c : tensor<{m}x{n}xf32>
}}
func.func @bmm{i}(%a: tensor<{b}x{m}x{k}xf32>, %x: tensor<{b}x{k}x{n}xf32>) -> tensor<{b}x{m}x{n}xf32> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{b}x{m}x{n}xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{b}x{m}x{n}xf32>) -> tensor<{b}x{m}x{n}xf32>
  %c = linalg.batch_matmul ins(%a, %x : tensor<{b}x{m}x{k}xf32>, tensor<{b}x{k}x{n}xf32>) outs(%f : tensor<{b}x{m}x{n}xf32>) -> tensor<{b}x{m}x{n}xf32>
  return %c : tensor<{b}x{m}x{n}xf32>
}}
func.func @softmax{i}(%x: tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %y = linalg.softmax dimension({i % 2}) ins(%x : tensor<{m}x{n}xf32>) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %y : tensor<{m}x{n}xf32>
}}
func.func @reduce{i}(%x: tensor<{m}x{n}xf32>) -> tensor<{m if i % 2 else n}xf32> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m if i % 2 else n}xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{m if i % 2 else n}xf32>) -> tensor<{m if i % 2 else n}xf32>
  %r = linalg.reduce ins(%x : tensor<{m}x{n}xf32>) outs(%f : tensor<{m if i % 2 else n}xf32>) dimensions = [{1 if i % 2 else 0}]
    (%in: f32, %acc: f32) {{
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }}
  return %r : tensor<{m if i % 2 else n}xf32>
}}""")
print("\n".join(out))
