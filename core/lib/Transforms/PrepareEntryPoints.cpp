//===- PrepareEntryPoints.cpp - Public functions for destination passing --===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace strata {
#define GEN_PASS_DEF_STRATAPREPAREENTRYPOINTS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

/// Gives each repeated tensor operand of `ret` its own copy.
static void copyRepeatedResults(func::ReturnOp ret) {
  OpBuilder builder(ret);
  llvm::SmallPtrSet<Value, 8> seen;
  for (OpOperand &operand : ret->getOpOperands()) {
    Value value = operand.get();
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || seen.insert(value).second)
      continue;
    SmallVector<Value> dynamicSizes;
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      if (type.isDynamicDim(dim))
        dynamicSizes.push_back(
            tensor::DimOp::create(builder, ret.getLoc(), value, dim));
    Value empty =
        tensor::EmptyOp::create(builder, ret.getLoc(), type.getShape(),
                                type.getElementType(), dynamicSizes);
    Value copy = linalg::CopyOp::create(builder, ret.getLoc(), value, empty)
                     .getResult(0);
    operand.set(copy);
  }
}

namespace {
struct PrepareEntryPoints
    : strata::impl::StrataPrepareEntryPointsBase<PrepareEntryPoints> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        if (isa<TensorType>(func.getArgument(i).getType()))
          func.setArgAttr(
              i, bufferization::BufferizationDialect::kWritableAttrName,
              BoolAttr::get(ctx, false));
      func.walk(copyRepeatedResults);
    }
  }
};
} // namespace
