//===- WidenBooleans.cpp - Booleans between linalg ops as bytes -----------===//
//
// An i1 tensor that one linalg op makes and others read becomes an i8
// tensor (extui where it is yielded, trunci where it is read), so that the
// ops around it get schedules (the model refuses sub-byte elements, whose
// vector memory layout is not portable) and join fusion groups: PyTorch's
// safe softmax reduces "every score of the row is -inf" into such a tensor.
// A boolean argument (a bool attention mask) is extended to bytes once, by
// an op of its own, for the ops that read it.
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
/// users the i1 they read before; returns that i1.
Value narrowArgument(RewriterBase &rw, BlockArgument arg) {
  arg.setType(rw.getI8Type());
  rw.setInsertionPointToStart(arg.getOwner());
  auto narrow = arith::TruncIOp::create(rw, arg.getLoc(), rw.getI1Type(), arg);
  rw.replaceAllUsesExcept(arg, narrow, narrow);
  return narrow;
}

/// The i8 value to yield for the i1 `value` where `accumulator` (an i8
/// argument, read as `narrow`) is the output: a bitwise combination of the
/// accumulator with a boolean is made on bytes (0 and 1 stay 0 and 1), so
/// the vectorizer still sees a reduction (`ori` of the accumulator) rather
/// than conversions around one.
Value widenYielded(RewriterBase &rw, Value value, BlockArgument accumulator,
                   Value narrow) {
  Location loc = value.getLoc();
  Type i8 = rw.getI8Type();
  Operation *combiner = value.getDefiningOp();
  if (combiner && isa<arith::OrIOp, arith::AndIOp, arith::XOrIOp>(combiner) &&
      llvm::is_contained(combiner->getOperands(), narrow)) {
    Value other = combiner->getOperand(0) == narrow ? combiner->getOperand(1)
                                                    : combiner->getOperand(0);
    rw.setInsertionPointAfter(combiner);
    Value wide = arith::ExtUIOp::create(rw, loc, i8, other);
    return rw
        .create(loc, combiner->getName().getIdentifier(), {accumulator, wide},
                {i8})
        ->getResult(0);
  }
  rw.setInsertionPointAfterValue(value);
  return arith::ExtUIOp::create(rw, loc, i8, value);
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
      BlockArgument accumulator = op.getMatchingBlockArgument(init);
      Value narrow = narrowArgument(rw, accumulator);
      Operation *yield = op.getBody()->getTerminator();
      yield->setOperand(
          0, widenYielded(rw, yield->getOperand(0), accumulator, narrow));
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

/// Whether `op` only extends a boolean input to a byte (what
/// WidenBooleanInput inserts).
bool widensBoolean(linalg::GenericOp op) {
  Block *body = op.getBody();
  auto ext = dyn_cast<arith::ExtUIOp>(body->front());
  return op.getNumDpsInputs() == 1 && ext &&
         ext.getIn() == body->getArgument(0) &&
         body->getTerminator()->getOperand(0) == ext.getResult();
}

/// An i1 tensor that no linalg op makes (a function's argument: a bool
/// attention mask) read by a linalg.generic: it is extended to bytes once,
/// by an op of its own, and the reader reads the bytes.
struct WidenBooleanInput : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rw) const override {
    if (!op.hasPureTensorSemantics() || widensBoolean(op))
      return failure();
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      if (!type || !isBoolean(type.getElementType()) ||
          input->get().getDefiningOp<linalg::LinalgOp>())
        continue;
      Location loc = op.getLoc();
      Type i8 = rw.getI8Type();
      rw.setInsertionPoint(op);
      Value empty = tensor::EmptyOp::create(
          rw, loc, tensor::getMixedSizes(rw, loc, input->get()), i8);
      SmallVector<AffineMap> maps(2, rw.getMultiDimIdentityMap(type.getRank()));
      SmallVector<utils::IteratorType> iterators(type.getRank(),
                                                 utils::IteratorType::parallel);
      auto wide = linalg::GenericOp::create(
          rw, loc, TypeRange{type.clone(i8)}, ValueRange{input->get()},
          ValueRange{empty}, maps, iterators,
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value byte = arith::ExtUIOp::create(b, l, i8, args[0]);
            linalg::YieldOp::create(b, l, byte);
          });
      rw.modifyOpInPlace(op, [&] {
        input->set(wide.getResult(0));
        narrowArgument(rw, op.getMatchingBlockArgument(input));
      });
      return success();
    }
    return failure();
  }
};

struct WidenBooleansPass
    : strata::impl::StrataWidenBooleansBase<WidenBooleansPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<WidenBooleanResult, WidenBooleanInput>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
