//===- Manifest.cpp - The manifest of a compiled program ------------------===//
#include "strata/Runtime/Manifest.h"

#include "strata/Analysis/Work.h"
#include "strata/HW/Model.h"
#include "strata/Pipeline/Pipeline.h"
#include "strata/Runtime/Check.h"
#include "strata/Schedule/NarrowedInputs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/PassManager.h"

using namespace strata;

static constexpr llvm::StringLiteral kManifestAttr = "strata.manifest";

rt::Manifest strata::describeProgram(mlir::ModuleOp input,
                                     const hw::Description &chip) {
  rt::Manifest manifest;
  manifest.chip = chip.name;
  mlir::OwningOpRef<mlir::ModuleOp> prepared = input.clone();
  mlir::PassManager pm(input.getContext());
  buildPreparePipeline(pm);
  // A program S1 rejects reports that when it is compiled (not twice:
  // diagnostics of this run are dropped); its manifest has no work figures.
  bool preparedOk;
  {
    mlir::ScopedDiagnosticHandler quiet(
        input.getContext(), [](mlir::Diagnostic &) { return mlir::success(); });
    preparedOk = mlir::succeeded(pm.run(*prepared));
  }
  for (auto func : input.getOps<mlir::func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    auto signature = runtime::signatureOf(func);
    if (!signature) {
      llvm::consumeError(signature.takeError());
      continue;
    }
    rt::FunctionInfo info;
    info.signature = std::move(*signature);
    if (preparedOk)
      if (auto f = prepared->lookupSymbol<mlir::func::FuncOp>(func.getName())) {
        Work work = estimateWork(f);
        info.flops = work.flops;
        info.bytes = work.bytes;
      }
    manifest.functions.push_back(std::move(info));
  }
  return manifest;
}

/// Mantissa bits of the narrowest float a function rounds its own values
/// to (arith.truncf to bf16 or f16 inside it); 0 if none. The host reference
/// computes those values in f32 (strata-widen-floats), so its check allows
/// that rounding.
static int64_t roundedMantissaBits(mlir::ModuleOp module,
                                   llvm::StringRef name) {
  auto func = module.lookupSymbol<mlir::func::FuncOp>(name);
  int64_t bits = 0;
  if (func)
    func.walk([&](mlir::arith::TruncFOp op) {
      auto type = mlir::dyn_cast<mlir::FloatType>(
          mlir::getElementTypeOrSelf(op.getType()));
      if (type && type.getWidth() <= 16) {
        int64_t kept = int64_t(type.getFPMantissaWidth()) - 1;
        bits = bits == 0 ? kept : std::min(bits, kept);
      }
    });
  return bits;
}

rt::Manifest strata::attachManifest(rt::Manifest manifest,
                                    mlir::ModuleOp compiled,
                                    const hw::Description &chip) {
  std::map<std::string, NarrowedInputs> narrowed =
      narrowedInputs(compiled, chip);
  hw::DerivedModel model = hw::deriveModel(chip);
  for (rt::FunctionInfo &f : manifest.functions) {
    auto rounded = narrowed.find(f.signature.name);
    int64_t bits = rounded == narrowed.end() ? 0 : rounded->second.mantissaBits;
    if (int64_t own = roundedMantissaBits(compiled, f.signature.name))
      bits = bits == 0 ? own : std::min(bits, own);
    f.inputMantissaBits = bits;
    f.tolerances.clear();
    for (const rt::TensorSpec &out : f.signature.outputs)
      f.tolerances.push_back(rt::tolerance(out.type, bits));
    // Inputs a matrix unit reads as a narrower type (tf32) run at that
    // type's peak.
    std::string type =
        rounded != narrowed.end() ? rounded->second.type
        : f.signature.inputs.empty()
            ? std::string("f32")
            : std::string(rt::elementTypeName(f.signature.inputs.front().type));
    f.rooflineSeconds =
        rooflineSeconds(model, Work{f.flops, f.bytes}, llvm::StringRef(type));
  }
  compiled->setAttr(kManifestAttr, mlir::StringAttr::get(compiled.getContext(),
                                                         manifest.toJson()));
  return manifest;
}

std::optional<rt::Manifest> strata::manifestOf(mlir::ModuleOp module) {
  auto text = module->getAttrOfType<mlir::StringAttr>(kManifestAttr);
  if (!text)
    return std::nullopt;
  auto parsed = rt::Manifest::fromJson(text.str(), "strata.manifest");
  if (!parsed.ok())
    return std::nullopt;
  return *parsed;
}
