//===- Work.cpp - Arithmetic and traffic of a function --------------------===//
#include "strata/Analysis/Work.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CastInterfaces.h"

#include <algorithm>

using namespace mlir;

/// Bytes of a statically shaped tensor or memref; 0 otherwise.
static double typeBytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  unsigned bits = shaped.getElementTypeBitWidth();
  return double(shaped.getNumElements()) * ((bits + 7) / 8);
}

/// Arithmetic ops per iteration of a linalg op's body. Conversions
/// (extf, truncf, sitofp, ...) are free: a mixed-precision matmul is 2·MNK
/// like any other, not 4·MNK.
static double opsPerIteration(linalg::LinalgOp op) {
  double count = 0;
  for (Operation &inner : op.getBlock()->without_terminator()) {
    StringRef ns = inner.getName().getDialectNamespace();
    if (ns != "arith" && ns != "math")
      continue;
    if (isa<arith::ConstantOp, CastOpInterface>(inner))
      continue;
    count += isa<math::FmaOp>(inner) ? 2 : 1;
  }
  return count;
}

strata::Work strata::estimateWork(func::FuncOp func) {
  Work work;
  for (Type type : func.getArgumentTypes())
    work.bytes += typeBytes(type);
  for (Type type : func.getResultTypes())
    work.bytes += typeBytes(type);
  func.walk([&](linalg::LinalgOp op) {
    double iterations = 1;
    for (int64_t range : op.getStaticLoopRanges())
      iterations *= ShapedType::isDynamic(range) ? 1 : range;
    // Named ops (matmul, conv) carry their body as a region too.
    work.flops += iterations * opsPerIteration(op);
  });
  return work;
}

double strata::rooflineSeconds(const hw::DerivedModel &model, const Work &work,
                               llvm::StringRef elementType) {
  double peak = model.peakFlops(elementType);
  if (peak <= 0 || model.memory.empty() ||
      model.memory.front().bandwidthTotal <= 0)
    return 0;
  return std::max(work.flops / peak,
                  work.bytes / model.memory.front().bandwidthTotal);
}
