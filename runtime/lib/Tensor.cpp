//===- Tensor.cpp - Element types and tensor shapes at run time -----------===//
#include "strata/rt/Tensor.h"

using namespace strata::rt;

namespace {
struct TypeInfo {
  ElementType type;
  const char *name;
  size_t bytes;
  bool isFloat;
};
constexpr TypeInfo kTypes[] = {
    {ElementType::F64, "f64", 8, true},  {ElementType::F32, "f32", 4, true},
    {ElementType::F16, "f16", 2, true},  {ElementType::BF16, "bf16", 2, true},
    {ElementType::I64, "i64", 8, false}, {ElementType::I32, "i32", 4, false},
    {ElementType::I16, "i16", 2, false}, {ElementType::I8, "i8", 1, false},
    {ElementType::I1, "i1", 1, false},
};
const TypeInfo &info(ElementType type) {
  for (const TypeInfo &entry : kTypes)
    if (entry.type == type)
      return entry;
  return kTypes[1];
}
} // namespace

size_t strata::rt::elementBytes(ElementType type) { return info(type).bytes; }
bool strata::rt::isFloat(ElementType type) { return info(type).isFloat; }
const char *strata::rt::elementTypeName(ElementType type) {
  return info(type).name;
}
std::optional<ElementType>
strata::rt::parseElementType(const std::string &name) {
  for (const TypeInfo &entry : kTypes)
    if (name == entry.name)
      return entry.type;
  return std::nullopt;
}

int64_t TensorSpec::numElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

std::string TensorSpec::str() const {
  std::string text;
  for (int64_t dim : shape)
    text += std::to_string(dim) + "x";
  return text + elementTypeName(type);
}
