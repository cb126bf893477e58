//===- DropDeallocs.cpp - The program's own frees dropped -----------------===//
//
// The deallocation pipeline that runs after bufferization frees every
// buffer after its last use, and stops on a function that frees a buffer
// itself. A program written on buffers (memref.alloc ... memref.dealloc)
// loses its frees here: the pipeline then frees its allocations with the
// rest, once each, no later than the program did.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace strata {
#define GEN_PASS_DEF_STRATADROPDEALLOCS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
struct DropDeallocs : strata::impl::StrataDropDeallocsBase<DropDeallocs> {
  void runOnOperation() override {
    SmallVector<memref::DeallocOp> frees;
    getOperation()->walk([&](memref::DeallocOp op) { frees.push_back(op); });
    for (memref::DeallocOp op : frees)
      op->erase();
  }
};
} // namespace
