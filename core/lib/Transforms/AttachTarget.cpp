//===- AttachTarget.cpp - Attach a chip's description to a module ---------===//
//
// The description is resolved through the target registry (shipped name,
// file or host) and stored as the JSON document in attribute form.
//
//===----------------------------------------------------------------------===//
#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Pipeline/Compiler.h"
#include "strata/Target/TargetRegistry.h"
#include "strata/Transforms/Passes.h"

namespace strata {
#define GEN_PASS_DEF_STRATAATTACHTARGET
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

namespace {
struct AttachTarget : strata::impl::StrataAttachTargetBase<AttachTarget> {
  using StrataAttachTargetBase::StrataAttachTargetBase;

  void runOnOperation() override {
    // Injecting a chip into IR (e.g. to test a GPU stage on a CPU machine)
    // does not need its plugin; compiling for it does.
    hw::LoadResult result =
        TargetRegistry::get().resolve(target, /*requirePlugin=*/false);
    if (!result) {
      getOperation().emitError() << "cannot attach target '" << target << "':\n"
                                 << result.formatErrors();
      return signalPassFailure();
    }
    attachDescription(getOperation(), *result.description);
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<StrataDialect>();
  }
};
} // namespace
