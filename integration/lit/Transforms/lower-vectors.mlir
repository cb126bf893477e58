// A register tile's contraction becomes one broadcast multiply-add per row;
// n-D transfers become 1-D loads and stores.
// RUN: strata-opt %s --strata-lower-vectors --canonicalize | FileCheck %s

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @tile
// CHECK-COUNT-2: vector.load {{.*}} : memref<2x1xf32>, vector<1xf32>
// CHECK: %[[B:.*]] = vector.load {{.*}} : memref<1x32xf32>, vector<32xf32>
// CHECK-COUNT-2: vector.load {{.*}} : memref<2x32xf32>, vector<32xf32>
// CHECK: vector.broadcast {{.*}} : f32 to vector<32xf32>
// CHECK: vector.fma %{{.*}}, %[[B]], %{{.*}} : vector<32xf32>
// CHECK: vector.broadcast {{.*}} : f32 to vector<32xf32>
// CHECK: vector.fma %{{.*}}, %[[B]], %{{.*}} : vector<32xf32>
// CHECK-COUNT-2: vector.store {{.*}} : memref<2x32xf32>, vector<32xf32>
// CHECK-NOT: vector.contract
func.func @tile(%a: memref<2x1xf32>, %b: memref<1x32xf32>, %c: memref<2x32xf32>) {
  %i = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %va = vector.transfer_read %a[%i, %i], %z {in_bounds = [true, true]} : memref<2x1xf32>, vector<2x1xf32>
  %vb = vector.transfer_read %b[%i, %i], %z {in_bounds = [true, true]} : memref<1x32xf32>, vector<1x32xf32>
  %vc = vector.transfer_read %c[%i, %i], %z {in_bounds = [true, true]} : memref<2x32xf32>, vector<2x32xf32>
  %r = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %vc : vector<2x1xf32>, vector<1x32xf32> into vector<2x32xf32>
  vector.transfer_write %r, %c[%i, %i] {in_bounds = [true, true]} : vector<2x32xf32>, memref<2x32xf32>
  return
}

// A product added to an accumulator, as a convolution's window step arrives
// (a unit reduction dimension dropped by a shape cast), is one multiply-add;
// a product that is also used elsewhere stays a multiply.
// CHECK-LABEL: func.func @window_step
// CHECK: %[[P:.*]] = vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<1x64xf32>
// CHECK-NOT: arith.addf
// CHECK: return %[[P]]
func.func @window_step(%a: vector<1x64x1xf32>, %b: vector<1x64x1xf32>, %acc: vector<1x64xf32>) -> vector<1x64xf32> {
  %p = arith.mulf %a, %b : vector<1x64x1xf32>
  %c = vector.shape_cast %p : vector<1x64x1xf32> to vector<1x64xf32>
  %r = arith.addf %acc, %c : vector<1x64xf32>
  return %r : vector<1x64xf32>
}

// CHECK-LABEL: func.func @shared_product
// CHECK: %[[M:.*]] = arith.mulf
// CHECK: arith.addf %{{.*}}, %[[M]]
// CHECK-NOT: vector.fma
func.func @shared_product(%a: vector<16xf32>, %b: vector<16xf32>, %acc: vector<16xf32>) -> (vector<16xf32>, vector<16xf32>) {
  %p = arith.mulf %a, %b : vector<16xf32>
  %r = arith.addf %acc, %p : vector<16xf32>
  return %r, %p : vector<16xf32>, vector<16xf32>
}

// A row's sum and maximum reduce as trees: halves combined elementwise
// (32 -> 16 -> 8 -> 4 -> 2 -> 1 lanes), then the accumulator; no ordered
// vector.reduction is left for the backend to expand lane by lane.
// CHECK-LABEL: func.func @row_reductions
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [16], strides = [1]} : vector<32xf32> to vector<16xf32>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [16], sizes = [16], strides = [1]} : vector<32xf32> to vector<16xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<1xf32>
// CHECK: vector.extract %{{.*}}[0] : f32 from vector<1xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} : vector<1xf32>
// CHECK-NOT: vector.reduction
// CHECK: return
func.func @row_reductions(%v: vector<32xf32>, %acc: f32) -> (f32, f32) {
  %s = vector.reduction <add>, %v, %acc : vector<32xf32> into f32
  %m = vector.reduction <maxnumf>, %v : vector<32xf32> into f32
  return %s, %m : f32, f32
}

// A masked reduction (a ragged row's tail) stays the one op its vector.mask
// holds.
// CHECK-LABEL: func.func @masked_reduction
// CHECK: vector.mask %{{.*}} { vector.reduction <add>
func.func @masked_reduction(%v: vector<32xf32>, %m: vector<32xi1>, %acc: f32) -> f32 {
  %s = vector.mask %m { vector.reduction <add>, %v, %acc : vector<32xf32> into f32 } : vector<32xi1> -> f32
  return %s : f32
}

// A count that is no power of two: the lanes past the largest power of two
// (36 of 100) are first combined into the lanes at its start, then the 64
// reduce as a tree; no lane is added on its own in order.
// CHECK-LABEL: func.func @ragged_row
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [36], strides = [1]} : vector<100xf32> to vector<36xf32>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [64], sizes = [36], strides = [1]} : vector<100xf32> to vector<36xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<36xf32>
// CHECK: vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [0], strides = [1]} : vector<36xf32> into vector<64xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<1xf32>
// CHECK-NOT: vector.reduction
// CHECK: return
func.func @ragged_row(%v: vector<100xf32>) -> f32 {
  %s = vector.reduction <add>, %v : vector<100xf32> into f32
  return %s : f32
}
