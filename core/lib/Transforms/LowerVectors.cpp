//===- LowerVectors.cpp - n-D vector ops to 1-D vector arithmetic ---------===//
//
// Three phases, so that no pattern undoes another: first a product added to
// an accumulator becomes one multiply-add (and a mixed-precision
// contraction's operands are extended to its accumulator's type); then
// contractions, transposes, reductions and masks become outer products and
// elementwise ops; then outer products become broadcast multiply-adds, n-D
// transfers become unrolled 1-D loads and stores, and reductions to a scalar
// become trees.
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

/// A float contraction of narrower operands than its accumulator (f16 x
/// f16 into f32) multiplies the operands extended to the accumulator's
/// type, which is what the op means: upstream's unrolling lowers only
/// contractions of one element type, and left mixed a batched one (a unit
/// batch dimension) reached LLVM as an unrealized cast.
struct ExtendContractionOperands : OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ContractionOp contract,
                                PatternRewriter &rewriter) const override {
    auto accType = dyn_cast<VectorType>(contract.getAccType());
    if (!accType || !isa<FloatType>(accType.getElementType()) ||
        contract->getParentOfType<vector::MaskOp>())
      return failure();
    auto accElement = cast<FloatType>(accType.getElementType());
    auto extended = [&](Value v) -> Value {
      auto type = cast<VectorType>(v.getType());
      auto element = dyn_cast<FloatType>(type.getElementType());
      if (!element || element.getWidth() >= accElement.getWidth())
        return v;
      return arith::ExtFOp::create(rewriter, contract.getLoc(),
                                   type.clone(accElement), v);
    };
    Value lhs = extended(contract.getLhs()), rhs = extended(contract.getRhs());
    if (lhs == contract.getLhs() && rhs == contract.getRhs())
      return failure();
    rewriter.modifyOpInPlace(contract, [&] {
      contract.getLhsMutable().assign(lhs);
      contract.getRhsMutable().assign(rhs);
    });
    return success();
  }
};

/// A float reduction of a 1-D vector to a scalar becomes a tree: halves
/// combined elementwise until one lane is left. The backend otherwise adds
/// the lanes in order (a float sum may not be reassociated), one dependent
/// scalar add per lane, and scalarizes a NaN-aware maximum: a softmax over
/// rows of 32 spent all its time in such chains. The tree only reorders
/// what the register tile's partial results already reassociate.
struct TreeReduction : OpRewritePattern<vector::ReductionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ReductionOp reduction,
                                PatternRewriter &rewriter) const override {
    VectorType type = reduction.getSourceVectorType();
    // A masked reduction is one op inside its vector.mask.
    if (isa<vector::MaskOp>(reduction->getParentOp()))
      return failure();
    if (type.getRank() != 1 || type.isScalable() ||
        !isa<FloatType>(type.getElementType()) || type.getNumElements() < 2)
      return failure();
    Location loc = reduction.getLoc();
    vector::CombiningKind kind = reduction.getKind();
    auto combine = [&](Value a, Value b) -> Value {
      return vector::makeArithReduction(rewriter, loc, kind, a, b);
    };
    switch (kind) {
    case vector::CombiningKind::ADD:
    case vector::CombiningKind::MUL:
    case vector::CombiningKind::MAXNUMF:
    case vector::CombiningKind::MINNUMF:
    case vector::CombiningKind::MAXIMUMF:
    case vector::CombiningKind::MINIMUMF:
      break;
    default:
      return failure();
    }
    auto slice = [&](Value v, int64_t offset, int64_t size) -> Value {
      return vector::ExtractStridedSliceOp::create(
          rewriter, loc, v, ArrayRef<int64_t>{offset}, ArrayRef<int64_t>{size},
          ArrayRef<int64_t>{1});
    };
    Value value = reduction.getVector();
    int64_t lanes = type.getNumElements();
    // A count that is no power of two: the lanes past the largest one are
    // combined into the lanes at its start (a row of 100: 36 into the first
    // 36 of 64). Both slices start at a power of two, so whole registers
    // combine, where halving 100 would shift lanes across registers.
    if (!llvm::isPowerOf2_64(uint64_t(lanes))) {
      int64_t head = int64_t(llvm::bit_floor(uint64_t(lanes)));
      int64_t tail = lanes - head;
      Value folded = combine(slice(value, 0, tail), slice(value, head, tail));
      value = vector::InsertStridedSliceOp::create(
          rewriter, loc, folded, slice(value, 0, head), ArrayRef<int64_t>{0},
          ArrayRef<int64_t>{1});
      lanes = head;
    }
    for (; lanes > 1; lanes /= 2)
      value = combine(slice(value, 0, lanes / 2),
                      slice(value, lanes / 2, lanes / 2));
    Value result =
        vector::ExtractOp::create(rewriter, loc, value, int64_t(0)).getResult();
    if (Value acc = reduction.getAcc())
      result = combine(result, acc);
    rewriter.replaceOp(reduction, result);
    return success();
  }
};

/// A masked reduction of bf16/f16 lanes (the rows of a row reduction past
/// the last whole register tile) becomes a select of the masked-off lanes
/// to the combination's neutral value and a plain reduction (then a tree).
/// Left masked, arith-emulate-unsupported-floats puts its truncation to
/// the narrow type inside the vector.mask, which no later lowering takes
/// ('builtin.unrealized_conversion_cast' f32 to bf16 at the end).
struct MaskedNarrowReduction : OpRewritePattern<vector::MaskOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::MaskOp mask,
                                PatternRewriter &rewriter) const override {
    auto reduction =
        dyn_cast_or_null<vector::ReductionOp>(mask.getMaskableOp());
    if (!reduction || mask.getPassthru())
      return failure();
    VectorType type = reduction.getSourceVectorType();
    auto element = dyn_cast<FloatType>(type.getElementType());
    if (!element || element.getWidth() != 16 || type.getRank() != 1 ||
        type.isScalable() ||
        mask.getMask().getType() !=
            type.clone(IntegerType::get(getContext(), 1)))
      return failure();
    const llvm::fltSemantics &semantics = element.getFloatSemantics();
    llvm::APFloat neutral(semantics);
    switch (reduction.getKind()) {
    case vector::CombiningKind::ADD:
      neutral = llvm::APFloat::getZero(semantics);
      break;
    case vector::CombiningKind::MUL:
      neutral = llvm::APFloat::getOne(semantics);
      break;
    case vector::CombiningKind::MAXNUMF:
    case vector::CombiningKind::MAXIMUMF:
      neutral = llvm::APFloat::getInf(semantics, /*Negative=*/true);
      break;
    case vector::CombiningKind::MINNUMF:
    case vector::CombiningKind::MINIMUMF:
      neutral = llvm::APFloat::getInf(semantics);
      break;
    default:
      return failure();
    }
    Location loc = mask.getLoc();
    Value fill = arith::ConstantOp::create(
        rewriter, loc, type, DenseElementsAttr::get(type, neutral));
    Value lanes = arith::SelectOp::create(rewriter, loc, mask.getMask(),
                                          reduction.getVector(), fill);
    Value result = vector::ReductionOp::create(
        rewriter, loc, reduction.getKind(), lanes, reduction.getAcc(),
        reduction.getFastmath());
    rewriter.replaceOp(mask, result);
    return success();
  }
};

struct LowerVectors : strata::impl::StrataLowerVectorsBase<LowerVectors> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    {
      RewritePatternSet patterns(ctx);
      patterns.add<MultiplyAddToFma, ExtendContractionOperands>(ctx);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorContractLoweringPatterns(
          patterns, vector::VectorContractLowering::OuterProduct);
      vector::populateVectorTransposeLoweringPatterns(
          patterns, vector::VectorTransposeLowering::Shuffle16x16);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerReduction);
      vector::populateVectorMaskOpLoweringPatterns(patterns);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      // A program's own vector.scan (vector-level input) has no LLVM form:
      // it becomes extracts, combines and inserts.
      vector::populateVectorScanLoweringPatterns(patterns);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(ctx);
      patterns.add<TreeReduction, MaskedNarrowReduction>(ctx);
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
