//===- NpuDialect.h - The npu dialect ---------------------------*- C++ -*-===//
#ifndef NPU_NPUDIALECT_H
#define NPU_NPUDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "Npu/NpuDialect.h.inc"
#define GET_TYPEDEF_CLASSES
#include "Npu/NpuTypes.h.inc"
#define GET_OP_CLASSES
#include "Npu/NpuOps.h.inc"

namespace npu {
/// Memory spaces of the npu's memrefs.
enum Space : unsigned { Dram = 0, Spad = 1, Acc = 2 };
/// The memory space of a memref type.
inline unsigned spaceOf(mlir::Type type) {
  return llvm::cast<mlir::MemRefType>(type).getMemorySpaceAsInt();
}
} // namespace npu

#endif // NPU_NPUDIALECT_H
