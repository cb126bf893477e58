//===- PackingPads.cpp - Packing pads as a fill and a copy ----------------===//
//
// See PackingPads.h.
//
//===----------------------------------------------------------------------===//
#include "PackingPads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;

void strata::rewritePadsAsFillAndCopy(RewriterBase &rw,
                                      ArrayRef<tensor::PadOp> pads,
                                      StringRef packedAttr) {
  for (tensor::PadOp pad : pads) {
    Value padValue = pad.getConstantPaddingValue();
    Attribute padConstant;
    if (!padValue || (!matchPattern(padValue, m_Constant(&padConstant)) &&
                      pad.getRegion().isAncestor(padValue.getParentRegion())))
      continue;
    rw.setInsertionPoint(pad);
    Location loc = pad.getLoc();
    auto type = cast<RankedTensorType>(pad.getResultType());
    Value empty = tensor::EmptyOp::create(rw, loc, type.getShape(),
                                          type.getElementType());
    Value fillValue =
        padConstant
            ? arith::ConstantOp::create(rw, loc, cast<TypedAttr>(padConstant))
                  .getResult()
            : padValue;
    // No fill where the data covers the whole buffer (a packing copy).
    bool exact = cast<RankedTensorType>(pad.getSource().getType()) == type;
    Value filled =
        exact ? empty
              : linalg::FillOp::create(rw, loc, fillValue, empty).getResult(0);
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rw, loc, pad.getSource());
    SmallVector<OpFoldResult> offsets = pad.getMixedLowPad();
    SmallVector<OpFoldResult> strides(type.getRank(), rw.getIndexAttr(1));
    Value window = tensor::ExtractSliceOp::create(rw, loc, filled, offsets,
                                                  sizes, strides);
    Value copied =
        linalg::CopyOp::create(rw, loc, pad.getSource(), window).getResult(0);
    auto packed = rw.replaceOpWithNewOp<tensor::InsertSliceOp>(
        pad, copied, filled, offsets, sizes, strides);
    packed->setAttr(packedAttr, rw.getUnitAttr());
  }
}

void strata::dropCopyBacksIntoCapturedValues(RewriterBase &rw,
                                             Operation *root) {
  SmallVector<bufferization::MaterializeInDestinationOp> copies;
  root->walk([&](bufferization::MaterializeInDestinationOp op) {
    if (op.getResult())
      copies.push_back(op);
  });
  for (bufferization::MaterializeInDestinationOp copy : copies) {
    // The outermost loop around the copy.
    Operation *loop = nullptr;
    for (auto l = copy->getParentOfType<LoopLikeOpInterface>(); l;
         l = l->getParentOfType<LoopLikeOpInterface>())
      loop = l;
    if (!loop)
      continue; // untiled: the copy puts the result into its destination
    Value dest = copy.getDest();
    while (auto slice = dest.getDefiningOp<tensor::ExtractSliceOp>())
      dest = slice.getSource();
    Operation *owner = dest.getParentRegion()->getParentOp();
    if (loop->isAncestor(owner))
      continue; // carried by the loops (iter_args, shared outputs)
    rw.replaceOp(copy, copy.getSource());
  }
}
