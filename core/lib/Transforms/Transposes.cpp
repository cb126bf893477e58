//===- Transposes.cpp - Transposes as batches of matrix transposes --------===//
//
// Each step keeps the dimensions already in place (the batch), and swaps
// the group of dimensions before the next result dimension with the group
// that starts at it: [batch, X, Y] -> [batch, Y, X] after collapsing each
// group into one dimension, expanded back afterwards (the reshapes of
// consecutive steps fold into each other).
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Transposes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

Value strata::transposeAsMatrices(OpBuilder &b, Location loc, Value input,
                                  ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(input.getType());
  Type element = type.getElementType();
  int64_t n = int64_t(perm.size());
  SmallVector<int64_t> order = llvm::to_vector(llvm::seq<int64_t>(0, n));
  Value current = input;
  for (int64_t i = 0; i < n; ++i) {
    int64_t at = llvm::find(order, perm[i]) - order.begin();
    if (at == i)
      continue;
    // [batch = order[0, i), X = order[i, at), Y = order[at, n)].
    auto extent = [&](int64_t from, int64_t to) {
      int64_t size = 1;
      for (int64_t d = from; d < to; ++d)
        size *= type.getDimSize(order[d]);
      return size;
    };
    SmallVector<int64_t> matrix, swapped;
    SmallVector<ReassociationIndices> groups;
    if (i > 0) {
      matrix.push_back(extent(0, i));
      groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, i)));
    }
    matrix.append({extent(i, at), extent(at, n)});
    groups.push_back(llvm::to_vector(llvm::seq<int64_t>(i, at)));
    groups.push_back(llvm::to_vector(llvm::seq<int64_t>(at, n)));
    SmallVector<int64_t> permutation;
    if (i > 0)
      permutation.push_back(0);
    int64_t last = int64_t(matrix.size()) - 1;
    permutation.append({last, last - 1});
    for (int64_t d : permutation)
      swapped.push_back(matrix[d]);
    Value source = current;
    if (int64_t(matrix.size()) < n)
      source = tensor::CollapseShapeOp::create(
          b, loc, RankedTensorType::get(matrix, element), current, groups);
    Value empty = tensor::EmptyOp::create(b, loc, swapped, element);
    Value moved =
        linalg::TransposeOp::create(b, loc, source, empty, permutation)
            ->getResult(0);
    // The new order, and the result expanded to it.
    SmallVector<int64_t> next(order.begin(), order.begin() + i);
    next.append(order.begin() + at, order.end());
    next.append(order.begin() + i, order.begin() + at);
    order = next;
    SmallVector<int64_t> shape;
    for (int64_t d : order)
      shape.push_back(type.getDimSize(d));
    SmallVector<ReassociationIndices> outGroups;
    if (i > 0)
      outGroups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, i)));
    outGroups.push_back(llvm::to_vector(llvm::seq<int64_t>(i, i + n - at)));
    outGroups.push_back(llvm::to_vector(llvm::seq<int64_t>(i + n - at, n)));
    current = int64_t(matrix.size()) < n
                  ? Value(tensor::ExpandShapeOp::create(
                        b, loc, RankedTensorType::get(shape, element), moved,
                        outGroups))
                  : moved;
  }
  return current;
}
