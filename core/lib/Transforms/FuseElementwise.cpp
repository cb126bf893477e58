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
// An op whose value is a function of the loop indices only (an arange, a
// mask built from aranges) is cheaper to recompute in each consumer than to
// read from memory: it fuses into every consumer, so a causal mask becomes
// index arithmetic inside the scores' op and no mask tensor exists.
// Unit dims next to reshapes are dropped first (a head count of 1), and
// reshapes that merge loops (batch x heads) move past the elementwise ops and
// reductions next to them: the reshapes PyTorch puts around its batched
// products then cancel, and the ops between them (the scores' mask, softmax
// and its tail) meet as plain producers and consumers.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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

/// True when `op`'s body reads an output's old value.
bool readsOutputs(linalg::GenericOp op) {
  return llvm::any_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
    return op.payloadUsesValueFromOperand(&init);
  });
}

/// True when `op` reads no tensor: its value is a function of the loop
/// indices (linalg.index) and constants.
bool onlyIndices(linalg::GenericOp op) {
  return op.getNumDpsInputs() == 0 && !readsOutputs(op);
}

bool worthFusing(OpOperand *operand) {
  auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
  if (!producer || !consumer || producer->getNumResults() != 1)
    return false;
  if (linalg::isaContractionOpInterface(consumer))
    return false;
  // A producer that reads its output's old value (a reduction over a unit
  // loop, once the loop is dropped: out = out + x) accumulates once per
  // iteration of the loops a consumer adds (a broadcast's): 32 times, when
  // a softmax over one value was broadcast 32 times. It stays on its own.
  if (readsOutputs(producer))
    return false;
  return producer->hasOneUse() || movesData(producer) || onlyIndices(producer);
}

bool isReshape(Operation *op) {
  return isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op);
}

/// Whether `op` reads a slice (through reshapes): the window terms of a
/// pooling (strided slices) keep their shapes, which S4 tiles wrongly
/// once reshaped.
bool readsSlice(Operation *op) {
  return llvm::any_of(op->getOperands(), [](Value v) {
    Operation *def = v.getDefiningOp();
    while (isReshape(def))
      def = def->getOperand(0).getDefiningOp();
    return isa_and_nonnull<tensor::ExtractSliceOp>(def);
  });
}

/// Whether `op` reads a reshaped tensor or its result is reshaped.
bool nextToReshape(linalg::GenericOp op) {
  return llvm::any_of(op->getOperands(),
                      [](Value v) { return isReshape(v.getDefiningOp()); }) ||
         llvm::any_of(op->getUsers(), isReshape);
}

struct FuseElementwisePass
    : strata::impl::StrataFuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    // First named elementwise ops become generics, and the unit dims of
    // generics next to a reshape go (a head count of 1 between the reshapes
    // around a batched product; dropping them elsewhere would change the
    // shapes that a plugin expects), so the reshapes that then meet cancel.
    // Fusing in the same sweep left some producers next to consumers it had
    // not revisited.
    RewritePatternSet unitPatterns(&getContext());
    unitPatterns.add<GeneralizeElementwise>(&getContext());
    linalg::ControlDropUnitDims unitDims;
    unitDims.controlFn = [](Operation *op) -> SmallVector<unsigned> {
      auto generic = dyn_cast<linalg::GenericOp>(op);
      if (!generic || !nextToReshape(generic) || readsSlice(generic))
        return {};
      return llvm::to_vector(llvm::seq<unsigned>(0, generic.getNumLoops()));
    };
    linalg::populateFoldUnitExtentDimsPatterns(unitPatterns, unitDims);
    // A reshape that merges or splits loops (batch x heads around a batched
    // product) moves past the elementwise ops and reductions next to it,
    // which then run on the merged loops, where every operand allows it.
    linalg::populateFoldReshapeOpsByCollapsingPatterns(
        unitPatterns, [](OpOperand *operand) {
          auto generic = dyn_cast<linalg::GenericOp>(operand->getOwner());
          if (!generic)
            generic = operand->get().getDefiningOp<linalg::GenericOp>();
          return generic && !linalg::isaContractionOpInterface(generic) &&
                 !readsSlice(generic);
        });
    MLIRContext *ctx = &getContext();
    tensor::CollapseShapeOp::getCanonicalizationPatterns(unitPatterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(unitPatterns, ctx);
    linalg::FillOp::getCanonicalizationPatterns(unitPatterns, ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(unitPatterns))))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns, worthFusing);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
