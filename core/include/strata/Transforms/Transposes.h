//===- Transposes.h - Transposes as batched matrix transposes --*- C++ -*-===//
//
// Chips whose engines transpose tiles (a grid of scratchpads) move a
// tensor's dimensions as the transpose of a batch of matrices: leading
// dimensions kept, the rest split into two groups that swap places. Any
// permutation is a short sequence of those; the passes that introduce
// transposes for such chips build them here.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_TRANSPOSES_H
#define STRATA_TRANSFORMS_TRANSPOSES_H

#include "mlir/IR/Builders.h"

namespace strata {

/// `input` (a static tensor) transposed by `perm` (result dimension j is
/// input dimension perm[j]), as linalg.transposes of a matrix or a batch
/// of matrices between reshapes: dimensions that move together are
/// collapsed into one, and a permutation that is not one swap of two
/// groups is several, each putting the next result dimension in place.
mlir::Value transposeAsMatrices(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value input,
                                llvm::ArrayRef<int64_t> perm);

} // namespace strata

#endif // STRATA_TRANSFORMS_TRANSPOSES_H
