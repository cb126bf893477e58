//===- NpuPasses.td - The npu plugin's passes -----------------------------===//
#ifndef NPU_PASSES_TD
#define NPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def NpuLower : Pass<"npu-lower", "mlir::ModuleOp"> {
  let summary = "Lowers the mapped IR's linalg ops to straight-line npu code";
  let description = [{
    Each linalg op, cut into the blocks of its `strata.schedule` (the
    scratchpad level's tile sizes), becomes DMA loads of its operands' boxes,
    systolic-array or vector-unit work and DMA stores, spread over the cores
    and ordered by tokens. Reads the chip from the module's description.
  }];
  let dependentDialects = ["::npu::NpuDialect"];
}

#endif // NPU_PASSES_TD
