// S3 on a grid of scratchpads (the tile chips' L1): the scratchpad model
// fills the 8x8 grid with output blocks, sizes them so the staged blocks of
// a and b, the partial sums and two output rows fit L1, takes the matrix
// tile from the description's intrinsic, multicasts both operands, and
// keeps the ops whole for the plugin (no scf.forall from S4).
// RUN: strata-opt %s --split-input-file --strata-attach-target=target=tile-wormhole-n150 --strata-schedule | FileCheck %s

// CHECK-LABEL: func.func @matmul_4096
// CHECK: linalg.matmul {strata.schedule = #strata.schedule<{bound = "movement", footprint_bytes = {l1 = 1343552 : i64}, grid = [512, 512, 0], grid_level = "core", kind = "contraction", matrix_intrinsic = "matmul_tiles_bf16_f32acc", multicast = [0, 1]
// CHECK-SAME: register = [32, 32, 32]
// CHECK-SAME: stages = 2 : i64
// CHECK-SAME: tiles = [{memory = "l1", sizes = [256, 256, 512]}]
func.func @matmul_4096(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<4096x4096xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%empty : tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16>
  %c = linalg.matmul ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>)
                     outs(%init : tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}

// -----

// Fewer tiles than cores along a dimension: only the rows that have tiles.
// CHECK-LABEL: func.func @matmul_narrow
// CHECK: linalg.matmul {strata.schedule = #strata.schedule<{{.*}}grid = [32, 64, 0]{{.*}}tiles = [{memory = "l1", sizes = [32, 64, {{[0-9]+}}]}]
func.func @matmul_narrow(%a: tensor<64x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x512xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x512xf32>) -> tensor<64x512xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x512xbf16>, tensor<512x512xbf16>)
                     outs(%init : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %c : tensor<64x512xf32>
}

// -----

// Elementwise: tiles of the intrinsic's shape, a few per step.
// CHECK-LABEL: func.func @add
// CHECK: linalg.add {strata.schedule = #strata.schedule<{{.*}}grid = [32, 32], grid_level = "core", kind = "elementwise"{{.*}}register = [32, 32]{{.*}}tiles = [{memory = "l1", sizes = [32, {{[0-9]+}}]}]
func.func @add(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
  %e = tensor.empty() : tensor<512x512xbf16>
  %r = linalg.add ins(%a, %b : tensor<512x512xbf16>, tensor<512x512xbf16>) outs(%e : tensor<512x512xbf16>) -> tensor<512x512xbf16>
  return %r : tensor<512x512xbf16>
}

// -----

// A row reduction keeps a whole row of tiles per unit: 32 rows x 1024
// columns, 32 f32 tiles and the result's tile in L1.
// CHECK-LABEL: func.func @row_max
// CHECK: linalg.generic {{.*}}strata.schedule = #strata.schedule<{bound = "memory", footprint_bytes = {l1 = 135168 : i64}, grid = [32, 0], grid_level = "core", kind = "reduction"{{.*}}tiles = [{memory = "l1", sizes = [32, 1024]}]
func.func @row_max(%x: tensor<256x1024xf32>) -> tensor<256xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<256xf32>
  %init = linalg.fill ins(%lowest : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<256x1024xf32>) outs(%init : tensor<256xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
