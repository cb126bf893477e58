//===- ConvPadding.cpp - A convolution's zero padding, read in place ------===//
//
// Bufferization turns `tensor.pad` before a convolution into a buffer
// filled with the pad's value (linalg.fill or linalg.map yielding it), a
// subview of its interior and a copy of the input into it. On the tile
// target these ops are not programs of their own: the convolution's reader
// gathers the unpadded input and copies rows of the value's tile where a
// pixel falls into the padding. This file recognizes the pattern; the ops it
// covers are skipped by the grouping and by the one-program lowering.
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {
/// The allocation `op` fills with a constant, and that constant (a
/// tensor.pad's value: the padding pixels read it).
Value constantFilled(Operation *op, float &value) {
  Value filled, init;
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    filled = fill.getInputs()[0];
    init = fill.getDpsInits()[0];
  } else if (auto map = dyn_cast<linalg::MapOp>(op);
             map && map.getNumDpsInputs() == 0) {
    auto yield = cast<linalg::YieldOp>(map.getMapper().front().getTerminator());
    if (yield.getNumOperands() != 1)
      return Value();
    filled = yield.getOperand(0);
    init = map.getInit();
  }
  FloatAttr constant;
  if (!filled || !matchPattern(filled, m_Constant(&constant)))
    return Value();
  value = float(constant.getValueAsDouble());
  return init;
}
} // namespace

FailureOr<ConvPadding> strata::tile::paddingOf(Value input) {
  auto alloc = input.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return failure();
  ConvPadding padding;
  bool zeroed = false;
  for (Operation *user : alloc->getUsers()) {
    if (isa<memref::DeallocOp, linalg::Conv2DNhwcHwcfOp>(user))
      continue;
    if (float value = 0; constantFilled(user, value) == alloc.getResult()) {
      zeroed = true;
      padding.value = value;
      padding.ops.push_back(user);
      continue;
    }
    auto view = dyn_cast<memref::SubViewOp>(user);
    if (!view || padding.subview || !view.hasUnitStride() ||
        view.getStaticOffsets().size() != 4 || !view->hasOneUse())
      return failure();
    auto copy = dyn_cast<memref::CopyOp>(*view->getUsers().begin());
    auto arg = copy ? dyn_cast<BlockArgument>(copy.getSource()) : nullptr;
    ArrayRef<int64_t> offsets = view.getStaticOffsets();
    if (!arg || copy.getTarget() != view.getResult() || offsets[0] != 0 ||
        offsets[3] != 0 || ShapedType::isDynamic(offsets[1]) ||
        ShapedType::isDynamic(offsets[2]))
      return failure();
    padding.subview = view.getOperation();
    padding.input = arg;
    padding.top = offsets[1];
    padding.left = offsets[2];
    padding.ops.push_back(view);
    padding.ops.push_back(copy);
  }
  if (!zeroed || !padding.subview)
    return failure();
  padding.ops.push_back(alloc);
  return padding;
}

bool strata::tile::isPaddingOp(Operation *op) {
  auto covered = [&](Value buffer) {
    FailureOr<ConvPadding> padding = paddingOf(buffer);
    return succeeded(padding) && llvm::is_contained(padding->ops, op);
  };
  if (float value = 0; Value filled = constantFilled(op, value))
    return covered(filled);
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    if (auto view = copy.getTarget().getDefiningOp<memref::SubViewOp>())
      return covered(view.getSource());
  if (auto view = dyn_cast<memref::SubViewOp>(op))
    return covered(view.getSource());
  return false;
}
