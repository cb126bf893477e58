//===- ReciprocalDivisions.cpp - Divide by a broadcast once ---------------===//
//
// An elementwise op that divides by an operand broadcast along some of its
// loops (a softmax dividing each row by its sum, a layernorm by its standard
// deviation) divides as often as it has elements, and a vector division is
// an order of magnitude slower than a multiplication. The broadcast
// operand's reciprocal is computed once per element of that operand (a
// separate elementwise op over its smaller shape) and the op multiplies by
// it. The result differs from the division by at most one rounding.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace strata {
#define GEN_PASS_DEF_STRATARECIPROCALDIVISIONS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
struct ReciprocalDivision : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rw) const override {
    if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() != 0)
      return failure();
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      if (!type || !type.hasStaticShape() || !map.isProjectedPermutation() ||
          map.getNumResults() >= op.getNumLoops() ||
          !isa<FloatType>(type.getElementType()))
        continue;
      BlockArgument arg = op.getMatchingBlockArgument(input);
      // Only a divisor, and only of divisions.
      if (arg.use_empty() || !llvm::all_of(arg.getUses(), [&](OpOperand &use) {
            auto div = dyn_cast<arith::DivFOp>(use.getOwner());
            return div && use.getOperandNumber() == 1;
          }))
        continue;
      Location loc = op.getLoc();
      Value empty = tensor::EmptyOp::create(rw, loc, type.getShape(),
                                            type.getElementType());
      AffineMap id = rw.getMultiDimIdentityMap(type.getRank());
      SmallVector<utils::IteratorType> parallel(type.getRank(),
                                                utils::IteratorType::parallel);
      Value reciprocal =
          linalg::GenericOp::create(
              rw, loc, TypeRange{type}, ValueRange{input->get()},
              ValueRange{empty}, ArrayRef<AffineMap>{id, id}, parallel,
              [&](OpBuilder &b, Location l, ValueRange args) {
                Value one = arith::ConstantOp::create(
                    b, l, b.getFloatAttr(type.getElementType(), 1.0));
                linalg::YieldOp::create(
                    b, l,
                    ValueRange{
                        arith::DivFOp::create(b, l, one, args[0]).getResult()});
              })
              .getResult(0);
      rw.modifyOpInPlace(op, [&] { input->set(reciprocal); });
      for (OpOperand &use : llvm::make_early_inc_range(arg.getUses())) {
        auto div = cast<arith::DivFOp>(use.getOwner());
        rw.setInsertionPoint(div);
        rw.replaceOpWithNewOp<arith::MulFOp>(div, div.getLhs(), arg,
                                             div.getFastmathAttr());
      }
      return success();
    }
    return failure();
  }
};

struct ReciprocalDivisions
    : strata::impl::StrataReciprocalDivisionsBase<ReciprocalDivisions> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ReciprocalDivision>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
