// A channels-last convolution is one loop nest (implicit GEMM): per register
// tile of 6 output pixels x 64 filters, the accumulators stay in vectors
// while the loops over the window (kh, kw) and a tile of input channels run;
// only the filter is packed (the image's rows overlap and are read in place),
// whole and once, before the cores split the rows: every channel tile sweeps
// the whole output, so the channel tile is as long as half of L2 allows.
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s

// CHECK-LABEL: func.func @conv
// CHECK: memref.alloc() {{.*}} : memref<3x3x32x64xf32>
// CHECK: scf.forall
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x1x6x64xf32>)
// CHECK-NEXT: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x1x6x64xf32>)
// CHECK-NEXT: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x1x6x64xf32>)
// CHECK-NOT: memref.alloc
// CHECK: } {mapping = [#strata.grid<"core">]}
func.func @conv(%in: tensor<1x30x30x32xf32>, %w: tensor<3x3x32x64xf32>) -> tensor<1x28x28x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x28x28x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x30x30x32xf32>, tensor<3x3x32x64xf32>) outs(%f : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
  return %o : tensor<1x28x28x64xf32>
}
