//===- StridedSlices.cpp - Strided tensor slices as elementwise copies ----===//
//
// A static tensor.extract_slice whose elements are not one contiguous run
// of its source (a column block of a packed q/k/v projection) bufferizes to
// a strided memref.subview, which a kernel of the hierarchy path cannot take
// (its arguments are dense buffers). It becomes a linalg.generic over the
// slice's shape that reads the source through an affine map carrying the
// offsets and strides: an elementwise op like any other, which fusion folds
// into its consumers where it can. Contiguous slices stay views, unless the
// plugin's host code passes whole buffers only (`contiguous`).
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace strata {
#define GEN_PASS_DEF_STRATASTRIDEDSLICES
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {

/// Whether a row-major slice with unit strides is one contiguous run: past
/// its leading unit extents, the first dim may take any range and every
/// later one must be whole.
bool isContiguous(ArrayRef<int64_t> sourceShape, ArrayRef<int64_t> sizes,
                  ArrayRef<int64_t> strides) {
  size_t i = 0;
  while (i < sizes.size() && sizes[i] == 1)
    ++i;
  for (size_t j = i + 1; j < sizes.size(); ++j)
    if (sizes[j] != sourceShape[j])
      return false;
  for (size_t j = i; j < strides.size(); ++j)
    if (strides[j] != 1 && sizes[j] != 1)
      return false;
  return true;
}

struct StridedSliceToGeneric : OpRewritePattern<tensor::ExtractSliceOp> {
  StridedSliceToGeneric(MLIRContext *ctx, bool contiguous)
      : OpRewritePattern(ctx), contiguous(contiguous) {}
  bool contiguous;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp op,
                                PatternRewriter &rw) const override {
    RankedTensorType source = op.getSourceType();
    RankedTensorType result = op.getResultType();
    if (!source.hasStaticShape() || !result.hasStaticShape() ||
        !op.getOffsets().empty() || !op.getSizes().empty() ||
        !op.getStrides().empty())
      return failure();
    ArrayRef<int64_t> offsets = op.getStaticOffsets();
    ArrayRef<int64_t> sizes = op.getStaticSizes();
    ArrayRef<int64_t> strides = op.getStaticStrides();
    if (!contiguous && isContiguous(source.getShape(), sizes, strides))
      return failure();
    // Source dim i reads offset + stride * (its result loop), or its offset
    // where the slice drops it (a unit extent). A block of a dim (unit
    // stride, the size dividing the dim and the offset) is read from the
    // source split in blocks, at block offset / size: a plain loop index
    // there, since linalg infers loop extents from plain dims of inputs (a
    // slice from offset 0 read as `d` would claim the whole dim).
    llvm::SmallBitVector dropped = op.getDroppedDims();
    MLIRContext *ctx = rw.getContext();
    SmallVector<AffineExpr> reads;
    SmallVector<ReassociationIndices> groups;
    SmallVector<int64_t> expanded;
    unsigned loop = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      int64_t extent = source.getDimSize(i);
      ReassociationIndices group{int64_t(expanded.size())};
      if (dropped.test(i)) {
        reads.push_back(getAffineConstantExpr(offsets[i], ctx));
        expanded.push_back(extent);
      } else if (strides[i] == 1 && sizes[i] < extent &&
                 extent % sizes[i] == 0 && offsets[i] % sizes[i] == 0) {
        reads.push_back(getAffineConstantExpr(offsets[i] / sizes[i], ctx));
        reads.push_back(getAffineDimExpr(loop++, ctx));
        group.push_back(int64_t(expanded.size()) + 1);
        expanded.push_back(extent / sizes[i]);
        expanded.push_back(sizes[i]);
      } else {
        if (offsets[i] == 0 && strides[i] == 1 && sizes[i] < extent)
          return failure(); // a prefix that no block split reaches
        reads.push_back(getAffineDimExpr(loop++, ctx) * strides[i] +
                        offsets[i]);
        expanded.push_back(extent);
      }
      groups.push_back(group);
    }
    Value from = op.getSource();
    if (expanded.size() != sizes.size())
      from = tensor::ExpandShapeOp::create(
          rw, op.getLoc(),
          RankedTensorType::get(expanded, source.getElementType()), from,
          groups);
    unsigned rank = unsigned(result.getRank());
    AffineMap read = AffineMap::get(rank, 0, reads, ctx);
    AffineMap write = rw.getMultiDimIdentityMap(rank);
    Value init = tensor::EmptyOp::create(rw, op.getLoc(), result.getShape(),
                                         result.getElementType());
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    auto copy = linalg::GenericOp::create(
        rw, op.getLoc(), TypeRange{result}, ValueRange{from}, ValueRange{init},
        ArrayRef<AffineMap>{read, write}, parallel,
        [](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc, args[0]);
        });
    rw.replaceOp(op, copy.getResults());
    return success();
  }
};

struct StridedSlices
    : public strata::impl::StrataStridedSlicesBase<StridedSlices> {
  using StrataStridedSlicesBase::StrataStridedSlicesBase;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<StridedSliceToGeneric>(&getContext(), this->contiguous);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
