//===- LowerVectors.cpp - n-D vector ops to 1-D vector arithmetic ---------===//
//
// Three phases, so that no pattern undoes another: first a product added to
// an accumulator becomes one multiply-add; then contractions, transposes,
// reductions and masks become outer products and elementwise ops; then outer
// products become broadcast multiply-adds and n-D transfers become unrolled
// 1-D loads and stores.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace strata {
#define GEN_PASS_DEF_STRATALOWERVECTORS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
/// `acc + a * b` on vectors, the product used nowhere else, is one
/// `vector.fma`. A contraction whose reduction loop the vectorizer unrolled
/// to one step (a convolution's window position and channel) arrives as a
/// multiply, a shape cast that drops the unit reduction dimension and an
/// add; without this the backend issues a multiply and an add per element
/// (twice the instructions of the register tile's inner loop).
struct MultiplyAddToFma : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::AddFOp add,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(add.getType());
    if (!type || type.isScalable())
      return failure();
    for (unsigned i = 0; i < 2; ++i) {
      Value product = add->getOperand(i);
      Value acc = add->getOperand(1 - i);
      auto cast = product.getDefiningOp<vector::ShapeCastOp>();
      if (cast) {
        if (!cast->hasOneUse())
          continue;
        product = cast.getSource();
      }
      auto mul = product.getDefiningOp<arith::MulFOp>();
      if (!mul || !mul->hasOneUse())
        continue;
      auto reshaped = [&](Value v) -> Value {
        if (v.getType() == type)
          return v;
        return vector::ShapeCastOp::create(rewriter, add.getLoc(), type, v);
      };
      Value lhs = reshaped(mul.getLhs());
      Value rhs = reshaped(mul.getRhs());
      rewriter.replaceOpWithNewOp<vector::FMAOp>(add, lhs, rhs, acc);
      return success();
    }
    return failure();
  }
};

struct LowerVectors : strata::impl::StrataLowerVectorsBase<LowerVectors> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    {
      RewritePatternSet patterns(ctx);
      patterns.add<MultiplyAddToFma>(ctx);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorContractLoweringPatterns(
          patterns, vector::VectorContractLowering::OuterProduct);
      vector::populateVectorTransposeLoweringPatterns(
          patterns, vector::VectorTransposeLowering::EltWise);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerReduction);
      vector::populateVectorMaskOpLoweringPatterns(patterns);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorOuterProductLoweringPatterns(patterns);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
      vector::populateVectorTransferLoweringPatterns(patterns,
                                                     /*maxTransferRank=*/1);
      populateVectorToSCFConversionPatterns(
          patterns, VectorTransferToSCFOptions().enableFullUnroll());
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
  }
};
} // namespace
