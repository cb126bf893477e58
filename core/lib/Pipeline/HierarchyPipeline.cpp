//===- HierarchyPipeline.cpp - S4 for chips with nested levels ------------===//
#include "strata/Pipeline/HierarchyPipeline.h"
#include "strata/Pipeline/Pipeline.h"
#include "strata/Schedule/HierarchyModel.h"

using namespace mlir;

bool strata::usesHierarchyPipeline(const hw::Description &chip) {
  return hierarchyLevels(chip).has_value();
}

// The flat tiling of strata-apply-schedule is skipped: the kernels are built
// on buffers, where scratchpad tiles are plain allocations in their memory
// space and barriers order the lanes' copies.
void strata::buildHierarchyApplyPipeline(OpPassManager &pm,
                                         const hw::Description &,
                                         const CoreOptions &options) {
  buildBufferizePipeline(pm);
  addPipeline(pm, options.allowTf32
                      ? "func.func(strata-map-hierarchy{allow-tf32}),"
                        "canonicalize,cse"
                      : "func.func(strata-map-hierarchy),canonicalize,cse");
}
