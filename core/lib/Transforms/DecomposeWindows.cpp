//===- DecomposeWindows.cpp - Windowed ops as sums of shifted ops ---------===//
//
// A convolution reads its input through windows: `in[oh * s + kh * d]`. No
// operand of such an op is a plain tile of its loops, so it cannot be packed
// or vectorized as a contraction. Each position of the window (each value
// of the filter loops kh, kw) is a plain op over a strided slice of the
// input: a 3x3 convolution is nine contractions (n, oh, ow, f, c) that
// accumulate into the output, each of which the model schedules like a
// matmul. Depthwise convolutions and pooling decompose the same way into
// elementwise terms, all of them applied in one elementwise op. Nothing here
// names an op: the windows are read from the indexing maps.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"
#include "strata/Transforms/Windows.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace strata {
#define GEN_PASS_DEF_STRATADECOMPOSEWINDOWS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
/// The most window positions decomposed (a 7x7 window is 49 terms).
constexpr int64_t kMaxTerms = 49;

/// `expr` over `dims` loops as constant + sum of coefficient * dim
/// (upstream's flattener); nullopt if it is not linear (a mod or div).
std::optional<std::pair<int64_t, llvm::SmallDenseMap<unsigned, int64_t>>>
linearForm(AffineExpr expr, unsigned dims) {
  SmallVector<int64_t> flat;
  if (failed(getFlattenedAffineExpr(expr, dims, 0, &flat)) ||
      flat.size() != dims + 1)
    return std::nullopt;
  std::pair<int64_t, llvm::SmallDenseMap<unsigned, int64_t>> form;
  form.first = flat.back();
  for (unsigned d = 0; d < dims; ++d)
    if (flat[d] != 0)
      form.second[d] = flat[d];
  return form;
}

/// How one dimension of the windowed input is read: by loop `loop` with
/// `stride`, shifted by `offset` plus `filterCoef` times the filter loop
/// `filter` (-1 when the dimension is a plain loop).
struct WindowDim {
  unsigned loop;
  int64_t stride = 1, offset = 0;
  int64_t filter = -1, filterCoef = 0;
};

/// The windowed input's dims, the filter loops, if `op` reads its first
/// input through windows and everything else plainly.
struct Window {
  SmallVector<WindowDim> dims;
  SmallVector<unsigned> filterLoops;
};

std::optional<Window> windowOf(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() < 1 ||
      op.getNumDpsInits() != 1 || op->getNumResults() != 1)
    return std::nullopt;
  SmallVector<utils::IteratorType> types = op.getIteratorTypesArray();
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  Window w;
  bool windowed = false;
  for (AffineExpr expr : in.getResults()) {
    auto form = linearForm(expr, in.getNumDims());
    if (!form)
      return std::nullopt;
    WindowDim dim;
    dim.offset = form->first;
    int64_t loops = 0;
    for (auto [loop, coef] : form->second) {
      if (coef == 0)
        continue;
      if (coef < 0)
        return std::nullopt;
      if (types[loop] == utils::IteratorType::parallel) {
        ++loops;
        dim.loop = loop;
        dim.stride = coef;
      } else {
        if (dim.filter >= 0)
          return std::nullopt;
        dim.filter = loop;
        dim.filterCoef = coef;
      }
    }
    if (loops > 1)
      return std::nullopt;
    if (loops == 0) {
      // Only a reduction loop (a plain input channel): it is its own loop.
      if (dim.filter < 0 || dim.filterCoef != 1 || dim.offset != 0)
        return std::nullopt;
      dim.loop = unsigned(dim.filter);
      dim.filter = -1;
      dim.filterCoef = 0;
    }
    if (dim.filter >= 0) {
      windowed = true;
      if (!llvm::is_contained(w.filterLoops, unsigned(dim.filter)))
        w.filterLoops.push_back(unsigned(dim.filter));
    } else if (dim.stride != 1 || dim.offset != 0) {
      return std::nullopt;
    }
    w.dims.push_back(dim);
  }
  if (!windowed)
    return std::nullopt;
  // Every other operand is read plainly; filter loops appear only as whole
  // dimensions of the other inputs, never in the output.
  for (OpOperand &operand : op->getOpOperands()) {
    if (&operand == op.getDpsInputOperand(0))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!map.isProjectedPermutation())
      return std::nullopt;
    if (op.isDpsInit(&operand))
      for (unsigned f : w.filterLoops)
        if (map.isFunctionOfDim(f))
          return std::nullopt;
  }
  return w;
}

/// Whether the terms of `op` (windowed as `w`) are contractions: a
/// reduction loop other than the filter loops (a convolution's input
/// channels) remains in each.
bool termsContract(linalg::LinalgOp op, const Window &w) {
  for (auto [d, type] : llvm::enumerate(op.getIteratorTypesArray()))
    if (type == utils::IteratorType::reduction &&
        !llvm::is_contained(w.filterLoops, unsigned(d)))
      return true;
  return false;
}

/// Whether `op` stays whole until its register tiles: a contraction whose
/// windowed input is read along its last dimension by a plain reduction
/// loop (channels last) and whose output's last loop (the vector loop) the
/// windowed input does not read. The model sums the window inside each
/// register tile (Model.cpp); other layouts, and windows of one position,
/// are split here.
bool keptWhole(linalg::LinalgOp op, const Window &w) {
  if (!termsContract(op, w) || w.dims.empty() || w.dims.back().filter >= 0)
    return false;
  // A window of one position (a 1x1 convolution) is a plain contraction.
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  if (llvm::all_of(w.filterLoops, [&](unsigned f) { return extents[f] == 1; }))
    return false;
  unsigned channel = w.dims.back().loop;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  if (out.getNumResults() == 0)
    return false;
  auto last = dyn_cast<AffineDimExpr>(out.getResults().back());
  return last &&
         op.getIteratorTypesArray()[channel] ==
             utils::IteratorType::reduction &&
         !in.isFunctionOfDim(last.getPosition());
}
} // namespace

FailureOr<Value>
strata::decomposeWindows(RewriterBase &rw, linalg::LinalgOp op,
                         SmallVectorImpl<linalg::GenericOp> *terms) {
  std::optional<Window> w = windowOf(op);
  if (!w)
    return failure();
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  if (llvm::any_of(extents, ShapedType::isDynamic) ||
      llvm::any_of(op->getOperandTypes(), [](Type t) {
        auto shaped = dyn_cast<ShapedType>(t);
        return shaped && !shaped.hasStaticShape();
      }))
    return failure();
  int64_t count = 1;
  for (unsigned f : w->filterLoops)
    count *= extents[f];
  if (count > kMaxTerms || count < 1)
    return failure();
  rw.setInsertionPoint(op);
  // The loops of each term: all but the filter loops, renumbered.
  unsigned loops = op.getNumLoops();
  SmallVector<int64_t> newIndex(loops, -1);
  SmallVector<utils::IteratorType> types;
  SmallVector<utils::IteratorType> allTypes = op.getIteratorTypesArray();
  for (unsigned d = 0; d < loops; ++d)
    if (!llvm::is_contained(w->filterLoops, d)) {
      newIndex[d] = int64_t(types.size());
      types.push_back(allTypes[d]);
    }
  MLIRContext *ctx = op.getContext();
  auto dim = [&](unsigned d) {
    return getAffineDimExpr(unsigned(newIndex[d]), ctx);
  };
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  AffineMap outputMap = AffineMap::get(
      types.size(), 0,
      llvm::map_to_vector(out.getResults(),
                          [&](AffineExpr e) {
                            return dim(cast<AffineDimExpr>(e).getPosition());
                          }),
      ctx);
  Location loc = op.getLoc();
  Value acc = op.getDpsInits()[0];
  // Terms without a reduction of their own (a depthwise convolution's, a
  // pooling's) become one elementwise op whose body applies the original
  // body once per window position, threading the accumulator through: the
  // output is read and written once instead of once per position, and the
  // whole window stays in one loop nest. Contraction terms stay separate
  // ops, each scheduled as a matmul.
  bool merge = !termsContract(op, *w);
  Block &body = op->getRegion(0).front();
  SmallVector<Value> mergedInputs;
  SmallVector<AffineMap> mergedMaps;
  SmallVector<int64_t> position(w->filterLoops.size(), 0);
  for (int64_t t = 0; t < count; ++t) {
    // This term's value of every filter loop.
    llvm::SmallDenseMap<unsigned, int64_t> value;
    for (size_t i = 0; i < w->filterLoops.size(); ++i)
      value[w->filterLoops[i]] = position[i];
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    // The windowed input: a strided slice at this window position.
    {
      Value source = op.getDpsInputs()[0];
      auto type = cast<RankedTensorType>(source.getType());
      SmallVector<OpFoldResult> offsets, sizes, strides;
      SmallVector<AffineExpr> results;
      for (const WindowDim &d : w->dims) {
        int64_t offset =
            d.offset + (d.filter >= 0 ? d.filterCoef * value[d.filter] : 0);
        offsets.push_back(rw.getIndexAttr(offset));
        sizes.push_back(rw.getIndexAttr(extents[d.loop]));
        strides.push_back(rw.getIndexAttr(d.stride));
        results.push_back(dim(d.loop));
      }
      auto sliceType = RankedTensorType::get(
          llvm::map_to_vector(
              w->dims, [&](const WindowDim &d) { return extents[d.loop]; }),
          type.getElementType());
      inputs.push_back(tensor::ExtractSliceOp::create(
          rw, loc, sliceType, source, offsets, sizes, strides));
      maps.push_back(AffineMap::get(types.size(), 0, results, ctx));
    }
    // The other inputs: the filter loops fixed (dimensions dropped). A
    // merged op leaves out those its body never reads (a pooling's window
    // shape operand).
    for (OpOperand *operand : op.getDpsInputOperands()) {
      unsigned number = operand->getOperandNumber();
      if (number == 0 || (merge && body.getArgument(number).use_empty()))
        continue;
      // A scalar operand (a quantized convolution's zero points) is read
      // as it is by every term.
      auto type = dyn_cast<RankedTensorType>(operand->get().getType());
      if (!type) {
        inputs.push_back(operand->get());
        maps.push_back(AffineMap::get(types.size(), 0, ctx));
        continue;
      }
      AffineMap map = op.getMatchingIndexingMap(operand);
      SmallVector<OpFoldResult> offsets, sizes, strides;
      SmallVector<int64_t> shape;
      SmallVector<AffineExpr> results;
      for (auto [i, expr] : llvm::enumerate(map.getResults())) {
        unsigned d = cast<AffineDimExpr>(expr).getPosition();
        bool fixed = newIndex[d] < 0;
        offsets.push_back(rw.getIndexAttr(fixed ? value[d] : 0));
        sizes.push_back(rw.getIndexAttr(fixed ? 1 : type.getDimSize(i)));
        strides.push_back(rw.getIndexAttr(1));
        if (!fixed) {
          shape.push_back(type.getDimSize(i));
          results.push_back(dim(d));
        }
      }
      auto sliceType = RankedTensorType::get(shape, type.getElementType());
      inputs.push_back(tensor::ExtractSliceOp::create(
          rw, loc, sliceType, operand->get(), offsets, sizes, strides));
      maps.push_back(AffineMap::get(types.size(), 0, results, ctx));
    }
    if (merge) {
      llvm::append_range(mergedInputs, inputs);
      llvm::append_range(mergedMaps, maps);
    } else {
      maps.push_back(outputMap);
      auto term = linalg::GenericOp::create(rw, loc, acc.getType(), inputs,
                                            ValueRange{acc}, maps, types);
      rw.cloneRegionBefore(op->getRegion(0), term.getRegion(),
                           term.getRegion().end());
      acc = term.getResult(0);
      if (terms)
        terms->push_back(term);
    }
    // Next window position (the last filter loop fastest).
    for (int64_t i = int64_t(position.size()) - 1; i >= 0; --i) {
      if (++position[i] < extents[w->filterLoops[i]])
        break;
      position[i] = 0;
    }
  }
  if (merge) {
    mergedMaps.push_back(outputMap);
    auto merged =
        linalg::GenericOp::create(rw, loc, acc.getType(), mergedInputs,
                                  ValueRange{acc}, mergedMaps, types);
    Block *block = rw.createBlock(&merged.getRegion());
    for (Value input : merged->getOperands())
      block->addArgument(getElementTypeOrSelf(input.getType()), loc);
    Value running = block->getArguments().back();
    unsigned next = 0;
    for (int64_t t = 0; t < count; ++t) {
      IRMapping mapping;
      for (unsigned i = 0, e = op.getNumDpsInputs(); i < e; ++i)
        if (i == 0 || !body.getArgument(i).use_empty())
          mapping.map(body.getArgument(i), block->getArgument(next++));
      mapping.map(body.getArguments().back(), running);
      for (Operation &inner : body.without_terminator())
        rw.clone(inner, mapping);
      running = mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
    }
    linalg::YieldOp::create(rw, loc, running);
    acc = merged.getResult(0);
    if (terms)
      terms->push_back(merged);
  }
  rw.replaceOp(op, acc);
  return acc;
}

namespace {
/// A window of one position read with unit strides is no window: a 1x1
/// convolution is a matmul over the pixels. The op's unit loops (the
/// filter loops, and a batch of one) are dropped, so that every operand is
/// read plainly; normalize-contractions then collapses the pixel loops into
/// one, and the model schedules it as a GEMM instead of a row of pixels at
/// a time.
struct DropUnitWindow : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rw) const override {
    std::optional<Window> w = windowOf(op);
    if (!w)
      return failure();
    SmallVector<int64_t> extents = op.getStaticLoopRanges();
    for (unsigned f : w->filterLoops)
      if (extents[f] != 1)
        return failure();
    for (const WindowDim &dim : w->dims)
      if (dim.stride != 1 || dim.offset != 0)
        return failure();
    linalg::GenericOp generic = dyn_cast<linalg::GenericOp>(*op);
    if (!generic) {
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rw, op);
      if (failed(generalized))
        return failure();
      generic = *generalized;
    }
    FailureOr<linalg::DropUnitDimsResult> dropped =
        linalg::dropUnitDims(rw, generic, linalg::ControlDropUnitDims());
    if (failed(dropped))
      return failure();
    rw.replaceOp(generic, dropped->replacements);
    return success();
  }
};

struct DecomposeWindow : OpInterfaceRewritePattern<linalg::LinalgOp> {
  DecomposeWindow(MLIRContext *ctx, bool contractions)
      : OpInterfaceRewritePattern(ctx), contractions(contractions) {}
  bool contractions;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rw) const override {
    std::optional<Window> w = windowOf(op);
    if (!w || (!contractions && keptWhole(op, *w)))
      return failure();
    return strata::decomposeWindows(rw, op);
  }
};

struct DecomposeWindows
    : strata::impl::StrataDecomposeWindowsBase<DecomposeWindows> {
  using StrataDecomposeWindowsBase::StrataDecomposeWindowsBase;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DropUnitWindow>(&getContext(), /*benefit=*/2);
    patterns.add<DecomposeWindow>(&getContext(), contractions);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
