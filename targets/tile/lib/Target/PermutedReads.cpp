//===- PermutedReads.cpp - Permuted and broadcast reads as copies ---------===//
//
// An elementwise program reads its inputs tile by tile in its output's
// order: whole, transposed (the last two dimensions of a matrix or a
// batch of them) or as a vector or scalar broadcast along rows or
// columns (EltwiseLowering.cpp); a row program also per row of a batch of
// matrices (RowLowering.cpp). Any other read through a projected
// permutation (a transpose of other dimensions, a tensor broadcast over
// leading or middle dimensions) is a strided view of the input: the
// element at loop indices (i_0, ..., i_n) lies at offset + sum s_k i_k,
// with s_k the input's stride of the dimension loop k indexes (the sum
// when it indexes several, 0 when none: a broadcast). Such an input is
// copied through that view (a memref.reinterpret_cast, moved by the copy
// program, CopyProgram.cpp) into a buffer of the op's shape, which the op
// then reads whole; a transpose alone is that copy into its output.
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {
/// The view of input `operand` of `op` in the op's loop order (of sizes
/// `ranges`), or a null value when its map is not a projected permutation
/// (constants 0 into dimensions of size 1 allowed) or its layout is not
/// static.
Value loopOrderView(OpBuilder &b, linalg::GenericOp op, OpOperand &operand,
                    ArrayRef<int64_t> ranges) {
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (!type || !type.hasStaticShape() ||
      llvm::any_of(ranges, ShapedType::isDynamic) ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return {};
  SmallVector<int64_t> loopStrides(op.getNumLoops(), 0);
  AffineMap map = op.getMatchingIndexingMap(&operand);
  for (auto [i, e] : llvm::enumerate(map.getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      loopStrides[dim.getPosition()] += strides[i];
      continue;
    }
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (!c || c.getValue() != 0)
      return {};
  }
  auto layout = StridedLayoutAttr::get(op.getContext(), offset, loopStrides);
  auto viewType = MemRefType::get(ranges, type.getElementType(), layout);
  return memref::ReinterpretCastOp::create(
      b, op.getLoc(), viewType, operand.get(), offset, ranges, loopStrides);
}

/// Whether `op`'s body yields its first input unchanged: a copy.
bool isCopy(linalg::GenericOp op) {
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  return op.getNumDpsInputs() == 1 && yield.getNumOperands() == 1 &&
         yield.getOperand(0) == op.getBody()->getArgument(0);
}
} // namespace

void strata::tile::copyPermutedReads(func::FuncOp fn) {
  SmallVector<linalg::GenericOp> ops;
  fn.walk([&](linalg::GenericOp op) {
    if (op.hasPureBufferSemantics() && op.getNumReductionLoops() == 0 &&
        op.getNumDpsInits() == 1 &&
        op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() &&
        op.getBody()->getOps<linalg::IndexOp>().empty())
      ops.push_back(op);
  });
  OpBuilder b(fn.getContext());
  for (linalg::GenericOp op : ops) {
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    // The loops' sizes before any input is replaced (they are read off
    // the operands through the maps, which change only at the end).
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    bool changed = false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      // Reads an elementwise program or a row program (a vector per row
      // of a batch of matrices) takes as they are.
      if (isElementwiseRead(op, *input) ||
          rowReadOf(op.getMatchingIndexingMap(input)))
        continue;
      b.setInsertionPoint(op);
      Value view = loopOrderView(b, op, *input, ranges);
      if (!view)
        continue;
      if (isCopy(op)) {
        memref::CopyOp::create(b, op.getLoc(), view, op.getDpsInits()[0]);
        op.erase();
        changed = false;
        break;
      }
      auto own = MemRefType::get(cast<MemRefType>(view.getType()).getShape(),
                                 getElementTypeOrSelf(view.getType()));
      Value buffer = memref::AllocOp::create(b, op.getLoc(), own);
      memref::CopyOp::create(b, op.getLoc(), view, buffer);
      input->set(buffer);
      maps[input->getOperandNumber()] =
          AffineMap::getMultiDimIdentityMap(op.getNumLoops(), op.getContext());
      changed = true;
    }
    if (changed)
      op.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
  }
}
