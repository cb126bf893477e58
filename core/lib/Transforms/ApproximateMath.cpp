//===- ApproximateMath.cpp - Vectorizable f32 transcendental functions ----===//
#include "ExpApproximation.h"
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/STLExtras.h"

namespace strata {
#define GEN_PASS_DEF_STRATAAPPROXIMATEMATH
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

namespace {
/// The largest |x| whose sin and cos the polynomial computes: its argument
/// reduction (x - k pi/2 in f32) keeps about 2.6e-5 relative error at
/// 1e3 and loses the result past 1e5 (|sin 1e12| came out as 1e24).
constexpr double kLargestReducedArgument = 8192.0;

/// `op` (a math.sin or math.cos of f32 or a vector of f32) as: when any
/// lane's |x| exceeds kLargestReducedArgument (or is NaN), the function
/// of x extended to f64 (a libm call), rounded back; else the f32 op,
/// which the approximation patterns then expand (sin of a tiny x: x).
/// `value` as a constant of `type` (f32 or a vector of f32: a splat).
Value f32Constant(OpBuilder &b, Location loc, Type type, double value) {
  FloatAttr scalar = b.getF32FloatAttr(value);
  auto vector = dyn_cast<VectorType>(type);
  return arith::ConstantOp::create(
      b, loc,
      vector ? TypedAttr(DenseElementsAttr::get(vector, Attribute(scalar)))
             : TypedAttr(scalar));
}

void guardLargeArguments(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value x = op->getOperand(0);
  Type type = x.getType();
  auto vector = dyn_cast<VectorType>(type);
  Type f64 = vector ? Type(vector.clone(b.getF64Type())) : b.getF64Type();
  Value bound = f32Constant(b, loc, type, kLargestReducedArgument);
  Value magnitude = math::AbsFOp::create(b, loc, x);
  // Unordered: NaN takes the exact path too.
  Value large = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT,
                                      magnitude, bound);
  if (vector) {
    // A vector of several dimensions is read as one row of its lanes.
    if (vector.getRank() != 1)
      large = vector::ShapeCastOp::create(
          b, loc, VectorType::get({vector.getNumElements()}, b.getI1Type()),
          large);
    large =
        vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, large);
  }
  OperationName name = op->getName();
  auto branch = scf::IfOp::create(b, loc, TypeRange{type}, large,
                                  /*withElseRegion=*/true);
  {
    OpBuilder nb = OpBuilder::atBlockEnd(branch.thenBlock());
    Value wide = arith::ExtFOp::create(nb, loc, f64, x);
    Operation *exact = nb.create(loc, name.getIdentifier(), {wide}, {f64});
    Value narrow = arith::TruncFOp::create(nb, loc, type, exact->getResult(0));
    scf::YieldOp::create(nb, loc, narrow);
  }
  {
    OpBuilder nb = OpBuilder::atBlockEnd(branch.elseBlock());
    Value fast = nb.clone(*op)->getResult(0);
    // Near 0 the polynomial's error is absolute (about 6e-8), not
    // relative: sin x of |x| below 2^-12 is x (x^3 / 6 is under 2^-25 of x).
    if (isa<math::SinOp>(op)) {
      Value tiny = f32Constant(nb, loc, type, 0x1p-12);
      Value small = arith::CmpFOp::create(nb, loc, arith::CmpFPredicate::OLT,
                                          magnitude, tiny);
      fast = arith::SelectOp::create(nb, loc, small, x, fast);
    }
    scf::YieldOp::create(nb, loc, fast);
  }
  op->getResult(0).replaceAllUsesWith(branch.getResult(0));
  op->erase();
}

struct ApproximateMath
    : strata::impl::StrataApproximateMathBase<ApproximateMath> {
  void runOnOperation() override {
    // The functions whose upstream approximations are accurate to a few ulp
    // in f32 (the patterns match f32 only). exp has a leaner one of ours
    // (ExpApproximation.cpp), which also expands the exps that the others
    // make.
    static const StringRef kApproximated[] = {"atan", "atan2", "cos", "erf",
                                              "exp2", "expm1", "log", "log1p",
                                              "log2", "sin",   "tanh"};
    SmallVector<Operation *> trig;
    getOperation()->walk([&](Operation *op) {
      if (isa<math::SinOp, math::CosOp>(op) &&
          getElementTypeOrSelf(op->getOperand(0).getType()).isF32())
        trig.push_back(op);
    });
    for (Operation *op : trig)
      guardLargeArguments(op);
    RewritePatternSet patterns(&getContext());
    populateExpApproximationPatterns(patterns);
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      // Names come with or without the dialect prefix across versions.
      name.consume_front("math.");
      return llvm::is_contained(kApproximated, name);
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
