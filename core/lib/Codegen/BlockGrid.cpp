//===- BlockGrid.cpp - A linalg op cut into its scheduled blocks ----------===//
#include "strata/Codegen/BlockGrid.h"
#include "strata/Schedule/Attributes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace strata::codegen;

Ints strata::codegen::rowMajorStrides(ArrayRef<int64_t> shape) {
  Ints strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

Value strata::codegen::rootBuffer(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp>(
            def))
      break;
    memref = def->getOperand(0);
  }
  return memref;
}

Ints strata::codegen::boxView(ArrayRef<int64_t> shape, const Box &box) {
  Ints strides = rowMajorStrides(shape), view{0};
  for (size_t d = 0; d < shape.size(); ++d) {
    view[0] += box.start[d] * strides[d];
    view.push_back(strides[d]);
  }
  return view;
}

FailureOr<ProductRoles> strata::codegen::productRoles(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1)
    return failure();
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() < 2 || !out.isProjectedPermutation())
    return failure();
  ProductRoles roles;
  roles.m = out.getDimPosition(out.getNumResults() - 2);
  roles.n = out.getDimPosition(out.getNumResults() - 1);
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  roles.k = reductions.front();
  roles.a = op.getDpsInputOperand(0);
  roles.b = op.getDpsInputOperand(1);
  auto byM = [&](OpOperand *x) {
    return op.getMatchingIndexingMap(x).isFunctionOfDim(roles.m);
  };
  if (byM(roles.b))
    std::swap(roles.a, roles.b);
  if (!byM(roles.a) || byM(roles.b))
    return failure();
  return roles;
}

FailureOr<BlockGrid> BlockGrid::of(linalg::LinalgOp op) {
  BlockGrid grid;
  grid.op = op;
  grid.extents = op.getStaticLoopRanges();
  size_t loops = grid.extents.size();
  if (llvm::any_of(grid.extents, ShapedType::isDynamic))
    return op.emitOpError("has a dynamic loop range");
  for (OpOperand &operand : op->getOpOperands())
    if (!op.getMatchingIndexingMap(&operand).isProjectedPermutation())
      return op.emitOpError("operand #")
             << operand.getOperandNumber()
             << " is not indexed by a projected permutation of the loops";
  auto schedule = getSchedule(op, loops);
  if (failed(schedule))
    return failure();
  grid.block = grid.extents;
  if (*schedule && !(*schedule)->tiles.empty())
    for (size_t d = 0; d < loops; ++d)
      if (int64_t s = (*schedule)->tiles.front().sizes[d])
        grid.block[d] = std::min(s, grid.extents[d]);
  auto iters = op.getIteratorTypesArray();
  for (size_t d = 0; d < loops; ++d)
    (iters[d] == utils::IteratorType::reduction ? grid.reductions
                                                : grid.parallel)
        .push_back(d);
  return grid;
}

static int64_t countAlong(const BlockGrid &g, ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= llvm::divideCeil(g.extents[d], g.block[d]);
  return n;
}

int64_t BlockGrid::numBlocks() const { return countAlong(*this, parallel); }
int64_t BlockGrid::numSteps() const { return countAlong(*this, reductions); }

Ints BlockGrid::start(int64_t blockIndex, int64_t step) const {
  Ints at(extents.size(), 0);
  auto fill = [&](ArrayRef<int64_t> dims, int64_t index) {
    for (int64_t d : llvm::reverse(dims)) {
      int64_t n = llvm::divideCeil(extents[d], block[d]);
      at[d] = (index % n) * block[d];
      index /= n;
    }
  };
  fill(parallel, blockIndex);
  fill(reductions, step);
  return at;
}

Ints BlockGrid::sizesAt(ArrayRef<int64_t> at) const {
  Ints sizes(extents.size());
  for (size_t d = 0; d < extents.size(); ++d)
    sizes[d] = std::min(block[d], extents[d] - at[d]);
  return sizes;
}

Box BlockGrid::box(OpOperand *operand, ArrayRef<int64_t> at) const {
  Box box;
  for (AffineExpr e : op.getMatchingIndexingMap(operand).getResults()) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    box.start.push_back(at[d]);
    box.size.push_back(std::min(block[d], extents[d] - at[d]));
  }
  return box;
}

int64_t BlockGrid::boxElements(OpOperand *operand) const {
  int64_t elements = 1;
  for (AffineExpr e : op.getMatchingIndexingMap(operand).getResults())
    elements *= block[cast<AffineDimExpr>(e).getPosition()];
  return elements;
}

int64_t BlockGrid::points() const {
  int64_t n = 1;
  for (int64_t b : block)
    n *= b;
  return n;
}

Ints BlockGrid::loopStrides(OpOperand *operand, ArrayRef<int64_t> size) const {
  Ints strides(extents.size(), 0), local = rowMajorStrides(size);
  for (auto [j, e] :
       llvm::enumerate(op.getMatchingIndexingMap(operand).getResults()))
    strides[cast<AffineDimExpr>(e).getPosition()] += local[j];
  return strides;
}

bool BlockGrid::shrinkUntil(llvm::function_ref<bool(const BlockGrid &)> fits) {
  while (!fits(*this)) {
    int64_t widest = -1;
    for (int64_t d : parallel)
      if (block[d] > 1 && (widest < 0 || block[d] > block[widest]))
        widest = d;
    if (widest < 0)
      return false;
    block[widest] = llvm::divideCeil(block[widest], 2);
  }
  return true;
}
