//===- FloatConversions.cpp - Elementwise float width changes -------------===//
#include "strata/Transforms/FloatConversions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

bool strata::isNarrowFloat(Type type) { return type.isBF16() || type.isF16(); }

Value strata::convertFloats(OpBuilder &b, Location loc, Value value,
                            Type type) {
  auto castScalar = [&](OpBuilder &builder, Location l, Value v,
                        Type to) -> Value {
    // Between f64 and bf16/f16 through f32: the host's runtime library has
    // no direct conversions (__truncdfbf2).
    Type f32 = builder.getF32Type();
    if (v.getType().isF64() && isNarrowFloat(to))
      v = arith::TruncFOp::create(builder, l, f32, v);
    else if (isNarrowFloat(v.getType()) && to.isF64())
      v = arith::ExtFOp::create(builder, l, f32, v);
    if (v.getType() == to)
      return v;
    if (to.getIntOrFloatBitWidth() > v.getType().getIntOrFloatBitWidth())
      return arith::ExtFOp::create(builder, l, to, v);
    return arith::TruncFOp::create(builder, l, to, v);
  };
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return castScalar(b, loc, value, type);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
  Value empty = tensor::EmptyOp::create(b, loc, sizes, tensor.getElementType());
  AffineMap id = b.getMultiDimIdentityMap(tensor.getRank());
  SmallVector<utils::IteratorType> parallel(tensor.getRank(),
                                            utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{tensor}, ValueRange{value}, ValueRange{empty},
             ArrayRef<AffineMap>{id, id}, parallel,
             [&](OpBuilder &nested, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   nested, l,
                   castScalar(nested, l, args[0], tensor.getElementType()));
             })
      .getResult(0);
}
