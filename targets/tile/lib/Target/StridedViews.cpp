//===- StridedViews.cpp - Views of part of a buffer, as copies ------------===//
//
// Bufferization leaves slices as memref.subview views that ops read and
// write in place (a tensor.extract_slice read by an elementwise op, an op
// writing into the interior of a tensor.pad). Tile programs read and
// write whole DRAM tensors, tile by tile; the copy program
// (CopyProgram.cpp) moves the elements of a view. So each such operand
// becomes a buffer of its own with copies around the op, and the copies
// are programs of their own (SplitLowering.cpp).
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"

using namespace mlir;
using namespace strata;
using namespace strata::tile;

bool strata::tile::isViewOp(Operation *op) {
  return isa_and_nonnull<memref::SubViewOp, memref::ExpandShapeOp,
                         memref::CollapseShapeOp, memref::ReinterpretCastOp>(
      op);
}

bool strata::tile::isStridedView(Value v) {
  for (Operation *def = v.getDefiningOp(); isViewOp(def);
       def = def->getOperand(0).getDefiningOp())
    if (isa<memref::SubViewOp, memref::ReinterpretCastOp>(def))
      return true;
  return false;
}

Value strata::tile::bufferOf(Value v) {
  while (isViewOp(v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  return v;
}

void strata::tile::copyStridedOperands(func::FuncOp fn) {
  SmallVector<linalg::LinalgOp> ops;
  fn.walk([&](linalg::LinalgOp op) {
    if (!isPaddingOp(op))
      ops.push_back(op);
  });
  OpBuilder builder(fn.getContext());
  for (linalg::LinalgOp op : ops) {
    for (OpOperand &operand : op->getOpOperands()) {
      Value view = operand.get();
      auto type = dyn_cast<MemRefType>(view.getType());
      if (!type || !isStridedView(view))
        continue;
      builder.setInsertionPoint(op);
      auto own = MemRefType::get(type.getShape(), type.getElementType());
      Value buffer = memref::AllocOp::create(builder, op.getLoc(), own);
      bool output = op.isDpsInit(&operand);
      if (!output || op.payloadUsesValueFromOperand(&operand))
        memref::CopyOp::create(builder, op.getLoc(), view, buffer);
      operand.set(buffer);
      if (output) {
        builder.setInsertionPointAfter(op);
        memref::CopyOp::create(builder, op.getLoc(), buffer, view);
      }
    }
  }
}
