//===- NormalizeContractions.cpp - Contiguous vector loops for contractions
//===//
//
// The model vectorizes a contraction along the output's innermost loop n and
// broadcasts the operand that does not use n; the operand that does must be
// contiguous along n, or every vector load would be a gather. An operand
// indexed along n by an outer dimension is transposed once here.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

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

struct NormalizeContractions
    : strata::impl::StrataNormalizeContractionsBase<NormalizeContractions> {
  void runOnOperation() override {
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
