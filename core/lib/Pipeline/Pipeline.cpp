//===- Pipeline.cpp - The core's stages S1-S4 -----------------------------===//
#include "strata/Pipeline/Pipeline.h"
#include "strata/Codegen/HostLowering.h"
#include "strata/Pipeline/HierarchyPipeline.h"
#include "strata/Schedule/ScratchpadModel.h"
#include "strata/Transforms/Passes.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;

void strata::registerUpstreamPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    mlir::registerAllPasses();
    registerStrataPasses();
  });
}

void strata::addPipeline(OpPassManager &pm, StringRef pipeline) {
  registerUpstreamPasses();
  std::string error;
  llvm::raw_string_ostream os(error);
  // The pipelines are Strata's own constants: a parse failure is a bug.
  if (failed(parsePassPipeline(pipeline, pm, os)))
    llvm::report_fatal_error(llvm::Twine("invalid internal pipeline '") +
                             pipeline + "': " + error);
}

void strata::buildPreparePipeline(OpPassManager &pm) {
  pm.addPass(createStrataCheckInput());
  // Calls inlined: a callee's dynamic shapes take the caller's static
  // ones, and a private function left without callers goes away (only
  // public functions become the library's entry points).
  addPipeline(pm, "inline");
  addPipeline(pm, "func.func(tosa-to-linalg-named,tosa-to-linalg,"
                  "tosa-to-arith,tosa-to-tensor,tosa-to-scf)");
  // Elementwise arith/math on whole tensors become linalg.generic so that
  // every computation is a linalg op the later stages handle.
  addPipeline(pm, "canonicalize,func.func(convert-elementwise-to-linalg,"
                  "strata-decompose-aggregates,strata-unit-slice-strides),"
                  "canonicalize,cse");
}

// S2: windowed ops split into shifted terms, elementwise chains merged,
// contractions made contiguous along their vector loop; the fusion groups
// themselves are formed with the schedules' tiles in S4.
void strata::buildGroupPipeline(OpPassManager &pm, const hw::Description &chip,
                                const CoreOptions &options) {
  // Booleans between ops become bytes where S4's groups take them in (the
  // host's row-block groups), and bf16/f16 contractions sum in f32 (the
  // host's register tiles would keep bf16 accumulators); the lane-group
  // and scratchpad-grid mappings have no integer row reductions and choose
  // their own accumulator types, and keep the plain ops.
  bool widen = !usesHierarchyPipeline(chip) && !gridScratchpad(chip);
  std::string fuse =
      options.fuse ? std::string("strata-fuse-elementwise,canonicalize,") +
                         (widen ? "strata-widen-booleans,canonicalize," : "")
                   : "";
  // Kernels of the hierarchy path take whole dense buffers: slices become
  // elementwise copies (before fusion, which folds them into consumers).
  std::string slices = usesHierarchyPipeline(chip)
                           ? "strata-strided-slices{contiguous=true},"
                           : "";
  // A grid of scratchpads reduces along rows only: other reductions become
  // a transpose and row reductions (after fusion, which would merge the
  // transpose back into its reader).
  std::string rows = gridScratchpad(chip) ? "strata-row-reductions," : "";
  // Its convolutions are implicit GEMMs of channels-last tensors: other
  // layouts are transposed around them before windows are split.
  std::string layout = gridScratchpad(chip) ? "strata-channels-last," : "";
  addPipeline(pm, "func.func(" + layout +
                      "strata-decompose-windows{contractions=false}," + slices +
                      fuse + (widen ? "strata-widen-accumulators," : "") +
                      rows +
                      "strata-normalize-contractions,"
                      "strata-reciprocal-divisions),canonicalize");
}

// S3: the model picks every op's schedule from the module's description.
void strata::buildSchedulePipeline(OpPassManager &pm, const hw::Description &,
                                   const CoreOptions &options) {
  pm.addPass(createStrataSchedule({options.scheduleFile}));
}

void strata::buildBufferizePipeline(OpPassManager &pm) {
  // A fresh tile inserted into a larger tensor (a tile filled where it is
  // first used, out of a loop that ran once and was folded) is made in
  // that tensor's buffer, not in a buffer of its own copied back. Before
  // the entry points' copies of repeated results, which it would merge.
  addPipeline(pm, "eliminate-empty-tensors");
  pm.addPass(createStrataPrepareEntryPoints());
  addPipeline(pm, "one-shot-bufferize{bufferize-function-boundaries "
                  "function-boundary-type-conversion=identity-layout-map},"
                  // Loops that carry a buffer return it unchanged: folded,
                  // a result is its allocation, which becomes the caller's
                  // output buffer instead of a copy into it.
                  "canonicalize,"
                  "buffer-results-to-out-params{hoist-static-allocs "
                  "modify-public-functions},"
                  // A result reshaped from a buffer of its own (a 1x1
                  // convolution's GEMM rows) is computed in the output.
                  "func.func(strata-results-in-place),"
                  // Tile buffers are allocated once per loop nest, not once
                  // per iteration (never out of a grid loop: each thread
                  // keeps its own).
                  "canonicalize,func.func(buffer-loop-hoisting),"
                  "strata-drop-deallocs,buffer-deallocation-pipeline,"
                  "canonicalize");
  pm.addPass(createStrataVerifyDestinationPassing());
}

void strata::buildApplyPipeline(OpPassManager &pm, const hw::Description &chip,
                                const CoreOptions &options) {
  // A grid of scratchpads: each op stays whole with its schedule (blocks,
  // k step, matrix tile, multicast); the plugin's kernels move the blocks
  // through the scratchpads, which no upstream mechanism models.
  if (gridScratchpad(chip)) {
    buildBufferizePipeline(pm);
    return;
  }
  // Chips with groups of lanes under a scratchpad (HierarchyPipeline.h).
  if (usesHierarchyPipeline(chip))
    return buildHierarchyApplyPipeline(pm, chip, options);
  addPipeline(pm, options.fuse
                      ? "func.func(strata-apply-schedule)"
                      : "func.func(strata-apply-schedule{fuse=false})");
  addPipeline(pm, "canonicalize,cse");
  buildBufferizePipeline(pm);
}

void strata::buildCorePipeline(OpPassManager &pm, const hw::Description &chip,
                               const CoreOptions &options) {
  buildPreparePipeline(pm);
  buildGroupPipeline(pm, chip, options);
  buildSchedulePipeline(pm, chip, options);
  buildApplyPipeline(pm, chip, options);
}

void strata::registerPipelines() {
  PassPipelineRegistration<>("strata-prepare",
                             "S1: tosa to linalg, decompose aggregates",
                             buildPreparePipeline);
  PassPipelineRegistration<>("strata-bufferize",
                             "Tensors to buffers, results to out-params",
                             buildBufferizePipeline);
  PassPipelineRegistration<>(
      "strata-reference-to-llvm",
      "The reference lowering: prepare, bufferize, loops, LLVM dialect",
      buildReferencePipeline);
}
