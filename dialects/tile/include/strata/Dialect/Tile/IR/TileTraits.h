//===- TileTraits.h - Where tile ops may appear -----------------*- C++ -*-===//
//
// Traits that place an op in a kind of tile.kernel: compute ops run on the
// compute processors, NoC ops on the data-movement (reader, writer) ones.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_DIALECT_TILE_IR_TILETRAITS_H
#define STRATA_DIALECT_TILE_IR_TILETRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace strata::tile {

/// Which kernel kinds an op may appear in.
enum class KernelPlacement { Any, Compute, DataMovement };

/// Checks that `op` is nested in a tile.kernel allowed by `placement`.
mlir::LogicalResult verifyKernelPlacement(mlir::Operation *op,
                                          KernelPlacement placement);

template <typename ConcreteType>
class InKernel : public mlir::OpTrait::TraitBase<ConcreteType, InKernel> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyKernelPlacement(op, KernelPlacement::Any);
  }
};

template <typename ConcreteType>
class InComputeKernel
    : public mlir::OpTrait::TraitBase<ConcreteType, InComputeKernel> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyKernelPlacement(op, KernelPlacement::Compute);
  }
};

template <typename ConcreteType>
class InDataMovementKernel
    : public mlir::OpTrait::TraitBase<ConcreteType, InDataMovementKernel> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyKernelPlacement(op, KernelPlacement::DataMovement);
  }
};

} // namespace strata::tile

#endif // STRATA_DIALECT_TILE_IR_TILETRAITS_H
