//===- EpilogueFusion.cpp - S4: epilogues fused into their tiles ----------===//
//===//
//
// An elementwise op that alone reads a contraction's result (bias,
// activation, residual add) runs on each output tile once the tile is
// final, inside the loops that make it: upstream consumer fusion, one loop
// kind at a time. The whole result the loops then carry for no reader is
// dropped.
//
//===----------------------------------------------------------------------===//
#include "ApplyScheduleSupport.h"

#include "strata/Schedule/Attributes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace strata;
using namespace strata::apply;

/// The elementwise op that alone reads `op`'s (or the loop nest's around
/// it) result, if it can run on each output tile where the tile is made: an
/// epilogue (bias, activation, residual add). All its loops are parallel and
/// it reads the result with the map of its own output.
linalg::LinalgOp strata::apply::epilogueOf(Operation *op) {
  while (op->getParentOp() && isa<LoopLikeOpInterface>(op->getParentOp()))
    op = op->getParentOp();
  if (op->getNumResults() == 0)
    return {};
  Value result = op->getResults().back();
  if (!result.hasOneUse())
    return {};
  OpOperand &use = *result.getUses().begin();
  auto consumer = dyn_cast<linalg::LinalgOp>(use.getOwner());
  if (!consumer || !consumer.hasPureTensorSemantics() ||
      consumer->getParentOp() != op->getParentOp() ||
      scheduleKind(consumer) != "elementwise" ||
      consumer.getNumParallelLoops() != consumer.getNumLoops() ||
      !consumer.isDpsInput(&use) || consumer->getNumResults() != 1)
    return {};
  AffineMap read = consumer.getMatchingIndexingMap(&use);
  if (!read.isPermutation() ||
      read != consumer.getIndexingMapMatchingResult(consumer->getResult(0)))
    return {};
  return consumer;
}

namespace {

/// Whether `consumer`'s operands other than `loop`'s results are available
/// before `loop`: pure ops made after it from values available before (the
/// consumer's init, a slice of it, a broadcast) are moved up.
bool operandsAvailableBefore(Operation *consumer, Operation *loop) {
  for (Value operand : consumer->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (!def || def == loop || def->getBlock() != loop->getBlock() ||
        def->isBeforeInBlock(loop))
      continue;
    bool movable = isMemoryEffectFree(def) && def->getNumRegions() == 0 &&
                   llvm::all_of(def->getOperands(), [&](Value v) {
                     Operation *d = v.getDefiningOp();
                     return !d || d->getBlock() != loop->getBlock() ||
                            d->isBeforeInBlock(loop);
                   });
    if (!movable)
      return false;
    def->moveBefore(loop);
  }
  return true;
}

/// Fuses the chain of epilogues of the nest's result into the innermost of
/// `nest` (updated in place); stops at the first that does not fuse.
void fuseEpilogues(RewriterBase &rw,
                   SmallVectorImpl<LoopLikeOpInterface> &nest) {
  while (linalg::LinalgOp consumer = epilogueOf(nest.back())) {
    // One loop kind at a time: into the grid's scf.forall, then from there
    // into the cache loops (upstream fuses along a nest of tiled loops, and
    // the grid and cache loops are tiled separately).
    size_t grids = isa<scf::ForallOp>(nest.front().getOperation()) ? 1 : 0;
    SmallVector<MutableArrayRef<LoopLikeOpInterface>> levels;
    if (grids)
      levels.push_back(
          MutableArrayRef<LoopLikeOpInterface>(nest).take_front(1));
    if (nest.size() > grids)
      levels.push_back(
          MutableArrayRef<LoopLikeOpInterface>(nest).drop_front(grids));
    Operation *current = consumer;
    for (MutableArrayRef<LoopLikeOpInterface> level : levels) {
      if (!operandsAvailableBefore(current, level.front()))
        return;
      rw.setInsertionPoint(current);
      FailureOr<scf::SCFFuseConsumerOfSliceResult> fused =
          scf::tileAndFuseConsumer(rw, current, level);
      if (failed(fused) || fused->tiledOps.empty())
        return;
      if (current->use_empty())
        rw.eraseOp(current);
      current = fused->tiledOps.front();
    }
  }
}

/// Once its epilogue is fused, a contraction's own result is read by
/// nothing after the nest, yet the loops still carry it whole (a full-size
/// buffer written and never read). The nest's loops tile parallel dims, so
/// no iteration reads what another wrote: a tile's destination is sliced
/// from the loop's initial value instead, and the carried value is dropped
/// (the loop yields its iter_arg unchanged, which canonicalization folds).
void dropUnreadResults(RewriterBase &rw, ArrayRef<LoopLikeOpInterface> nest) {
  // Fusion leaves dead slices of the old result behind; they would count as
  // readers.
  Operation *scope = nest.front()->getParentOp();
  for (bool erased = true; erased;) {
    SmallVector<Operation *> dead;
    scope->walk([&](Operation *op) {
      if (op != scope && isOpTriviallyDead(op))
        dead.push_back(op); // post-order: nested ops before their parents
    });
    for (Operation *op : dead)
      rw.eraseOp(op);
    erased = !dead.empty();
  }
  for (LoopLikeOpInterface loop : nest) {
    for (auto [result, arg, init] : llvm::zip(
             loop->getResults(), loop.getRegionIterArgs(), loop.getInits())) {
      if (!result.use_empty())
        continue;
      for (OpOperand &use : llvm::make_early_inc_range(arg.getUses())) {
        Operation *user = use.getOwner();
        if (isa<tensor::ExtractSliceOp>(user)) {
          rw.modifyOpInPlace(user, [&, init = init] { use.set(init); });
        } else if (auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(user);
                   insert && insert.getDest() == arg) {
          rw.eraseOp(insert);
        } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(user);
                   insert && insert.getDest() == arg && insert->hasOneUse() &&
                   isa<scf::YieldOp>(*insert->getUsers().begin())) {
          OpOperand &yielded = *insert->getUses().begin();
          rw.modifyOpInPlace(yielded.getOwner(),
                             [&, arg = arg] { yielded.set(arg); });
          rw.eraseOp(insert);
        }
      }
    }
  }
}

} // namespace

void strata::apply::fuseEpiloguesIntoNest(
    RewriterBase &rw, Operation *&grid,
    SmallVectorImpl<LoopLikeOpInterface> &loops) {
  SmallVector<LoopLikeOpInterface> nest;
  if (grid)
    nest.push_back(cast<LoopLikeOpInterface>(grid));
  nest.append(loops.begin(), loops.end());
  if (!epilogueOf(nest.back()))
    return;
  // Fusing a consumer replaces the loops (with more results): `nest` is
  // updated in place, and the caller's loops are read back from it.
  fuseEpilogues(rw, nest);
  dropUnreadResults(rw, nest);
  if (grid)
    grid = nest.front();
  loops.assign(nest.end() - loops.size(), nest.end());
}
