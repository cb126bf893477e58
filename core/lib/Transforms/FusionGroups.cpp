//===- FusionGroups.cpp - S2: the groups strata-apply-schedule fuses ------===//
//
// Which ops run together, per block of rows in cache: a contraction that
// reads the end of a row-wise group (attention's P*V after its softmax, a
// linear layer after a layer norm) with that group, and an elementwise op
// or reduction with its producers (softmax, layer norm, elementwise
// chains). Each group is tiled over the grid and then by rows, its
// producers fused into both loops (docs/architecture.md, "Mechanisms").
//
//===----------------------------------------------------------------------===//
#include "ApplyScheduleSupport.h"
#include "MaskedKeyTiles.h"

#include "strata/Schedule/Attributes.h"
#include "strata/Schedule/Model.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"

#include <numeric>

using namespace mlir;
using namespace strata;
using namespace strata::apply;

namespace {
/// Ops a group may recompute per tile: elementwise ops and reductions
/// (never contractions, whose work would be repeated), and fills.
bool fusible(Operation *op) {
  if (!op || op->getParentOfType<LoopLikeOpInterface>())
    return false;
  if (isa<linalg::FillOp>(op))
    return true;
  std::string kind = scheduleKind(op);
  return !kind.empty() && kind != "contraction";
}

/// Whether `op` or one of its fusible producers (transitively) reduces:
/// the op ends a row-wise group such as a softmax.
bool endsRowReduction(Operation *op) {
  SmallVector<Operation *> work{op};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Operation *current = work.pop_back_val();
    if (!fusible(current) || isa<linalg::FillOp>(current) ||
        !seen.insert(current).second)
      continue;
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(current))
      if (linalgOp.getNumReductionLoops() > 0)
        return true;
    for (Value operand : current->getOperands())
      work.push_back(operand.getDefiningOp());
  }
  return false;
}

/// The largest divisor of `extent` that is at most `limit` (at least 1).
int64_t largestDivisorAtMost(int64_t extent, int64_t limit) {
  int64_t divisor = std::max<int64_t>(limit, 1);
  while (extent % divisor != 0)
    --divisor;
  return divisor;
}

/// Where a row group skips the key tiles its mask hides (MaskedKeyTiles.h):
/// the mask's bound, the key tile, and the loop of the blocked queries.
struct KeySkip {
  int64_t keysAfter = 0, keyTile = 0, queryDim = 0;
};

bool isContraction(Operation *op) { return scheduleKind(op) == "contraction"; }

/// The ops outside loops that only `root` needs: those whose every result
/// is read by `root` or by other ops of the set, transitively. Fusing one
/// of them into the root's group leaves no original behind; fusing any
/// other producer makes a copy while the original still runs for its other
/// readers.
llvm::SmallPtrSet<Operation *, 16> onlyFeeding(Operation *root) {
  SetVector<Operation *> producers;
  SmallVector<Operation *> work{root};
  while (!work.empty())
    for (Value operand : work.pop_back_val()->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && !def->getParentOfType<LoopLikeOpInterface>() &&
          producers.insert(def))
        work.push_back(def);
  llvm::SmallPtrSet<Operation *, 16> only{root};
  for (bool grew = true; grew;) {
    grew = false;
    for (Operation *op : producers)
      if (!only.contains(op) &&
          llvm::all_of(op->getUsers(),
                       [&](Operation *user) { return only.contains(user); }))
        grew = only.insert(op).second;
  }
  return only;
}

/// Tiles `root` by `grid` (an scf.forall over the grid level) and then by
/// `rows` (scf.for), fusing its producers into both: fills, elementwise ops
/// and reductions, and contractions too where `contractions` is set; with
/// `skip`, the ops along the keys are then tiled into key tiles that stop
/// where the mask hides the rest.
LogicalResult fuseGroup(RewriterBase &rw, linalg::LinalgOp root,
                        const Schedule &s, ArrayRef<int64_t> rows,
                        bool contractions,
                        std::optional<KeySkip> skip = std::nullopt) {
  root->setAttr(kRootAttrName, rw.getUnitAttr());
  Operation *current = root;
  // A contraction is fused only where nothing else reads it, directly or
  // through the ops between it and the root: an attention's Q*K^T, not an
  // output projection whose sum with the residual a normalization reads
  // on its way to two matmuls (w1 and w3 of a SwiGLU each recomputed it)
  // and the next residual reads too. Under a mask whose hidden keys the
  // group skips, the scores are fused even when also returned: the group
  // computes only the visible ones.
  llvm::SmallPtrSet<Operation *, 16> only;
  bool fuseShared = skip.has_value();
  if (contractions && !fuseShared)
    only = onlyFeeding(root);
  auto fuseAt = [&](ArrayRef<int64_t> sizes,
                    scf::SCFTilingOptions::LoopType type,
                    ArrayRef<Attribute> mapping) -> LogicalResult {
    if (llvm::all_of(sizes, [](int64_t v) { return v == 0; }))
      return success();
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(getAsIndexOpFoldResult(rw.getContext(), sizes));
    tiling.setLoopType(type);
    if (!mapping.empty())
      tiling.setMapping(mapping);
    FailureOr<Operation *> tiled = tileAndFuseRoot(
        rw, current, tiling,
        [contractions, fuseShared, &only](tensor::ExtractSliceOp slice,
                                          OpResult producer, bool)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          Operation *def = producer.getOwner();
          std::string kind = scheduleKind(def);
          if (kind == "contraction" && !fuseShared &&
              !def->getParentOfType<LoopLikeOpInterface>() &&
              !only.contains(def))
            return std::nullopt;
          // A producer whose whole result every tile reads (a softmax's
          // column maxima, per row of a softmax over columns) would be
          // recomputed on every iteration: it is made once, outside.
          auto whole = dyn_cast<RankedTensorType>(producer.getType());
          if (whole && whole.hasStaticShape() &&
              slice.getResultType().getShape() == whole.getShape())
            return std::nullopt;
          // A fused contraction's operands are read whole by every block
          // (K^T for each block of queries): made once, outside.
          bool readByContraction =
              llvm::any_of(slice->getUsers(), [](Operation *user) {
                return scheduleKind(user) == "contraction" &&
                       !user->hasAttr(kRootAttrName);
              });
          if (contractions && readByContraction && !isa<linalg::FillOp>(def) &&
              kind != "contraction")
            return std::nullopt;
          if (isa<linalg::FillOp>(def) ||
              (!kind.empty() && (kind != "contraction" || contractions)))
            return scf::SCFTileAndFuseOptions::ControlFnResult{};
          return std::nullopt;
        });
    if (failed(tiled))
      return failure();
    current = *tiled;
    return success();
  };
  if (!s.grid.empty() &&
      failed(fuseAt(s.grid, scf::SCFTilingOptions::LoopType::ForallOp,
                    gridMapping(rw.getContext(), s))))
    return failure();
  Operation *outside = current->getParentOp();
  if (failed(fuseAt(rows, scf::SCFTilingOptions::LoopType::ForOp, {})))
    return failure();
  current->removeAttr(kRootAttrName);
  // The row loops just made, outermost first (one per dim `rows` tiles, in
  // order), not loops the group sits in.
  SmallVector<scf::ForOp> rowLoops;
  for (auto loop = current->getParentOfType<scf::ForOp>();
       loop && outside->isProperAncestor(loop);
       loop = loop->getParentOfType<scf::ForOp>())
    rowLoops.insert(rowLoops.begin(), loop);
  // Fusion made a copy of a producer per consumer (an attention's scores,
  // once per reduction of its softmax): one of each. Two copies of Q*K^T
  // doubled the work of an attention over 2000 keys.
  // Within the group's loops only: a function-wide CSE could merge (and
  // erase) the root of a group still to be fused.
  Operation *groupLoop = isa<scf::ForallOp>(outside) ? outside
                         : !rowLoops.empty() ? rowLoops.front().getOperation()
                                             : nullptr;
  if (groupLoop) {
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rw, dominance, groupLoop);
  }
  // A contraction root's block of rows is final once made (its reductions
  // are whole): its epilogue (bias and activation of the linear layer after
  // a layer norm) runs on the block in cache, not as a pass of its own over
  // the whole result.
  if (contractions && groupLoop) {
    Operation *grid = isa<scf::ForallOp>(outside) ? outside : nullptr;
    SmallVector<LoopLikeOpInterface> loops;
    for (scf::ForOp loop : rowLoops)
      loops.push_back(cast<LoopLikeOpInterface>(loop.getOperation()));
    fuseEpiloguesIntoNest(rw, grid, loops);
    // The loops fusion made in place of the group's.
    if (grid)
      outside = grid;
    for (size_t i = 0; i < rowLoops.size(); ++i)
      rowLoops[i] = cast<scf::ForOp>(loops[i].getOperation());
  }
  SmallVector<int64_t> tiledDims;
  for (size_t d = 0; d < rows.size(); ++d)
    if (rows[d] != 0)
      tiledDims.push_back(int64_t(d));
  if (skip && rowLoops.size() == tiledDims.size() &&
      current->getParentOp() == rowLoops.back().getOperation()) {
    auto *at = llvm::find(tiledDims, skip->queryDim);
    if (at != tiledDims.end()) {
      scf::ForOp queries = rowLoops[at - tiledDims.begin()];
      auto tileKeys = [&](Operation *op, unsigned dim,
                          int64_t size) -> FailureOr<scf::ForOp> {
        auto linalgOp = cast<linalg::LinalgOp>(op);
        SmallVector<int64_t> sizes(linalgOp.getNumLoops(), 0);
        sizes[dim] = size;
        bool parallel = linalgOp.getIteratorTypesArray()[dim] ==
                        utils::IteratorType::parallel;
        SmallVector<LoopLikeOpInterface> loops;
        if (failed(tile(rw, op, sizes, {},
                        scf::SCFTilingOptions::LoopType::ForOp, {}, &loops,
                        parallel)) ||
            loops.size() != 1)
          return failure();
        return cast<scf::ForOp>(loops.front().getOperation());
      };
      // A grid split over the queries: its part's first query (not known
      // here when it splits another loop too: no skipping).
      Value queryOffset;
      auto grid = dyn_cast<scf::ForallOp>(outside);
      bool queriesSplit =
          grid && !s.grid.empty() && s.grid[skip->queryDim] != 0;
      if (queriesSplit && grid.getInductionVars().size() == 1)
        queryOffset = grid.getInductionVars().front();
      if ((!queriesSplit || queryOffset) &&
          failed(skipMaskedKeyTiles(rw, queries, queryOffset, rowLoops.back(),
                                    current, skip->keysAfter, skip->keyTile,
                                    isContraction, tileKeys)))
        return failure();
    }
  }
  // A partial last block is peeled: the full blocks keep static shapes (a
  // dynamic block makes every op of the group dynamic, its tiles padded and
  // masked: attention over 1021 keys ran at 40 GFLOP/s instead of 112).
  SmallVector<scf::ForOp> partial;
  for (scf::ForOp loop : rowLoops) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                           ub = getConstantIntValue(loop.getUpperBound()),
                           step = getConstantIntValue(loop.getStep());
    if (lb && ub && step && *step > 1 && (*ub - *lb) % *step != 0)
      partial.push_back(loop);
  }
  linalg::peelLoops(rw, partial);
  return success();
}

} // namespace

/// S2's groups, formed here.
///  - A contraction that reads the end of a row-wise group (attention's
///    P*V after the softmax) is a root: per block of rows, the group and the
///    contractions feeding it (Q*K^T) are computed with the block in cache,
///    so no intermediate larger than a block of rows exists. The block
///    keeps the rows' intermediates in the second cache level.
///  - An elementwise op or reduction whose results no fusible op consumes
///    is a root; its producers (the reductions of a softmax or layernorm,
///    elementwise chains, fills) are computed per tile of the root: over
///    the grid, then one row at a time, so the intermediates of a row stay
///    in cache and every input is read from memory once.
LogicalResult strata::apply::fuseGroups(RewriterBase &rw, Operation *scope) {
  SmallVector<linalg::LinalgOp> contractionRoots;
  scope->walk([&](linalg::LinalgOp op) {
    if (scheduleKind(op) != "contraction" ||
        op->getParentOfType<LoopLikeOpInterface>())
      return;
    if (llvm::any_of(op.getDpsInputs(), [](Value v) {
          Operation *def = v.getDefiningOp();
          return def && endsRowReduction(def);
        }))
      contractionRoots.push_back(op);
  });
  FailureOr<hw::Description> chip = failure();
  if (!contractionRoots.empty()) {
    auto module = dyn_cast<ModuleOp>(scope);
    if (!module)
      module = scope->getParentOfType<ModuleOp>();
    if (module)
      chip = descriptionOf(module);
    if (failed(chip))
      return scope->emitError("strata-apply-schedule: expected a module "
                              "that carries strata.hw");
  }
  for (linalg::LinalgOp root : contractionRoots) {
    FailureOr<std::optional<Schedule>> schedule =
        getSchedule(root, root.getNumLoops());
    if (failed(schedule) || !*schedule)
      return failure();
    const Schedule &s = **schedule;
    SmallVector<int64_t> extents = root.getStaticLoopRanges();
    SmallVector<utils::IteratorType> types = root.getIteratorTypesArray();
    // Rows: the parallel loops other than the vector loop, one at a time
    // except the innermost, which is blocked; the reductions stay whole.
    SmallVector<int64_t> rows(extents.size(), 0);
    int64_t blocked = -1;
    double reduced = 1;
    for (size_t d = 0; d < extents.size(); ++d) {
      if (types[d] == utils::IteratorType::reduction) {
        reduced *= double(std::max<int64_t>(extents[d], 1));
        continue;
      }
      if (int64_t(d) == s.vectorDim)
        continue;
      rows[d] = 1;
      blocked = int64_t(d);
    }
    if (blocked < 0 || ShapedType::isDynamic(extents[blocked]))
      continue;
    // Per row: the group's row (as long as the reduction) and one more
    // intermediate of that length.
    double rowBytes =
        2 * reduced *
        double(getElementTypeOrSelf(root.getDpsInputs()[0].getType())
                   .getIntOrFloatBitWidth() /
               8);
    int64_t registerRows =
        blocked < int64_t(s.registerTile.size()) ? s.registerTile[blocked] : 1;
    int64_t fit =
        chooseRowBlock(*chip, rowBytes, registerRows, extents[blocked]);
    // Whole blocks: the largest divisor of the rows that fits, unless that
    // is less than half of what fits (then equal blocks, the last partial).
    int64_t block = largestDivisorAtMost(extents[blocked], fit);
    if (2 * block < fit)
      block = llvm::divideCeilSigned(
          extents[blocked], llvm::divideCeilSigned(extents[blocked], fit));
    rows[blocked] = block;
    // The grid splits a loop of single rows when one is long enough (the
    // heads of an attention): its parts share nothing, and the blocked
    // loop keeps whole blocks.
    Schedule grouped = s;
    int64_t parts = 1;
    for (size_t d = 0; d < s.grid.size() && d < extents.size(); ++d)
      if (s.grid[d] > 0)
        parts *= llvm::divideCeilSigned(extents[d], s.grid[d]);
    for (size_t d = 0; parts > 1 && d < extents.size(); ++d) {
      if (rows[d] != 1 || int64_t(d) == blocked ||
          ShapedType::isDynamic(extents[d]) || extents[d] < parts)
        continue;
      grouped.grid.assign(extents.size(), 0);
      grouped.grid[d] = llvm::divideCeilSigned(extents[d], parts);
      break;
    }
    // One block of all rows and no grid is no group: tiling would make no
    // loop, the root's tile would be left with neither its cache tiles nor
    // its registers (a 1-core 256x256x256 matmul after an RMSNorm ran as
    // scalar loops, 2 GFLOP/s) and every producer would look read whole.
    // The producers then form their own group and the root keeps its
    // schedule.
    bool loops = false;
    for (size_t d = 0; d < extents.size(); ++d)
      loops |= (rows[d] > 0 && rows[d] < extents[d]) ||
               (d < grouped.grid.size() && grouped.grid[d] > 0 &&
                grouped.grid[d] < extents[d]);
    if (!loops)
      continue;
    // A mask that hides the keys past each query plus c (causal): each
    // block of queries skips the key tiles it hides, in tiles of the
    // root's k tile (MaskedKeyTiles.h).
    std::optional<KeySkip> skip;
    {
      std::optional<int64_t> c = maskedKeysAfter(root, isContraction);
      auto key = dyn_cast<AffineDimExpr>(
          root.getMatchingIndexingMap(root.getDpsInputOperand(0))
              .getResults()
              .back());
      int64_t keyTile = 0;
      if (key)
        for (const TileLevel &level : s.tiles)
          if (key.getPosition() < level.sizes.size() &&
              level.sizes[key.getPosition()] != 0)
            keyTile = level.sizes[key.getPosition()];
      if (c && keyTile > 0)
        skip = KeySkip{*c, keyTile, blocked};
    }
    if (failed(fuseGroup(rw, root, grouped, rows, /*contractions=*/true, skip)))
      return failure();
  }

  SmallVector<linalg::LinalgOp> roots;
  scope->walk([&](linalg::LinalgOp op) {
    if (!fusible(op) || isa<linalg::FillOp>(op))
      return;
    bool consumed = llvm::any_of(op->getUsers(), [](Operation *user) {
      return fusible(user) && !isa<linalg::FillOp>(user);
    });
    bool hasProducer = llvm::any_of(op->getOperands(), [](Value v) {
      Operation *def = v.getDefiningOp();
      return fusible(def) && !isa<linalg::FillOp>(def);
    });
    if (!consumed && hasProducer)
      roots.push_back(op);
  });
  for (linalg::LinalgOp root : roots) {
    FailureOr<std::optional<Schedule>> schedule =
        getSchedule(root, root.getNumLoops());
    if (failed(schedule) || !*schedule)
      return failure();
    const Schedule &s = **schedule;
    size_t loops = root.getNumLoops();
    SmallVector<utils::IteratorType> types = root.getIteratorTypesArray();
    // Rows: every parallel loop but the vectorized one, one at a time,
    // except as many as the register tile takes of the innermost (short
    // rows, several per register tile): a divisor of its extent and of the
    // grid's parts, so every block is whole.
    SmallVector<int64_t> rows(loops, 0);
    SmallVector<int64_t> extents = root.getStaticLoopRanges();
    int64_t innermost = -1;
    for (size_t d = 0; d < loops; ++d)
      if (types[d] == utils::IteratorType::parallel &&
          int64_t(d) != s.vectorDim) {
        rows[d] = 1;
        innermost = int64_t(d);
      }
    if (innermost >= 0 && innermost < int64_t(s.registerTile.size()) &&
        !ShapedType::isDynamic(extents[innermost])) {
      int64_t whole = extents[innermost];
      if (innermost < int64_t(s.grid.size()) && s.grid[innermost] > 0)
        whole = std::gcd(whole, s.grid[innermost]);
      rows[innermost] = largestDivisorAtMost(whole, s.registerTile[innermost]);
    }
    if (llvm::all_of(rows, [](int64_t r) { return r == 0; }))
      continue;
    if (failed(fuseGroup(rw, root, s, rows, /*contractions=*/false)))
      return failure();
  }
  // Everything now inside the group loops gets a register schedule later;
  // producers left without users are dead.
  scope->walk([&](linalg::LinalgOp op) {
    if (op->getParentOfType<LoopLikeOpInterface>()) {
      op->removeAttr(kScheduleAttrName);
      op->removeAttr(kRootAttrName);
    }
  });
  return success();
}
