//===- FuseElementwise.cpp - One op per chain of elementwise steps --------===//
//
// A program written one step at a time (subtract, broadcast, multiply, add,
// clamp) has one op per step, and each op would read and write a whole
// tensor. An elementwise producer is merged into its consumer (upstream's
// elementwise fusion) when that computes nothing twice: the producer has no
// other user, or it only moves data (a broadcast, a transposition, a fill),
// which costs nothing to repeat inside each consumer. A contraction consumer
// keeps its multiply-add body, which the model packs and register-tiles; its
// elementwise consumers fuse with it later, as epilogues, in S4.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace strata {
#define GEN_PASS_DEF_STRATAFUSEELEMENTWISE
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
/// A named op that maps elements one to one or moves them (linalg.broadcast,
/// linalg.transpose, linalg.add...), which becomes a generic so that it can
/// fuse. Contractions, convolutions, fills and copies keep their names.
struct GeneralizeElementwise : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rw) const override {
    if (isa<linalg::GenericOp, linalg::FillOp, linalg::CopyOp>(op) ||
        !op.hasPureTensorSemantics() || op.getNumReductionLoops() != 0 ||
        op->getNumResults() != 1)
      return failure();
    return linalg::generalizeNamedOp(rw, op);
  }
};

/// True when `op` only yields one of its inputs (read through its map).
bool movesData(linalg::GenericOp op) {
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  if (yield->getNumOperands() != 1 || &op.getBody()->front() != yield)
    return false;
  auto arg = dyn_cast<BlockArgument>(yield->getOperand(0));
  return arg && arg.getOwner() == op.getBody() &&
         arg.getArgNumber() < op.getNumDpsInputs();
}

bool worthFusing(OpOperand *operand) {
  auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
  if (!producer || !consumer || producer->getNumResults() != 1)
    return false;
  if (linalg::isaContractionOpInterface(consumer))
    return false;
  return producer->hasOneUse() || movesData(producer);
}

struct FuseElementwisePass
    : strata::impl::StrataFuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<GeneralizeElementwise>(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns, worthFusing);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
