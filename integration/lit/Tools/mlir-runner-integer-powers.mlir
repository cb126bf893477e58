// math.ipowi and math.fpowi (integer powers, which neither LLVM nor libm
// has) become calls of outlined loops in the host lowering ("failed to
// legalize operation 'math.ipowi'" before: MLIR's Math/CPU
// mathtofuncs_ipowi.mlir): on vectors, scalars and in a linalg body.
// RUN: strata-mlir-runner %s -e main | FileCheck %s

// CHECK: ( 1, -8, 81, 1024 )
// CHECK-NEXT: 2.25
// CHECK-NEXT: Unranked Memref {{.*}} sizes = [4]
// CHECK-NEXT: [-1,  8,  0.125,  27]
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %b = arith.constant dense<[1, -2, 3, 4]> : vector<4xi32>
  %n = arith.constant dense<[7, 3, 4, 5]> : vector<4xi32>
  %p = math.ipowi %b, %n : vector<4xi32>
  vector.print %p : vector<4xi32>
  %x = arith.constant 1.5 : f32
  %two = arith.constant 2 : i64
  %y = math.fpowi %x, %two : f32, i64
  vector.print %y : f32
  %t = arith.constant dense<[-1.0, 2.0, 0.5, 3.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %three = arith.constant 3 : i32
    %c = math.fpowi %a, %three : f32, i32
    linalg.yield %c : f32
  } -> tensor<4xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
