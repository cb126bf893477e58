//===- SharedAlignment.cpp - Dynamic shared memory for wgmma --------------===//
//
// nvidia-align-dynamic-shared, on the lowered gpu.modules: the 128-byte
// swizzle is a function of shared-memory address bits 4 to 9, which TMA
// writes and wgmma descriptors read by: tiles must start at multiples of
// 1024 bytes. Their offsets in the dynamic shared memory are (the core's
// tile sizes, SwizzledTiles.cpp); this makes the dynamic shared memory
// itself 1024-byte aligned in modules that use wgmma, and an external
// declaration (`.extern .shared ... []`): the lowering's internal one is a
// static variable that other static shared memory (the mbarriers) could
// follow and overlap, while the dynamic region starts after all of it.
// Others are left as they are.
//
//===----------------------------------------------------------------------===//
#include "SharedAlignment.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace strata::nvidia {
namespace {

constexpr int64_t kSwizzleAtomBytes = 1024;

struct AlignDynamicShared
    : public PassWrapper<AlignDynamicShared, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AlignDynamicShared)
  StringRef getArgument() const override {
    return "nvidia-align-dynamic-shared";
  }
  StringRef getDescription() const override {
    return "Align the dynamic shared memory of wgmma kernels to the 1024 "
           "bytes of a 128-byte swizzle atom";
  }
  void runOnOperation() override {
    bool wgmma = getOperation()
                     .walk([](NVVM::WgmmaFenceAlignedOp) {
                       return WalkResult::interrupt();
                     })
                     .wasInterrupted();
    if (!wgmma)
      return;
    for (auto global : getOperation().getOps<LLVM::GlobalOp>())
      if (global.getAddrSpace() == 3 &&
          global.getSymName().starts_with("__dynamic_shmem")) {
        global.setAlignment(kSwizzleAtomBytes);
        global.setLinkage(LLVM::Linkage::External);
      }
  }
};
} // namespace

std::unique_ptr<Pass> createAlignDynamicSharedPass() {
  return std::make_unique<AlignDynamicShared>();
}

void registerAlignDynamicSharedPass() {
  PassRegistration<AlignDynamicShared>();
}

} // namespace strata::nvidia
