//===- ExpApproximation.cpp - A lean f32 exp ------------------------------===//
//
// exp(x) = 2^k * exp(r), k = roundeven(x * log2(e)), r = x - k * ln(2) in two
// steps (Cody-Waite: ln(2)'s high part has 11 bits of mantissa, so k * hi is
// exact for |k| <= 2^13), |r| <= ln(2)/2. exp(r) is its Taylor polynomial
// of degree 6 (truncation error 1.2e-7 relative, under one ulp), with every
// coefficient doubled so that it yields 2 * exp(r), and the result is that
// times 2^(k-1): 2^(k-1) is a normal float for k in [-125, 128], so values
// up to FLT_MAX come out finite and larger ones round to +inf.
//
// Edge cases cost no compares or selects, only a clamp of x to
// [-87.5, 88.8]: above 88.8 the result is +inf (exp(88.8) > FLT_MAX);
// below about -86.99 (k = -126, whose 2^(k-1) has a zero exponent field)
// it is +0, so results under 1.7e-38 are flushed to zero; NaN stays NaN
// (maximumf/minimumf propagate it). 17 vector ops where upstream's
// approximation takes 25 (four compares and selects for the same cases);
// a bandwidth-bound softmax spends most of its instructions here.
//
//===----------------------------------------------------------------------===//
#include "ExpApproximation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace {

struct LeanExp : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rw) const override {
    Type type = op.getType();
    auto vector = dyn_cast<VectorType>(type);
    if (!getElementTypeOrSelf(type).isF32() || (vector && vector.isScalable()))
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rw);
    Type intType = b.getI32Type();
    if (vector)
      intType = VectorType::get(vector.getShape(), intType);
    auto f = [&](double v) -> Value {
      TypedAttr attr = b.getF32FloatAttr(float(v));
      if (vector)
        attr = SplatElementsAttr::get(vector, attr);
      return arith::ConstantOp::create(b, attr);
    };
    auto i = [&](int32_t v) -> Value {
      TypedAttr attr = b.getI32IntegerAttr(v);
      if (vector)
        attr = SplatElementsAttr::get(cast<ShapedType>(intType), attr);
      return arith::ConstantOp::create(b, attr);
    };

    Value x = arith::MaximumFOp::create(b, op.getOperand(), f(-87.5));
    x = arith::MinimumFOp::create(b, x, f(88.8));
    Value k = math::RoundEvenOp::create(
        b, arith::MulFOp::create(b, x, f(1.4426950408889634)));
    Value r = math::FmaOp::create(b, k, f(-0.693145751953125), x);
    r = math::FmaOp::create(b, k, f(-1.4286068203094173e-06), r);
    // 2 * (1 + r + r^2/2! + ... + r^6/6!), Horner.
    static const double kTwiceTaylor[] = {
        2.0 / 720, 2.0 / 120, 2.0 / 24, 2.0 / 6, 2.0 / 2, 2.0, 2.0};
    Value p = f(kTwiceTaylor[0]);
    for (double c : ArrayRef(kTwiceTaylor).drop_front())
      p = math::FmaOp::create(b, p, r, f(c));
    // 2^(k-1): the biased exponent k - 1 + 127 in the exponent field.
    Value e = arith::AddIOp::create(b, arith::FPToSIOp::create(b, intType, k),
                                    i(126));
    Value scale =
        arith::BitcastOp::create(b, type, arith::ShLIOp::create(b, e, i(23)));
    rw.replaceOp(op, arith::MulFOp::create(b, p, scale));
    return success();
  }
};

} // namespace

void strata::populateExpApproximationPatterns(RewritePatternSet &patterns) {
  patterns.add<LeanExp>(patterns.getContext(), /*benefit=*/2);
}
