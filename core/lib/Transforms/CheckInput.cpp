//===- CheckInput.cpp - Reject ops no stage handles -----------------------===//
#include "strata/Transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"

namespace strata {
#define GEN_PASS_DEF_STRATACHECKINPUT
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

llvm::ArrayRef<llvm::StringRef> strata::acceptedInputDialects() {
  static const llvm::StringRef dialects[] = {
      "affine", "arith",  "bufferization", "builtin", "func", "linalg",
      "math",   "memref", "scf",           "tensor",  "tosa", "vector"};
  return dialects;
}

/// Ops of other dialects taken as they are: cf.assert, a run-time check
/// (the program prints its message and aborts when it fails), which every
/// CPU lowering keeps. Other cf ops (branches between blocks) are not taken:
/// the stages expect structured control flow.
static bool acceptedOp(Operation *op) {
  return op->getName().getStringRef() == "cf.assert";
}

namespace {
struct CheckInput : strata::impl::StrataCheckInputBase<CheckInput> {
  void runOnOperation() override {
    llvm::ArrayRef<StringRef> accepted = acceptedInputDialects();
    bool ok = true;
    getOperation()->walk([&](Operation *op) {
      StringRef ns = op->getName().getDialectNamespace();
      if ((llvm::is_contained(accepted, ns) && op->isRegistered()) ||
          acceptedOp(op))
        return;
      op->emitError() << "'" << op->getName()
                      << "' is not accepted as input; expected ops of: "
                      << llvm::join(accepted, ", ") << " (and cf.assert)";
      ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
