//===- Bundle.cpp - The nvidia plugin's artifact --------------------------===//
#include "Bundle.h"
#include "LaunchLegality.h"
#include "Ptxas.h"

#include "strata/Pipeline/Pipeline.h"
#include "strata/Runtime/Manifest.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace strata;
using namespace strata::nvidia;

unsigned strata::nvidia::ptxVersion(llvm::StringRef arch) {
  // PTX 8.0 is the first with sm_90a (wgmma) and covers sm_70 to sm_90.
  return 80;
}

namespace {
llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(message.str());
}

/// Moves every kernel into the first gpu.module, so that the program is one
/// PTX module and one cubin.
LogicalResult mergeKernelModules(ModuleOp module) {
  SmallVector<gpu::GPUModuleOp> modules(module.getOps<gpu::GPUModuleOp>());
  if (modules.size() <= 1)
    return success();
  gpu::GPUModuleOp first = modules.front();
  Block &into = first.getBodyRegion().front();
  // Kernels are named after their module (unique); declarations shared by
  // several modules are kept once.
  llvm::DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> renamed;
  for (gpu::GPUModuleOp other : llvm::drop_begin(modules)) {
    // Symbols the first module has already: the kernel takes its module's
    // name, other definitions (the dynamic shared memory's global) that name
    // with their own appended; their uses inside the module follow.
    for (Operation &op :
         llvm::make_early_inc_range(other.getBodyRegion().front())) {
      auto symbol = dyn_cast<SymbolOpInterface>(op);
      if (!symbol || !first.lookupSymbol(symbol.getName()))
        continue;
      // llvm.func declarations (libdevice's __nv_* functions that several
      // kernels call) are declarations too, though SymbolOpInterface's
      // default says otherwise: renamed, they would not resolve.
      auto function = dyn_cast<FunctionOpInterface>(op);
      if (symbol.isDeclaration() || (function && function.isExternal())) {
        op.erase();
        continue;
      }
      bool kernel = op.hasAttr(gpu::GPUDialect::getKernelFuncAttrName()) ||
                    op.hasAttr("gpu.kernel");
      std::string fresh =
          kernel ? other.getName().str()
                 : (other.getName() + "_" + symbol.getName()).str();
      StringAttr freshAttr = StringAttr::get(module.getContext(), fresh);
      if (first.lookupSymbol(freshAttr) || other.lookupSymbol(freshAttr))
        return op.emitError("nvidia: two kernels named ") << symbol.getName();
      if (kernel)
        renamed[{other.getNameAttr(), symbol.getNameAttr()}] = freshAttr;
      if (failed(SymbolTable::replaceAllSymbolUses(
              symbol.getNameAttr(), freshAttr, &other.getBodyRegion())))
        return op.emitError("nvidia: cannot rename ") << symbol.getName();
      symbol.setName(freshAttr);
    }
    for (Operation &op :
         llvm::make_early_inc_range(other.getBodyRegion().front()))
      op.moveBefore(&into, into.end());
  }
  StringAttr name = first.getNameAttr();
  module.walk([&](gpu::LaunchFuncOp launch) {
    StringAttr kernel = launch.getKernelName();
    auto it = renamed.find({launch.getKernelModuleName(), kernel});
    if (it != renamed.end())
      kernel = it->second;
    launch.setKernelAttr(
        SymbolRefAttr::get(name, {FlatSymbolRefAttr::get(kernel)}));
  });
  for (gpu::GPUModuleOp other : llvm::drop_begin(modules))
    other.erase();
  return success();
}

std::optional<int64_t> constant(Value v) {
  if (!v)
    return 1;
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c;
  return std::nullopt;
}

/// What the runtime needs to encode the map `create` makes: a static,
/// row-major array and constant box extents.
FailureOr<TensorMapInfo> tensorMapOf(nvgpu::TmaCreateDescriptorOp create) {
  Value tensor = create.getTensor();
  if (auto c = tensor.getDefiningOp<memref::CastOp>())
    tensor = c.getSource();
  auto type = dyn_cast<MemRefType>(tensor.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
    return failure();
  TensorMapInfo info;
  llvm::raw_string_ostream os(info.elementType);
  type.getElementType().print(os);
  int64_t bytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  info.dims.assign(type.getShape().begin(), type.getShape().end());
  int64_t stride = bytes;
  info.strides.assign(info.dims.size(), 0);
  for (int64_t d = int64_t(info.dims.size()) - 1; d >= 0; --d) {
    info.strides[d] = stride;
    stride *= info.dims[d];
  }
  for (Value v : create.getBoxDimensions()) {
    std::optional<int64_t> c = getConstantIntValue(v);
    if (!c)
      return failure();
    info.box.push_back(*c);
  }
  nvgpu::TensorMapDescriptorType map = create.getTensorMap().getType();
  switch (map.getSwizzle()) {
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE:
    info.swizzleBytes = 0;
    break;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_32B:
    info.swizzleBytes = 32;
    break;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_64B:
    info.swizzleBytes = 64;
    break;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_128B:
    info.swizzleBytes = 128;
    break;
  }
  switch (map.getL2promo()) {
  case nvgpu::TensorMapL2PromoKind::L2PROMO_NONE:
    info.l2PromotionBytes = 0;
    break;
  case nvgpu::TensorMapL2PromoKind::L2PROMO_64B:
    info.l2PromotionBytes = 64;
    break;
  case nvgpu::TensorMapL2PromoKind::L2PROMO_128B:
    info.l2PromotionBytes = 128;
    break;
  case nvgpu::TensorMapL2PromoKind::L2PROMO_256B:
    info.l2PromotionBytes = 256;
    break;
  }
  return info;
}

llvm::Expected<FunctionPlan> planOf(func::FuncOp func) {
  FunctionPlan plan;
  plan.name = func.getSymName().str();
  plan.arguments = func.getNumArguments();
  for (Type t : func.getArgumentTypes())
    if (!isa<MemRefType>(t))
      return fail("nvidia: function '" + plan.name +
                  "' takes a non-buffer argument; expected buffers only");
  llvm::DenseMap<Value, int64_t> temporaries;
  for (Operation &op : func.getBody().front()) {
    // Tensor maps are recorded where a launch takes them.
    // Reshapes of contiguous buffers are the same bytes (kernels take one
    // pointer per buffer): a launch's argument is traced to its source.
    if (isa<arith::ConstantOp, memref::DeallocOp, func::ReturnOp,
            memref::CastOp, nvgpu::TmaCreateDescriptorOp,
            UnrealizedConversionCastOp>(op) ||
        (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(op) &&
         cast<MemRefType>(op.getResult(0).getType()).getLayout().isIdentity()))
      continue;
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape())
        return fail("nvidia: function '" + plan.name +
                    "' allocates a temporary of dynamic shape");
      temporaries[alloc] = int64_t(plan.temporaries.size());
      plan.temporaries.push_back(
          type.getNumElements() *
          int64_t(llvm::divideCeil(type.getElementTypeBitWidth(), 8)));
      continue;
    }
    auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
    if (!launch) {
      std::string text;
      llvm::raw_string_ostream os(text);
      op.getLoc().print(os);
      return fail(llvm::formatv("nvidia: function '{0}' has host code the "
                                "plugin cannot run: '{1}' at {2}",
                                plan.name, op.getName().getStringRef(), text)
                      .str());
    }
    LaunchStep step;
    step.kernel = launch.getKernelName().str();
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues(),
                    block = launch.getBlockSizeOperandValues();
    Value dims[6] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
    for (int i = 0; i < 6; ++i) {
      std::optional<int64_t> c = constant(dims[i]);
      if (!c)
        return fail("nvidia: kernel '" + step.kernel +
                    "' has a grid or block size that is not a constant");
      (i < 3 ? step.grid[i] : step.block[i - 3]) = *c;
    }
    std::optional<int64_t> shared =
        constant(launch.getDynamicSharedMemorySize());
    if (!shared)
      return fail("nvidia: kernel '" + step.kernel +
                  "' has a shared-memory size that is not a constant");
    step.sharedBytes = launch.getDynamicSharedMemorySize() ? *shared : 0;
    for (Value arg : launch.getKernelOperands()) {
      // A tensor map reaches the launch through a cast to a pointer.
      std::optional<TensorMapInfo> map;
      if (auto cast = arg.getDefiningOp<UnrealizedConversionCastOp>())
        if (auto create = cast.getInputs()
                              .front()
                              .getDefiningOp<nvgpu::TmaCreateDescriptorOp>()) {
          FailureOr<TensorMapInfo> info = tensorMapOf(create);
          if (failed(info))
            return fail("nvidia: kernel '" + step.kernel +
                        "' takes a tensor map the runtime cannot encode");
          map = *info;
          arg = create.getTensor();
          if (auto c = arg.getDefiningOp<memref::CastOp>())
            arg = c.getSource();
        }
      for (;;) {
        if (auto c = arg.getDefiningOp<memref::CollapseShapeOp>())
          arg = c.getSrc();
        else if (auto e = arg.getDefiningOp<memref::ExpandShapeOp>())
          arg = e.getSrc();
        else if (auto c = arg.getDefiningOp<memref::CastOp>())
          arg = c.getSource();
        else
          break;
      }
      if (auto b = dyn_cast<BlockArgument>(arg);
          b && b.getOwner() == &func.getBody().front()) {
        step.args.push_back({false, int64_t(b.getArgNumber()), map});
      } else if (temporaries.count(arg)) {
        step.args.push_back({true, temporaries.lookup(arg), map});
      } else {
        return fail("nvidia: kernel '" + step.kernel +
                    "' takes an argument that is neither a buffer of '" +
                    plan.name + "' nor a temporary");
      }
    }
    plan.steps.push_back(std::move(step));
  }
  return plan;
}
} // namespace

llvm::Expected<std::vector<FunctionPlan>>
strata::nvidia::launchPlans(ModuleOp lowered) {
  // Kernels are named as in the merged module the PTX comes from (several
  // kernels of one function share a name until the merge renames them).
  OwningOpRef<ModuleOp> merged = lowered.clone();
  if (failed(mergeKernelModules(*merged)))
    return fail("nvidia: cannot merge the kernel modules");
  std::vector<FunctionPlan> plans;
  for (auto func : merged->getOps<func::FuncOp>()) {
    if (func.isExternal() || !func.isPublic())
      continue;
    auto plan = planOf(func);
    if (!plan)
      return plan.takeError();
    plans.push_back(std::move(*plan));
  }
  return plans;
}

llvm::Expected<std::string> strata::nvidia::emitPTX(ModuleOp lowered) {
  OwningOpRef<ModuleOp> module = lowered.clone();
  if (failed(mergeKernelModules(*module)))
    return fail("nvidia: cannot merge the kernel modules");
  if (module->getOps<gpu::GPUModuleOp>().empty())
    return std::string();
  PassManager pm(module->getContext());
  addPipeline(pm, "gpu-module-to-binary{format=isa}");
  if (failed(pm.run(*module)))
    return fail("nvidia: LLVM's NVPTX backend failed on the kernels");
  for (auto binary : module->getOps<gpu::BinaryOp>())
    for (Attribute a : binary.getObjects())
      if (auto object = dyn_cast<gpu::ObjectAttr>(a))
        return object.getObject().str();
  return fail("nvidia: the NVPTX backend produced no PTX");
}

static llvm::Error writeText(llvm::StringRef path, llvm::StringRef text) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(path, &error);
  if (!out)
    return fail(error);
  out->os() << text;
  out->keep();
  return llvm::Error::success();
}

llvm::Error strata::nvidia::writeArtifact(ModuleOp lowered,
                                          const hw::Description &chip,
                                          EmitKind kind, llvm::StringRef path) {
  if (kind == EmitKind::LLVMIR) {
    OwningOpRef<ModuleOp> module = lowered.clone();
    if (failed(mergeKernelModules(*module)))
      return fail("nvidia: cannot merge the kernel modules");
    std::string text;
    llvm::raw_string_ostream os(text);
    for (auto gpuModule : module->getOps<gpu::GPUModuleOp>()) {
      llvm::LLVMContext llvmContext;
      std::unique_ptr<llvm::Module> llvmModule =
          translateModuleToLLVMIR(gpuModule, llvmContext);
      if (!llvmModule)
        return fail("nvidia: translating the kernels to LLVM IR failed");
      llvmModule->setTargetTriple(llvm::Triple("nvptx64-nvidia-cuda"));
      llvmModule->print(os, nullptr);
    }
    return writeText(path, text);
  }
  if (kind != EmitKind::Object && kind != EmitKind::Library)
    return fail("nvidia: cannot write --emit=" + emitKindName(kind));
  llvm::Expected<std::string> ptx = emitPTX(lowered);
  if (!ptx)
    return ptx.takeError();
  std::optional<std::string> ptxas = findPtxas();
  Assembled assembled;
  if (ptxas && !ptx->empty()) {
    llvm::Expected<Assembled> result = runPtxas(*ptxas, *ptx, chip.arch);
    if (!result)
      return result.takeError();
    assembled = std::move(*result);
    // Every launch must fit an SM with the resources ptxas reports (without
    // ptxas the driver JIT-compiles the PTX: there is nothing to check).
    if (llvm::Error e = checkLaunches(lowered, assembled.log, chip))
      return e;
  }
  if (kind == EmitKind::Object) {
    if (!ptxas)
      return fail("nvidia: --emit=obj needs ptxas (the CUDA toolkit): set "
                  "STRATA_PTXAS or CUDA_PATH; --emit=lib works without it");
    return writeText(path, assembled.cubin);
  }
  llvm::Expected<std::vector<FunctionPlan>> plans = launchPlans(lowered);
  if (!plans)
    return plans.takeError();
  Bundle bundle;
  bundle.chip = chip.name;
  bundle.arch = chip.arch;
  bundle.ptx = std::move(*ptx);
  bundle.cubin = std::move(assembled.cubin);
  bundle.ptxasLog = std::move(assembled.log);
  bundle.functions = std::move(*plans);
  bundle.manifest = manifestOf(lowered);
  if (bundle.manifest)
    bundle.manifest->deviceKind = "cuda";
  return writeText(path, bundle.serialize());
}
