//===- Check.cpp - The runtime signature of an MLIR function --------------===//
#include "strata/Runtime/Check.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

using namespace strata::runtime;
using namespace mlir;

/// The runtime element type of an MLIR element type.
static std::optional<ElementType> elementTypeOf(Type type) {
  if (type.isF64())
    return ElementType::F64;
  if (type.isF32())
    return ElementType::F32;
  if (type.isF16())
    return ElementType::F16;
  if (type.isBF16())
    return ElementType::BF16;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 64:
      return ElementType::I64;
    case 32:
      return ElementType::I32;
    case 16:
      return ElementType::I16;
    case 8:
      return ElementType::I8;
    case 1:
      return ElementType::I1;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

static llvm::Expected<TensorSpec> specOf(Type type, func::FuncOp func,
                                         llvm::StringRef what) {
  auto fail = [&](llvm::StringRef why) {
    std::string typeText;
    llvm::raw_string_ostream os(typeText);
    type.print(os);
    return llvm::createStringError(
        llvm::formatv("function '{0}': {1} has unsupported type '{2}': {3}",
                      func.getSymName(), what, typeText, why));
  };
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return fail("expected a ranked tensor with a static shape");
  if (!tensor.hasStaticShape())
    return fail("dynamic dimensions need concrete sizes to run");
  std::optional<ElementType> element = elementTypeOf(tensor.getElementType());
  if (!element)
    return fail(
        "expected elements of f64, f32, f16, bf16 or i64/i32/i16/i8/i1");
  return TensorSpec{*element, std::vector<int64_t>(tensor.getShape().begin(),
                                                   tensor.getShape().end())};
}

llvm::Expected<Signature> strata::runtime::signatureOf(func::FuncOp func) {
  Signature signature;
  signature.name = func.getSymName().str();
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    auto spec = specOf(type, func, llvm::formatv("argument #{0}", i).str());
    if (!spec)
      return spec.takeError();
    signature.inputs.push_back(*spec);
  }
  for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
    auto spec = specOf(type, func, llvm::formatv("result #{0}", i).str());
    if (!spec)
      return spec.takeError();
    signature.outputs.push_back(*spec);
  }
  return signature;
}
