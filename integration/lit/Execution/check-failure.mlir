// A result with NaNs never matches: the check fails and says why, and
// strata-run exits with 2.
// RUN: sh -c 'strata-run %s --check > %t.out; test $? -eq 2'
// RUN: FileCheck %s < %t.out

// CHECK: log_of_noise: ran on host
// CHECK-NEXT: log_of_noise: check result #0 (256xf32): relative error {{.*}} (tolerance 1.0e-04), {{[1-9][0-9]*}} non-finite values FAIL
func.func @log_of_noise(%a: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%a : tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.log %x : f32
    linalg.yield %y : f32
  } -> tensor<256xf32>
  return %g : tensor<256xf32>
}
