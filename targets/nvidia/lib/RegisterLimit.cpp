//===- RegisterLimit.cpp - Kernels' register ceiling ----------------------===//
//
// nvidia-register-limit, on the lowered gpu.modules: each kernel gets
// `nvvm.maxnreg` (PTX `.maxnreg`), the most registers per thread with which
// its block fits one SM (LaunchLegality.h: registers allocated per warp in
// units of 256, the block's threads times them within the register file),
// capped by the registers of one lane in the description, the budget the
// core's model plans accumulators against. Without a ceiling ptxas picks
// its own from the block size (`.maxntid`): for 64-thread blocks it aims at
// 96 registers and spills a 64 x 64 f32 block's multiply-add tile that fits
// in 128. With the lane's 255 alone, a 512-thread block could be given more
// than the 128 that fit, and its launch would be refused.
//
//===----------------------------------------------------------------------===//
#include "RegisterLimit.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace strata::nvidia {
namespace {

/// The threads of `func`'s block as the lowering recorded it (the launch's
/// constant block size becomes `gpu.known_block_size`, then `nvvm.maxntid`);
/// nullopt when not known.
std::optional<int64_t> blockThreads(Operation *func) {
  for (StringRef name : {NVVM::NVVMDialect::getReqntidAttrName(),
                         NVVM::NVVMDialect::getMaxntidAttrName(),
                         StringRef("gpu.known_block_size")})
    if (auto dims = func->getAttrOfType<DenseI32ArrayAttr>(name)) {
      int64_t threads = 1;
      for (int32_t d : dims.asArrayRef())
        threads *= d;
      return threads;
    }
  return std::nullopt;
}

struct RegisterLimit
    : public PassWrapper<RegisterLimit, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RegisterLimit)
  RegisterLimit() = default;
  RegisterLimit(const RegisterLimit &other) : PassWrapper(other) {}
  explicit RegisterLimit(const BlockLimits &limits) {
    registers = limits.registersPerThread;
    registersPerBlock = limits.registersPerBlock;
    maxThreads = limits.maxThreads;
  }
  StringRef getArgument() const override { return "nvidia-register-limit"; }
  StringRef getDescription() const override {
    return "Let every kernel use the most registers per thread (.maxnreg) "
           "with which its block fits an SM, at most the description's";
  }
  void runOnOperation() override {
    if (registers <= 0)
      return;
    BlockLimits limits;
    limits.registersPerThread = registers;
    limits.registersPerBlock = registersPerBlock;
    limits.maxThreads = maxThreads;
    Builder b(&getContext());
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      if (!func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()) &&
          !func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
        continue;
      // A block of unknown size may have the most threads a block may.
      int64_t threads = blockThreads(func).value_or(limits.maxThreads);
      int64_t ceiling = maxRegistersPerThread(threads, limits);
      if (ceiling <= 0) {
        func.emitError("nvidia-register-limit: a block of ")
            << threads << " threads does not fit " << limits.registersPerBlock
            << " registers";
        return signalPassFailure();
      }
      func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    b.getI32IntegerAttr(int32_t(ceiling)));
    }
  }
  Option<int64_t> registers{*this, "registers",
                            llvm::cl::desc("Registers per thread at most"),
                            llvm::cl::init(0)};
  Option<int64_t> registersPerBlock{
      *this, "registers-per-block",
      llvm::cl::desc("Registers of one block at most (the SM's file)"),
      llvm::cl::init(BlockLimits().registersPerBlock)};
  Option<int64_t> maxThreads{
      *this, "max-threads",
      llvm::cl::desc("Threads per block at most (for kernels whose block "
                     "size is not known)"),
      llvm::cl::init(BlockLimits().maxThreads)};
};
} // namespace

std::unique_ptr<Pass> createRegisterLimitPass(const BlockLimits &limits) {
  return std::make_unique<RegisterLimit>(limits);
}

void registerRegisterLimitPass() { PassRegistration<RegisterLimit>(); }

} // namespace strata::nvidia
