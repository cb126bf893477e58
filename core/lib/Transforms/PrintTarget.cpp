//===- PrintTarget.cpp - Read a module's description back -----------------===//
#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/HW/Model.h"
#include "strata/Schedule/Attributes.h"
#include "strata/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace strata {
#define GEN_PASS_DEF_STRATAPRINTTARGET
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

namespace {
struct PrintTarget : strata::impl::StrataPrintTargetBase<PrintTarget> {
  void runOnOperation() override {
    FailureOr<hw::Description> loaded = descriptionOf(getOperation());
    if (failed(loaded))
      return signalPassFailure();
    const hw::Description &chip = *loaded;
    llvm::outs() << hw::formatModel(chip, hw::deriveModel(chip));
  }
};
} // namespace
