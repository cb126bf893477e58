//===- HierarchyPipeline.h - S4 for chips with nested levels ----*- C++ -*-===//
//
// The apply stage for chips that HierarchyModel.h recognizes (a scratchpad
// owned by a level with groups of lanes inside): bufferize, then map every
// op to the levels with strata-map-hierarchy.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_PIPELINE_HIERARCHYPIPELINE_H
#define STRATA_PIPELINE_HIERARCHYPIPELINE_H

#include "strata/HW/Description.h"
#include "strata/Pipeline/Pipeline.h"

#include "mlir/Pass/PassManager.h"

namespace strata {

/// True when `chip` takes the hierarchy path in S4.
bool usesHierarchyPipeline(const hw::Description &chip);

void buildHierarchyApplyPipeline(mlir::OpPassManager &pm,
                                 const hw::Description &chip,
                                 const CoreOptions &options = {});

} // namespace strata

#endif // STRATA_PIPELINE_HIERARCHYPIPELINE_H
