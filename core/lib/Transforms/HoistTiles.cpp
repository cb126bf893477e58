//===- HoistTiles.cpp - S4: packing and accumulators hoisted --------------===//
//===//
//
// After tiling, a packing copy moves to the outermost loop its operands
// allow (a panel packed once per k tile, not per register tile), and the
// accumulators of register tiles are read once before their reduction loop
// and written once after it.
//
//===----------------------------------------------------------------------===//
#include "ApplyScheduleSupport.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

using namespace mlir;
using namespace strata;
using namespace strata::apply;

namespace {
/// The ops of `loop`'s body that `root` depends on, in program order, if
/// none of them depends on the loop's induction variables or iter_args and
/// all are free of side effects; empty otherwise.
SmallVector<Operation *> invariantTree(Operation *root,
                                       LoopLikeOpInterface loop) {
  Region &body = *loop.getLoopRegions().front();
  llvm::SetVector<Operation *> tree;
  SmallVector<Operation *> work{root};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!tree.insert(op))
      continue;
    if (!isMemoryEffectFree(op) || isa<LoopLikeOpInterface>(op))
      return {};
    for (Value operand : op->getOperands()) {
      if (loop.isDefinedOutsideOfLoop(operand))
        continue;
      Operation *def = operand.getDefiningOp();
      if (!def || def->getParentRegion() != &body)
        return {}; // an induction variable, an iter_arg or nested code
      work.push_back(def);
    }
  }
  SmallVector<Operation *> ordered(tree.begin(), tree.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// Whether `value` is the destination an op or a loop writes into (an
/// output tile), rather than only read.
bool writtenInPlace(Value value) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(user);
        dps && dps.isDpsInit(&use))
      return true;
    if (auto loop = dyn_cast<LoopLikeOpInterface>(user);
        loop && llvm::is_contained(loop.getInits(), value))
      return true;
  }
  return false;
}

} // namespace

/// Moves each packing copy, with everything it is computed from, out of
/// the loops it does not depend on: a packed panel is made once and reused
/// by all iterations of the inner loops. (Moving single ops instead would
/// split a copy from the fill of its buffer, and bufferization would then
/// copy the buffer on every iteration.)

void strata::apply::hoistPacking(Operation *root) {
  SmallVector<Operation *> packs;
  root->walk([&](tensor::InsertSliceOp op) {
    if (op->hasAttr(kPackedAttrName))
      packs.push_back(op);
  });
  for (Operation *pack : packs) {
    bool written = writtenInPlace(pack->getResult(0));
    while (auto loop = dyn_cast<LoopLikeOpInterface>(pack->getParentOp())) {
      // A padded output tile is written by each thread: it stays in the
      // grid loop (hoisted out, the threads would share one buffer).
      if (written && isa<scf::ForallOp>(loop.getOperation()))
        break;
      SmallVector<Operation *> tree = invariantTree(pack, loop);
      if (tree.empty())
        break;
      for (Operation *op : tree)
        op->moveBefore(loop);
    }
    pack->removeAttr(kPackedAttrName);
  }
}

/// Keeps the accumulators of register tiles in vectors across reduction
/// loops: reads before the loop, writes after it.
void strata::apply::hoistAccumulators(RewriterBase &rw, Operation *root) {
  // Only the register tiles' own reduction loops (marked where they are
  // made), innermost first: hoisting a cache tile's slices out of its k
  // loop would turn a padded tile into a loop-carried copy.
  SmallVector<scf::ForOp> marked;
  root->walk([&](scf::ForOp loop) {
    if (loop->hasAttr(kAccumulateAttrName))
      marked.push_back(loop);
  });
  for (scf::ForOp loop : marked) {
    loop->removeAttr(kAccumulateAttrName);
    hoistLoopInvariantSubsets(rw, cast<LoopLikeOpInterface>(*loop));
  }
}
