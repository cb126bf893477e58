//===- PrintTarget.cpp - Read a module's description back -----------------===//
#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/HW/Model.h"
#include "strata/Target/TargetRegistry.h"
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
    HardwareAttr hw = getHardwareAttr(getOperation());
    if (!hw) {
      getOperation().emitError() << "module carries no 'strata.hw' description";
      return signalPassFailure();
    }
    hw::LoadResult result = TargetRegistry::get().validate(
        attributeToJson(hw.getDescription()), "<strata.hw>",
        /*requirePlugin=*/false);
    if (!result) {
      getOperation().emitError() << "invalid 'strata.hw' description:\n"
                                 << result.formatErrors();
      return signalPassFailure();
    }
    const hw::Description &chip = *result.description;
    llvm::outs() << hw::formatModel(chip, hw::deriveModel(chip));
  }
};
} // namespace
