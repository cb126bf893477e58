//===- ResultsInPlace.cpp - Reshaped results in the output buffer ---------===//
//
// A result that is a reshaped view of a buffer the function allocates (a 1x1
// convolution computed as a GEMM of collapsed rows, then expanded back to
// NHWC) arrives from `buffer-results-to-out-params` as an allocation, the
// computation into it, and a copy of its reshaped view into the caller's
// output buffer. The allocation becomes the inverse reshape of the output
// buffer instead, and the copy goes: no fresh pages to fault in on every
// call, and no serial copy after the parallel loops.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace strata {
#define GEN_PASS_DEF_STRATARESULTSINPLACE
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
/// Whether `v` and every view taken of it are used only before `end` in
/// its block (their users' ancestors there), `end` itself excepted.
bool usedOnlyBefore(Value v, Operation *end) {
  for (Operation *user : v.getUsers()) {
    if (user == end)
      continue;
    Operation *top = end->getBlock()->findAncestorOpInBlock(*user);
    if (!top || !top->isBeforeInBlock(end))
      return false;
    if (isa<ViewLikeOpInterface>(user))
      for (Value view : user->getResults())
        if (!usedOnlyBefore(view, end))
          return false;
  }
  return true;
}

/// Rewrites `copy(reshape(...reshape(alloc)), out)` into the computation
/// writing `out` directly; false if `copy` is not of that form.
bool rewriteInPlace(func::FuncOp func, memref::CopyOp copy) {
  Block &entry = func.getBody().front();
  auto out = dyn_cast<BlockArgument>(copy.getTarget());
  if (!out || out.getOwner() != &entry || !out.hasOneUse() ||
      copy->getBlock() != &entry)
    return false;
  // The reshapes from the allocation to the copied view, innermost first.
  SmallVector<Operation *> chain;
  Value v = copy.getSource();
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def) ||
        !v.hasOneUse())
      break;
    chain.push_back(def);
    v = def->getOperand(0);
  }
  auto alloc = v.getDefiningOp<memref::AllocOp>();
  if (chain.empty() || !alloc || alloc->getBlock() != &entry ||
      !alloc.getType().getLayout().isIdentity() ||
      !alloc.getType().hasStaticShape() ||
      !cast<MemRefType>(out.getType()).getLayout().isIdentity() ||
      !usedOnlyBefore(alloc.getResult(), copy))
    return false;
  // The output buffer seen through the inverse reshapes, outermost first.
  IRRewriter rw(func.getContext());
  rw.setInsertionPoint(alloc);
  Value view = out;
  for (Operation *reshape : chain) {
    Location loc = reshape->getLoc();
    if (auto expand = dyn_cast<memref::ExpandShapeOp>(reshape))
      view = memref::CollapseShapeOp::create(rw, loc, view,
                                             expand.getReassociationIndices());
    else {
      auto collapse = cast<memref::CollapseShapeOp>(reshape);
      view = memref::ExpandShapeOp::create(
          rw, loc, collapse.getSrcType().getShape(), view,
          collapse.getReassociationIndices());
    }
  }
  if (view.getType() != alloc.getType())
    return false; // leaves dead reshapes of `out`, which canonicalize drops
  rw.eraseOp(copy);
  for (Operation *reshape : chain)
    rw.eraseOp(reshape);
  rw.replaceOp(alloc, view);
  return true;
}

struct ResultsInPlace : strata::impl::StrataResultsInPlaceBase<ResultsInPlace> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<memref::CopyOp> copies(
        func.getBody().front().getOps<memref::CopyOp>());
    for (memref::CopyOp copy : copies)
      (void)rewriteInPlace(func, copy);
  }
};
} // namespace
