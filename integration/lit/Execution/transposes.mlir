// Transposing ops run in square register tiles (16 x 16 on this chip),
// transposed in registers; ragged edges (37, 1000 = 62 x 16 + 8, 33, 70)
// are peeled or masked. Checked against the reference lowering, on two
// cores.
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=transpose2d --check | FileCheck %s --check-prefix=T2 %}
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=permute3d --check | FileCheck %s --check-prefix=T3 %}
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s --check-prefix=IR

// T2: transpose2d: check result #0 (1000x37xf32): relative error {{.*}} PASS
// IR-LABEL: func.func @transpose2d
// IR: vector.transfer_read {{.*}} vector<16x16xf32>
// IR: vector.transfer_write {{.*}} : vector<16x16xf32>
func.func @transpose2d(%x: tensor<37x1000xf32>) -> tensor<1000x37xf32> {
  %e = tensor.empty() : tensor<1000x37xf32>
  %t = linalg.transpose ins(%x : tensor<37x1000xf32>) outs(%e : tensor<1000x37xf32>) permutation = [1, 0]
  return %t : tensor<1000x37xf32>
}

// T3: permute3d: check result #0 (5x70x33xf32): relative error {{.*}} PASS
func.func @permute3d(%x: tensor<5x33x70xf32>) -> tensor<5x70x33xf32> {
  %e = tensor.empty() : tensor<5x70x33xf32>
  %t = linalg.transpose ins(%x : tensor<5x33x70xf32>) outs(%e : tensor<5x70x33xf32>) permutation = [0, 2, 1]
  return %t : tensor<5x70x33xf32>
}
