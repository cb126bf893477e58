//===- ApproximateMath.cpp - Vectorizable f32 transcendental functions ----===//
#include "ExpApproximation.h"
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/STLExtras.h"

namespace strata {
#define GEN_PASS_DEF_STRATAAPPROXIMATEMATH
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

namespace {
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
