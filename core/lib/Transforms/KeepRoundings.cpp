//===- KeepRoundings.cpp - Emulated narrow floats round where they should -===//
//
// arith-emulate-unsupported-floats computes a bf16 op in f32 between an
// extension of its operands and a truncation of its result, both marked
// `fastmath<contract>`; arith.extf folds extf(truncf(x)) to x under that
// flag. Folding is not applied everywhere alike (a value moved through
// vector shuffles keeps its truncation), so a value reached some users
// rounded to bf16 and others not: x - max(x) over a row of equal bf16
// products was the product's rounding error instead of 0 (the subtraction
// read x unrounded, the max the rounded x). Clearing the flags keeps every
// rounding the program asks for.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace strata {
#define GEN_PASS_DEF_STRATAKEEPROUNDINGS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
struct KeepRoundings : strata::impl::StrataKeepRoundingsBase<KeepRoundings> {
  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      if (auto ext = dyn_cast<arith::ExtFOp>(op))
        ext->removeAttr(ext.getFastmathAttrName());
      else if (auto trunc = dyn_cast<arith::TruncFOp>(op))
        trunc->removeAttr(trunc.getFastmathAttrName());
    });
  }
};
} // namespace
