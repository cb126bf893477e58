//===- ApplyScheduleSupport.h - Shared S2/S4 helpers ------------*- C++ -*-===//
//-*-===//
//
// The tiling and fusion helpers of strata-apply-schedule (ApplySchedule.cpp)
// that its fusion groups (FusionGroups.cpp) use too.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_APPLYSCHEDULESUPPORT_H
#define STRATA_TRANSFORMS_APPLYSCHEDULESUPPORT_H

#include "strata/Schedule/Schedule.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace strata::apply {

/// Marks the root of a fusion group while it is tiled.
inline constexpr llvm::StringLiteral kRootAttrName = "strata.root";
/// Marks the result of a packing copy until it is hoisted.
inline constexpr llvm::StringLiteral kPackedAttrName = "strata.packed";
/// Marks the reduction loops of register tiles, whose accumulators stay in
/// registers (hoistAccumulators).
inline constexpr llvm::StringLiteral kAccumulateAttrName = "strata.accumulate";

/// The kind a schedule on `op` names; "" when it has none.
std::string scheduleKind(mlir::Operation *op);

/// The scf.forall mapping of a schedule's grid: one #strata.grid dim per
/// split loop, listed innermost first by convention.
llvm::SmallVector<mlir::Attribute> gridMapping(mlir::MLIRContext *ctx,
                                               const Schedule &s);

/// Tiles `root`, which carries kRootAttrName, by `tiling` and fuses the
/// producers `control` accepts into the loops; every result the fusion
/// replaces is replaced. Returns the tiled root (it keeps the attribute)
/// and appends the loops to `loops` if given.
mlir::FailureOr<mlir::Operation *> tileAndFuseRoot(
    mlir::RewriterBase &rw, mlir::Operation *root,
    const mlir::scf::SCFTilingOptions &tiling,
    mlir::scf::SCFTileAndFuseOptions::ControlFnTy control,
    llvm::SmallVectorImpl<mlir::LoopLikeOpInterface> *loops = nullptr);

/// Tiles `op` once; returns the tiled op (or `op` when nothing is tiled).
/// With `fuseFills`, fills of its outputs are fused into the loops.
mlir::FailureOr<mlir::Operation *>
tile(mlir::RewriterBase &rw, mlir::Operation *op, llvm::ArrayRef<int64_t> sizes,
     llvm::ArrayRef<int64_t> order, mlir::scf::SCFTilingOptions::LoopType type,
     llvm::ArrayRef<mlir::Attribute> mapping = {},
     llvm::SmallVectorImpl<mlir::LoopLikeOpInterface> *loops = nullptr,
     bool fuseFills = false);

/// The elementwise op that alone reads `op`'s (or the loop nest's around
/// it) result, if it can run on each output tile where the tile is made
/// (EpilogueFusion.cpp).
mlir::linalg::LinalgOp epilogueOf(mlir::Operation *op);

/// Fuses the chain of epilogues of the nest [`grid` (an scf.forall, or
/// null), `loops`...] into its innermost loop and drops the whole result
/// the loops then carry for no reader; `grid` and `loops` become the loops
/// fusion made in their place. Nothing changes without an epilogue.
void fuseEpiloguesIntoNest(
    mlir::RewriterBase &rw, mlir::Operation *&grid,
    llvm::SmallVectorImpl<mlir::LoopLikeOpInterface> &loops);

/// Moves each packing copy (marked kPackedAttrName), with what it is
/// computed from, out of the loops it does not depend on (HoistTiles.cpp).
void hoistPacking(mlir::Operation *root);

/// Keeps the accumulators of register tiles (reduction loops marked
/// kAccumulateAttrName) in vectors across their loop: read before it,
/// written after it (HoistTiles.cpp).
void hoistAccumulators(mlir::RewriterBase &rw, mlir::Operation *root);

/// S2's fusion groups (FusionGroups.cpp), formed in `scope`.
mlir::LogicalResult fuseGroups(mlir::RewriterBase &rw, mlir::Operation *scope);

} // namespace strata::apply

#endif // STRATA_TRANSFORMS_APPLYSCHEDULESUPPORT_H
