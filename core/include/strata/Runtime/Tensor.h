//===- Tensor.h - Element types and tensor shapes at run time ---*- C++ -*-===//
//
// The runtime library's (strata/rt/Tensor.h), under the compiler's
// namespace.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RUNTIME_TENSOR_H
#define STRATA_RUNTIME_TENSOR_H

#include "strata/rt/Tensor.h"

namespace strata::runtime {
using rt::elementBytes;
using rt::ElementType;
using rt::elementTypeName;
using rt::isFloat;
using rt::parseElementType;
using rt::Signature;
using rt::TensorSpec;
} // namespace strata::runtime

#endif // STRATA_RUNTIME_TENSOR_H
