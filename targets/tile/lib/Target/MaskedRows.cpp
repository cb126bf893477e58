//===- MaskedRows.cpp - Row reductions over rows that are not whole tiles -===//
//
// A row program works on whole tiles, so rows of 5 or 129 values are
// padded, and every reduction must read its identity in the padding.
// RowPadding.cpp chooses what each input's padding holds (-inf for a
// softmax, 0 for a sum of x); where no choice works (a variance's
// (x - mean)^2, a log1p, a max of a sum of two inputs), each such row
// reduction is masked instead: it reduces select(m[j], x, identity), m a
// constant vector of `true` over the row's columns. Read from DRAM as a
// per-column vector, its padding holds 0 (false), so the padded columns
// contribute the identity (0 to a sum, -inf to a max, false to an "any")
// whatever the ops before computed there; on the engines the select is a
// where_dst. The cost is one comparison-free select per element of the
// reduced values.
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <limits>

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {
/// The identity of a row reduction's combine (sum from 0, max from -inf,
/// or from false), or null when `op` is no such reduction.
TypedAttr identityOf(linalg::GenericOp op) {
  std::optional<RowCombine> c = rowCombineOf(op);
  // (A term that is the accumulator itself, acc + acc, has no mask.)
  if (!c || c->term() == op.getBody()->getArgument(op.getNumDpsInputs()))
    return {};
  Operation *combine = c->op;
  Type type = combine->getResult(0).getType();
  if (isa<arith::AddFOp>(combine))
    return FloatAttr::get(type, 0.0);
  if (isa<arith::MaxNumFOp, arith::MaximumFOp>(combine))
    return FloatAttr::get(type, -std::numeric_limits<double>::infinity());
  if (isa<arith::OrIOp>(combine) && type.isInteger(1))
    return IntegerAttr::get(type, 0);
  return {};
}

/// A reduction of the last loop into every other loop, in order, over rows
/// of `cols` values that are not whole tiles of `tileCols`.
bool isRaggedRowReduction(linalg::GenericOp op, int64_t tileCols) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1 || op.getNumLoops() < 2 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return false;
  std::optional<RowRead> out =
      rowReadOf(op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
  int64_t cols = op.getStaticLoopRanges().back();
  return out == RowRead::PerRow && !ShapedType::isDynamic(cols) &&
         cols % tileCols != 0 && identityOf(op);
}
} // namespace

void strata::tile::maskRaggedReductions(func::FuncOp fn, int64_t tileCols) {
  SmallVector<linalg::LinalgOp> ops;
  SmallVector<linalg::GenericOp> ragged;
  fn.walk([&](linalg::LinalgOp op) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (generic || isa<linalg::FillOp>(op.getOperation()))
      ops.push_back(op);
    if (generic && isRaggedRowReduction(generic, tileCols))
      ragged.push_back(generic);
  });
  // Padding that every reduction ignores costs nothing: masks only where
  // there is none.
  if (ragged.empty() || succeeded(chooseRowPadding(ops)))
    return;
  IRRewriter rewriter(fn.getContext());
  DenseMap<int64_t, Value> masks; // one per row length, before its first use
  for (linalg::GenericOp op : ragged) {
    TypedAttr identity = identityOf(op);
    int64_t cols = op.getStaticLoopRanges().back();
    auto maskType = RankedTensorType::get({cols}, rewriter.getI1Type());
    Value &mask = masks[cols];
    if (!mask)
      mask = constantBuffer(rewriter, op,
                            DenseElementsAttr::get(maskType, true), "row_mask");
    AffineMap map = AffineMap::get(
        op.getNumLoops(), 0, rewriter.getAffineDimExpr(op.getNumLoops() - 1));
    BlockArgument real;
    op = withInput(rewriter, op, mask, map, real);
    RowCombine combine = *rowCombineOf(op);
    rewriter.setInsertionPoint(combine.op);
    Value id = arith::ConstantOp::create(rewriter, op.getLoc(), identity);
    Value masked = arith::SelectOp::create(rewriter, op.getLoc(), real,
                                           combine.term(), id);
    combine.op->setOperand(combine.termIndex, masked);
  }
}
