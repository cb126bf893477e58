//===- NpuPasses.h - The npu plugin's passes --------------------*- C++ -*-===//
#ifndef NPU_NPUPASSES_H
#define NPU_NPUPASSES_H

#include "Npu/NpuDialect.h"
#include "mlir/Pass/Pass.h"

namespace npu {
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "Npu/NpuPasses.h.inc"
} // namespace npu

#endif // NPU_NPUPASSES_H
