//===- LowerCopies.cpp - memref.copy to vector transfers or loops ---------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace strata {
#define GEN_PASS_DEF_STRATALOWERCOPIES
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
constexpr int64_t kMaxVectorElements = 1024;

struct LowerCopies : strata::impl::StrataLowerCopiesBase<LowerCopies> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp op) { copies.push_back(op); });
    IRRewriter rw(&getContext());
    for (memref::CopyOp copy : copies) {
      auto type = cast<MemRefType>(copy.getSource().getType());
      rw.setInsertionPoint(copy);
      // One vector transfer for a copy of a few registers (a tile row); a
      // whole buffer as one vector would be one giant value.
      if (type.hasStaticShape() &&
          type.getNumElements() <= kMaxVectorElements &&
          succeeded(linalg::vectorizeCopy(rw, copy)))
        continue;
      // Otherwise element loops, which LLVM vectorizes.
      auto generic = linalg::CopyOp::create(rw, copy.getLoc(), copy.getSource(),
                                            copy.getTarget());
      rw.eraseOp(copy);
      rw.setInsertionPoint(generic);
      if (failed(linalg::linalgOpToLoops(rw, generic))) {
        generic->emitError("strata-lower-copies: cannot lower copy");
        return signalPassFailure();
      }
      rw.eraseOp(generic);
    }
  }
};
} // namespace
