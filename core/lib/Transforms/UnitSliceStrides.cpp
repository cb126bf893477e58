//===- UnitSliceStrides.cpp - Stride 1 where a slice takes one index ------===//
//
// The stride of a slice along a dimension of size 1 selects nothing: only
// the offset is read. Setting it to 1 leaves the slice's values unchanged
// and keeps the views bufferization makes of it in the forms upstream's
// memref patterns handle (a kept unit dimension of stride 2 in a
// rank-reducing subview crashed them).
//
// A rank-reducing slice that still has a stride other than 1 becomes a
// slice of full rank and a reshape (tensor.collapse_shape of the slice, or
// tensor.expand_shape of the inserted value): expand-strided-metadata
// crashed on the rank-reducing subview of such a slice when it kept one of
// several unit dimensions ([4, 32, 1, 1] with strides [1, 2, 1, 1] of a
// 4x64x1x1 buffer, as 4x32x1).
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace strata {
#define GEN_PASS_DEF_STRATAUNITSLICESTRIDES
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
/// Gives `op` stride 1 wherever it takes one index (a static stride of a
/// size-1 dimension; a dynamic one is left as it is).
template <typename SliceOp> void unitStrides(IRRewriter &rw, SliceOp op) {
  SmallVector<int64_t> strides(op.getStaticStrides());
  bool changed = false;
  for (auto [size, stride] : llvm::zip(op.getStaticSizes(), strides))
    if (size == 1 && stride != 1 && !ShapedType::isDynamic(stride)) {
      stride = 1;
      changed = true;
    }
  if (changed)
    rw.modifyOpInPlace(op, [&] { op.setStaticStrides(strides); });
}

/// Whether `op` drops dimensions and takes a static stride other than 1.
template <typename SliceOp> bool stridedRankReduction(SliceOp op) {
  return op.getSourceType().getRank() != op.getResultType().getRank() &&
         llvm::any_of(op.getStaticStrides(),
                      [](int64_t stride) { return stride != 1; });
}

/// A strided rank-reducing extract_slice as a full-rank slice and a
/// collapse_shape of it.
void fullRank(IRRewriter &rw, tensor::ExtractSliceOp op) {
  if (!stridedRankReduction(op))
    return;
  auto fullType = tensor::ExtractSliceOp::inferResultType(op.getSourceType(),
                                                          op.getMixedSizes());
  std::optional<SmallVector<ReassociationIndices>> groups =
      getReassociationIndicesForReshape(fullType, op.getType());
  if (!groups)
    return;
  rw.setInsertionPoint(op);
  Value full = tensor::ExtractSliceOp::create(
      rw, op.getLoc(), fullType, op.getSource(), op.getMixedOffsets(),
      op.getMixedSizes(), op.getMixedStrides());
  rw.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, op.getType(), full,
                                                 *groups);
}

/// A strided rank-reducing insert_slice as an expand_shape of the inserted
/// value and a full-rank insert.
void fullRank(IRRewriter &rw, tensor::InsertSliceOp op) {
  if (!stridedRankReduction(op))
    return;
  rw.setInsertionPoint(op);
  auto fullType = tensor::ExtractSliceOp::inferResultType(op.getDestType(),
                                                          op.getMixedSizes());
  std::optional<SmallVector<ReassociationIndices>> groups =
      getReassociationIndicesForReshape(fullType, op.getSourceType());
  if (!groups || !fullType.hasStaticShape())
    return;
  Value source = tensor::ExpandShapeOp::create(rw, op.getLoc(), fullType,
                                               op.getSource(), *groups);
  rw.replaceOpWithNewOp<tensor::InsertSliceOp>(
      op, source, op.getDest(), op.getMixedOffsets(), op.getMixedSizes(),
      op.getMixedStrides());
}

struct UnitSliceStrides
    : strata::impl::StrataUnitSliceStridesBase<UnitSliceStrides> {
  void runOnOperation() override {
    IRRewriter rw(&getContext());
    SmallVector<Operation *> slices;
    getOperation()->walk([&](Operation *op) {
      if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op)) {
        unitStrides(rw, extract);
        slices.push_back(op);
      } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
        unitStrides(rw, insert);
        slices.push_back(op);
      }
    });
    for (Operation *op : slices) {
      if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op))
        fullRank(rw, extract);
      else
        fullRank(rw, cast<tensor::InsertSliceOp>(op));
    }
  }
};
} // namespace
