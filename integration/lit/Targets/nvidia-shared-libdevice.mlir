// Two kernels (two functions) that both call libdevice's rsqrt: merged into
// one module, the shared declaration is kept once under its own name, so
// ptxas resolves it from libdevice (renamed per kernel it did not:
// "Unresolved extern function 'g_kernel___nv_rsqrtf'").
// REQUIRES: nvidia-plugin, ptxas
// RUN: strata-compile %s --target=nvidia-h200 --emit=obj -o %t.cubin
// RUN: strata-compile %s --target=nvidia-h200 --emit=llvm -o - | FileCheck %s
// CHECK-DAG: call {{.*}} @__nv_rsqrtf
// CHECK-NOT: _kernel{{.*}}___nv_rsqrtf

#id = affine_map<(i, j) -> (i, j)>
func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.rsqrt %a : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
func.func @g(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 2.0 : f32
    %s = arith.mulf %a, %c : f32
    %y = math.rsqrt %s : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
