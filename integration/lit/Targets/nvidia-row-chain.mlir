// strata-map-hierarchy on row-wise chains: softmax on buffers (as
// bufferization leaves it: fill, max, exp(x - max), fill, sum, 1 / sum,
// product) is one kernel in which a warp owns a row, the max and the sum in
// registers; a chain stops before an op that reads what the chain wrote
// outside its own row.
// REQUIRES: nvidia-plugin
// RUN: strata-opt %s --split-input-file --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-h200},func.func(strata-map-hierarchy),canonicalize)" | FileCheck %s

// CHECK-LABEL: func.func @softmax
// CHECK-NOT: linalg.
// 999 rows, 4 warps per block (250 blocks for 132 SMs); the last block's
// fourth warp has no row.
// CHECK: scf.forall (%[[BLOCK:.*]]) in (250) {
// CHECK-NEXT: scf.forall (%[[G:.*]]) in (4) {
// CHECK-NEXT: scf.forall (%[[LANE:.*]]) in (32) {
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[G]] : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[ROW]], %c999 : index
// CHECK-NEXT: scf.if %[[IN]] {
// The max: rows of 100 (a multiple of 4), each lane 4 consecutive elements
// at a time (one 16-byte load), lanes striding by 32 x 4.
// CHECK: %[[FIRST:.*]] = arith.muli %[[LANE]], %c4 : index
// CHECK-NEXT: %[[P:.*]] = scf.for %[[E:.*]] = %[[FIRST]] to %c100 step %c128 iter_args
// CHECK-NEXT: %[[X4:.*]] = vector.load %arg0[%[[ROW]], %[[E]]] {alignment = 16 : i64} : memref<999x100xf32>, vector<4xf32>
// CHECK-NEXT: vector.extract %[[X4]][0]
// CHECK-NEXT: arith.maxnumf
// CHECK: vector.extract %[[X4]][3]
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: %[[S1:.*]], %{{.*}} = gpu.shuffle xor %[[M2:.*]], %c1_i32, %c32_i32 : f32
// CHECK-NEXT: %[[MAX:.*]] = arith.maxnumf %[[M2]], %[[S1]] : f32
// exp(x - max) into the output, the max from the register.
// CHECK: scf.for %[[E2:.*]] = %{{.*}} to %c100 step %c128 {
// CHECK-NEXT: %[[Y4:.*]] = vector.load %arg0[%[[ROW]], %[[E2]]]
// CHECK-NEXT: %[[X:.*]] = vector.extract %[[Y4]][0]
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[X]], %[[MAX]] : f32
// CHECK-NEXT: math.exp %[[D]] : f32
// CHECK: %[[EXP4:.*]] = vector.from_elements
// CHECK-NEXT: vector.store %[[EXP4]], %arg1[%[[ROW]], %[[E2]]] {alignment = 16 : i64}
// The sum rereads what the same lane wrote.
// CHECK: scf.for %[[E3:.*]] = %{{.*}} to %c100 step %c128 iter_args
// CHECK-NEXT: vector.load %arg1[%[[ROW]], %[[E3]]]
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: %[[INV:.*]] = arith.divf %cst{{.*}}, %{{.*}} : f32
// CHECK: scf.for %[[E4:.*]] = %{{.*}} to %c100 step %c128 {
// CHECK-NEXT: %[[Z4:.*]] = vector.load %arg1[%[[ROW]], %[[E4]]]
// CHECK-NEXT: %[[Z:.*]] = vector.extract %[[Z4]][0]
// CHECK-NEXT: arith.mulf %[[Z]], %[[INV]] : f32
// CHECK: vector.store %{{.*}}, %arg1[%[[ROW]], %[[E4]]]
// No other kernel, and the temporaries' stores are gone with them.
// CHECK-NOT: scf.forall
// CHECK-NOT: memref.alloc
// CHECK: row_chain = ["linalg.fill", "linalg.generic", "linalg.generic", "linalg.fill", "linalg.generic", "linalg.generic", "linalg.generic"]
// CHECK-SAME: vector = 4
func.func @softmax(%arg0: memref<999x100xf32>, %arg1: memref<999x100xf32>) {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant 0xFFC00000 : f32
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<999xf32>
  linalg.fill ins(%cst_1 : f32) outs(%alloc : memref<999xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg0 : memref<999x100xf32>) outs(%alloc : memref<999xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maxnumf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %alloc : memref<999x100xf32>, memref<999xf32>) outs(%arg1 : memref<999x100xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %0 = arith.subf %in, %in_3 : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  }
  linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<999xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg1 : memref<999x100xf32>) outs(%alloc : memref<999xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<999xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%alloc : memref<999xf32>) outs(%alloc_2 : memref<999xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %cst, %in : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg1, %alloc_2 : memref<999x100xf32>, memref<999xf32>) outs(%arg1 : memref<999x100xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %0 = arith.mulf %in, %in_3 : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %alloc : memref<999xf32>
  memref.dealloc %alloc_2 : memref<999xf32>
  return
}

// -----

// The sum's output is read at another row (reversed): the chain stops
// before that op, which is a kernel of its own.
// CHECK-LABEL: func.func @leaves_the_row
// CHECK: scf.forall
// CHECK: gpu.shuffle xor
// CHECK: row_chain = ["linalg.fill", "linalg.generic", "linalg.generic"]
// CHECK: scf.forall
// CHECK: memref.load %arg1[%{{.*}}] : memref<8xf32>
// CHECK: elementwise = 800
func.func @leaves_the_row(%x: memref<8x100xf32>, %y: memref<8xf32>, %z: memref<8x100xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x100xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%y : memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (7 - i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : memref<8x100xf32>, memref<8xf32>) outs(%z : memref<8x100xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %r = arith.mulf %v, %w : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Rows of 30 elements (no multiple of 4): one element per lane at a time.
// CHECK-LABEL: func.func @odd_length
// CHECK: scf.forall (%{{.*}}) in (6) {
// CHECK: scf.forall (%[[LANE:.*]]) in (32) {
// CHECK: scf.for %[[E:.*]] = %[[LANE]] to %c30 step %c32 iter_args
// CHECK-NEXT: memref.load %arg0[%{{.*}}, %[[E]]] : memref<6x30xf32>
// CHECK: scf.for %[[E2:.*]] = %[[LANE]] to %c30 step %c32 {
// CHECK: memref.store %{{.*}}, %arg2[%{{.*}}, %[[E2]]] : memref<6x30xf32>
// CHECK: vector = 1
func.func @odd_length(%x: memref<6x30xf32>, %s: memref<6xf32>, %y: memref<6x30xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<6xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<6x30xf32>) outs(%s : memref<6xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<6x30xf32>, memref<6xf32>) outs(%y : memref<6x30xf32>) {
  ^bb0(%v: f32, %t: f32, %o: f32):
    %r = arith.divf %v, %t : f32
    linalg.yield %r : f32
  }
  return
}
