//===- Manifest.h - The manifest of a compiled program ----------*- C++ -*-===//
//
// What the compiler knows about a program that the runtime and strata-exec
// need without it (strata/rt/Manifest.h): each public function's signature,
// work, roofline time on the chip and output tolerances. The tools attach
// it to the module as `strata.manifest` before the plugin lowers it, and the
// artifact writers embed it.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RUNTIME_MANIFEST_H
#define STRATA_RUNTIME_MANIFEST_H

#include "strata/HW/Description.h"
#include "strata/rt/Manifest.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace strata {

/// The signatures and work of `input`'s public functions, before the core
/// stages (run on a clone: `input` is not changed). Functions whose
/// signature the runtime cannot call (dynamic shapes, non-tensor
/// arguments) are left out.
rt::Manifest describeProgram(mlir::ModuleOp input, const hw::Description &chip);

/// Completes `manifest` from the scheduled module (after S4): tolerances
/// and roofline of the functions whose matrix units narrow their inputs;
/// then attaches it to `compiled` as `strata.manifest` and returns it.
rt::Manifest attachManifest(rt::Manifest manifest, mlir::ModuleOp compiled,
                            const hw::Description &chip);

/// The manifest attached to `module`, if any (for artifact writers).
std::optional<rt::Manifest> manifestOf(mlir::ModuleOp module);

} // namespace strata

#endif // STRATA_RUNTIME_MANIFEST_H
