// npu-lower on a small matmul and a tanh after it (the plugin's S5 pass):
// DMA of each operand box into two scratchpad copies, the array into the
// accumulator from zero (the fill is folded), the result stored from the
// accumulator, and vector ops for the elementwise body.
// Run by test/run.sh:
//   strata-compile --load-plugin=PLUGIN --target=npu.json test/lower.mlir
//     --emit=lowered -o - | FileCheck test/lower.mlir

// CHECK-LABEL: func.func @lower
// CHECK-NOT: linalg.
// CHECK: %[[ACC:.*]] = npu.buffer {core = 0 : i64, offset = 0 : i64} : memref<{{[0-9]+}}xf32, 2>
// CHECK: %[[A:.*]] = npu.dma_load %arg0 -> %{{.*}} {core = 0 : i64, {{.*}}sizes = array<i64: 64, {{[0-9]+}}>{{.*}}} : memref<64x64xbf16> -> memref<{{[0-9]+}}xbf16, 1>
// CHECK: %[[B:.*]] = npu.dma_load %arg1 -> %{{.*}} : memref<64x64xbf16> -> memref<{{[0-9]+}}xbf16, 1>
// The first k step starts from zero, the next ones accumulate.
// CHECK: npu.matmul %{{.*}}, %{{.*}}, %[[ACC]] after(%[[A]], %[[B]]) {a_view = array<i64: {{[0-9, ]+}}>, acc_view = array<i64: {{[0-9, ]+}}>, b_view = {{.*}}, m = 64 : i64
// CHECK: npu.matmul %{{.*}}, %{{.*}}, %[[ACC]] after({{.*}}) {{{.*}}accumulate,
// CHECK: npu.dma_store %[[ACC]] -> %arg2 after(
// CHECK: npu.wait
// CHECK: %[[X:.*]] = npu.dma_load %arg2 -> %[[IN:.*]] {core = 0
// CHECK: npu.vector "tanh" %[[OUT:.*]], %[[IN]] after(%[[X]])
// CHECK: npu.dma_store %[[OUT]] -> %arg2
// CHECK: npu.wait
// CHECK: return

func.func @lower(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>)
                     outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<64x64xf32>) outs(%empty : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.tanh %x : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  return %t : tensor<64x64xf32>
}
