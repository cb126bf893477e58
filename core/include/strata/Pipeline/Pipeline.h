//===- Pipeline.h - The core's stages S1-S4 ---------------------*- C++ -*-===//
//
// S1 prepare (tosa to linalg, canonicalize, decompose aggregates), S2 group
// (fusion groups), S3 schedule (the analytical model), S4 apply (tiling,
// promotion, bufferization, vectorization). After S4 the module is mapped IR
// (docs/architecture.md, "The mapped IR"), which the plugin lowers in S5.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_PIPELINE_PIPELINE_H
#define STRATA_PIPELINE_PIPELINE_H

#include "strata/HW/Description.h"

#include "mlir/Pass/PassManager.h"

namespace strata {

/// Registers upstream passes that the pipelines name (once per process).
void registerUpstreamPasses();

/// Appends `pipeline` (textual, relative to `pm`'s op) to `pm`.
void addPipeline(mlir::OpPassManager &pm, llvm::StringRef pipeline);

/// What a user may set for the core stages.
struct CoreOptions {
  /// JSON file of schedules that replace the model's (strata-schedule).
  std::string scheduleFile;
  /// Form S2's groups (fusion); off, every op runs on its own (to measure
  /// what fusion gains, or to isolate a problem).
  bool fuse = true;
  /// f32 contractions may use matrix units that read their operands as tf32
  /// (10 mantissa bits); it rounds the inputs, so it is off by default. No
  /// effect on chips without such a unit.
  bool allowTf32 = false;
};

void buildPreparePipeline(mlir::OpPassManager &pm);
void buildGroupPipeline(mlir::OpPassManager &pm, const hw::Description &chip,
                        const CoreOptions &options = {});
void buildSchedulePipeline(mlir::OpPassManager &pm, const hw::Description &chip,
                           const CoreOptions &options = {});
void buildApplyPipeline(mlir::OpPassManager &pm, const hw::Description &chip,
                        const CoreOptions &options = {});

/// Tensor programs to buffers in destination-passing style: results become
/// trailing output arguments, intermediates are allocated and freed.
void buildBufferizePipeline(mlir::OpPassManager &pm);

/// S1 to S4 in order.
void buildCorePipeline(mlir::OpPassManager &pm, const hw::Description &chip,
                       const CoreOptions &options = {});

/// Registers the stage pipelines with mlir-opt style tools
/// (strata-prepare, strata-bufferize, strata-reference-to-llvm).
void registerPipelines();

} // namespace strata

#endif // STRATA_PIPELINE_PIPELINE_H
