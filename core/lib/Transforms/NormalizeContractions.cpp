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
#include "strata/Schedule/Attributes.h"
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace strata {
#define GEN_PASS_DEF_STRATANORMALIZECONTRACTIONS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

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

/// Bytes of a line of the innermost memory level of the description
/// attached to `op`'s module when that level is a cache; 0 otherwise (no
/// description, or a scratchpad, which has no sets). Rows of a transposed
/// copy that are a multiple of 1 KiB long are padded by it: the register
/// tile walks the copy's rows (k) with the row length as stride, and a
/// power-of-two stride maps them to a few sets of a set-associative cache,
/// which then miss on every pass (attention's Kᵀ, 2048 keys: 8 KiB apart).
int64_t innermostCacheLine(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    module = op->getParentOfType<ModuleOp>();
  if (!module)
    return 0;
  FailureOr<std::optional<hw::Description>> chip = attachedDescription(module);
  if (failed(chip) || !*chip)
    return 0;
  const hw::MemoryLevel *innermost = nullptr;
  for (const hw::MemoryLevel &mem : (*chip)->memory)
    if (mem.kind != "dram" &&
        (!innermost || mem.capacityBytes < innermost->capacityBytes))
      innermost = &mem;
  return innermost && innermost->kind == "cache" ? innermost->alignmentBytes
                                                 : 0;
}

/// Elements by which rows of `rowLength` elements of `type` are padded.
int64_t rowPadding(RankedTensorType type, int64_t rowLength,
                   int64_t lineBytes) {
  int64_t bytes = std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
  if (lineBytes <= 0 || !type.hasStaticShape() ||
      (rowLength * bytes) % 1024 != 0)
    return 0;
  return std::max<int64_t>(lineBytes / bytes, 1);
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
    if (ops.empty())
      return;
    int64_t lineBytes = innermostCacheLine(getOperation());
    IRRewriter rw(&getContext());
    for (linalg::LinalgOp op : ops) {
      auto [index, perm] = *stridedInput(op);
      // Generalizing a named op erases it: its location is kept here.
      Location loc = op.getLoc();
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
      SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rw, loc, source);
      SmallVector<OpFoldResult> permuted;
      for (int64_t d : perm)
        permuted.push_back(sizes[d]);
      rw.setInsertionPoint(*generic);
      // Padded rows: the copy is a slice of a wider buffer.
      int64_t pad = rowPadding(type, type.getShape()[perm.back()], lineBytes);
      Value empty;
      if (pad > 0) {
        // An allocation, not a tensor.empty: a slice of an empty tensor
        // folds to a smaller empty tensor, which would drop the padding.
        SmallVector<int64_t> shape(perm.size());
        for (size_t d = 0; d < perm.size(); ++d)
          shape[d] = type.getShape()[perm[d]];
        shape.back() += pad;
        Value buffer = bufferization::AllocTensorOp::create(
            rw, loc, RankedTensorType::get(shape, type.getElementType()),
            ValueRange{});
        SmallVector<OpFoldResult> zeros(perm.size(), rw.getIndexAttr(0)),
            ones(perm.size(), rw.getIndexAttr(1));
        empty = tensor::ExtractSliceOp::create(rw, loc, buffer, zeros, permuted,
                                               ones);
      } else {
        empty =
            tensor::EmptyOp::create(rw, loc, permuted, type.getElementType());
      }
      Value transposed =
          linalg::TransposeOp::create(rw, loc, source, empty, perm)
              ->getResult(0);
      AffineMap map = generic->getMatchingIndexingMap(input);
      SmallVector<AffineExpr> results;
      for (int64_t d : perm)
        results.push_back(map.getResult(d));
      SmallVector<AffineMap> maps = generic->getIndexingMapsArray();
      maps[index] =
          AffineMap::get(map.getNumDims(), 0, results, rw.getContext());
      rw.modifyOpInPlace(*generic, [&] {
        input->set(transposed);
        generic->setIndexingMapsAttr(rw.getAffineMapArrayAttr(maps));
      });
    }
  }
};
} // namespace
