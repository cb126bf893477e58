//===- UnitSliceStrides.cpp - Stride 1 where a slice takes one index ------===//
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

struct UnitSliceStrides
    : strata::impl::StrataUnitSliceStridesBase<UnitSliceStrides> {
  void runOnOperation() override {
    IRRewriter rw(&getContext());
    getOperation()->walk([&](Operation *op) {
      if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op))
        unitStrides(rw, extract);
      else if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
        unitStrides(rw, insert);
    });
  }
};
} // namespace
