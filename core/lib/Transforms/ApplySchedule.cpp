//===- ApplySchedule.cpp - S4: tile, pack and vectorize by the schedule ---===//
//
// The mechanisms behind a schedule, on tensors, with upstream's
// TilingInterface utilities:
//   1. grid:      scf.forall over the grid level (one part per instance);
//   2. caches:    scf.for tiles of every memory level, in the schedule's order;
//   3. packing:   the promoted operands of the innermost cache tile are padded
//                 (with a forced copy) to the static tile, so the register
//                 tiles see contiguous buffers and never a partial tile;
//   4. registers: scf.for over register tiles; each tile is vectorized
//                 (masked where its extent is not static);
//   5. cleanup:   copies and slices move to the outermost loop they depend
//                 on, and accumulators are read once before a reduction loop
//                 and written once after it (HoistTiles.cpp).
// S2's fusion groups are formed first (FusionGroups.cpp); a contraction's
// epilogue is fused into its output tiles (EpilogueFusion.cpp).
//
//===----------------------------------------------------------------------===//
#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Schedule/Attributes.h"
#include "strata/Schedule/Model.h"
#include "strata/Transforms/GridVersions.h"
#include "strata/Transforms/Passes.h"
#include "strata/Transforms/Windows.h"

#include "ApplyScheduleSupport.h"
#include "MaskedKeyTiles.h"
#include "PackingPads.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include <numeric>

namespace strata {
#define GEN_PASS_DEF_STRATAAPPLYSCHEDULE
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;
using namespace strata::apply;

namespace {
/// Marks the cache tiles of the op being scheduled.
constexpr llvm::StringLiteral kTileAttrName = "strata.tile";
/// Marks a register tile (with its register tile sizes) to vectorize.
constexpr llvm::StringLiteral kRegisterAttrName = "strata.register";
/// A register tile's vector loop and vector width.
constexpr llvm::StringLiteral kVectorAttrName = "strata.vector";

/// The loop dims that tiling by `sizes` in `order` makes loops for, in the
/// order of the loops (outermost first).
SmallVector<int64_t> loopsOfDims(ArrayRef<int64_t> sizes,
                                 ArrayRef<int64_t> order);

/// `order` followed by the loops it does not name: a full permutation.
SmallVector<int64_t> completeOrder(ArrayRef<int64_t> order, size_t loops) {
  SmallVector<int64_t> full(order.begin(), order.end());
  for (size_t d = 0; d < loops; ++d)
    if (!llvm::is_contained(order, int64_t(d)))
      full.push_back(int64_t(d));
  return full;
}

SmallVector<int64_t> loopsOfDims(ArrayRef<int64_t> sizes,
                                 ArrayRef<int64_t> order) {
  SmallVector<int64_t> dims;
  for (int64_t d : completeOrder(order, sizes.size()))
    if (sizes[d] != 0)
      dims.push_back(d);
  return dims;
}

/// Peels the scf.for loops among `loops` (made by tiling with `sizes` in
/// `order`) that `keep` accepts, innermost first: the remainder of an outer
/// loop is a clone of its body, so its inner loops are then already
/// peeled. Outermost first, the inner loops of an outer remainder kept
/// dynamic tiles, whose operands were copied into padded buffers (the last
/// n tile of a 1024^3 GEMM copied A and C: 4% of it).
void peelTileLoops(RewriterBase &rw, ArrayRef<LoopLikeOpInterface> loops,
                   ArrayRef<int64_t> sizes, ArrayRef<int64_t> order,
                   llvm::function_ref<bool(int64_t)> keep) {
  SmallVector<scf::ForOp> peel;
  for (auto [d, loop] : llvm::zip(loopsOfDims(sizes, order), loops)) {
    auto forOp = dyn_cast<scf::ForOp>(LoopLikeOpInterface(loop).getOperation());
    if (forOp && keep(d))
      peel.push_back(forOp);
  }
  std::reverse(peel.begin(), peel.end());
  linalg::peelLoops(rw, peel);
}

} // namespace

namespace strata::apply {
/// The scf.forall mapping of a schedule's grid: one #strata.grid dim per
/// split loop, listed innermost first by convention.
SmallVector<Attribute> gridMapping(MLIRContext *ctx, const Schedule &s) {
  SmallVector<Attribute> mapping;
  int64_t dim = 0;
  for (int64_t size : s.grid)
    if (size != 0)
      mapping.push_back(GridAttr::get(ctx, s.gridLevel, dim++));
  std::reverse(mapping.begin(), mapping.end());
  return mapping;
}

/// Whether an output of `op` starts as a fill: a contraction's zeroed
/// accumulator.
bool initIsFill(Operation *op) {
  auto dps = dyn_cast<DestinationStyleOpInterface>(op);
  return dps && llvm::any_of(dps.getDpsInits(), [](Value init) {
           return init.getDefiningOp<linalg::FillOp>() != nullptr;
         });
}

/// Tiles `root`, which carries kRootAttrName, by `tiling` and fuses the
/// producers `control` accepts into the loops; every result the fusion
/// replaces is replaced. Returns the tiled root (it keeps the attribute)
/// and appends the loops to `loops` if given.
FailureOr<Operation *>
tileAndFuseRoot(RewriterBase &rw, Operation *root,
                const scf::SCFTilingOptions &tiling,
                scf::SCFTileAndFuseOptions::ControlFnTy control,
                SmallVectorImpl<LoopLikeOpInterface> *loops) {
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(std::move(control));
  rw.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(rw, cast<TilingInterface>(root),
                                                options);
  if (failed(result))
    return root->emitError("strata-apply-schedule: fusion failed");
  for (auto [original, replacement] : result->replacements)
    rw.replaceAllUsesWith(original, replacement);
  Operation *tiled = nullptr;
  for (Operation *op : result->tiledAndFusedOps)
    if (op->hasAttr(kRootAttrName))
      tiled = op;
  if (!tiled)
    return root->emitError("strata-apply-schedule: lost the root");
  if (loops)
    loops->assign(result->loops.begin(), result->loops.end());
  return tiled;
}

/// Tiles `op` by `tiling` fusing the fills of its outputs into the loops:
/// each tile is filled where it is first used, on the thread that owns it
/// and while it is in cache, instead of the whole output in one sequential
/// pass before the nest. Only loops over parallel dims may be given: in a
/// reduction loop the fill would run on every iteration. `op` is erased.
FailureOr<Operation *>
tileFusingFills(RewriterBase &rw, Operation *op,
                const scf::SCFTilingOptions &tiling,
                SmallVectorImpl<LoopLikeOpInterface> *loops) {
  op->setAttr(kRootAttrName, rw.getUnitAttr());
  FailureOr<Operation *> tiled = tileAndFuseRoot(
      rw, op, tiling,
      [](tensor::ExtractSliceOp, OpResult producer,
         bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (isa<linalg::FillOp>(producer.getOwner()))
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        return std::nullopt;
      },
      loops);
  op->removeAttr(kRootAttrName);
  if (failed(tiled))
    return failure();
  (*tiled)->removeAttr(kRootAttrName);
  rw.eraseOp(op);
  return tiled;
}

/// Tiles `op` once; returns the tiled op (or `op` when nothing is tiled).
/// With `fuseFills`, fills of its outputs are fused into the loops (see
/// tileFusingFills).
FailureOr<Operation *> tile(RewriterBase &rw, Operation *op,
                            ArrayRef<int64_t> sizes, ArrayRef<int64_t> order,
                            scf::SCFTilingOptions::LoopType type,
                            ArrayRef<Attribute> mapping,
                            SmallVectorImpl<LoopLikeOpInterface> *loops,
                            bool fuseFills) {
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return op;
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(rw.getContext(), sizes));
  if (!order.empty())
    options.setInterchange(completeOrder(order, sizes.size()));
  options.setLoopType(type);
  if (!mapping.empty())
    options.setMapping(mapping);
  if (fuseFills && initIsFill(op))
    return tileFusingFills(rw, op, options, loops);
  rw.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rw, cast<TilingInterface>(op), options);
  if (failed(result))
    return op->emitError("strata-apply-schedule: tiling failed");
  rw.replaceOp(op, result->replacements);
  if (loops)
    loops->assign(result->loops.begin(), result->loops.end());
  return result->tiledOps.front();
}

} // namespace strata::apply

namespace {

/// The loops packing pads: reductions (zeros add nothing), loops of dynamic
/// extent, and the vector loop where it is no multiple of the vector width
/// (a partial vector would be split into narrower ones or scalarized), each
/// to whole register tiles. Other static parallel loops are never padded:
/// their partial register tiles are peeled instead, so an output tile is
/// copied into a padded buffer and back only at the vector loop's edge.
SmallVector<int64_t> paddedLoops(linalg::LinalgOp op, const Schedule &s) {
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> types = op.getIteratorTypesArray();
  SmallVector<int64_t> dims;
  for (size_t d = 0; d < extents.size(); ++d)
    if (types[d] == utils::IteratorType::reduction ||
        ShapedType::isDynamic(extents[d]) ||
        (int64_t(d) == s.vectorDim && s.vectorWidth > 0 &&
         extents[d] % s.vectorWidth != 0))
      dims.push_back(int64_t(d));
  return dims;
}

/// Whether one of `op`'s outputs is indexed by a loop in `padded`.
bool outputPadded(linalg::LinalgOp op, ArrayRef<int64_t> padded) {
  for (OpOperand &init : op.getDpsInitsMutable())
    for (AffineExpr expr : op.getMatchingIndexingMap(&init).getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim || llvm::is_contained(padded, int64_t(dim.getPosition())))
        return true;
    }
  return false;
}

/// Packs a cache tile: pads its loops (see paddedLoops) to whole register
/// tiles; operands in `promote` are copied even when no padding is needed.
FailureOr<Operation *> pack(RewriterBase &rw, linalg::LinalgOp op,
                            const Schedule &s) {
  ArrayRef<int64_t> promote = s.promote, registerTile = s.registerTile;
  linalg::LinalgPaddingOptions options;
  SmallVector<int64_t> dims = paddedLoops(op, s), multiples;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  for (int64_t d : dims) {
    int64_t multiple = d < int64_t(registerTile.size())
                           ? std::max<int64_t>(registerTile[d], 1)
                           : 1;
    // A static vector loop pads to whole vectors only: its partial register
    // tile is peeled into a narrower one (n = 257 with 64-wide tiles: one
    // 16-wide tile at the edge rather than a 64-wide one that is 63/64
    // padding).
    if (d == s.vectorDim && s.vectorWidth > 0 &&
        !ShapedType::isDynamic(extents[d]))
      multiple = std::gcd(multiple, s.vectorWidth);
    multiples.push_back(multiple);
  }
  options.setPaddingDimensions(dims);
  options.setPadToMultipleOf(multiples);
  SmallVector<Attribute> values;
  SmallVector<bool> nofold;
  for (OpOperand &operand : op->getOpOperands()) {
    Type element = getElementTypeOrSelf(operand.get().getType());
    values.push_back(rw.getZeroAttr(element));
    nofold.push_back(
        llvm::is_contained(promote, int64_t(operand.getOperandNumber())));
  }
  options.setPaddingValues(values);
  options.setNofoldFlags(nofold);
  // A full tile is computed in place. A padded one is copied back into its
  // destination explicitly: a loop around it then yields its own iter_arg
  // (a sliced-back value alone would not bufferize in place). Not with a
  // linalg.copy: on tensors a copy folds to its input.
  options.setCopyBackOp(outputPadded(op, dims)
                            ? linalg::LinalgPaddingOptions::CopyBackOp::
                                  BufferizationMaterializeInDestination
                            : linalg::LinalgPaddingOptions::CopyBackOp::None);
  linalg::LinalgOp padded;
  SmallVector<Value> replacements;
  SmallVector<tensor::PadOp> padOps;
  rw.setInsertionPoint(op);
  if (failed(linalg::rewriteAsPaddedOp(rw, op, options, padded, replacements,
                                       padOps)))
    return op->emitError("strata-apply-schedule: packing failed");
  rw.replaceOp(op, replacements);
  rewritePadsAsFillAndCopy(rw, padOps, kPackedAttrName);
  return padded.getOperation();
}

/// Vectorizes one register tile (masked where its extent is dynamic); a
/// tile without a vector form (a windowed access) stays a loop nest.
void vectorizeTile(RewriterBase &rw, linalg::LinalgOp linalgOp,
                   ArrayRef<int64_t> registerTile) {
  Operation *current = linalgOp.getOperation();
  SmallVector<int64_t> vectorSizes;
  bool dynamic = false;
  for (auto [d, extent] : llvm::enumerate(linalgOp.getStaticLoopRanges())) {
    dynamic |= ShapedType::isDynamic(extent);
    vectorSizes.push_back(ShapedType::isDynamic(extent)
                              ? (d < registerTile.size() ? registerTile[d] : 1)
                              : std::max<int64_t>(extent, 1));
  }
  SmallVector<bool> scalable(vectorSizes.size(), false);
  // Upstream's vector.contract for a contraction into a scalar (a rank-0
  // output: a dot product) fails its verifier (a 0-d accumulator vector);
  // such a tile vectorizes as a multiply and a reduction instead.
  bool namedContraction = llvm::all_of(linalgOp.getDpsInits(), [](Value init) {
    return cast<ShapedType>(init.getType()).getRank() > 0;
  });
  rw.setInsertionPoint(current);
  FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
      rw, current,
      dynamic ? ArrayRef<int64_t>(vectorSizes) : ArrayRef<int64_t>(),
      dynamic ? ArrayRef<bool>(scalable) : ArrayRef<bool>(),
      /*vectorizeNDExtract=*/false,
      /*flatten1DDepthwiseConv=*/false,
      /*assumeDynamicDimsMatchVecSizes=*/false,
      /*createNamedContraction=*/namedContraction);
  // Not vectorizable (e.g. a windowed access): the tile stays a loop nest.
  if (succeeded(vectorized))
    rw.replaceOp(current, vectorized->replacements);
}

/// Tiles a cache tile `op` into register tiles. When its output starts as
/// a fill here (the tile holds the whole reduction, as with a short K or an
/// attention's Q*K^T), the fill is fused into each register tile, whose
/// accumulators then start from the fill's value in registers: a separate
/// fill pass stored the whole output tile first, and its stores missed the
/// caches on a first touch (a quarter of a 3000x3000x100 GEMM).
FailureOr<Operation *>
tileRegisters(RewriterBase &rw, Operation *op, ArrayRef<int64_t> sizes,
              ArrayRef<int64_t> order,
              SmallVectorImpl<LoopLikeOpInterface> &loops) {
  SmallVector<utils::IteratorType> types =
      cast<linalg::LinalgOp>(op).getIteratorTypesArray();
  // The fill may only enter loops over parallel dims: the reduction loops
  // must be innermost.
  bool reductionSeen = false, reductionsInnermost = true;
  for (int64_t d : loopsOfDims(sizes, order)) {
    bool reduction = types[d] == utils::IteratorType::reduction;
    reductionsInnermost &= reduction || !reductionSeen;
    reductionSeen |= reduction;
  }
  if (!initIsFill(op) || !reductionsInnermost)
    return tile(rw, op, sizes, order, scf::SCFTilingOptions::LoopType::ForOp,
                {}, &loops);
  SmallVector<int64_t> parallel(sizes), reduction(sizes.size(), 0);
  for (size_t d = 0; d < sizes.size(); ++d)
    if (types[d] == utils::IteratorType::reduction)
      std::swap(parallel[d], reduction[d]);
  FailureOr<Operation *> tiled =
      tile(rw, op, parallel, order, scf::SCFTilingOptions::LoopType::ForOp, {},
           &loops, /*fuseFills=*/true);
  if (failed(tiled))
    return failure();
  // The fused fill is one register tile too: vectorized whole, its stored
  // vector folds into the accumulators' first read.
  // Its sizes are the register tile's along the output's dims (a partial
  // tile's are dynamic until peeling makes them static).
  auto registerOp = cast<linalg::LinalgOp>(*tiled);
  SmallVector<int64_t> extents = registerOp.getStaticLoopRanges();
  for (OpOperand &init : registerOp.getDpsInitsMutable()) {
    auto fill = init.get().getDefiningOp<linalg::FillOp>();
    if (!fill)
      continue;
    SmallVector<int64_t> shape;
    for (AffineExpr result :
         registerOp.getMatchingIndexingMap(&init).getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      int64_t size = dim ? parallel[dim.getPosition()] : 1;
      if (size == 0)
        size = ShapedType::isDynamic(extents[dim.getPosition()])
                   ? 1
                   : extents[dim.getPosition()];
      shape.push_back(size);
    }
    fill->setAttr(kRegisterAttrName, rw.getDenseI64ArrayAttr(shape));
  }
  SmallVector<LoopLikeOpInterface> inner;
  tiled = tile(rw, *tiled, reduction, order,
               scf::SCFTilingOptions::LoopType::ForOp, {}, &inner);
  loops.append(inner.begin(), inner.end());
  return tiled;
}

/// Packs, register-tiles and vectorizes one cache tile.
LogicalResult finishTile(RewriterBase &rw, Operation *current,
                         const Schedule &s) {
  // 3. Packing.
  if (!s.promote.empty()) {
    FailureOr<Operation *> packed =
        pack(rw, cast<linalg::LinalgOp>(current), s);
    if (failed(packed))
      return failure();
    current = *packed;
  }

  // 4. Register tiles, vectorized. A reduction along the vector loop keeps
  // a register tile of partial results and combines them after its loop.
  SmallVector<int64_t> registerSizes(s.registerTile.begin(),
                                     s.registerTile.end());
  auto linalgCurrent = cast<linalg::LinalgOp>(current);
  bool partial = s.partialReduction && s.vectorDim >= 0 &&
                 s.vectorDim < int64_t(linalgCurrent.getNumLoops()) &&
                 linalgCurrent.getIteratorTypesArray()[s.vectorDim] ==
                     utils::IteratorType::reduction;
  // One row at a time: the partial results of several rows would be one
  // register tile per row. A block of rows (a row-wise group's block, the
  // keys of an attention's query rows) is first split into single rows by
  // a loop; without partial results, each register tile of a row would be
  // folded into one scalar in order (a float sum may not be reassociated),
  // one dependent add per element.
  SmallVector<int64_t> extents = linalgCurrent.getStaticLoopRanges();
  SmallVector<utils::IteratorType> types =
      linalgCurrent.getIteratorTypesArray();
  // A register tile that holds the whole reduction (rows of 32 with a
  // 32-wide tile) needs no partial results: its rows are reduced together,
  // as independent chains.
  if (partial) {
    bool whole = true;
    for (size_t d = 0; d < extents.size(); ++d)
      if (types[d] == utils::IteratorType::reduction)
        whole &= !ShapedType::isDynamic(extents[d]) &&
                 d < registerSizes.size() && extents[d] <= registerSizes[d];
    partial = !whole;
  }
  bool oneRow = true;
  for (size_t d = 0; d < extents.size(); ++d)
    if (types[d] == utils::IteratorType::parallel && extents[d] != 1)
      oneRow = false;
  if (partial && !oneRow) {
    SmallVector<int64_t> rowSizes(extents.size(), 0);
    for (size_t d = 0; d < extents.size(); ++d)
      if (types[d] == utils::IteratorType::parallel)
        rowSizes[d] = 1;
    FailureOr<Operation *> row = tile(rw, current, rowSizes, s.registerOrder,
                                      scf::SCFTilingOptions::LoopType::ForOp);
    if (failed(row))
      return failure();
    current = *row;
    linalgCurrent = cast<linalg::LinalgOp>(current);
    extents = linalgCurrent.getStaticLoopRanges();
  }
  // A vector loop longer than its register tile but no multiple of it is
  // split there: the part of whole tiles accumulates in registers with
  // static vectors, and the rest (less than one tile) is reduced on its own
  // into the first part's result. A partial last tile made every tile
  // dynamic, and the partial results a masked buffer in memory (a softmax
  // over rows of 4097 ran at a third of the memory's rate).
  linalg::LinalgOp rest;
  if (partial && s.vectorDim < int64_t(registerSizes.size())) {
    int64_t d = s.vectorDim, tileSize = std::max<int64_t>(registerSizes[d], 1);
    // The rest is one register tile (vectorized whole): not the ragged
    // columns of a whole-tensor sum, whose other loops it would unroll.
    bool isStatic = llvm::none_of(extents, ShapedType::isDynamic);
    int64_t restElements = 1;
    for (size_t other = 0; isStatic && other < extents.size(); ++other)
      restElements *=
          int64_t(other) == d ? extents[d] % tileSize : extents[other];
    if (isStatic && extents[d] > tileSize && extents[d] % tileSize != 0 &&
        restElements <= tileSize) {
      rw.setInsertionPoint(current);
      auto [whole, remainder] =
          linalg::splitOp(rw, cast<TilingInterface>(current), unsigned(d),
                          rw.getIndexAttr(extents[d] / tileSize * tileSize));
      if (!whole)
        return current->emitError("strata-apply-schedule: split failed");
      current = whole.getOperation();
      linalgCurrent = cast<linalg::LinalgOp>(current);
      extents = linalgCurrent.getStaticLoopRanges();
      rest = dyn_cast_or_null<linalg::LinalgOp>(remainder.getOperation());
    }
  }
  if (partial) {
    // The other reduction loops (the rows of a whole-tensor sum) step by
    // their register tile into the same partial results: whole, they
    // would be one vector as large as the tensor. A tile is at most the
    // loop's extent: a larger one was masked.
    SmallVector<int64_t> partialSizes(extents.size(), 0);
    SmallVector<unsigned> reductionDims;
    for (size_t d = 0; d < extents.size(); ++d) {
      if (types[d] != utils::IteratorType::reduction)
        continue;
      partialSizes[d] =
          d < registerSizes.size() ? std::max<int64_t>(registerSizes[d], 1) : 1;
      if (!ShapedType::isDynamic(extents[d]))
        partialSizes[d] = std::min(partialSizes[d], extents[d]);
      reductionDims.push_back(unsigned(d));
    }
    scf::SCFTilingOptions options;
    options.setTileSizes(getAsIndexOpFoldResult(rw.getContext(), partialSizes));

    options.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
    options.setReductionTilingStrategy(
        ReductionTilingStrategy::PartialReductionOuterReduction);
    options.setReductionDims(reductionDims);
    rw.setInsertionPoint(current);
    FailureOr<scf::SCFTilingResult> result =
        scf::tileUsingSCF(rw, cast<TilingInterface>(current), options);
    if (succeeded(result)) {
      rw.replaceOp(current, result->replacements);
      // Its loop keeps the partial results in registers.
      for (LoopLikeOpInterface loop : result->loops)
        loop->setAttr(kAccumulateAttrName, rw.getUnitAttr());
      SmallVector<Operation *> parts(result->tiledOps.begin(),
                                     result->tiledOps.end());
      parts.append(result->mergeOps.begin(), result->mergeOps.end());
      for (Value init : result->initialValues)
        if (Operation *def = init.getDefiningOp())
          parts.push_back(def);
      for (Operation *part : parts)
        if (auto op = dyn_cast<linalg::LinalgOp>(part))
          vectorizeTile(rw, op, s.registerTile);
      if (rest)
        vectorizeTile(rw, rest, s.registerTile);
      return success();
    }
  }
  // A tile narrower than the register tile (the padded edge of the vector
  // loop) is one register tile of its own static size.
  for (size_t d = 0; d < extents.size() && d < registerSizes.size(); ++d)
    if (!ShapedType::isDynamic(extents[d]) && extents[d] > 0 &&
        extents[d] < registerSizes[d])
      registerSizes[d] = extents[d];
  SmallVector<LoopLikeOpInterface> loops;
  FailureOr<Operation *> tiled =
      tileRegisters(rw, current, registerSizes, s.registerOrder, loops);
  if (failed(tiled))
    return failure();
  // Vectorized later, once the peeled tiles have static shapes.
  (*tiled)->setAttr(kRegisterAttrName, rw.getDenseI64ArrayAttr(s.registerTile));
  if (s.vectorDim >= 0 && s.vectorWidth > 0)
    (*tiled)->setAttr(kVectorAttrName,
                      rw.getDenseI64ArrayAttr({s.vectorDim, s.vectorWidth}));
  // Its reduction loops keep the accumulators in registers (several when a
  // window is summed inside the tile).
  for (auto [loop, d] :
       llvm::zip(loops, loopsOfDims(registerSizes, s.registerOrder)))
    if (types[d] == utils::IteratorType::reduction)
      loop->setAttr(kAccumulateAttrName, rw.getUnitAttr());
  // A static loop with a partial last register tile is peeled: full tiles
  // and one smaller static tile, each vectorized without masks.
  peelTileLoops(rw, loops, registerSizes, s.registerOrder, [&](int64_t d) {
    return !ShapedType::isDynamic(extents[d]) &&
           extents[d] % registerSizes[d] != 0;
  });
  return success();
}

/// The cache tiles `applyTiles` marked in `scope` (a tiled op and its
/// clones in peeled remainder loops), unmarked, in program order.
SmallVector<linalg::LinalgOp> takeMarkedTiles(Operation *scope) {
  SmallVector<linalg::LinalgOp> tiles;
  scope->walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kTileAttrName))
      tiles.push_back(op);
  });
  for (linalg::LinalgOp op : tiles)
    op->removeAttr(kTileAttrName);
  return tiles;
}

/// Splits a register tile whose parallel vector loop spans a number of
/// vectors that is no power of two (a peeled edge of 48 lanes in 64-wide
/// tiles) into power-of-two pieces, widest first (32 + 16). LLVM lowers the
/// multiply-adds of 48-lane vectors carried by a loop through shuffles and
/// spills: a 1000^3 GEMM whose n tile had a 424-wide edge spent 60% of its
/// time there. Returns the pieces.
SmallVector<linalg::LinalgOp> splitVectorLoop(RewriterBase &rw,
                                              linalg::LinalgOp op) {
  auto attr = op->getAttrOfType<DenseI64ArrayAttr>(kVectorAttrName);
  if (!attr)
    return {op};
  op->removeAttr(kVectorAttrName);
  int64_t dim = attr[0], width = attr[1];
  SmallVector<linalg::LinalgOp> pieces;
  while (true) {
    SmallVector<int64_t> extents = op.getStaticLoopRanges();
    if (dim >= int64_t(extents.size()) || ShapedType::isDynamic(extents[dim]) ||
        extents[dim] % width != 0 ||
        llvm::isPowerOf2_64(uint64_t(extents[dim] / width)) ||
        op.getIteratorTypesArray()[dim] != utils::IteratorType::parallel)
      break;
    int64_t head = int64_t(llvm::bit_floor(uint64_t(extents[dim] / width)));
    rw.setInsertionPoint(op);
    auto [first, rest] =
        linalg::splitOp(rw, cast<TilingInterface>(op.getOperation()),
                        unsigned(dim), rw.getIndexAttr(head * width));
    if (!first || !rest)
      break;
    pieces.push_back(cast<linalg::LinalgOp>(first.getOperation()));
    op = cast<linalg::LinalgOp>(rest.getOperation());
  }
  pieces.push_back(op);
  return pieces;
}

/// Vectorizes the register tiles `finishTile` marked.
void vectorizeRegisterTiles(RewriterBase &rw, Operation *root) {
  SmallVector<linalg::LinalgOp> marked;
  root->walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kRegisterAttrName))
      marked.push_back(op);
  });
  for (linalg::LinalgOp tile : marked) {
    SmallVector<int64_t> registerTile(
        tile->getAttrOfType<DenseI64ArrayAttr>(kRegisterAttrName).asArrayRef());
    tile->removeAttr(kRegisterAttrName);
    for (linalg::LinalgOp op : splitVectorLoop(rw, tile)) {
      // A register tile of a windowed op (a convolution kept whole) covers
      // one window position: it is a plain contraction over input slices.
      SmallVector<linalg::GenericOp> terms;
      if (succeeded(decomposeWindows(rw, op, &terms))) {
        for (linalg::GenericOp term : terms)
          vectorizeTile(rw, term, registerTile);
        continue;
      }
      vectorizeTile(rw, op, registerTile);
    }
  }
}

} // namespace

namespace strata::apply {
/// The kind a schedule on `op` names; "" when it has none.
std::string scheduleKind(Operation *op) {
  auto attr = op->getAttrOfType<ScheduleAttr>(kScheduleAttrName);
  if (!attr)
    return "";
  auto kind = attr.getFields().getAs<StringAttr>("kind");
  return kind ? kind.getValue().str() : "";
}

} // namespace strata::apply

namespace {
FrozenRewritePatternSet canonicalizations(MLIRContext *ctx);

/// Gives a grid loop's full parts and its partial last part static versions
/// of its body (versionLastPart) when one loop is split and its extent does
/// not divide evenly, unless an epilogue is to be fused into the grid loop
/// (it is fused through the loop's results). The body is canonicalized so
/// each version's shapes are static; returns the tiled op of each version.
FailureOr<std::pair<Operation *, Operation *>>
versionGrid(RewriterBase &rw, Operation *tiled, ArrayRef<int64_t> extents,
            const Schedule &s, bool fuseEpilogue) {
  auto forall = dyn_cast<scf::ForallOp>(tiled->getParentOp());
  if (!forall || (fuseEpilogue && epilogueOf(tiled)))
    return failure();
  int64_t d = -1;
  for (size_t i = 0; i < s.grid.size(); ++i)
    if (s.grid[i] != 0) {
      if (d >= 0)
        return failure();
      d = int64_t(i);
    }
  if (d < 0 || d >= int64_t(extents.size()) ||
      ShapedType::isDynamic(extents[d]) || extents[d] % s.grid[d] == 0)
    return failure();
  FailureOr<std::pair<Operation *, Operation *>> versions =
      versionLastPart(rw, forall, tiled, s.grid[d], extents[d] % s.grid[d]);
  if (failed(versions))
    return failure();
  constexpr llvm::StringLiteral kVersion = "strata.version";
  versions->first->setAttr(kVersion, rw.getI64IntegerAttr(0));
  versions->second->setAttr(kVersion, rw.getI64IntegerAttr(1));
  (void)applyPatternsGreedily(forall, canonicalizations(rw.getContext()));
  Operation *found[2] = {nullptr, nullptr};
  forall->walk([&](Operation *op) {
    if (auto v = op->getAttrOfType<IntegerAttr>(kVersion)) {
      found[v.getInt()] = op;
      op->removeAttr(kVersion);
    }
  });
  if (!found[0] || !found[1])
    return forall->emitError("strata-apply-schedule: lost a grid version");
  return std::make_pair(found[0], found[1]);
}

FailureOr<Operation *> applyTiles(RewriterBase &rw, Operation *current,
                                  const Schedule &s, bool fuseEpilogue);

FailureOr<Operation *> apply(RewriterBase &rw, linalg::LinalgOp op,
                             const Schedule &s, bool fuseEpilogue) {
  MLIRContext *ctx = op->getContext();
  Operation *current = op.getOperation();
  SmallVector<int64_t> extents = op.getStaticLoopRanges();

  // 1. The grid (over parallel dims only: its fills fuse); a partial last
  // part gets a static version of its own.
  bool contraction = s.kind == "contraction";
  if (!s.grid.empty()) {
    FailureOr<Operation *> tiled =
        tile(rw, current, s.grid, {}, scf::SCFTilingOptions::LoopType::ForallOp,
             gridMapping(ctx, s), nullptr, contraction);
    if (failed(tiled))
      return failure();
    current = *tiled;
    FailureOr<std::pair<Operation *, Operation *>> versions =
        versionGrid(rw, current, extents, s, fuseEpilogue && contraction);
    if (succeeded(versions)) {
      FailureOr<Operation *> full =
          applyTiles(rw, versions->first, s, fuseEpilogue);
      if (failed(full) ||
          failed(applyTiles(rw, versions->second, s, fuseEpilogue)))
        return failure();
      return full;
    }
  }
  return applyTiles(rw, current, s, fuseEpilogue);
}

/// Steps 2 to 3 of `apply` on the grid's tiled op.
FailureOr<Operation *> applyTiles(RewriterBase &rw, Operation *current,
                                  const Schedule &s, bool fuseEpilogue) {
  size_t loops = cast<linalg::LinalgOp>(current).getNumLoops();
  bool contraction = s.kind == "contraction";
  // 2. Cache tiles, all levels in one nest in the schedule's order.
  SmallVector<int64_t> cacheSizes(loops, 0);
  for (const TileLevel &level : s.tiles)
    for (size_t d = 0; d < loops && d < level.sizes.size(); ++d)
      if (level.sizes[d] != 0)
        cacheSizes[d] = level.sizes[d];
  // A reduction held whole by its tile gets no loop: the fill of the
  // accumulator then reaches the innermost tiles (see tileRegisters).
  SmallVector<int64_t> extents =
      cast<linalg::LinalgOp>(current).getStaticLoopRanges();
  SmallVector<utils::IteratorType> types =
      cast<linalg::LinalgOp>(current).getIteratorTypesArray();
  for (size_t d = 0; d < loops; ++d)
    if (types[d] == utils::IteratorType::reduction &&
        !ShapedType::isDynamic(extents[d]) && cacheSizes[d] >= extents[d])
      cacheSizes[d] = 0;
  SmallVector<LoopLikeOpInterface> cacheLoops;
  bool epilogue = fuseEpilogue && contraction && epilogueOf(current);
  if (epilogue || (contraction && initIsFill(current))) {
    // An epilogue runs on each output tile once it is final, and a zero
    // fill of the accumulator just before its first use: the cache loops
    // over parallel dims that come before the first reduction loop are made
    // first, with the fill fused into them and the epilogue fused after the
    // reduction loops, then the remaining loops tile the contraction alone.
    SmallVector<int64_t> outer(loops, 0), inner = cacheSizes;
    for (int64_t d : completeOrder(s.tileOrder, loops)) {
      if (cacheSizes[d] == 0)
        continue;
      if (types[d] == utils::IteratorType::reduction)
        break;
      outer[d] = cacheSizes[d];
      inner[d] = 0;
    }
    FailureOr<Operation *> tiled =
        tile(rw, current, outer, s.tileOrder,
             scf::SCFTilingOptions::LoopType::ForOp, {}, &cacheLoops, true);
    if (failed(tiled))
      return failure();
    current = *tiled;
    if (epilogue) {
      Operation *grid = current->getParentOfType<scf::ForallOp>();
      fuseEpiloguesIntoNest(rw, grid, cacheLoops);
    }
    SmallVector<LoopLikeOpInterface> innerLoops;
    tiled = tile(rw, current, inner, s.tileOrder,
                 scf::SCFTilingOptions::LoopType::ForOp, {}, &innerLoops);
    if (failed(tiled))
      return failure();
    current = *tiled;
    cacheLoops.append(innerLoops.begin(), innerLoops.end());
  } else {
    FailureOr<Operation *> tiled =
        tile(rw, current, cacheSizes, s.tileOrder,
             scf::SCFTilingOptions::LoopType::ForOp, {}, &cacheLoops);
    if (failed(tiled))
      return failure();
    current = *tiled;
  }

  // Peel the cache loops: full tiles get static shapes, so padding their
  // outputs folds away and accumulators stay in place; only the last,
  // partial tiles copy their outputs into padded buffers. A partial last
  // reduction tile is peeled too: dynamic, it was padded with zeros, so
  // operands read in place were copied (a prime K copied A once per k tile
  // and n tile). A contraction that packs nothing is peeled too (a B read
  // in place would otherwise be read with masks in every tile). The tiled
  // op and its clones in the remainder loops are marked and finished one
  // by one.
  current->setAttr(kTileAttrName, rw.getUnitAttr());
  if (!s.promote.empty() || contraction)
    peelTileLoops(rw, cacheLoops, cacheSizes, s.tileOrder,
                  [](int64_t) { return true; });
  return current;
}

/// A tile of a filled tensor is a filled tile, whatever else reads the
/// tensor (upstream's swap wants a single use): once a dropped whole-tensor
/// result no longer carries the tiles, each tile is filled where it is used.
struct FillTile : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rw) const override {
    auto fill = slice.getSource().getDefiningOp<linalg::FillOp>();
    if (!fill || !fill.hasPureTensorSemantics())
      return failure();
    Value dest = tensor::ExtractSliceOp::create(
        rw, slice.getLoc(), slice.getType(), fill.getOutputs()[0],
        slice.getMixedOffsets(), slice.getMixedSizes(),
        slice.getMixedStrides());
    rw.replaceOpWithNewOp<linalg::FillOp>(slice, fill.getInputs(), dest);
    return success();
  }
};

/// An insert of a whole tensor into a fresh one of the same shape is the
/// tensor (sizes compared through value bounds, so dynamic tiles fold
/// too). The copy-back of a padded output tile whose destination is a
/// fresh zero-filled tile (its carried result dropped) inserts the tile
/// into the very buffer it was just materialized in; kept, the insert
/// would read that buffer's old value after the write (a read-after-write
/// conflict).
struct WholeInsert : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rw) const override {
    // Only into a fresh tensor (a fill or an empty): an insert into a
    // loop's destination is what makes the loop yield its own iter_arg.
    if (!isa_and_nonnull<linalg::FillOp, tensor::EmptyOp>(
            insert.getDest().getDefiningOp()) ||
        insert.getSourceType() != insert.getDestType() ||
        !llvm::all_of(insert.getMixedOffsets(), isZeroInteger) ||
        !llvm::all_of(insert.getMixedStrides(), isOneInteger))
      return failure();
    for (auto [d, size] : llvm::enumerate(insert.getMixedSizes())) {
      FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(
          size, {insert.getDest(), int64_t(d)});
      if (failed(equal) || !*equal)
        return failure();
    }
    rw.replaceOp(insert, insert.getSource());
    return success();
  }
};

FrozenRewritePatternSet canonicalizations(MLIRContext *ctx) {
  RewritePatternSet patterns(ctx);
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName name : ctx->getRegisteredOperations())
    name.getCanonicalizationPatterns(patterns, ctx);
  patterns.add<FillTile, WholeInsert>(ctx);
  // A tile of an empty tensor is an empty tile: each tile buffer is only
  // as large as the tile.
  tensor::populateFoldTensorEmptyPatterns(patterns);
  return FrozenRewritePatternSet(std::move(patterns));
}

/// Records the ops a rewrite erases (fused epilogues), so that a list
/// made before the rewrites skips them.
struct ErasedOps : RewriterBase::Listener {
  llvm::DenseSet<Operation *> ops;
  void notifyOperationErased(Operation *op) override { ops.insert(op); }
};

struct ApplySchedule : strata::impl::StrataApplyScheduleBase<ApplySchedule> {
  using StrataApplyScheduleBase::StrataApplyScheduleBase;
  void runOnOperation() override {
    ErasedOps erased;
    IRRewriter rw(&getContext(), &erased);
    if (fuse && failed(fuseGroups(rw, getOperation())))
      return signalPassFailure();
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kScheduleAttrName) && op->use_empty() &&
          op->getNumResults() > 0)
        return; // a fused producer nothing reads any more
      if (op->hasAttr(kScheduleAttrName))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      if (erased.ops.contains(op.getOperation()))
        continue; // fused into a contraction's tiles as its epilogue
      FailureOr<std::optional<Schedule>> schedule =
          getSchedule(op, op.getNumLoops());
      if (failed(schedule))
        return signalPassFailure();
      if (failed(apply(rw, op, **schedule, fuse)))
        return signalPassFailure();
    }
    // Static shapes for the peeled full tiles, then finish every tile.
    FrozenRewritePatternSet frozen = canonicalizations(&getContext());
    (void)applyPatternsGreedily(getOperation(), frozen);
    for (linalg::LinalgOp op : takeMarkedTiles(getOperation())) {
      FailureOr<std::optional<Schedule>> schedule =
          getSchedule(op, op.getNumLoops());
      if (failed(schedule) || !*schedule)
        return signalPassFailure();
      op->removeAttr(kScheduleAttrName);
      if (failed(finishTile(rw, op, **schedule)))
        return signalPassFailure();
    }
    getOperation()->walk(
        [&](Operation *op) { op->removeAttr(kScheduleAttrName); });
    hoistPacking(getOperation());
    dropCopyBacksIntoCapturedValues(rw, getOperation());
    // Ops that tiling created inside the loops (the copies back from packed
    // tiles, fills of tiles) get the model's schedule too: a plugin lowers
    // plain loops only outside tiled code. Register tiles go through it
    // again, so a tile narrower than the register tile (48 lanes) is split
    // into power-of-two widths (32 + 16); a fill fused into a register
    // tile stays whole.
    SmallVector<linalg::LinalgOp> inner;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() &&
          op->getParentOfType<LoopLikeOpInterface>() &&
          !(isa<linalg::FillOp>(op) && op->hasAttr(kRegisterAttrName)))
        inner.push_back(op);
    });
    // Fills last: a contraction fuses the fill of its accumulator into its
    // register tiles (see tileRegisters), which needs the fill untiled.
    SmallVector<linalg::LinalgOp> fills;
    llvm::erase_if(inner, [&](linalg::LinalgOp op) {
      if (!isa<linalg::FillOp>(op))
        return false;
      fills.push_back(op);
      return true;
    });
    inner.append(fills.begin(), fills.end());
    if (!inner.empty()) {
      auto module = dyn_cast<ModuleOp>(getOperation());
      if (!module)
        module = getOperation()->getParentOfType<ModuleOp>();
      if (!module) {
        getOperation()->emitError("strata-apply-schedule: expected to run "
                                  "inside a module that carries strata.hw");
        return signalPassFailure();
      }
      FailureOr<hw::Description> chip = descriptionOf(module);
      if (failed(chip))
        return signalPassFailure();
      for (linalg::LinalgOp op : inner) {
        if (isa<linalg::FillOp>(op) && op->use_empty()) {
          rw.eraseOp(op);
          continue;
        }
        // Already inside the grid and cache loops: registers only.
        Schedule schedule = chooseSchedule(loopNestOf(op), *chip);
        schedule.grid.clear();
        schedule.promote.clear();
        // A group's contraction keeps its cache tiles over reduction dims:
        // attention's P*V over 2048 keys otherwise streams a whole column
        // panel of V through each register tile; tiled, one L1 panel serves
        // every register tile of the block.
        SmallVector<utils::IteratorType> types = op.getIteratorTypesArray();
        for (TileLevel &level : schedule.tiles)
          for (size_t d = 0; d < level.sizes.size() && d < types.size(); ++d)
            if (types[d] != utils::IteratorType::reduction ||
                schedule.kind != "contraction")
              level.sizes[d] = 0;
        // The tile and its clones in peeled remainder loops stay in the
        // op's block.
        Operation *scope = op->getParentOp();
        if (failed(apply(rw, op, schedule, false)))
          return signalPassFailure();
        for (linalg::LinalgOp piece : takeMarkedTiles(scope))
          if (failed(finishTile(rw, piece, schedule)))
            return signalPassFailure();
      }
    }
    (void)applyPatternsGreedily(getOperation(), frozen);
    vectorizeRegisterTiles(rw, getOperation());
    // Masked transfers carry their mask as an operand from here on, so that
    // folding and hoisting see one op, not a vector.mask region.
    {
      RewritePatternSet masks(&getContext());
      vector::populateVectorMaskLoweringPatternsForSideEffectingOps(masks);
      (void)applyPatternsGreedily(getOperation(), std::move(masks));
    }
    // Fold slices into transfers and simplify before hoisting.
    (void)applyPatternsGreedily(getOperation(), frozen);
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rw, dominance, getOperation());
    hoistAccumulators(rw, getOperation());
    (void)applyPatternsGreedily(getOperation(), frozen);
  }
};
} // namespace
