//===- CopyLowering.cpp - A memref.copy between views of DRAM tensors -----===//
//
// A function made of one memref.copy whose source and target are function
// arguments or strided views of them (memref.subview: a tensor.extract_slice,
// the interior a tensor.pad writes, a strided slice) becomes the copy
// program (CopyProgram.cpp). Each side's view is read off its layout: the
// offset and strides of a static strided memref count elements of the
// argument in row-major order, whatever chain of subviews and reshapes
// made it.
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {
/// One side of the copy: the argument's flat DRAM tensor and where the
/// view's elements lie in it.
FailureOr<CopyPlan::Side> sideOf(memref::CopyOp copy, Value view,
                                 ArrayRef<bool> kept, bool output,
                                 const TileChip &chip) {
  FailureOr<BlockArgument> arg = argumentOf(copy, bufferOf(view));
  if (failed(arg))
    return failure();
  auto argType = cast<MemRefType>(arg->getType());
  auto viewType = cast<MemRefType>(view.getType());
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (!argType.hasStaticShape() || !argType.getLayout().isIdentity() ||
      failed(viewType.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return copy.emitError() << "the tile target copies between static "
                               "strided views of function arguments; "
                            << view.getType() << " is not one";
  CopyPlan::Side side;
  side.last = argType.getRank() == 0 ? 1 : argType.getShape().back();
  int64_t flatRows = side.last == 0 ? 0 : argType.getNumElements() / side.last;
  FailureOr<TensorDecl> tensor = flatTensorFor(
      copy, *arg, ceilDiv(flatRows, chip.tileRows) * chip.tileRows,
      ceilDiv(side.last, chip.tileCols) * chip.tileCols, output);
  if (failed(tensor))
    return failure();
  side.tensor = *tensor;
  side.offset = offset;
  for (auto [stride, keep] : llvm::zip(strides, kept))
    if (keep)
      side.strides.push_back(stride);
  return side;
}

/// Whether every row of the view is a run of consecutive elements of one
/// row of the side's tensor (`width`: the view's last dimension).
bool contiguousRows(const CopyPlan::Side &side, int64_t width) {
  if (side.strides.empty())
    return true; // one element
  if (side.strides.back() != 1 && width > 1)
    return false;
  ArrayRef<int64_t> outer = ArrayRef<int64_t>(side.strides).drop_back();
  return llvm::all_of(
             outer, [&](int64_t stride) { return stride % side.last == 0; }) &&
         side.offset % side.last + width <= side.last;
}
} // namespace

FailureOr<std::string>
strata::tile::lowerCopyFunction(const LoweringTarget &target, func::FuncOp fn,
                                memref::CopyOp copy) {
  const TileChip &chip = target.chip;
  auto type = cast<MemRefType>(copy.getSource().getType());
  Type element = type.getElementType();
  // Booleans are bf16 1.0 and 0.0 in DRAM, f16 values f32.
  if (!element.isF32() && !element.isBF16() && !element.isF16() &&
      !element.isInteger(1))
    return copy.emitError()
           << "the tile target copies bf16, f16, f32 or i1 tensors; "
              "this copy's elements are "
           << element;
  if (bufferOf(copy.getSource()) == bufferOf(copy.getTarget()))
    return copy.emitError() << "the tile target copies between two tensors; "
                               "this copy reads and writes one";
  // Dimensions of size one index only 0: the view is its other ones.
  SmallVector<bool> kept;
  CopyPlan p;
  static_cast<GridProgram &>(p) = gridProgram(fn, chip);
  for (int64_t size : type.getShape()) {
    kept.push_back(size != 1);
    if (size != 1)
      p.shape.push_back(size);
  }
  if (type.getNumElements() == 0)
    return copy.emitError() << "the tile target does not copy empty tensors";
  FailureOr<CopyPlan::Side> from =
      sideOf(copy, copy.getSource(), kept, /*output=*/false, chip);
  if (failed(from))
    return failure();
  FailureOr<CopyPlan::Side> to =
      sideOf(copy, copy.getTarget(), kept, /*output=*/true, chip);
  if (failed(to))
    return failure();
  int64_t width = p.shape.empty() ? 1 : p.shape.back();
  from->contiguous = contiguousRows(*from, width);
  to->contiguous = contiguousRows(*to, width);
  p.from = *from;
  p.to = *to;
  p.elementBytes = element.isF32() || element.isF16() ? 4 : 2;
  p.faceRows = chip.faceRows;
  p.faceCols = chip.faceCols;
  // Declared in the function's argument order.
  unsigned fromArg =
      cast<BlockArgument>(bufferOf(copy.getSource())).getArgNumber();
  unsigned toArg =
      cast<BlockArgument>(bufferOf(copy.getTarget())).getArgNumber();
  p.tensors = fromArg < toArg
                  ? std::vector<TensorDecl>{p.from.tensor, p.to.tensor}
                  : std::vector<TensorDecl>{p.to.tensor, p.from.tensor};
  return writeCopyProgram(p);
}
