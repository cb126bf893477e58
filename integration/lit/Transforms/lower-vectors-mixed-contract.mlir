// A contraction of f16 operands into an f32 accumulator multiplies the
// operands extended to f32 (what the op means). Left mixed, a batched one
// (a batch_matmul's register tile with a unit batch dimension) was not
// unrolled by upstream's lowering and stopped the host with
// "'builtin.unrealized_conversion_cast' could not be lowered" (the
// differential test's known failure f16-batch-matmul-f32-host). A
// contraction of one type is left as it is.
// RUN: strata-opt %s --strata-lower-vectors | FileCheck %s
// RUN: strata-run %inputs/f16-batch-matmul-f32.mlir --target=host --check | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @mixed
// CHECK-NOT: vector.contract
// CHECK-DAG: arith.extf %arg0 : vector<1x1x8xf16> to vector<1x1x8xf32>
// CHECK-DAG: arith.extf %arg1 : vector<1x8x8xf16> to vector<1x8x8xf32>
// CHECK-NOT: f16
// CHECK: return
func.func @mixed(%a: vector<1x1x8xf16>, %b: vector<1x8x8xf16>, %c: vector<1x1x8xf32>) -> vector<1x1x8xf32> {
  %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<1x1x8xf16>, vector<1x8x8xf16> into vector<1x1x8xf32>
  return %r : vector<1x1x8xf32>
}

// CHECK-LABEL: func.func @same
// CHECK-NOT: arith.extf
// CHECK: return
func.func @same(%a: vector<1x1x8xf16>, %b: vector<1x8x8xf16>, %c: vector<1x1x8xf16>) -> vector<1x1x8xf16> {
  %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<1x1x8xf16>, vector<1x8x8xf16> into vector<1x1x8xf16>
  return %r : vector<1x1x8xf16>
}

// EXEC: bm: check result #0 (2x8x8xf32): relative error {{.*}} PASS
