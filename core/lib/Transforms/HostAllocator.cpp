//===- HostAllocator.cpp - Temporaries through a replaceable allocator ----===//
//
// strata-host-allocator, on a module lowered to the LLVM dialect by
// finalize-memref-to-llvm{use-generic-functions=true}: gives the generic
// allocation functions that lowering calls bodies of our own. Each calls a
// hook when one is set and malloc/free otherwise; the library exports
// `strata_set_host_allocator(alloc, free)` to set the hooks. The runtime sets
// them when it loads a host library, to an allocator that keeps freed
// temporaries for the next call: a program called in a loop allocates and
// frees the same large temporaries every call, and the C library returns
// them to the system each time (mmap'd blocks, heap trimming), so that every
// call page-faults on fresh memory (a transformer layer of 4.4 ms spent
// 1.9 ms there). A library used without the runtime behaves as before.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace strata {
#define GEN_PASS_DEF_STRATAHOSTALLOCATOR
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {

/// An internal pointer-sized global, null at load.
LLVM::GlobalOp createHook(OpBuilder &b, Location loc, StringRef name) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto global =
      LLVM::GlobalOp::create(b, loc, ptr, /*isConstant=*/false,
                             LLVM::Linkage::Internal, name, Attribute());
  OpBuilder::InsertionGuard guard(b);
  b.createBlock(&global.getInitializerRegion());
  LLVM::ReturnOp::create(b, loc, LLVM::ZeroOp::create(b, loc, ptr).getResult());
  return global;
}

/// Gives the declaration `fn` a body: `hook(args)` when the global `hook`
/// holds a function, `fallback(args)` otherwise.
void defineThroughHook(OpBuilder &b, LLVM::LLVMFuncOp fn, LLVM::GlobalOp hook,
                       LLVM::LLVMFuncOp fallback) {
  Location loc = fn.getLoc();
  LLVM::LLVMFunctionType type = fn.getFunctionType();
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  OpBuilder::InsertionGuard guard(b);
  fn.setLinkage(LLVM::Linkage::Internal);
  Block *entry = fn.addEntryBlock(b);
  Block *direct = b.createBlock(&fn.getBody());
  Block *hooked = b.createBlock(&fn.getBody());
  SmallVector<Value> args(entry->getArguments());

  b.setInsertionPointToEnd(entry);
  Value address = LLVM::AddressOfOp::create(b, loc, hook);
  Value callee = LLVM::LoadOp::create(b, loc, ptr, address);
  Value null = LLVM::ZeroOp::create(b, loc, ptr);
  Value unset =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, callee, null);
  LLVM::CondBrOp::create(b, loc, unset, direct, hooked);

  auto finish = [&](LLVM::CallOp call) {
    if (type.getReturnType() == LLVM::LLVMVoidType::get(b.getContext()))
      LLVM::ReturnOp::create(b, loc, ValueRange());
    else
      LLVM::ReturnOp::create(b, loc, call.getResult());
  };
  b.setInsertionPointToEnd(direct);
  finish(LLVM::CallOp::create(b, loc, fallback, args));
  b.setInsertionPointToEnd(hooked);
  SmallVector<Value> indirect = {callee};
  indirect.append(args);
  finish(LLVM::CallOp::create(b, loc, type, indirect));
}

struct HostAllocator : strata::impl::StrataHostAllocatorBase<HostAllocator> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!module.lookupSymbol("_mlir_memref_to_llvm_alloc") &&
        !module.lookupSymbol("_mlir_memref_to_llvm_free"))
      return;
    if (module.lookupSymbol("strata_set_host_allocator")) {
      module.emitError("strata-host-allocator: the module already defines "
                       "'strata_set_host_allocator'");
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    Location loc = module.getLoc();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    auto voidType = LLVM::LLVMVoidType::get(ctx);
    OpBuilder b(ctx);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp allocHook = createHook(b, loc, "strata_host_alloc_hook");
    LLVM::GlobalOp freeHook = createHook(b, loc, "strata_host_free_hook");

    // The declarations finalize-memref-to-llvm made (or would make), and
    // the C library's functions they fall back to.
    FailureOr<LLVM::LLVMFuncOp> genericAlloc =
        LLVM::lookupOrCreateGenericAllocFn(b, module, i64);
    FailureOr<LLVM::LLVMFuncOp> genericFree =
        LLVM::lookupOrCreateGenericFreeFn(b, module);
    FailureOr<LLVM::LLVMFuncOp> malloc =
        LLVM::lookupOrCreateMallocFn(b, module, i64);
    FailureOr<LLVM::LLVMFuncOp> free = LLVM::lookupOrCreateFreeFn(b, module);
    if (failed(genericAlloc) || failed(genericFree) || failed(malloc) ||
        failed(free) || !genericAlloc->isExternal() ||
        !genericFree->isExternal()) {
      module.emitError("strata-host-allocator: unexpected definitions of the "
                       "generic allocation functions");
      return signalPassFailure();
    }
    defineThroughHook(b, *genericAlloc, allocHook, *malloc);
    defineThroughHook(b, *genericFree, freeHook, *free);

    // strata_set_host_allocator(alloc, free): both or neither (null resets).
    b.setInsertionPointToEnd(module.getBody());
    auto setter = LLVM::LLVMFuncOp::create(
        b, loc, "strata_set_host_allocator",
        LLVM::LLVMFunctionType::get(voidType, {ptr, ptr}));
    Block *body = setter.addEntryBlock(b);
    b.setInsertionPointToEnd(body);
    LLVM::StoreOp::create(b, loc, body->getArgument(0),
                          LLVM::AddressOfOp::create(b, loc, allocHook));
    LLVM::StoreOp::create(b, loc, body->getArgument(1),
                          LLVM::AddressOfOp::create(b, loc, freeHook));
    LLVM::ReturnOp::create(b, loc, ValueRange());
  }
};

} // namespace
