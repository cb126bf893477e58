//===- StackBuffers.cpp - Scratch buffers on the stack --------------------===//
//
// See StackBuffers.h. The budget: libomp gives its worker threads 4 MiB
// stacks by default (KMP_STACKSIZE), glibc's threads get 8 MiB; a call
// takes at most kScopeBytes of it per block, in buffers of at most
// kBufferBytes. Larger buffers stay on the heap, where the faults are paid
// once per call against much more work.
//
//===----------------------------------------------------------------------===//
#include "StackBuffers.h"
#include "ThreadLowering.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

constexpr int64_t kBufferBytes = 512 << 10;
constexpr int64_t kScopeBytes = 1 << 20;

/// Whether `block` runs once per call or once per thread: a function's body,
/// or the body of a loop over a compute grid (one thread per iteration).
bool runsOncePerThread(Block *block) {
  Operation *parent = block->getParentOp();
  if (isa<func::FuncOp>(parent))
    return true;
  auto forall = dyn_cast<scf::ForallOp>(parent);
  return forall && strata::cpu::isGridLoop(forall);
}

/// The static size of `alloc`'s buffer in bytes, if it has one.
std::optional<int64_t> staticBytes(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !type.getElementType().isIntOrFloat())
    return std::nullopt;
  return type.getNumElements() *
         int64_t(llvm::divideCeil(type.getElementTypeBitWidth(), 8));
}

/// The dealloc of `alloc` in its own block, if it is its only one.
memref::DeallocOp deallocInBlock(memref::AllocOp alloc) {
  memref::DeallocOp found;
  for (Operation *user : alloc->getUsers()) {
    auto dealloc = dyn_cast<memref::DeallocOp>(user);
    if (!dealloc)
      continue;
    if (found || dealloc->getBlock() != alloc->getBlock())
      return {};
    found = dealloc;
  }
  return found;
}

struct StackBuffersPass
    : PassWrapper<StackBuffersPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StackBuffersPass)

  StringRef getArgument() const final { return "strata-cpu-stack-buffers"; }
  StringRef getDescription() const final {
    return "small static scratch buffers freed in their own block, in a "
           "function or a grid loop body, on the stack";
  }

  void runOnOperation() override {
    llvm::DenseMap<Block *, int64_t> used;
    SmallVector<std::pair<memref::AllocOp, memref::DeallocOp>> moves;
    getOperation()->walk([&](memref::AllocOp alloc) {
      Block *block = alloc->getBlock();
      std::optional<int64_t> bytes = staticBytes(alloc);
      memref::DeallocOp dealloc = deallocInBlock(alloc);
      if (!bytes || !dealloc || *bytes > kBufferBytes ||
          !runsOncePerThread(block) || used[block] + *bytes > kScopeBytes)
        return;
      used[block] += *bytes;
      moves.emplace_back(alloc, dealloc);
    });
    IRRewriter rewriter(&getContext());
    for (auto [alloc, dealloc] : moves) {
      // At the top of the block: the thread lowering keeps allocas there
      // out of the loop that shares a grid among fewer threads.
      rewriter.setInsertionPointToStart(alloc->getBlock());
      rewriter.replaceOpWithNewOp<memref::AllocaOp>(alloc, alloc.getType(),
                                                    alloc.getAlignmentAttr());
      rewriter.eraseOp(dealloc);
    }
  }
};

} // namespace

void strata::cpu::addStackBuffersPass(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(std::make_unique<StackBuffersPass>());
}

#ifndef STRATA_PLUGIN_MODULE
static PassRegistration<StackBuffersPass> stackBuffersPass;
#endif
