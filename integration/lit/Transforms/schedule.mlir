// S3 decides from the description alone: the same matmul gets a 6x64
// register block on a 512-bit chip with 32 registers and 6x16 on a 256-bit
// chip with 16; its k tile follows L1, its m/n tiles L2, its split the core
// count (2 vs 8). A row sum is vectorized along its contiguous reduction.
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-schedule | FileCheck %s --check-prefix=AVX512
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx2 --strata-schedule | FileCheck %s --check-prefix=AVX2
// A schedule file replaces the model's choice for the ops it names.
// RUN: echo '{"matmul/1": {"kind": "contraction", "register": [4, 32, 1], "vector_dim": 1, "vector_width": 16}}' > %t.json
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-schedule=schedule-file=%t.json | FileCheck %s --check-prefix=FILE
// RUN: echo '{"matmul/1": {"register": [4, 32]}}' > %t-bad.json
// RUN: not strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-schedule=schedule-file=%t-bad.json 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: echo '{"matmul/7": {}}' > %t-none.json
// RUN: not strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-schedule=schedule-file=%t-none.json 2>&1 | FileCheck %s --check-prefix=NONE
// strata-compile says the same, without printing the module after it.
// RUN: not strata-compile %s --target=host-x86-avx512 --schedule=%t-none.json -o %t.so 2>&1 | FileCheck %s --check-prefix=NONE --implicit-check-not="see current operation"

// AVX512-LABEL: func.func @matmul
// AVX512: linalg.fill
// AVX512-NOT: strata.schedule
// AVX512: linalg.matmul {strata.schedule = #strata.schedule<{bound = "compute", footprint_bytes = {l1 = 35840 : i64, l2 = 428544 : i64, registers = 29 : i64}, grid = [256, 0, 0], grid_level = "core", kind = "contraction"
// AVX512-SAME: promote = [1], register = [6, 64, 1], register_order = [1, 0, 2], tile_order = [1, 2, 0], tiles = [{memory = "l2", sizes = [258, 192, 0]}, {memory = "l1", sizes = [0, 0, 128]}], vector_dim = 1 : i64, vector_width = 16 : i64}>}
// AVX512-LABEL: func.func @rowsum
// AVX512: {strata.schedule = #strata.schedule<{bound = "memory", grid = [32, 0], grid_level = "core", kind = "reduction", partial_reduction = true
// AVX512-SAME: register = [1, 128]
// AVX512-SAME: vector_dim = 1 : i64, vector_width = 16 : i64}>}

// AVX2-LABEL: func.func @matmul
// AVX2: linalg.matmul {strata.schedule = #strata.schedule<{bound = "compute", footprint_bytes = {l1 = 22528 : i64, l2 = 129408 : i64, registers = 15 : i64}, grid = [64, 0, 0], grid_level = "core", kind = "contraction"
// AVX2-SAME: register = [6, 16, 1]
// AVX2-SAME: tiles = [{memory = "l2", sizes = [66, 48, 0]}, {memory = "l1", sizes = [0, 0, 256]}], vector_dim = 1 : i64, vector_width = 8 : i64}>}
// AVX2-LABEL: func.func @rowsum
// AVX2: register = [1, 32]
// AVX2-SAME: vector_dim = 1 : i64, vector_width = 8 : i64

// FILE-LABEL: func.func @matmul
// FILE: linalg.matmul {strata.schedule = #strata.schedule<{kind = "contraction", partial_reduction = false, promote = [], register = [4, 32, 1], register_order = [], tile_order = [], tiles = [], vector_dim = 1 : i64, vector_width = 16 : i64}>}
// BAD: error: {{.*}}-bad.json:/matmul/1/register: expected 3 entries (one per loop of the op), got 2
// NONE: error: schedule file '{{.*}}-none.json' names 'matmul/7', which is not a scheduled op (expected "<function>/<n>" of a linalg op; this program's are: matmul/1, rowsum/{{[0-9]+}})

func.func @matmul(%a: tensor<512x256xf32>, %b: tensor<256x384xf32>) -> tensor<512x384xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x384xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x384xf32>) -> tensor<512x384xf32>
  %c = linalg.matmul ins(%a, %b : tensor<512x256xf32>, tensor<256x384xf32>) outs(%f : tensor<512x384xf32>) -> tensor<512x384xf32>
  return %c : tensor<512x384xf32>
}
func.func @rowsum(%x: tensor<64x1000xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.reduce ins(%x : tensor<64x1000xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) { %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32 }
  return %r : tensor<64xf32>
}
