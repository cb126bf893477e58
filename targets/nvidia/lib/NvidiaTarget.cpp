//===- NvidiaTarget.cpp - The NVIDIA GPU plugin ---------------------------===//
//
// S5 for NVIDIA GPUs: grid levels to gpu.launch and thread ids (GridToGPU),
// scratchpad buffers to shared memory, bulk copies to TMA and mbarriers
// (BulkCopies), matrix-intrinsic contractions to nvgpu.ldmatrix /
// nvgpu.mma.sync (upstream convert-vector-to-gpu) or, for wgmma, to
// nvgpu.warpgroup.mma on 128-byte-swizzled tiles (SwizzledTiles,
// WarpgroupMma), kernels outlined into gpu.modules and lowered to NVVM. The
// artifact (Bundle.h) is PTX from LLVM's NVPTX backend, a cubin from ptxas, and
// the host launch sequence of every function.
//
//===----------------------------------------------------------------------===//
#include "Bundle.h"
#include "CudaDevice.h"
#include "GridToGPU.h"
#include "Ptxas.h"
#include "RegisterLimit.h"
#include "SwizzledTiles.h"
#include "TensorMapParams.h"

#include "strata/Pipeline/Pipeline.h"
#include "strata/Target/TargetRegistry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "llvm/Support/FormatVariadic.h"

using namespace strata;

namespace {
class NvidiaTarget final : public TargetPlugin {
public:
  llvm::StringRef getName() const override { return "nvidia"; }
  llvm::StringRef getSummary() const override {
    return "NVIDIA GPUs through NVVM: PTX, cubin (ptxas) and launch metadata";
  }

  // The plugin's own pass is registered here too, so that strata-opt (which
  // asks every plugin for its dialects) can run it on its own.
  void registerDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::gpu::GPUDialect, mlir::nvgpu::NVGPUDialect,
                    mlir::NVVM::NVVMDialect, mlir::LLVM::LLVMDialect>();
    mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
    mlir::registerBuiltinDialectTranslation(registry);
    mlir::registerGPUDialectTranslation(registry);
    mlir::registerLLVMDialectTranslation(registry);
    mlir::registerNVVMDialectTranslation(registry);
    nvidia::registerNvidiaPasses();
  }

  void validateDescription(const hw::Description &chip,
                           std::vector<hw::Diagnostic> &errors) const override {
    llvm::StringRef arch(chip.arch);
    unsigned version = 0;
    if (!arch.consume_front("sm_") ||
        arch.take_while([](char c) { return std::isdigit(c); })
            .getAsInteger(10, version) ||
        version < 70)
      errors.push_back({"/arch",
                        "the nvidia plugin needs an SM architecture of at "
                        "least sm_70: expected e.g. \"sm_80\" or \"sm_90a\"",
                        0, 0});
    bool found = false;
    for (const hw::MemoryLevel &mem : chip.memory)
      found |= mem.kind == "scratchpad";
    if (!found)
      errors.push_back({"/memory",
                        "the nvidia plugin needs a scratchpad level (shared "
                        "memory) owned by the block level",
                        0, 0});
  }

  // Transcendentals become polynomials (no libdevice to link); then the
  // grid, the matrix ops, outlining and NVVM. Host code stays in func with
  // gpu.launch_func: the bundle records it as a launch sequence.
  void buildLoweringPipeline(mlir::OpPassManager &pm,
                             const hw::Description &chip) const override {
    addPipeline(pm, "func.func(strata-approximate-math)");
    pm.addNestedPass<mlir::func::FuncOp>(nvidia::createSwizzleTilesPass());
    pm.addPass(nvidia::createGridToGPUPass());
    addPipeline(pm, "canonicalize,cse");
    pm.addNestedPass<mlir::func::FuncOp>(nvidia::createMatrixOpsPass());
    addPipeline(pm, "canonicalize,cse,gpu-launch-sink-index-computations,"
                    "gpu-kernel-outlining");
    pm.addPass(nvidia::createTensorMapParamsPass());
    // Math left after the approximations (fma, abs, sqrt...) becomes
    // libdevice calls, linked into the PTX from the CUDA toolkit's libdevice
    // when there is one (without it ptxas reports the unresolved function).
    std::string link;
    if (std::optional<std::string> libdevice = nvidia::findLibdevice())
      link = " l=" + *libdevice;
    addPipeline(pm,
                llvm::formatv("nvvm-attach-target{{chip={0} "
                              "features=+ptx{1} O=3{2}}",
                              chip.arch, nvidia::ptxVersion(chip.arch), link)
                    .str());
    // nvgpu before scf-to-cf: its conversion also retypes the loops that
    // carry wgmma accumulators.
    addPipeline(pm, "gpu.module(convert-vector-to-scf,lower-affine,"
                    "convert-nvgpu-to-nvvm,convert-scf-to-cf,"
                    "expand-strided-metadata,lower-affine,"
                    "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},"
                    "convert-nvvm-to-llvm,"
                    "canonicalize,cse,"
                    "reconcile-unrealized-casts,"
                    "nvidia-align-dynamic-shared)");
    if (chip.vector)
      pm.addNestedPass<mlir::gpu::GPUModuleOp>(
          nvidia::createRegisterLimitPass(nvidia::BlockLimits::of(chip)));
    pm.addPass(nvidia::createTensorMapParamsPass());
  }

  std::vector<std::string> loweredDialects() const override {
    // nvgpu and builtin: the host creates TMA tensor maps (Bundle.cpp).
    return {"func", "gpu",  "arith", "memref",
            "llvm", "nvvm", "nvgpu", "builtin"};
  }

  llvm::Error writeArtifact(mlir::ModuleOp lowered, const hw::Description &chip,
                            EmitKind kind,
                            llvm::StringRef path) const override {
    return nvidia::writeArtifact(lowered, chip, kind, path);
  }

  llvm::Expected<std::unique_ptr<runtime::Device>>
  createDevice(const hw::Description &chip) const override {
    return nvidia::createCudaDevice(chip);
  }
};
} // namespace

STRATA_DEFINE_TARGET(nvidia, NvidiaTarget)
