//===- UnitSliceStrides.cpp - Unit strides where a slice takes one index
//---===//
//
// The stride of a slice along a dimension of size 1 selects nothing: only
// the offset is read. Setting it to 1 leaves the slice's values unchanged
// and keeps the views bufferization makes of it in the forms upstream's
// memref patterns handle (a kept unit dimension of stride 2 in a
// rank-reducing subview crashed them).
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace strata {
#define GEN_PASS_DEF_STRATAUNITSLICESTRIDES
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
/// The strides of `op` with 1 wherever its size is 1, if that changes any.
template <typename SliceOp>
std::optional<SmallVector<OpFoldResult>> unitStrides(SliceOp op) {
  SmallVector<OpFoldResult> strides = op.getMixedStrides();
  bool changed = false;
  for (auto [size, stride] : llvm::zip(op.getMixedSizes(), strides)) {
    std::optional<int64_t> n = getConstantIntValue(size);
    std::optional<int64_t> s = getConstantIntValue(stride);
    if (n == 1 && s != 1) {
      stride = Builder(op.getContext()).getIndexAttr(1);
      changed = true;
    }
  }
  if (!changed)
    return std::nullopt;
  return strides;
}

struct UnitSliceStrides
    : strata::impl::StrataUnitSliceStridesBase<UnitSliceStrides> {
  void runOnOperation() override {
    IRRewriter rw(&getContext());
    getOperation()->walk([&](tensor::ExtractSliceOp op) {
      if (std::optional<SmallVector<OpFoldResult>> strides = unitStrides(op)) {
        rw.setInsertionPoint(op);
        rw.replaceOpWithNewOp<tensor::ExtractSliceOp>(
            op, op.getType(), op.getSource(), op.getMixedOffsets(),
            op.getMixedSizes(), *strides);
      }
    });
    getOperation()->walk([&](tensor::InsertSliceOp op) {
      if (std::optional<SmallVector<OpFoldResult>> strides = unitStrides(op)) {
        rw.setInsertionPoint(op);
        rw.replaceOpWithNewOp<tensor::InsertSliceOp>(
            op, op.getSource(), op.getDest(), op.getMixedOffsets(),
            op.getMixedSizes(), *strides);
      }
    });
  }
};
} // namespace
