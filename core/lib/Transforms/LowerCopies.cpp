//===- LowerCopies.cpp - memref.copy to vector transfers or loops ---------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/Support/MathExtras.h"

namespace strata {
#define GEN_PASS_DEF_STRATALOWERCOPIES
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
constexpr int64_t kMaxVectorElements = 1024;
constexpr int64_t kMaxPiece = 128;

/// A copy of the part of `copy` at `offsets` x `sizes` (unit strides).
memref::CopyOp copySlice(OpBuilder &b, memref::CopyOp copy,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes) {
  Location loc = copy.getLoc();
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  Value from = memref::SubViewOp::create(b, loc, copy.getSource(), offsets,
                                         sizes, strides);
  Value to = memref::SubViewOp::create(b, loc, copy.getTarget(), offsets, sizes,
                                       strides);
  return memref::CopyOp::create(b, loc, from, to);
}

/// Splits a static copy whose rows are no power of two long into copies of
/// power-of-two pieces of its rows, longest first (122 -> 64, 32, 16, 8, 2),
/// each at most kMaxPiece. A vector of 122 elements is no legal vector type:
/// LLVM builds it element by element from narrower loads (a packed block of
/// A whose rows are 250 long spent half of a 1000^3 GEMM doing that); whole
/// pieces load and store as they are. Returns the copies to vectorize.
SmallVector<memref::CopyOp> splitRows(IRRewriter &rw, memref::CopyOp copy) {
  auto type = cast<MemRefType>(copy.getSource().getType());
  if (type.getRank() == 0 || !type.hasStaticShape() ||
      (llvm::isPowerOf2_64(type.getShape().back()) &&
       type.getShape().back() <= kMaxPiece))
    return {copy};
  int64_t row = type.getShape().back();
  SmallVector<OpFoldResult> offsets(type.getRank(), rw.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(rw.getContext(), type.getShape());
  SmallVector<memref::CopyOp> pieces;
  for (int64_t at = 0; at < row;) {
    int64_t piece =
        std::min<int64_t>(llvm::bit_floor(uint64_t(row - at)), kMaxPiece);
    offsets.back() = rw.getIndexAttr(at);
    sizes.back() = rw.getIndexAttr(piece);
    pieces.push_back(copySlice(rw, copy, offsets, sizes));
    at += piece;
  }
  rw.eraseOp(copy);
  return pieces;
}

/// A copy of dynamically many rows of a static length (a padded tile copied
/// back into a ragged edge of its output), or of more static rows than one
/// vector holds: a loop over the rows around a static copy of one row,
/// which is then vectorized like any other. Element loops of a whole tile
/// run at a fraction of the vector rate: LLVM vectorized a 252 x 424 copy
/// between row strides 432 and 1000 into shuffles, 60% of a 1000^3 GEMM
/// whose n tile was 424 wide at the edge. Returns the copy of one row, or
/// null when the rows are not of a static length or fit one vector.
memref::CopyOp rowLoop(IRRewriter &rw, memref::CopyOp copy) {
  auto type = cast<MemRefType>(copy.getSource().getType());
  int64_t rank = type.getRank();
  if (rank < 2 || ShapedType::isDynamic(type.getShape().back()) ||
      type.getShape().back() > kMaxVectorElements ||
      (type.hasStaticShape() && type.getNumElements() <= kMaxVectorElements))
    return nullptr;
  Location loc = copy.getLoc();
  Value zero = arith::ConstantIndexOp::create(rw, loc, 0);
  Value one = arith::ConstantIndexOp::create(rw, loc, 1);
  SmallVector<Value> extents;
  for (int64_t d = 0; d + 1 < rank; ++d)
    extents.push_back(getValueOrCreateConstantIndexOp(
        rw, loc, memref::getMixedSize(rw, loc, copy.getSource(), d)));
  memref::CopyOp row;
  scf::buildLoopNest(
      rw, loc, SmallVector<Value>(rank - 1, zero), extents,
      SmallVector<Value>(rank - 1, one),
      [&](OpBuilder &b, Location, ValueRange ivs) {
        SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end());
        offsets.push_back(b.getIndexAttr(0));
        SmallVector<OpFoldResult> sizes(rank - 1, b.getIndexAttr(1));
        sizes.push_back(b.getIndexAttr(type.getShape().back()));
        row = copySlice(b, copy, offsets, sizes);
      });
  rw.eraseOp(copy);
  return row;
}

struct LowerCopies : strata::impl::StrataLowerCopiesBase<LowerCopies> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp op) { copies.push_back(op); });
    IRRewriter rw(&getContext());
    for (memref::CopyOp copy : copies) {
      auto type = cast<MemRefType>(copy.getSource().getType());
      rw.setInsertionPoint(copy);
      if (memref::CopyOp row = rowLoop(rw, copy)) {
        copy = row;
        type = cast<MemRefType>(copy.getSource().getType());
        rw.setInsertionPoint(copy);
      }
      // One vector transfer per piece of a copy of a few registers (a tile
      // row); a whole buffer as one vector would be one giant value.
      SmallVector<memref::CopyOp> rest = {copy};
      if (type.hasStaticShape() &&
          type.getNumElements() <= kMaxVectorElements) {
        rest.clear();
        for (memref::CopyOp piece : splitRows(rw, copy)) {
          rw.setInsertionPoint(piece);
          if (failed(linalg::vectorizeCopy(rw, piece)))
            rest.push_back(piece);
        }
      }
      // Otherwise element loops, which LLVM vectorizes.
      for (memref::CopyOp piece : rest) {
        rw.setInsertionPoint(piece);
        auto generic = linalg::CopyOp::create(
            rw, piece.getLoc(), piece.getSource(), piece.getTarget());
        rw.eraseOp(piece);
        rw.setInsertionPoint(generic);
        if (failed(linalg::linalgOpToLoops(rw, generic))) {
          generic->emitError("strata-lower-copies: cannot lower copy");
          return signalPassFailure();
        }
        rw.eraseOp(generic);
      }
    }
  }
};
} // namespace
