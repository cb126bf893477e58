// A layernorm on the tile chip as one row program: each core keeps its
// tile-row of x in L1; the mean and the variance are row reductions into
// per-row vectors (the variance reduces (x - mean)^2, computed first into a
// row buffer), the scalars 1/256 and eps are vector-engine immediates, and
// a per-row vector is a Dst operand through the unpacker's column
// broadcast; gamma and beta are per-column vectors read from DRAM.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER: tile.dram_tensor @arg1 input {host_shape = array<i64: 256>, replicate_rows} : !tile.dram<32x256xf32, #tile.interleaved>
// LOWER-LABEL: tile.kernel compute
// LOWER: tile.reduce sum row @in0[%{{.*}}] -> dst[%c0]
// LOWER: tile.pack_tile dst[%c0] -> @r0[%c0]
// LOWER: tile.unpack_tile @r0[%c0] -> dst[%c0]
// LOWER-NEXT: tile.unary_scalar mul dst[%c0], 3.906250e-03
// LOWER: tile.binary sub @in0[%[[T:.*]]], @r1[%c0] -> dst[%c0] bcast col
// LOWER-NEXT: tile.binary_dst mul dst[%c0], dst[%c0] -> dst[%c0]
// LOWER: tile.pack_tile dst[%c0] -> @r2[%c0]
// LOWER: tile.reduce sum row @r2[%{{.*}}] -> dst[%c0]
// LOWER: tile.unpack_tile @r3[%c0] -> dst[%c0] bcast col
// LOWER: tile.unpack_tile @in1[%{{.*}}] -> dst[%c0]

// CHECK:      layernorm: ran on tile-wormhole-n150
// CHECK:        bound: compute
// CHECK:      layernorm: check result #0 (64x256xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
#map_2d = affine_map<(i, j) -> (i, j)>
#map_row = affine_map<(i, j) -> (i)>
#map_col = affine_map<(i, j) -> (j)>
func.func @layernorm(%x: tensor<64x256xf32>, %gamma: tensor<256xf32>, %beta: tensor<256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %row_empty = tensor.empty() : tensor<64xf32>
  %row_init = linalg.fill ins(%zero : f32) outs(%row_empty : tensor<64xf32>) -> tensor<64xf32>

  // sum_j x[i, j]
  %sum = linalg.generic {indexing_maps = [#map_2d, #map_row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf32>) outs(%row_init : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %acc, %v : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>

  // mean = sum / 768
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                          iterator_types = ["parallel"]}
      ins(%sum : tensor<64xf32>) outs(%row_empty : tensor<64xf32>) {
  ^bb0(%s: f32, %o: f32):
    %n = arith.constant 256.0 : f32
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>

  // sum_j (x[i, j] - mean[i])^2
  %sqsum = linalg.generic {indexing_maps = [#map_2d, #map_row, #map_row],
                           iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<64x256xf32>, tensor<64xf32>) outs(%row_init : tensor<64xf32>) {
  ^bb0(%v: f32, %m: f32, %acc: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %acc, %d2 : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>

  // rstd = rsqrt(sqsum / 768 + eps)
  %rstd = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                          iterator_types = ["parallel"]}
      ins(%sqsum : tensor<64xf32>) outs(%row_empty : tensor<64xf32>) {
  ^bb0(%s: f32, %o: f32):
    %n = arith.constant 256.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %var = arith.divf %s, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>

  // y = (x - mean) * rstd * gamma + beta
  %out = tensor.empty() : tensor<64x256xf32>
  %y = linalg.generic {indexing_maps = [#map_2d, #map_row, #map_row, #map_col, #map_col, #map_2d],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd, %gamma, %beta
          : tensor<64x256xf32>, tensor<64xf32>, tensor<64xf32>, tensor<256xf32>, tensor<256xf32>)
      outs(%out : tensor<64x256xf32>) {
  ^bb0(%v: f32, %m: f32, %rs: f32, %g: f32, %bt: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %n = arith.mulf %d, %rs : f32
    %sc = arith.mulf %n, %g : f32
    %r = arith.addf %sc, %bt : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
