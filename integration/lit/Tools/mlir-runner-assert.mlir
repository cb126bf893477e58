// cf.assert is accepted as input: a run-time check that lets the program
// go on when it holds and aborts it with its message when it fails (MLIR's
// Linalg/CPU/matmul-vs-matvec.mlir compares two products with it).
// RUN: strata-mlir-runner %s -e holds | FileCheck %s --check-prefix=HOLDS
// RUN: not --crash strata-mlir-runner %s -e fails 2>&1 | FileCheck %s --check-prefix=FAILS

// HOLDS: 42
// FAILS: the sum is not 7
func.func private @printI64(i64)
func.func private @printNewline()

func.func @sum() -> i64 {
  %a = arith.constant dense<[1, 2, 4]> : tensor<3xi64>
  %z = arith.constant 0 : i64
  %e = tensor.empty() : tensor<i64>
  %f = linalg.fill ins(%z : i64) outs(%e : tensor<i64>) -> tensor<i64>
  %s = linalg.reduce ins(%a : tensor<3xi64>) outs(%f : tensor<i64>) dimensions = [0]
    (%x: i64, %acc: i64) {
      %r = arith.addi %x, %acc : i64
      linalg.yield %r : i64
    }
  %v = tensor.extract %s[] : tensor<i64>
  return %v : i64
}

func.func @holds() {
  %s = call @sum() : () -> i64
  %seven = arith.constant 7 : i64
  %ok = arith.cmpi eq, %s, %seven : i64
  cf.assert %ok, "the sum is not 7"
  %answer = arith.constant 42 : i64
  call @printI64(%answer) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @fails() {
  %s = call @sum() : () -> i64
  %eight = arith.constant 8 : i64
  %ok = arith.cmpi eq, %s, %eight : i64
  cf.assert %ok, "the sum is not 7"
  return
}
