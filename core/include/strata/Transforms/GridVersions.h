//===- GridVersions.h - Static versions of a grid loop's parts --*- C++ -*-===//
//
// A grid loop (scf.forall) whose extent does not divide evenly gives its
// last part a shorter extent, known only at run time inside the shared body
// (GridVersions.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_GRIDVERSIONS_H
#define STRATA_TRANSFORMS_GRIDVERSIONS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace strata {

/// Splits the body of `forall` into two static versions when exactly one
/// part size is computed in it by an affine.min of its induction variable
/// (a partial last part): `scf.if` on that size picks a copy of the body in
/// which the size is `full` and one in which it is `last`. Returns `tiled`
/// (an op of the body) in each version, the full one first; fails, changing
/// nothing, when the body has no such size or `tiled` is not in it.
mlir::FailureOr<std::pair<mlir::Operation *, mlir::Operation *>>
versionLastPart(mlir::RewriterBase &rw, mlir::scf::ForallOp forall,
                mlir::Operation *tiled, int64_t full, int64_t last);

} // namespace strata

#endif // STRATA_TRANSFORMS_GRIDVERSIONS_H
