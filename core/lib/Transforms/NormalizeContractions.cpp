//===- NormalizeContractions.cpp - Contiguous vector loops for contractions
//===//
//
// The model vectorizes a contraction along the output's innermost loop n and
// broadcasts the operand that does not use n; the operand that does must be
// contiguous along n, or every vector load would be a gather. An operand
// indexed along n by an outer dimension is transposed once here. Runs of
// parallel loops that every operand reads contiguously are collapsed into
// one loop first.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace strata {
#define GEN_PASS_DEF_STRATANORMALIZECONTRACTIONS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
/// The input to transpose and its dimension permutation, if `op` is a
/// contraction with one input strided along the vector loop.
std::optional<std::pair<unsigned, SmallVector<int64_t>>>
stridedInput(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || !op.hasPureTensorSemantics())
    return std::nullopt;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() == 0 || !out.isProjectedPermutation())
    return std::nullopt;
  unsigned n = cast<AffineDimExpr>(out.getResults().back()).getPosition();
  std::optional<unsigned> strided;
  bool broadcast = false;
  for (unsigned i = 0; i < 2; ++i) {
    AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(i));
    if (!map.isProjectedPermutation() || map.getNumResults() < 2)
      return std::nullopt;
    std::optional<unsigned> at =
        map.getResultPosition(getAffineDimExpr(n, op.getContext()));
    if (!at)
      broadcast = true;
    else if (*at + 1 != map.getNumResults())
      strided = i;
  }
  if (!strided || !broadcast)
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(*strided));
  unsigned at = *map.getResultPosition(getAffineDimExpr(n, op.getContext()));
  SmallVector<int64_t> perm;
  for (unsigned d = 0; d < map.getNumResults(); ++d)
    if (d != at)
      perm.push_back(d);
  perm.push_back(at);
  return std::make_pair(*strided, perm);
}

/// Runs of consecutive parallel loops of a contraction that every operand
/// reads as one contiguous block (a 1x1 convolution's n, h, w; a linear
/// layer's batch and sequence): collapsed, they are one loop of rows for the
/// register tile instead of batch loops around short rows. Operands that are
/// slices are left alone (collapsing a strided view would copy it).
SmallVector<ReassociationIndices> collapsibleRuns(linalg::LinalgOp op) {
  SmallVector<ReassociationIndices> runs;
  // Contractions only: two inputs that both take part in a reduction.
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() != 2 ||
      !llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
        AffineMap map = op.getMatchingIndexingMap(input);
        SmallVector<utils::IteratorType> types = op.getIteratorTypesArray();
        for (unsigned d = 0; d < types.size(); ++d)
          if (types[d] == utils::IteratorType::reduction &&
              map.isFunctionOfDim(d))
            return true;
        return false;
      }))
    return {};
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return runs;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!llvm::all_of(maps,
                    [](AffineMap m) { return m.isProjectedPermutation(); }))
    return runs;
  SmallVector<utils::IteratorType> types = op.getIteratorTypesArray();
  auto sliced = [&](unsigned d) {
    for (OpOperand &operand : op->getOpOperands())
      if (op.getMatchingIndexingMap(&operand).isFunctionOfDim(d) &&
          operand.get().getDefiningOp<tensor::ExtractSliceOp>())
        return true;
    return false;
  };
  for (unsigned d = 0; d < types.size();) {
    ReassociationIndices run{int64_t(d)};
    while (run.back() + 1 < int64_t(types.size()) &&
           types[run.back()] == utils::IteratorType::parallel &&
           types[run.back() + 1] == utils::IteratorType::parallel &&
           !sliced(unsigned(run.back())) && !sliced(unsigned(run.back() + 1))) {
      ReassociationIndices longer = run;
      longer.push_back(run.back() + 1);
      if (!linalg::areDimSequencesPreserved(maps, {longer}))
        break;
      run = longer;
    }
    d = unsigned(run.back()) + 1;
    if (run.size() > 1)
      runs.push_back(run);
  }
  return runs;
}

struct NormalizeContractions
    : strata::impl::StrataNormalizeContractionsBase<NormalizeContractions> {
  void runOnOperation() override {
    collapseRows();
    transposeStrided();
  }

  void collapseRows() {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!collapsibleRuns(op).empty())
        ops.push_back(op);
    });
    IRRewriter rw(&getContext());
    for (linalg::LinalgOp op : ops) {
      rw.setInsertionPoint(op);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(op, collapsibleRuns(op), rw);
      if (succeeded(collapsed))
        rw.replaceOp(op, collapsed->results);
    }
    if (ops.empty())
      return;
    // An elementwise consumer (an epilogue) follows into the collapsed
    // shape, so that it still reads the contraction's result directly.
    RewritePatternSet patterns(&getContext());
    linalg::populateFoldReshapeOpsByCollapsingPatterns(
        patterns, [](OpOperand *operand) {
          auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
          return consumer &&
                 consumer.getNumParallelLoops() == consumer.getNumLoops();
        });
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }

  void transposeStrided() {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (stridedInput(op))
        ops.push_back(op);
    });
    IRRewriter rw(&getContext());
    for (linalg::LinalgOp op : ops) {
      auto [index, perm] = *stridedInput(op);
      rw.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generic =
          isa<linalg::GenericOp>(op.getOperation())
              ? FailureOr<linalg::GenericOp>(cast<linalg::GenericOp>(op))
              : linalg::generalizeNamedOp(rw, op);
      if (failed(generic))
        continue;
      OpOperand *input = generic->getDpsInputOperand(index);
      Value source = input->get();
      auto type = cast<RankedTensorType>(source.getType());
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(rw, op.getLoc(), source);
      SmallVector<OpFoldResult> permuted;
      for (int64_t d : perm)
        permuted.push_back(sizes[d]);
      rw.setInsertionPoint(*generic);
      Value empty = tensor::EmptyOp::create(rw, op.getLoc(), permuted,
                                            type.getElementType());
      Value transposed =
          linalg::TransposeOp::create(rw, op.getLoc(), source, empty, perm)
              ->getResult(0);
      AffineMap map = generic->getMatchingIndexingMap(input);
      SmallVector<AffineExpr> results;
      for (int64_t d : perm)
        results.push_back(map.getResult(d));
      SmallVector<AffineMap> maps = generic->getIndexingMapsArray();
      maps[index] =
          AffineMap::get(map.getNumDims(), 0, results, op.getContext());
      rw.modifyOpInPlace(*generic, [&] {
        input->set(transposed);
        generic->setIndexingMapsAttr(rw.getAffineMapArrayAttr(maps));
      });
    }
  }
};
} // namespace
