//===- Compiler.h - Drive a module through the stages -----------*- C++ -*-===//
//
// What strata-compile and strata-run share: the dialect registry, parsing
// with located diagnostics, the core stages on a chip, the plugin's S5, the
// reference lowering and writing outputs without leaving partial files.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_PIPELINE_COMPILER_H
#define STRATA_PIPELINE_COMPILER_H

#include "strata/HW/Description.h"
#include "strata/Pipeline/Pipeline.h"
#include "strata/Target/TargetPlugin.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"

#include <functional>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace strata {

/// Every dialect and interface Strata's input, stages and plugins need.
void registerStrataDialects(mlir::DialectRegistry &registry);

/// Applied to every pass manager a stage creates (e.g. -mlir-timing).
using PassManagerHook = std::function<mlir::LogicalResult(mlir::PassManager &)>;

/// Reads and parses `path` ("-" for stdin). A file that cannot be read sets
/// `openError`; parse errors are reported through the context's diagnostic
/// handler with the file's name and location. Null on either failure.
mlir::OwningOpRef<mlir::ModuleOp> parseInputFile(llvm::StringRef path,
                                                 mlir::MLIRContext &ctx,
                                                 llvm::SourceMgr &sourceMgr,
                                                 std::string &openError);

/// Attaches `chip` to the module as `strata.hw`.
void attachDescription(mlir::ModuleOp module, const hw::Description &chip);

/// Attaches `chip` to the module (strata.hw) and runs S1-S4.
mlir::LogicalResult runCoreStages(mlir::ModuleOp module,
                                  const hw::Description &chip,
                                  const PassManagerHook &hook = {},
                                  const CoreOptions &options = {});

/// Runs the plugin's S5 and checks that only its dialects are left.
mlir::LogicalResult runPluginLowering(mlir::ModuleOp module,
                                      const TargetPlugin &plugin,
                                      const hw::Description &chip,
                                      const PassManagerHook &hook = {});

/// The reference lowering (to the LLVM dialect, run on the host).
mlir::LogicalResult runReferenceLowering(mlir::ModuleOp module,
                                         const PassManagerHook &hook = {});

/// The lowering of the reference of the program's own precision (see
/// buildPrecisionReferencePipeline).
mlir::LogicalResult
runPrecisionReferenceLowering(mlir::ModuleOp module, int64_t mantissaBits,
                              const PassManagerHook &hook = {});

/// Prints `module` to `path` ("-" for stdout), keeping nothing on failure.
llvm::Error writeModule(mlir::ModuleOp module, llvm::StringRef path);

} // namespace strata

#endif // STRATA_PIPELINE_COMPILER_H
