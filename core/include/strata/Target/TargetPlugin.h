//===- TargetPlugin.h - The interface a target plugin implements -*- C++
//-*-===//
//
// A plugin teaches Strata one family of chips. It provides the dialects it
// lowers to, validation of its own description fields, the S5 pipeline from
// the mapped IR (docs/architecture.md, "The mapped IR") to its dialect, the artifact writer, and a
// runtime device. It never chooses tile sizes or fuses: the core does.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TARGET_TARGETPLUGIN_H
#define STRATA_TARGET_TARGETPLUGIN_H

#include "strata/HW/Description.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace strata {
namespace runtime {
class Device;
} // namespace runtime

/// The stages at which strata-compile can stop (--emit=...).
enum class EmitKind {
  Mapped,  ///< mlir: the mapped IR after the core (S4), textual MLIR
  Lowered, ///< lowered: the target's own dialect after S5, textual MLIR
  LLVMIR,  ///< llvm: LLVM IR (targets that go through LLVM)
  Object,  ///< obj: a relocatable object / device binary
  Library, ///< lib: the loadable artifact (shared library, cubin bundle...)
};

/// Parses an --emit value; nullopt if unknown.
std::optional<EmitKind> parseEmitKind(llvm::StringRef text);
llvm::StringRef emitKindName(EmitKind kind);

class TargetPlugin {
public:
  virtual ~TargetPlugin();

  /// The name descriptions use in their `plugin` field.
  virtual llvm::StringRef getName() const = 0;
  virtual llvm::StringRef getSummary() const = 0;

  /// Dialects the plugin's lowering produces or consumes.
  virtual void registerDialects(mlir::DialectRegistry &registry) const {}

  /// Checks the plugin-specific part of a description (`target_options`),
  /// appending one diagnostic per problem.
  virtual void validateDescription(const hw::Description &description,
                                   std::vector<hw::Diagnostic> &errors) const {}

  /// A description (JSON text) of the machine this process runs on, for
  /// --target=host; nullopt when this plugin cannot describe the host.
  virtual std::optional<std::string> describeHost() const {
    return std::nullopt;
  }

  /// S5: adds the passes that lower the mapped IR to the plugin's own
  /// dialect (for a target that goes through LLVM: the LLVM dialect).
  virtual void buildLoweringPipeline(mlir::OpPassManager &pm,
                                     const hw::Description &chip) const = 0;

  /// Dialects allowed in the module after buildLoweringPipeline; anything
  /// else left over is reported as an op the target cannot handle.
  virtual std::vector<std::string> loweredDialects() const = 0;

  /// Writes `lowered` (the output of S5) as `kind` (LLVMIR, Object or
  /// Library) to `path`. Unsupported kinds return an error.
  virtual llvm::Error writeArtifact(mlir::ModuleOp lowered,
                                    const hw::Description &chip, EmitKind kind,
                                    llvm::StringRef path) const = 0;

  /// The runtime device that loads and runs this plugin's artifacts.
  virtual llvm::Expected<std::unique_ptr<runtime::Device>>
  createDevice(const hw::Description &chip) const = 0;
};

} // namespace strata

#endif // STRATA_TARGET_TARGETPLUGIN_H
