// PyTorch's safe-softmax tail in its other form, on buffers: P = E * (1 / L)
// in one op and the flag's select(flag, P, 0) in a second one after it,
// both over E's buffer (as bufferization reuses it), instead of one op
// doing both (gpu_bench.py's and the example's programs fuse into that).
// The chain is matched by what the ops compute: one attention kernel whose
// output is 0 where the running maximum stayed -inf. A flag reduced over
// E instead of the masked scores is not the safe softmax: no kernel.
// REQUIRES: nvidia-plugin
// RUN: strata-opt %s --split-input-file --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-h200},func.func(strata-map-hierarchy))" | FileCheck %s

// CHECK-LABEL: func.func @attention
// CHECK-NOT: memref<2x100x100xbf16>
// CHECK: arith.minui
// CHECK: arith.cmpi sle
// CHECK: arith.cmpf une
// CHECK: kind = "attention"
// CHECK-NOT: memref<2x100x100xbf16>

// CHECK-LABEL: func.func @flag_of_e
// CHECK: scf.forall
// CHECK-NOT: kind = "attention"

#map = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @attention(%arg0: memref<2x100x64xbf16>, %arg1: memref<2x100x64xbf16>, %arg2: memref<2x100x64xbf16>, %arg3: memref<2x100x64xbf16>) {
    %true = arith.constant true
    %false = arith.constant false
    %cst = arith.constant 1.000000e+00 : bf16
    %cst_0 = arith.constant 0xFFC0 : bf16
    %c0_i64 = arith.constant 0 : i64
    %cst_1 = arith.constant 0xFF80 : bf16
    %cst_2 = arith.constant 1.250000e-01 : bf16
    %cst_3 = arith.constant 0.000000e+00 : bf16
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x64x100xbf16>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x100x64xbf16>) outs(%alloc : memref<2x64x100xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      linalg.yield %in : bf16
    }
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<2x100x100xbf16>
    linalg.fill ins(%cst_3 : bf16) outs(%alloc_4 : memref<2x100x100xbf16>)
    linalg.batch_matmul ins(%arg0, %alloc : memref<2x100x64xbf16>, memref<2x64x100xbf16>) outs(%alloc_4 : memref<2x100x100xbf16>)
    %alloc_5 = memref.alloc() {alignment = 64 : i64} : memref<2x100x100xbf16>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_4 : memref<2x100x100xbf16>) outs(%alloc_5 : memref<2x100x100xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = linalg.index 1 : index
      %1 = arith.index_cast %0 : index to i64
      %2 = linalg.index 2 : index
      %3 = arith.index_cast %2 : index to i64
      %4 = arith.subi %3, %1 : i64
      %5 = arith.cmpi sle, %4, %c0_i64 : i64
      %6 = arith.select %5, %cst_3, %cst_1 : bf16
      %7 = arith.mulf %in, %cst_2 : bf16
      %8 = arith.addf %7, %6 : bf16
      linalg.yield %8 : bf16
    }
    %alloc_6 = memref.alloc() {alignment = 64 : i64} : memref<2x100xbf16>
    linalg.fill ins(%cst_0 : bf16) outs(%alloc_6 : memref<2x100xbf16>)
    linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_5 : memref<2x100x100xbf16>) outs(%alloc_6 : memref<2x100xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.maxnumf %in, %out : bf16
      linalg.yield %0 : bf16
    }
    linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_5, %alloc_6 : memref<2x100x100xbf16>, memref<2x100xbf16>) outs(%alloc_4 : memref<2x100x100xbf16>) {
    ^bb0(%in: bf16, %in_9: bf16, %out: bf16):
      %0 = arith.subf %in, %in_9 : bf16
      %1 = math.exp %0 : bf16
      linalg.yield %1 : bf16
    }
    linalg.fill ins(%cst_3 : bf16) outs(%alloc_6 : memref<2x100xbf16>)
    linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_4 : memref<2x100x100xbf16>) outs(%alloc_6 : memref<2x100xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.addf %in, %out : bf16
      linalg.yield %0 : bf16
    }
    %alloc_7 = memref.alloc() {alignment = 64 : i64} : memref<2x100xi1>
    linalg.fill ins(%false : i1) outs(%alloc_7 : memref<2x100xi1>)
    linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_5 : memref<2x100x100xbf16>) outs(%alloc_7 : memref<2x100xi1>) {
    ^bb0(%in: bf16, %out: i1):
      %0 = arith.cmpf oeq, %in, %cst_1 : bf16
      %1 = arith.xori %0, %true : i1
      %2 = arith.ori %out, %1 : i1
      linalg.yield %2 : i1
    }
    %alloc_8 = memref.alloc() {alignment = 64 : i64} : memref<2x100xbf16>
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_6 : memref<2x100xbf16>) outs(%alloc_8 : memref<2x100xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.divf %cst, %in : bf16
      linalg.yield %0 : bf16
    }
    linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_4, %alloc_8 : memref<2x100x100xbf16>, memref<2x100xbf16>) outs(%alloc_4 : memref<2x100x100xbf16>) {
    ^bb0(%in_9: bf16, %in_10: bf16, %out: bf16):
      %0 = arith.mulf %in_9, %in_10 : bf16
      linalg.yield %0 : bf16
    }
    linalg.generic {indexing_maps = [#map2, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_7, %alloc_4 : memref<2x100xi1>, memref<2x100x100xbf16>) outs(%alloc_4 : memref<2x100x100xbf16>) {
    ^bb0(%in: i1, %in_9: bf16, %out: bf16):
      %1 = arith.select %in, %in_9, %cst_3 : bf16
      linalg.yield %1 : bf16
    }
    linalg.fill ins(%cst_3 : bf16) outs(%arg3 : memref<2x100x64xbf16>)
    linalg.batch_matmul ins(%alloc_4, %arg2 : memref<2x100x100xbf16>, memref<2x100x64xbf16>) outs(%arg3 : memref<2x100x64xbf16>)
    memref.dealloc %alloc : memref<2x64x100xbf16>
    memref.dealloc %alloc_4 : memref<2x100x100xbf16>
    memref.dealloc %alloc_5 : memref<2x100x100xbf16>
    memref.dealloc %alloc_6 : memref<2x100xbf16>
    memref.dealloc %alloc_7 : memref<2x100xi1>
    memref.dealloc %alloc_8 : memref<2x100xbf16>
    return
  }
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @flag_of_e(%arg0: memref<2x100x64xbf16>, %arg1: memref<2x100x64xbf16>, %arg2: memref<2x100x64xbf16>, %arg3: memref<2x100x64xbf16>) {
    %true = arith.constant true
    %false = arith.constant false
    %cst = arith.constant 1.000000e+00 : bf16
    %cst_0 = arith.constant 0xFFC0 : bf16
    %c0_i64 = arith.constant 0 : i64
    %cst_1 = arith.constant 0xFF80 : bf16
    %cst_2 = arith.constant 1.250000e-01 : bf16
    %cst_3 = arith.constant 0.000000e+00 : bf16
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x64x100xbf16>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x100x64xbf16>) outs(%alloc : memref<2x64x100xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      linalg.yield %in : bf16
    }
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<2x100x100xbf16>
    linalg.fill ins(%cst_3 : bf16) outs(%alloc_4 : memref<2x100x100xbf16>)
    linalg.batch_matmul ins(%arg0, %alloc : memref<2x100x64xbf16>, memref<2x64x100xbf16>) outs(%alloc_4 : memref<2x100x100xbf16>)
    %alloc_5 = memref.alloc() {alignment = 64 : i64} : memref<2x100x100xbf16>
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_4 : memref<2x100x100xbf16>) outs(%alloc_5 : memref<2x100x100xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = linalg.index 1 : index
      %1 = arith.index_cast %0 : index to i64
      %2 = linalg.index 2 : index
      %3 = arith.index_cast %2 : index to i64
      %4 = arith.subi %3, %1 : i64
      %5 = arith.cmpi sle, %4, %c0_i64 : i64
      %6 = arith.select %5, %cst_3, %cst_1 : bf16
      %7 = arith.mulf %in, %cst_2 : bf16
      %8 = arith.addf %7, %6 : bf16
      linalg.yield %8 : bf16
    }
    %alloc_6 = memref.alloc() {alignment = 64 : i64} : memref<2x100xbf16>
    linalg.fill ins(%cst_0 : bf16) outs(%alloc_6 : memref<2x100xbf16>)
    linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_5 : memref<2x100x100xbf16>) outs(%alloc_6 : memref<2x100xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.maxnumf %in, %out : bf16
      linalg.yield %0 : bf16
    }
    linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_5, %alloc_6 : memref<2x100x100xbf16>, memref<2x100xbf16>) outs(%alloc_4 : memref<2x100x100xbf16>) {
    ^bb0(%in: bf16, %in_9: bf16, %out: bf16):
      %0 = arith.subf %in, %in_9 : bf16
      %1 = math.exp %0 : bf16
      linalg.yield %1 : bf16
    }
    linalg.fill ins(%cst_3 : bf16) outs(%alloc_6 : memref<2x100xbf16>)
    linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_4 : memref<2x100x100xbf16>) outs(%alloc_6 : memref<2x100xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.addf %in, %out : bf16
      linalg.yield %0 : bf16
    }
    %alloc_7 = memref.alloc() {alignment = 64 : i64} : memref<2x100xi1>
    linalg.fill ins(%false : i1) outs(%alloc_7 : memref<2x100xi1>)
    linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_4 : memref<2x100x100xbf16>) outs(%alloc_7 : memref<2x100xi1>) {
    ^bb0(%in: bf16, %out: i1):
      %0 = arith.cmpf oeq, %in, %cst_1 : bf16
      %1 = arith.xori %0, %true : i1
      %2 = arith.ori %out, %1 : i1
      linalg.yield %2 : i1
    }
    %alloc_8 = memref.alloc() {alignment = 64 : i64} : memref<2x100xbf16>
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_6 : memref<2x100xbf16>) outs(%alloc_8 : memref<2x100xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.divf %cst, %in : bf16
      linalg.yield %0 : bf16
    }
    linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_4, %alloc_8 : memref<2x100x100xbf16>, memref<2x100xbf16>) outs(%alloc_4 : memref<2x100x100xbf16>) {
    ^bb0(%in_9: bf16, %in_10: bf16, %out: bf16):
      %0 = arith.mulf %in_9, %in_10 : bf16
      linalg.yield %0 : bf16
    }
    linalg.generic {indexing_maps = [#map2, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_7, %alloc_4 : memref<2x100xi1>, memref<2x100x100xbf16>) outs(%alloc_4 : memref<2x100x100xbf16>) {
    ^bb0(%in: i1, %in_9: bf16, %out: bf16):
      %1 = arith.select %in, %in_9, %cst_3 : bf16
      linalg.yield %1 : bf16
    }
    linalg.fill ins(%cst_3 : bf16) outs(%arg3 : memref<2x100x64xbf16>)
    linalg.batch_matmul ins(%alloc_4, %arg2 : memref<2x100x100xbf16>, memref<2x100x64xbf16>) outs(%arg3 : memref<2x100x64xbf16>)
    memref.dealloc %alloc : memref<2x64x100xbf16>
    memref.dealloc %alloc_4 : memref<2x100x100xbf16>
    memref.dealloc %alloc_5 : memref<2x100x100xbf16>
    memref.dealloc %alloc_6 : memref<2x100xbf16>
    memref.dealloc %alloc_7 : memref<2x100xi1>
    memref.dealloc %alloc_8 : memref<2x100xbf16>
    return
  }
}

