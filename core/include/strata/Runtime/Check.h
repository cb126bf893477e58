//===- Check.h - Random inputs, poisoned outputs, comparison ----*- C++ -*-===//
//
// How every compiled program is checked (docs/architecture.md): fresh random
// inputs, outputs poisoned before the run, results compared with the
// reference by relative L2 error with a tolerance per element type. The
// numeric part is the runtime library's (strata/rt/Check.h); the signature
// of an MLIR function is the compiler's.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RUNTIME_CHECK_H
#define STRATA_RUNTIME_CHECK_H

#include "strata/Runtime/Tensor.h"
#include "strata/rt/Check.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace strata::runtime {

/// The destination-passing signature of a tensor function: statically shaped
/// tensor arguments are inputs, tensor results become trailing outputs.
/// Other argument or result types are an error naming the argument.
llvm::Expected<Signature> signatureOf(mlir::func::FuncOp func);

/// Random inputs, poison and comparison: the runtime library's.
using rt::compare;
using rt::Comparison;
using rt::fillRandom;
using rt::inputSeed;
using rt::poison;
using rt::tolerance;

} // namespace strata::runtime

#endif // STRATA_RUNTIME_CHECK_H
