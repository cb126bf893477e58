//===- WidenBooleans.cpp - Booleans between linalg ops as bytes -----------===//
//
// An i1 tensor that one linalg op makes and others read becomes an i8
// tensor (extui where it is yielded, trunci where it is read), so that the
// ops around it get schedules (the model refuses sub-byte elements, whose
// vector memory layout is not portable) and join fusion groups: PyTorch's
// safe softmax reduces "every score of the row is -inf" into such a tensor.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace strata {
#define GEN_PASS_DEF_STRATAWIDENBOOLEANS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
bool isBoolean(Type type) { return type.isInteger(1); }

/// Retypes `arg`, a block argument of a linalg body, to i8 and gives its
/// users the i1 they read before.
void narrowArgument(RewriterBase &rw, BlockArgument arg) {
  arg.setType(rw.getI8Type());
  rw.setInsertionPointToStart(arg.getOwner());
  auto narrow = arith::TruncIOp::create(rw, arg.getLoc(), rw.getI1Type(), arg);
  rw.replaceAllUsesExcept(arg, narrow, narrow);
}

/// An i1 result whose every user is a linalg.generic reading it as an
/// input, and whose init is empty or a fill.
struct WidenBooleanResult : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rw) const override {
    if (op->getNumResults() != 1 || !op.hasPureTensorSemantics())
      return failure();
    Value result = op->getResult(0);
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !isBoolean(type.getElementType()) || result.use_empty())
      return failure();
    for (OpOperand &use : result.getUses()) {
      auto user = dyn_cast<linalg::GenericOp>(use.getOwner());
      if (!user || !user.isDpsInput(&use))
        return failure();
    }
    OpOperand *init = op.getDpsInitOperand(0);
    auto fill = init->get().getDefiningOp<linalg::FillOp>();
    if (op.payloadUsesValueFromOperand(init) && !fill)
      return failure();

    Location loc = op.getLoc();
    Type i8 = rw.getI8Type();
    rw.setInsertionPoint(op);
    Value wideInit = tensor::EmptyOp::create(
        rw, loc, tensor::getMixedSizes(rw, loc, init->get()), i8);
    if (fill) {
      Value value = arith::ExtUIOp::create(rw, loc, i8, fill.value());
      wideInit = linalg::FillOp::create(rw, loc, value, wideInit).getResult(0);
    }
    rw.modifyOpInPlace(op, [&] {
      init->set(wideInit);
      result.setType(type.clone(i8));
      narrowArgument(rw, op.getMatchingBlockArgument(init));
      Operation *yield = op.getBody()->getTerminator();
      rw.setInsertionPoint(yield);
      yield->setOperand(
          0, arith::ExtUIOp::create(rw, loc, i8, yield->getOperand(0)));
    });
    for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
      auto user = cast<linalg::GenericOp>(use.getOwner());
      rw.modifyOpInPlace(user, [&] {
        narrowArgument(rw, user.getMatchingBlockArgument(&use));
      });
    }
    return success();
  }
};

struct WidenBooleansPass
    : strata::impl::StrataWidenBooleansBase<WidenBooleansPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<WidenBooleanResult>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
