//===- Tensor.h - Element types and tensor shapes at run time ---*- C++ -*-===//
#ifndef STRATA_RT_TENSOR_H
#define STRATA_RT_TENSOR_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace strata::rt {

enum class ElementType { F64, F32, F16, BF16, I64, I32, I16, I8, I1 };

size_t elementBytes(ElementType type);
bool isFloat(ElementType type);
/// "f32", "bf16", ...
const char *elementTypeName(ElementType type);
std::optional<ElementType> parseElementType(const std::string &name);

/// A statically shaped, dense, row-major tensor argument.
struct TensorSpec {
  ElementType type = ElementType::F32;
  std::vector<int64_t> shape;

  int64_t numElements() const;
  size_t bytes() const { return numElements() * elementBytes(type); }
  /// "256x512xf32".
  std::string str() const;
  bool operator==(const TensorSpec &other) const {
    return type == other.type && shape == other.shape;
  }
};

/// The destination-passing signature of an exported function: the callee
/// receives the inputs, then one output buffer per result.
struct Signature {
  std::string name;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
};

} // namespace strata::rt

#endif // STRATA_RT_TENSOR_H
