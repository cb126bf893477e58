// A quantized convolution's zero points are scalar operands: each term of
// the decomposition reads them as they are (the pass cast them to tensors
// and crashed: MLIR's Linalg/CPU/test-conv-2d-nchw-fchw-q-img2col.mlir run
// by strata-mlir-runner). The decomposed program computes what the
// reference lowering does.
// RUN: strata-opt %s --strata-decompose-windows | FileCheck %s
// RUN: strata-run %s --check | FileCheck %s --check-prefix=CHECKED

// CHECK-LABEL: func.func @conv_q(
// CHECK-DAG: %[[ZI:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[ZF:.*]] = arith.constant -2 : i32
// CHECK: linalg.generic {{.*}} ins({{.*}}, %[[ZI]], %[[ZF]] : tensor<{{.*}}>, tensor<{{.*}}>, i32, i32)
// CHECK: arith.subi
// CHECK-NOT: linalg.conv_2d_nchw_fchw_q
// CHECKED: conv_q: check result #0 ({{.*}}): relative error 0.00e+00 {{.*}} PASS
func.func @conv_q(%input: tensor<2x2x5x5xi8>, %filter: tensor<3x2x2x2xi8>)
    -> tensor<2x3x4x4xi32> {
  %input_zp = arith.constant 3 : i32
  %filter_zp = arith.constant -2 : i32
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x3x4x4xi32>
  %init = linalg.fill ins(%c0 : i32) outs(%e : tensor<2x3x4x4xi32>) -> tensor<2x3x4x4xi32>
  %r = linalg.conv_2d_nchw_fchw_q
      {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%input, %filter, %input_zp, %filter_zp
          : tensor<2x2x5x5xi8>, tensor<3x2x2x2xi8>, i32, i32)
      outs(%init : tensor<2x3x4x4xi32>) -> tensor<2x3x4x4xi32>
  return %r : tensor<2x3x4x4xi32>
}
