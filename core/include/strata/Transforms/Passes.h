//===- Passes.h - Strata's core passes --------------------------*- C++ -*-===//
#ifndef STRATA_TRANSFORMS_PASSES_H
#define STRATA_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace strata {

#define GEN_PASS_DECL
#include "strata/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "strata/Transforms/Passes.h.inc"

/// Dialects whose ops the pipeline accepts as input (strata-check-input).
llvm::ArrayRef<llvm::StringRef> acceptedInputDialects();

} // namespace strata

#endif // STRATA_TRANSFORMS_PASSES_H
