//===- VerifyDestinationPassing.cpp - Results as output arguments ---------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace strata {
#define GEN_PASS_DEF_STRATAVERIFYDESTINATIONPASSING
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

/// Reports why `func` still returns values; the dynamic shape is the cause
/// users can act on, so it is named when present.
static void reportResults(func::FuncOp func) {
  for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
    if (auto shaped = dyn_cast<ShapedType>(type);
        shaped && !shaped.hasStaticShape()) {
      func.emitError() << "result #" << i << " has a dynamic shape (" << type
                       << "); results must have static shapes to be passed "
                          "as output arguments";
      return;
    }
  func.emitError() << "still returns " << func.getNumResults()
                   << " value(s) after bufferization; expected results as "
                      "output arguments";
}

namespace {
struct VerifyDestinationPassing
    : strata::impl::StrataVerifyDestinationPassingBase<
          VerifyDestinationPassing> {
  void runOnOperation() override {
    bool ok = true;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal() && func.getNumResults() != 0) {
        reportResults(func);
        ok = false;
      }
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
