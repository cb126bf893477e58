//===- StreamingStores.cpp - Stores that bypass the caches ----------------===//
//
// A function that only writes a buffer, and whose buffer is larger than the
// largest cache of its chip, gains nothing from the caches on those stores:
// nothing reads the data back while it could still be there. A normal store
// first reads each line it writes (to own it), one extra pass over memory;
// a non-temporal store writes whole lines without reading them. Vector
// stores into such a buffer are marked `nontemporal`, which the target's
// backend lowers to its streaming store where it has one (and to a plain
// store otherwise, e.g. when the address is not aligned).
//
// Streaming stores are weakly ordered: another thread (the one that joins a
// parallel loop) may not see them until a full fence. One follows each
// outermost sequential loop nest that contains such stores, so the fence
// runs once per nest and before any synchronization after it.
//
//===----------------------------------------------------------------------===//
#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Schedule/Attributes.h"
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace strata {
#define GEN_PASS_DEF_STRATASTREAMINGSTORES
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

namespace {
/// The vector stores into `buffer` (through views of it), if the function
/// does nothing else with it than store; nullopt otherwise.
std::optional<SmallVector<vector::StoreOp>> onlyStoredTo(Value buffer) {
  SmallVector<vector::StoreOp> stores;
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto store = dyn_cast<vector::StoreOp>(user);
          store && use.get() == store.getBase()) {
        stores.push_back(store);
        continue;
      }
      if (auto store = dyn_cast<memref::StoreOp>(user);
          store && use.get() == store.getMemRef())
        continue;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == value) {
        for (Value result : user->getResults())
          worklist.push_back(result);
        continue;
      }
      return std::nullopt;
    }
  }
  return stores;
}

/// The outermost op around `op` reached through sequential loops and
/// conditionals only (stopping below a parallel loop, a function...).
Operation *outermostSequential(Operation *op) {
  while (
      isa_and_nonnull<scf::ForOp, scf::IfOp, scf::WhileOp>(op->getParentOp()))
    op = op->getParentOp();
  return op;
}

struct StreamingStores
    : strata::impl::StrataStreamingStoresBase<StreamingStores> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!getHardwareAttr(module))
      return; // no chip (the reference lowering): nothing to decide from
    FailureOr<hw::Description> chip = descriptionOf(module);
    if (failed(chip))
      return signalPassFailure();
    int64_t largestCache = 0;
    for (const hw::MemoryLevel &level : chip->memory)
      if (level.kind == "cache")
        largestCache = std::max(largestCache, level.capacityBytes);
    if (largestCache == 0)
      return;
    module.walk([&](func::FuncOp fn) {
      if (fn.isExternal())
        return;
      for (BlockArgument arg : fn.getArguments()) {
        auto type = dyn_cast<MemRefType>(arg.getType());
        if (!type || !type.hasStaticShape() ||
            !type.getElementType().isIntOrFloat())
          continue;
        int64_t bytes = type.getNumElements() *
                        type.getElementType().getIntOrFloatBitWidth() / 8;
        if (bytes <= largestCache)
          continue;
        std::optional<SmallVector<vector::StoreOp>> stores = onlyStoredTo(arg);
        if (!stores)
          continue;
        llvm::SetVector<Operation *> nests;
        for (vector::StoreOp store : *stores) {
          store.setNontemporal(true);
          nests.insert(outermostSequential(store));
        }
        for (Operation *nest : nests) {
          OpBuilder b(nest->getContext());
          b.setInsertionPointAfter(nest);
          LLVM::FenceOp::create(b, nest->getLoc(),
                                LLVM::AtomicOrdering::seq_cst);
        }
      }
    });
  }
};
} // namespace
