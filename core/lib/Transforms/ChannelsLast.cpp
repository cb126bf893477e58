//===- ChannelsLast.cpp - Convolutions as NHWC x HWCF ---------------------===//
//
// A grid of scratchpads computes a convolution as the implicit GEMM of a
// channels-last input ([pixels, channels] tiles) and an HWCF filter
// ([taps x channels, filters]); other layouts are transposed into it
// around the convolution (O(input + filter + output) moves against the
// convolution's O(pixels x taps x channels x filters) work).
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"
#include "strata/Transforms/Transposes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace strata {
#define GEN_PASS_DEF_STRATACHANNELSLAST
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

namespace {
bool isStatic(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape();
}

/// `value` of shape `shape` permuted by `perm`: a fill is filled again in
/// the new shape, anything else is transposed.
Value permuted(OpBuilder &b, Location loc, Value value,
               ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(value.getType());
  if (auto fill = value.getDefiningOp<linalg::FillOp>()) {
    SmallVector<int64_t> shape;
    for (int64_t d : perm)
      shape.push_back(type.getDimSize(d));
    Value empty = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
    return linalg::FillOp::create(b, loc, fill.getInputs()[0], empty)
        .getResult(0);
  }
  return transposeAsMatrices(b, loc, value, perm);
}

struct ChannelsLast : strata::impl::StrataChannelsLastBase<ChannelsLast> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> convs;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcFhwcOp>(
              op.getOperation()) &&
          op.hasPureTensorSemantics() &&
          llvm::all_of(op->getOperands(), isStatic))
        convs.push_back(op);
    });
    IRRewriter rw(&getContext());
    for (linalg::LinalgOp op : convs) {
      Location loc = op.getLoc();
      rw.setInsertionPoint(op);
      Value input = op.getDpsInputs()[0], filter = op.getDpsInputs()[1],
            init = op.getDpsInits()[0];
      bool nchw = isa<linalg::Conv2DNchwFchwOp>(op.getOperation());
      DenseIntElementsAttr strides, dilations;
      auto window = [&](auto conv) {
        strides = conv.getStrides();
        dilations = conv.getDilations();
      };
      if (nchw)
        window(cast<linalg::Conv2DNchwFchwOp>(op.getOperation()));
      else
        window(cast<linalg::Conv2DNhwcFhwcOp>(op.getOperation()));
      if (nchw) {
        input = transposeAsMatrices(rw, loc, input, {0, 2, 3, 1});
        init = permuted(rw, loc, init, {0, 2, 3, 1});
        filter = transposeAsMatrices(rw, loc, filter, {2, 3, 1, 0});
      } else {
        filter = transposeAsMatrices(rw, loc, filter, {1, 2, 3, 0});
      }
      Value result = linalg::Conv2DNhwcHwcfOp::create(rw, loc, init.getType(),
                                                      ValueRange{input, filter},
                                                      init, strides, dilations)
                         ->getResult(0);
      if (nchw)
        result = transposeAsMatrices(rw, loc, result, {0, 3, 1, 2});
      rw.replaceOp(op, result);
    }
  }
};
} // namespace
