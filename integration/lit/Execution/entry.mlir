// Without --entry every public function runs; with it, only that one.
// RUN: strata-run %s --check | FileCheck %s --check-prefix=ALL
// RUN: strata-run %s --check --entry=second | FileCheck %s --check-prefix=SECOND
// RUN: strata-run %s --check --entry=first | FileCheck %s --check-prefix=FIRST

// ALL: first: ran on host
// ALL-NEXT: first: check result #0 (8x8xf32): {{.*}} PASS
// ALL-NEXT: second: ran on host
// ALL-NEXT: second: check result #0 (8xf32): {{.*}} PASS
// ALL-NOT: helper
// ALL-NOT: FAIL

// SECOND-NOT: first
// SECOND: second: ran on host
// SECOND-NEXT: second: check result #0 (8xf32): {{.*}} PASS
// SECOND-NOT: first

// FIRST: first: ran on host
// FIRST-NEXT: first: check result #0 (8x8xf32): {{.*}} PASS
// FIRST-NOT: second

func.func @first(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %t = linalg.transpose ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
  return %t : tensor<8x8xf32>
}

func.func private @helper(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %s = linalg.mul ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %s : tensor<8xf32>
}

func.func @second(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = func.call @helper(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
