//===- HostLowering.cpp - Buffers to LLVM and on to host code -------------===//
#include "strata/Codegen/HostLowering.h"
#include "Bf16Truncation.h"
#include "HalfVectorMoves.h"
#include "ParallelObjects.h"
#include "strata/Pipeline/Pipeline.h"
#include "strata/Runtime/Manifest.h"
#include "strata/Transforms/CInterface.h"
#include "strata/Transforms/Passes.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

#include <mutex>

#include <spdlog/spdlog.h>

#ifndef STRATA_HOST_LINKER
#define STRATA_HOST_LINKER "clang"
#endif
// Where the OpenMP runtime (libomp.so, Debian package libomp-22-dev) lives:
// LLVM's library folder.
#ifndef STRATA_OPENMP_LIBRARY_DIR
#define STRATA_OPENMP_LIBRARY_DIR ""
#endif

using namespace mlir;

void strata::buildLoopsToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createStrataEmitCInterface());
  // Vector ops (from plugins that vectorize) and OpenMP ops (from plugins that
  // run grid loops on threads) lower too; plain loops have neither.
  // Math first: libm calls for what LLVM has no intrinsic for (erf, tanh)
  // scalarize vector math into vector ops that the vector lowering then
  // handles.
  // Mapped IR first: copies and n-D vector ops become 1-D vector code, and
  // grid loops a plugin did not map to threads run in sequence.
  // bf16 arithmetic in f32, and the conversions as integer arithmetic:
  // LLVM makes f32 -> bf16 a call of __truncsfbf2 on CPUs without a bf16
  // conversion instruction (AVX2, AMD Zen), which the host's libgcc (GCC
  // 12) does not define. Math functions of bf16 and f16 in f32 too: LLVM's
  // instruction selection aborted on a tanh of 129 bf16 lanes ("Do not
  // know how to soft promote this operator's operand"). Each op's result is
  // rounded to bf16 for every user (strata-keep-roundings).
  addPipeline(pm, "func.func(strata-lower-copies,strata-lower-vectors,"
                  "math-extend-to-supported-types{target-type=f32},"
                  "arith-emulate-unsupported-floats{source-types=bf16 "
                  "target-type=f32},strata-keep-roundings,"
                  "arith-expand{include-bf16=true "
                  "include-f4e2m1=true include-f8e8m0=true}),"
                  "strata-prefetch-next,strata-streaming-stores,"
                  "scf-forall-to-for");
  // Integer powers (math.ipowi, math.fpowi), which neither LLVM nor libm
  // has, become calls of outlined loops first.
  addPipeline(pm, "convert-linalg-to-loops,convert-math-to-funcs,"
                  "convert-math-to-llvm,"
                  "convert-math-to-libm,convert-vector-to-scf,"
                  "convert-scf-to-cf,expand-strided-metadata,lower-affine,"
                  "convert-vector-to-llvm,"
                  "finalize-memref-to-llvm{use-generic-functions=true},"
                  "convert-arith-to-llvm,convert-index-to-llvm,"
                  "convert-cf-to-llvm,convert-func-to-llvm,convert-ub-to-llvm,"
                  "convert-openmp-to-llvm,reconcile-unrealized-casts,"
                  "strata-host-allocator");
}

void strata::buildReferencePipeline(OpPassManager &pm) {
  buildPreparePipeline(pm);
  // The reference must be more accurate than what it checks: bf16/f16
  // programs compute in f32, and then f32 ones in f64 where every op can
  // (their signatures unchanged). A sum of 16M f32 values in sequence, one
  // rounding per element, was further from the truth than the blocked sums
  // it checked.
  addPipeline(pm,
              "func.func(strata-widen-floats,strata-widen-floats{f64=true})");
  buildBufferizePipeline(pm);
  buildLoopsToLLVMPipeline(pm);
}

void strata::buildPrecisionReferencePipeline(OpPassManager &pm,
                                             int64_t mantissaBits) {
  buildPreparePipeline(pm);
  addPipeline(pm, "func.func(strata-widen-accumulators,"
                  "strata-round-contraction-inputs{mantissa-bits=" +
                      std::to_string(mantissaBits) + "})");
  buildBufferizePipeline(pm);
  buildLoopsToLLVMPipeline(pm);
}

LogicalResult strata::checkFullyLowered(ModuleOp module,
                                        llvm::ArrayRef<std::string> allowed,
                                        llvm::StringRef stage) {
  bool ok = true;
  module->walk([&](Operation *op) {
    if (op == module.getOperation())
      return;
    StringRef ns = op->getName().getDialectNamespace();
    if (llvm::is_contained(allowed, ns.str()))
      return;
    op->emitError() << "'" << op->getName() << "' could not be lowered by "
                    << stage
                    << "; expected only ops of: " << llvm::join(allowed, ", ");
    ok = false;
  });
  return success(ok);
}

static void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

/// Writes `module` as an object file to `path`.
static llvm::Error emitObject(llvm::Module &module, llvm::TargetMachine &tm,
                              llvm::StringRef path) {
  // Emitted into memory first: the object writer seeks, which a pipe
  // (-o -) cannot.
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream objectStream(object);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, objectStream, nullptr,
                             llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the host code generator cannot emit "
                                   "object files");
  pm.run(module);
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(
        llvm::formatv("cannot write '{0}': {1}", path, ec.message()));
  out.os().write(object.data(), object.size());
  out.os().flush();
  if (out.os().has_error())
    return llvm::createStringError(llvm::formatv(
        "cannot write '{0}': {1}", path, out.os().error().message()));
  out.keep();
  return llvm::Error::success();
}

/// Whether `module` calls the OpenMP runtime (the code the LLVM translation
/// of omp.parallel/omp.wsloop emits calls __kmpc_* entry points).
static bool callsOpenMPRuntime(const llvm::Module &module) {
  return llvm::any_of(module.functions(), [](const llvm::Function &fn) {
    return fn.isDeclaration() && !fn.use_empty() &&
           (fn.getName().starts_with("__kmpc_") ||
            fn.getName().starts_with("omp_"));
  });
}

/// Links `object` into the shared library `path` with the host toolchain.
/// With `openmp`, the library depends on libomp and finds it through its
/// RUNPATH when dlopen loads it. Only libraries whose code calls the runtime
/// get it, so that programs without threads keep loading no thread pool
/// (and need no libomp installed).
static llvm::Error linkSharedLibrary(llvm::ArrayRef<std::string> objects,
                                     llvm::StringRef path,
                                     llvm::StringRef finalPath, bool openmp) {
  auto linker = llvm::sys::findProgramByName(STRATA_HOST_LINKER);
  if (!linker)
    linker = llvm::sys::findProgramByName("clang");
  if (!linker)
    return llvm::createStringError(llvm::formatv(
        "cannot find the host linker driver '{0}'", STRATA_HOST_LINKER));
  std::string message;
  llvm::SmallVector<llvm::StringRef> args = {*linker, "-shared", "-fuse-ld=lld",
                                             "-o", path};
  for (const std::string &object : objects)
    args.push_back(object);
  args.push_back("-lm");
  std::string libraryDir = STRATA_OPENMP_LIBRARY_DIR;
  std::string searchFlag = "-L" + libraryDir;
  std::string rpathFlag = "-Wl,-rpath," + libraryDir;
  if (openmp) {
    llvm::SmallString<128> runtime(libraryDir);
    llvm::sys::path::append(runtime, "libomp.so");
    if (libraryDir.empty() || !llvm::sys::fs::exists(runtime))
      return llvm::createStringError(llvm::formatv(
          "linking '{0}': its code runs on threads, but the OpenMP runtime "
          "'{1}' is not installed (Debian: libomp-22-dev)",
          finalPath, runtime));
    args.append({searchFlag, rpathFlag, "-lomp"});
  }
  int rc = llvm::sys::ExecuteAndWait(*linker, args, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc != 0)
    return llvm::createStringError(
        llvm::formatv("linking '{0}' failed (exit {1}){2}{3}", finalPath, rc,
                      message.empty() ? "" : ": ", message));
  return llvm::Error::success();
}

llvm::Error strata::writeHostArtifact(ModuleOp module, EmitKind kind,
                                      llvm::StringRef path,
                                      const HostCodegenOptions &options) {
  initializeNativeTarget();
  registerBuiltinDialectTranslation(*module->getContext());
  registerLLVMDialectTranslation(*module->getContext());
  registerOpenMPDialectTranslation(*module->getContext());

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");
  exportCInterfaces(*llvmModule);
  defineBf16Truncation(*llvmModule);
  // The manifest travels in the library: the C string `strata_manifest`.
  if (std::optional<rt::Manifest> manifest = manifestOf(module)) {
    manifest->deviceKind = "host";
    llvm::Constant *text = llvm::ConstantDataArray::getString(
        llvmContext, manifest->toJson(), /*AddNull=*/true);
    new llvm::GlobalVariable(*llvmModule, text->getType(), /*isConstant=*/true,
                             llvm::GlobalValue::ExternalLinkage, text,
                             "strata_manifest");
  }

  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(error);
  std::string cpu =
      options.cpu == "native" ? llvm::sys::getHostCPUName().str() : options.cpu;
  std::string features = options.features;
  if (options.cpu == "native" && features.empty()) {
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      features += (feature.second ? "+" : "-") + feature.first().str() + ",";
  }
  auto makeTargetMachine = [&] {
    return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
        triple, cpu, features, llvm::TargetOptions(), llvm::Reloc::PIC_,
        std::nullopt,
        options.optLevel >= 3 ? llvm::CodeGenOptLevel::Aggressive
                              : llvm::CodeGenOptLevel::Default));
  };
  std::unique_ptr<llvm::TargetMachine> tm = makeTargetMachine();
  if (!tm)
    return llvm::createStringError(
        llvm::formatv("no host code generator for cpu '{0}'", cpu));
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(tm->createDataLayout());
  if (llvm::Error err = makeOptimizingTransformer(options.optLevel, 0,
                                                  tm.get())(llvmModule.get()))
    return err;
  moveHalfVectorsAsIntegers(*llvmModule);

  if (kind == EmitKind::LLVMIR) {
    std::error_code ec;
    llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return llvm::createStringError(
          llvm::formatv("cannot write '{0}': {1}", path, ec.message()));
    llvmModule->print(out.os(), nullptr);
    out.keep();
    return llvm::Error::success();
  }
  if (kind == EmitKind::Object)
    return emitObject(*llvmModule, *tm, path);
  if (kind != EmitKind::Library)
    return llvm::createStringError(
        llvm::formatv("--emit={0} is not produced by host code generation",
                      emitKindName(kind)));

  // Objects to temporary files (a large module in parts on all cores), link
  // to a temporary library, then rename, so that a failure never leaves a
  // partial library at `path`.
  bool openmp = callsOpenMPRuntime(*llvmModule);
  std::vector<std::string> objects;
  if (unsigned parts = codegenParts(*llvmModule); parts > 1) {
    spdlog::info("host code generation in {} parts", parts);
    auto made = emitObjectsInParallel(*llvmModule, parts, makeTargetMachine,
                                      emitObject);
    if (!made)
      return made.takeError();
    objects = std::move(*made);
  } else {
    llvm::SmallString<128> object;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("strata", "o", object))
      return llvm::createStringError("cannot create a temporary object file: " +
                                     ec.message());
    objects.push_back(object.str().str());
    if (llvm::Error err = emitObject(*llvmModule, *tm, object)) {
      llvm::sys::fs::remove(object);
      return err;
    }
  }
  llvm::scope_exit removeObjects([&] {
    for (const std::string &object : objects)
      llvm::sys::fs::remove(object);
  });
  std::string partial = (path + ".partial").str();
  llvm::FileRemover removePartial(partial);
  if (llvm::Error err = linkSharedLibrary(objects, partial, path, openmp))
    return err;
  if (std::error_code ec = llvm::sys::fs::rename(partial, path))
    return llvm::createStringError(
        llvm::formatv("cannot write '{0}': {1}", path, ec.message()));
  return llvm::Error::success();
}
