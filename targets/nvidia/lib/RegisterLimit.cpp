//===- RegisterLimit.cpp - Kernels' register ceiling ----------------------===//
//
// nvidia-register-limit, on the lowered gpu.modules: each kernel gets
// `nvvm.maxnreg` (PTX `.maxnreg`) = the registers of one lane in the
// description, the budget the core's model plans accumulators against.
// Without it ptxas picks its own ceiling from the block size (`.maxntid`):
// for 64-thread blocks it aims at 96 registers and spills a 64 x 64 f32
// block's multiply-add tile that fits in 128.
//
//===----------------------------------------------------------------------===//
#include "RegisterLimit.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace strata::nvidia {
namespace {

struct RegisterLimit
    : public PassWrapper<RegisterLimit, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RegisterLimit)
  RegisterLimit() = default;
  RegisterLimit(const RegisterLimit &other) : PassWrapper(other) {}
  explicit RegisterLimit(int64_t registers) { this->registers = registers; }
  StringRef getArgument() const override { return "nvidia-register-limit"; }
  StringRef getDescription() const override {
    return "Let every kernel use the description's registers per thread "
           "(.maxnreg)";
  }
  void runOnOperation() override {
    if (registers <= 0)
      return;
    Builder b(&getContext());
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>())
      if (func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()) ||
          func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
        func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                      b.getI32IntegerAttr(int32_t(registers)));
  }
  Option<int64_t> registers{*this, "registers",
                            llvm::cl::desc("Registers per thread"),
                            llvm::cl::init(0)};
};
} // namespace

std::unique_ptr<Pass> createRegisterLimitPass(int64_t registers) {
  return std::make_unique<RegisterLimit>(registers);
}

void registerRegisterLimitPass() { PassRegistration<RegisterLimit>(); }

} // namespace strata::nvidia
