//===- TileVerify.h - Shared pieces of the tile verifier --------*- C++ -*-===//
#ifndef STRATA_DIALECT_TILE_IR_TILEVERIFY_H
#define STRATA_DIALECT_TILE_IR_TILEVERIFY_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

namespace strata::tile {

class KernelOp;

/// The Dst tile indices an op reads or writes (none for other ops).
llvm::SmallVector<mlir::Value, 3> dstOperands(mlir::Operation *op);

/// Checks the accumulator protocol of a compute kernel where it is
/// statically visible: in straight-line code, Dst is written only between
/// acquire_dst and commit_dst and packed only between wait_dst and
/// release_dst (TileDstCheck.cpp).
mlir::LogicalResult verifyDstProtocol(KernelOp kernel);

} // namespace strata::tile

#endif // STRATA_DIALECT_TILE_IR_TILEVERIFY_H
