// A bf16 softmax along rows of 129: the rows are vectors of 129 bf16,
// which the host computes in f32 but loads and shuffles as bf16. LLVM's
// x86 instruction selection aborted on them ("Do not know how to soft
// promote this operator's operand", differential seed 114 case 48): after
// optimization, loads of bf16/f16 vectors whose length is no power of two,
// and the shuffles, extracts and stores of them, move i16 vectors. A tanh
// of such rows (@tanh_rows, seed 211 case 21) aborted the same way in the
// bf16 tanh intrinsic: math functions of bf16 and f16 are computed in f32
// (math-extend-to-supported-types).
// RUN: strata-compile %s --target=host --emit=llvm -o - | FileCheck %s
// RUN: strata-run %s --target=host --check | FileCheck %s --check-prefix=EXEC

// The lengths the optimizer picks depend on the host CPU (one vector of 129
// i16 on AVX2; 128 + 1 bf16 where AVX-512 BF16 makes bf16 vectors legal):
// either way no odd-length bf16 vector is loaded or shuffled.
// CHECK-LABEL: define {{.*}}@softmax_rows
// CHECK-NOT: load <129 x bfloat>
// CHECK-NOT: shufflevector <129 x bfloat>
// CHECK: load <{{129 x i16|128 x bfloat}}>

// CHECK-LABEL: define {{.*}}@tanh_rows
// CHECK-NOT: @llvm.tanh.v{{[0-9]+}}bf16

// EXEC: softmax_rows: check result #0 (61x129xbf16): {{.*}} PASS
// EXEC: tanh_rows: check result #0 (65x129xbf16): {{.*}} PASS
func.func @softmax_rows(%x: tensor<61x129xbf16>) -> tensor<61x129xbf16> {
  %e = tensor.empty() : tensor<61x129xbf16>
  %s = linalg.softmax dimension(1) ins(%x : tensor<61x129xbf16>) outs(%e : tensor<61x129xbf16>) -> tensor<61x129xbf16>
  return %s : tensor<61x129xbf16>
}

func.func @tanh_rows(%x: tensor<65x129xbf16>) -> tensor<65x129xbf16> {
  %e = tensor.empty() : tensor<65x129xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<65x129xbf16>) outs(%e : tensor<65x129xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %r = math.tanh %in : bf16
    linalg.yield %r : bf16
  } -> tensor<65x129xbf16>
  return %t : tensor<65x129xbf16>
}
