//===- Tensor.h - Element types and tensor shapes at run time ---*- C++ -*-===//
#ifndef STRATA_RUNTIME_TENSOR_H
#define STRATA_RUNTIME_TENSOR_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace strata::runtime {

enum class ElementType { F64, F32, F16, BF16, I64, I32, I16, I8, I1 };

size_t elementBytes(ElementType type);
bool isFloat(ElementType type);
llvm::StringRef elementTypeName(ElementType type);
std::optional<ElementType> parseElementType(llvm::StringRef name);

/// A statically shaped, dense, row-major tensor argument.
struct TensorSpec {
  ElementType type = ElementType::F32;
  std::vector<int64_t> shape;

  int64_t numElements() const;
  size_t bytes() const { return numElements() * elementBytes(type); }
  /// "256x512xf32".
  std::string str() const;
};

/// The destination-passing signature of an exported function: the callee
/// receives the inputs, then one output buffer per result.
struct Signature {
  std::string name;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
};

} // namespace strata::runtime

#endif // STRATA_RUNTIME_TENSOR_H
