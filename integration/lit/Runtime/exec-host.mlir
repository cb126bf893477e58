// Compile here, run there, on the host: strata-run --save-io writes the
// artifact, the inputs and the reference's outputs; strata-exec (no
// compiler) finishes the check from them, and fails it on other inputs.
// RUN: rm -rf %t && strata-run %s --target=host --save-io=%t > %t.log
// RUN: FileCheck %s --check-prefix=SAVED < %t.log
// RUN: strata-exec %t/artifact --io=%t --bench --reps=3 | FileCheck %s
// RUN: strata-exec %t/artifact --io=%t --json | FileCheck %s --check-prefix=JSON
// RUN: strata-exec %t/artifact --entry=scale --input=@%t/scale.input0.npy --expected=@%t/scale.expected0.npy --output=@%t/out.npy | FileCheck %s --check-prefix=ONE
// RUN: strata-exec %t/artifact --entry=scale --input=@%t/out.npy --expected=@%t/scale.expected0.npy --tolerance=1e9 | FileCheck %s --check-prefix=ONE
// A wrong input changes the outputs: the check fails with status 2.
// RUN: python3 %inputs/expect-status.py 2 strata-exec %t/artifact --entry=scale --seed=9 --expected=@%t/scale.expected0.npy | FileCheck %s --check-prefix=FAIL
// Outputs only: the inputs are drawn again from the seed in io.json.
// RUN: rm -rf %t.o && strata-run %s --target=host --save-io=%t.o --save-io-outputs-only --seed=4 > /dev/null
// RUN: not ls %t.o/scale.input0.npy
// RUN: strata-exec %t.o/artifact --io=%t.o --entry=scale | FileCheck %s --check-prefix=ONE

// SAVED: saved the artifact, inputs and expected outputs to
// SAVED: scale: ran on host

// CHECK: scale: check result #0 (64x32xf32): relative error {{.*}} PASS
// CHECK: scale: median {{.*}} ms over 3 runs, {{.*}} GFLOP/s, {{.*}} GB/s, {{.*}}% of the roofline of host
// CHECK: rowsum: check result #0 (64xf32): relative error {{.*}} PASS
// CHECK: rowsum: check result #1 (64x32xf32): relative error {{.*}} PASS

// JSON: {"checks":[{"max_abs_error":{{.*}},"passed":true,{{.*}}}],"function":"scale"}
// JSON: "function":"rowsum"

// ONE: scale: check result #0 (64x32xf32): relative error {{.*}} PASS
// ONE-NOT: rowsum

// FAIL: scale: check result #0 (64x32xf32): relative error {{.*}} FAIL

func.func @scale(%a: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 3.0 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

func.func @rowsum(%a: tensor<64x32xf32>, %b: tensor<64x32xf32>) -> (tensor<64xf32>, tensor<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<64x32xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e2 : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.subf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<64x32xf32>
  return %s, %p : tensor<64xf32>, tensor<64x32xf32>
}
