//===- RoundContractionInputs.cpp - Matrix-unit operand rounding ----------===//
//
// The reference of the program's own precision (`strata-run --check`): a
// chip whose matrix unit keeps fewer mantissa bits of f32 operands than f32
// has (tf32's 10) computes every product from rounded inputs, and a program
// that chains products or cancels their sums carries that rounding into its
// results. Evaluating the program with the same rounding tells how far from
// the exact result its arithmetic can land. Here every f32 input of a
// contraction (a linalg op with reduction loops whose body multiplies
// floats) is read through an elementwise op that clears the low mantissa
// bits, as the matrix units read them (truncation, not rounding to nearest:
// the larger of the two errors).
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/FloatConversions.h"
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace strata {
#define GEN_PASS_DEF_STRATAROUNDCONTRACTIONINPUTS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
/// Whether `op` multiplies inputs and sums the products over a reduction
/// loop (matmul, convolution, dot and their generic forms).
bool isContraction(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0 ||
      op.getNumDpsInputs() < 2)
    return false;
  Block *body = op.getBlock();
  return body && llvm::any_of(body->without_terminator(), [](Operation &inner) {
           return isa<arith::MulFOp>(inner);
         });
}

/// `value`, an f32 tensor, with the low `23 - bits` mantissa bits cleared.
Value truncateMantissa(OpBuilder &b, Location loc, Value value, int64_t bits) {
  uint32_t mask = ~((uint32_t(1) << (23 - bits)) - 1);
  return strata::mapElements(
      b, loc, value, b.getF32Type(),
      [&](OpBuilder &nested, Location l, Value x) {
        Type i32 = nested.getI32Type();
        Value kept = arith::AndIOp::create(
            nested, l, arith::BitcastOp::create(nested, l, i32, x),
            arith::ConstantOp::create(nested, l,
                                      nested.getI32IntegerAttr(int32_t(mask))));
        return arith::BitcastOp::create(nested, l, nested.getF32Type(), kept)
            .getResult();
      });
}

struct RoundContractionInputs
    : strata::impl::StrataRoundContractionInputsBase<RoundContractionInputs> {
  using Base::Base;

  void runOnOperation() override {
    if (mantissaBits <= 0 || mantissaBits >= 23)
      return;
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isContraction(op))
        ops.push_back(op);
    });
    OpBuilder b(&getContext());
    for (linalg::LinalgOp op : ops) {
      b.setInsertionPoint(op);
      for (OpOperand *input : op.getDpsInputOperands()) {
        auto type = dyn_cast<RankedTensorType>(input->get().getType());
        if (type && type.getElementType().isF32())
          input->set(
              truncateMantissa(b, op.getLoc(), input->get(), mantissaBits));
      }
    }
  }
};
} // namespace
