//===- TensorMapParams.cpp - Tensor maps as kernel parameters -------------===//
//
// nvidia-tensor-map-params, after outlining and again after the lowering to
// NVVM: a kernel argument that is a
// TMA tensor map (a 128-byte CUtensorMap) is passed by value as a
// grid-constant parameter: the gpu.func takes an !llvm.ptr marked
// llvm.byval = !llvm.array<128 x i8> and llvm.align = 64, and once lowered
// the llvm.func's byval parameters nvvm.grid_constant (so the kernel may take
// its address, which the cp.async.bulk.tensor instructions use), and the host's
// launch passes the map through a cast (the bundle records the map,
// Bundle.cpp).
//
//===----------------------------------------------------------------------===//
#include "TensorMapParams.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace strata::nvidia {
namespace {

constexpr int64_t kTensorMapBytes = 128, kTensorMapAlign = 64;
/// The kernel's tensor-map arguments, from the first run to the second (the
/// lowering to NVVM keeps a kernel's attributes, not its arguments').
constexpr llvm::StringLiteral kArgsAttrName = "nvidia.tensor_map_args";

struct TensorMapParams
    : public PassWrapper<TensorMapParams, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TensorMapParams)
  StringRef getArgument() const override { return "nvidia-tensor-map-params"; }
  StringRef getDescription() const override {
    return "Pass TMA tensor maps to kernels by value, as grid constants";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect>();
  }
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    llvm::DenseMap<Operation *, SmallVector<unsigned>> changed;
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      Block &entry = func.getBody().front();
      OpBuilder b(ctx);
      b.setInsertionPointToStart(&entry);
      SmallVector<Type> inputs(func.getArgumentTypes());
      for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
        Type type = arg.getType();
        if (!isa<nvgpu::TensorMapDescriptorType>(type))
          continue;
        arg.setType(ptr);
        auto cast = UnrealizedConversionCastOp::create(b, func.getLoc(),
                                                       TypeRange{type}, arg);
        arg.replaceAllUsesExcept(cast.getResult(0), cast);
        inputs[i] = ptr;
        changed[func].push_back(i);
      }
      func.setType(FunctionType::get(ctx, inputs, {}));
      if (changed.count(func))
        func->setAttr(kArgsAttrName,
                      b.getDenseI32ArrayAttr(llvm::to_vector(llvm::map_range(
                          changed[func], [](unsigned i) { return int(i); }))));
    });
    // Once lowered (this pass runs again then), the byval parameters of the
    // kernels are grid constants: NVVM accepts the mark on kernels only.
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto args = func->getAttrOfType<DenseI32ArrayAttr>(kArgsAttrName);
      if (!args)
        return;
      for (int i : args.asArrayRef()) {
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(LLVM::LLVMArrayType::get(
                            IntegerType::get(ctx, 8), kTensorMapBytes)));
        func.setArgAttr(
            i, LLVM::LLVMDialect::getAlignAttrName(),
            IntegerAttr::get(IntegerType::get(ctx, 64), kTensorMapAlign));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        UnitAttr::get(ctx));
      }
      func->removeAttr(kArgsAttrName);
    });
    // The launches pass the host's map through the same cast.
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      auto func = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      if (!func || !changed.count(func))
        return;
      OpBuilder b(launch);
      for (unsigned i : changed.lookup(func)) {
        Value map = launch.getKernelOperands()[i];
        Value cast = UnrealizedConversionCastOp::create(b, launch.getLoc(),
                                                        TypeRange{ptr}, map)
                         .getResult(0);
        launch.getKernelOperandsMutable()[i].set(cast);
      }
    });
  }
};
} // namespace

std::unique_ptr<Pass> createTensorMapParamsPass() {
  return std::make_unique<TensorMapParams>();
}

void registerTensorMapParamsPass() { PassRegistration<TensorMapParams>(); }

} // namespace strata::nvidia
