// The transposed copy of K gets rows padded by one line of the innermost
// cache when they are a multiple of 1 KiB long (256 keys of f32: 1 KiB):
// the register tile walks its rows with the row length as stride, and a
// power-of-two stride would map them to a few cache sets. The copy is a
// slice of an allocation (a slice of tensor.empty would fold away the
// padding). A chip whose innermost level is a scratchpad (no sets), rows of
// other lengths, and a module without a description get a plain copy.
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-normalize-contractions --canonicalize | FileCheck %s --check-prefix=CACHE
// RUN: strata-opt %s --strata-attach-target=target=nvidia-h200 --strata-normalize-contractions --canonicalize | FileCheck %s --check-prefix=PLAIN
// RUN: strata-opt %s --strata-normalize-contractions --canonicalize | FileCheck %s --check-prefix=PLAIN

#mq = affine_map<(b, m, n, k) -> (b, m, k)>
#mk = affine_map<(b, m, n, k) -> (b, n, k)>
#mo = affine_map<(b, m, n, k) -> (b, m, n)>

// CACHE-LABEL: func.func @qk
// CACHE: %[[BUF:.*]] = bufferization.alloc_tensor() : tensor<2x64x272xf32>
// CACHE: %[[SLICE:.*]] = tensor.extract_slice %[[BUF]][0, 0, 0] [2, 64, 256] [1, 1, 1]
// CACHE: linalg.transpose ins(%{{.*}} : tensor<2x256x64xf32>) outs(%[[SLICE]] : tensor<2x64x256xf32>)
// PLAIN-LABEL: func.func @qk
// PLAIN-NOT: alloc_tensor
// PLAIN: tensor.empty() : tensor<2x64x256xf32>
func.func @qk(%q: tensor<2x32x64xf32>, %k: tensor<2x256x64xf32>, %init: tensor<2x32x256xf32>) -> tensor<2x32x256xf32> {
  %s = linalg.batch_matmul indexing_maps = [#mq, #mk, #mo]
      ins(%q, %k : tensor<2x32x64xf32>, tensor<2x256x64xf32>) outs(%init : tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
  return %s : tensor<2x32x256xf32>
}

// 100 keys: 400-byte rows, not padded.
// CACHE-LABEL: func.func @short_rows
// CACHE-NOT: alloc_tensor
// CACHE: tensor.empty() : tensor<2x64x100xf32>
func.func @short_rows(%q: tensor<2x32x64xf32>, %k: tensor<2x100x64xf32>, %init: tensor<2x32x100xf32>) -> tensor<2x32x100xf32> {
  %s = linalg.batch_matmul indexing_maps = [#mq, #mk, #mo]
      ins(%q, %k : tensor<2x32x64xf32>, tensor<2x100x64xf32>) outs(%init : tensor<2x32x100xf32>) -> tensor<2x32x100xf32>
  return %s : tensor<2x32x100xf32>
}
