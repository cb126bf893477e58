//===- MapHierarchy.cpp - S4 for chips with nested compute levels ---------===//
//
// On buffers, after bufferization: every linalg op of a function becomes a
// loop nest mapped to the description's levels (HierarchyModel.h):
//
//   scf.forall blocks   {#strata.grid<"block-level", d>}
//     memref.alloc      : memref<..., #strata.mem<"scratchpad">>  operand tiles
//     scf.forall groups {#strata.grid<"group-level">}
//       scf.for k tiles:
//         scf.forall lanes {#strata.grid<"lane-level">}  cooperative copies
//         gpu.barrier
//         vector.contract at the intrinsic's shape, on scratchpad tiles
//
// The body of a forall runs once per instance of its level; vector ops in a
// group's body are issued by the group as a whole (a matrix intrinsic), and
// `gpu.barrier` waits for every lane of the block. A contraction with a
// matching intrinsic carries `strata.intrinsic` on each vector.contract (of
// the intrinsic's exact m x n x k shape); otherwise each lane accumulates
// its own tile with multiply-adds. A zero fill of the accumulator is folded
// into the kernel, and an elementwise consumer of the result (bias,
// activation) is applied to the finished accumulators before the only store
// (a fused epilogue). Batch loops of a contraction are an outermost block
// dim. Row reductions get a group per row (HierarchyReduction.cpp), runs of
// row-wise ops one kernel (HierarchyRowChain.cpp). Other elementwise ops
// (and buffer copies) get one element per lane.
//
//===----------------------------------------------------------------------===//
#include "HierarchyAttention.h"
#include "HierarchyContraction.h"
#include "HierarchyKernel.h"
#include "HierarchyReduction.h"
#include "HierarchyRowChain.h"

#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Schedule/Attributes.h"
#include "strata/Schedule/HierarchyModel.h"
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

namespace strata {
#define GEN_PASS_DEF_STRATAMAPHIERARCHY
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;
using namespace strata::hierarchy;

namespace {
constexpr llvm::StringLiteral kIntrinsicAttrName = "strata.intrinsic";

/// Loop values of the contraction with its batch loops set (the block's
/// batch), the others to fill in.
SmallVector<Value> contractionLoops(Contraction &c) {
  SmallVector<Value> loops(c.op.getNumLoops(), Value());
  for (auto [d, v] : llvm::zip(c.batch, c.batchValues))
    loops[d] = v;
  return loops;
}

/// The positions in `c.batch` of the batch loops that lead `operand`'s
/// indexing map, followed by exactly the loops `dims`; nullopt otherwise.
std::optional<SmallVector<unsigned>>
leadingBatchDims(Contraction &c, OpOperand *operand, ArrayRef<unsigned> dims) {
  AffineMap map = c.op.getMatchingIndexingMap(operand);
  if (map.getNumResults() < dims.size())
    return std::nullopt;
  unsigned lead = map.getNumResults() - dims.size();
  if (!indexes(map.getSliceMap(lead, dims.size()), dims))
    return std::nullopt;
  SmallVector<unsigned> out;
  for (unsigned i = 0; i < lead; ++i) {
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(i));
    if (!dim)
      return std::nullopt;
    auto it = llvm::find(c.batch, dim.getPosition());
    if (it == c.batch.end())
      return std::nullopt;
    out.push_back(it - c.batch.begin());
  }
  return out;
}

/// The values in the kernel of those batch loops.
std::optional<SmallVector<Value>>
leadingBatch(Contraction &c, OpOperand *operand, ArrayRef<unsigned> dims) {
  std::optional<SmallVector<unsigned>> lead =
      leadingBatchDims(c, operand, dims);
  if (!lead)
    return std::nullopt;
  SmallVector<Value> out;
  for (unsigned i : *lead)
    out.push_back(c.batchValues[i]);
  return out;
}

/// The loops of A's (rows m, columns k) or B's (rows k, columns n) tiles.
SmallVector<unsigned> tileDims(Contraction &c, bool isA) {
  return isA ? SmallVector<unsigned>{c.m, c.k}
             : SmallVector<unsigned>{c.k, c.n};
}

/// Stores accumulator `acc` (f32) for C[gm, gn]: adds the old C unless a
/// zero fill was folded, then the epilogue or a conversion to C's type.
void storeResult(KernelBuilder &k, Contraction &c, Value gm, Value gn,
                 Value acc) {
  ImplicitLocOpBuilder &b = k.b;
  SmallVector<Value> loops = contractionLoops(c);
  loops[c.m] = gm, loops[c.n] = gn;
  Type outType = getElementTypeOrSelf(c.c->get().getType());
  if (!c.fill) {
    Value old = k.load(c.op, c.c, loops);
    if (old.getType() != acc.getType())
      old = arith::ExtFOp::create(b, acc.getType(), old);
    acc = arith::AddFOp::create(b, acc, old);
  }
  if (outType != acc.getType())
    acc = arith::TruncFOp::create(b, outType, acc);
  // The epilogue's loops are C's dims (its output map is the identity).
  SmallVector<Value> at = k.indices(c.op.getMatchingIndexingMap(c.c), loops);
  if (!c.epilogue) {
    memref::StoreOp::create(b, acc, c.c->get(), at);
    return;
  }
  k.applyBody(c.epilogue, at, c.c->get(), acc);
}

/// Where blocks do not divide the output: continues inside a check that
/// (gm, gn) is in C.
void guardOutput(KernelBuilder &k, Contraction &c, Value gm, Value gn) {
  if (c.extentM % k.s.blockM == 0 && c.extentN % k.s.blockN == 0)
    return;
  ImplicitLocOpBuilder &b = k.b;
  Value in = arith::AndIOp::create(b, k.lt(gm, k.idx(c.extentM)),
                                   k.lt(gn, k.idx(c.extentN)));
  auto ifOp = scf::IfOp::create(b, in);
  b.setInsertionPointToStart(ifOp.thenBlock());
}

/// Copies the bk-wide k tile at `k0` of A (rows) or B (columns) into the
/// scratchpad tile `tile` (rows x cols), zero outside the operand, the lanes
/// of the block striding over it.
void copyTile(KernelBuilder &k, Contraction &c, bool isA, Value tile,
              Value blockRow, Value k0, Value lane, int64_t rows,
              int64_t cols) {
  ImplicitLocOpBuilder &b = k.b;
  Type elem = cast<MemRefType>(tile.getType()).getElementType();
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(elem));
  int64_t lanes = k.s.lanesPerBlock();
  OpOperand *operand = isA ? c.a : c.b;
  // Tiles that divide the operand need no bounds check.
  bool partial = c.extentK % (k.s.blockK * k.s.buffers) != 0 ||
                 (isA ? c.extentM % k.s.blockM : c.extentN % k.s.blockN) != 0;
  // Whole rows of a row-major operand move 16 bytes per lane and access:
  // the global rows and the padded scratchpad rows start at multiples of 16
  // bytes when the row lengths are multiples of the vector.
  auto source = cast<MemRefType>(operand->get().getType());
  int64_t elemBytes = llvm::divideCeil(elem.getIntOrFloatBitWidth(), 8);
  int64_t width = 16 / elemBytes;
  int64_t rowLength = source.getShape().back();
  int64_t tileRow = cast<MemRefType>(tile.getType()).getShape().back();
  // Row-major past leading batch indices.
  std::optional<SmallVector<Value>> lead =
      leadingBatch(c, operand, tileDims(c, isA));
  if (!partial && lead && source.getElementType() == elem &&
      source.getLayout().isIdentity() && cols % width == 0 &&
      rowLength % width == 0 && tileRow % width == 0) {
    auto vectorType = VectorType::get({width}, elem);
    k.strided(lane, rows * cols / width, lanes, [&](Value e) {
      Value r = k.div(e, cols / width),
            col = k.mul(k.rem(e, cols / width), width);
      Value g0 = k.add(isA ? blockRow : k0, r);
      Value g1 = k.add(isA ? k0 : blockRow, col);
      SmallVector<Value> at(*lead);
      at.append({g0, g1});
      Value v = vector::LoadOp::create(b, vectorType, operand->get(), at, false,
                                       llvm::MaybeAlign(16));
      vector::StoreOp::create(b, v, tile, ValueRange{r, col}, false,
                              llvm::MaybeAlign(16));
    });
    return;
  }
  k.strided(lane, rows * cols, lanes, [&](Value e) {
    Value r = k.div(e, cols), col = k.rem(e, cols);
    SmallVector<Value> loops = contractionLoops(c);
    Value inBounds;
    if (isA) { // rows: m, cols: k
      loops[c.m] = k.add(blockRow, r), loops[c.k] = k.add(k0, col);
      inBounds = arith::AndIOp::create(b, k.lt(loops[c.m], k.idx(c.extentM)),
                                       k.lt(loops[c.k], k.idx(c.extentK)));
    } else { // rows: k, cols: n
      loops[c.k] = k.add(k0, r), loops[c.n] = k.add(blockRow, col);
      inBounds = arith::AndIOp::create(b, k.lt(loops[c.k], k.idx(c.extentK)),
                                       k.lt(loops[c.n], k.idx(c.extentN)));
    }
    Value v = partial ? k.loadOr(c.op, operand, loops, inBounds, zero)
                      : k.load(c.op, operand, loops);
    if (v.getType() != elem)
      v = arith::ExtFOp::create(b, elem, v);
    memref::StoreOp::create(b, v, tile, ValueRange{r, col});
  });
}

/// Whether `operand` (A: rows m, B: rows k) can arrive by bulk copies of
/// whole blockRows x blockCols tiles: a row-major array of the tile's type,
/// tiles dividing it, rows a multiple of 16 bytes.
bool bulkCopyable(Contraction &c, bool isA, const HierarchySchedule &s,
                  Type tileElem) {
  OpOperand *operand = isA ? c.a : c.b;
  auto source = cast<MemRefType>(operand->get().getType());
  int64_t bytes = llvm::divideCeil(tileElem.getIntOrFloatBitWidth(), 8);
  // Row-major past leading batch loops: the tiles of a batch element are
  // then tiles of the operand seen as one matrix of all its rows
  // (flatOperand); tiles that divide the rows stay in their batch element.
  bool rowMajor = leadingBatchDims(c, operand, tileDims(c, isA)).has_value();
  bool divides = c.extentK % (s.blockK * s.buffers) == 0 &&
                 (isA ? c.extentM % s.blockM : c.extentN % s.blockN) == 0;
  return rowMajor && divides && source.getElementType() == tileElem &&
         source.hasStaticShape() && source.getLayout().isIdentity() &&
         (source.getShape().back() * bytes) % 16 == 0;
}

/// `operand` as a matrix of all its rows (leading dims collapsed), for bulk
/// copies: created before the kernel (the copies' tensor maps are made on
/// the host from it).
Value flatOperand(ImplicitLocOpBuilder &b, OpOperand *operand) {
  auto type = cast<MemRefType>(operand->get().getType());
  if (type.getRank() == 2)
    return operand->get();
  SmallVector<ReassociationIndices> groups(2);
  for (int64_t d = 0; d + 1 < type.getRank(); ++d)
    groups[0].push_back(d);
  groups[1].push_back(type.getRank() - 1);
  return memref::CollapseShapeOp::create(b, operand->get(), groups);
}

/// The row of the flat operand where the block's batch element's row `row`
/// is: its leading batch indices linearized over the operand's dims.
Value flatRow(KernelBuilder &k, Contraction &c, bool isA, Value row) {
  OpOperand *operand = isA ? c.a : c.b;
  ArrayRef<int64_t> shape =
      cast<MemRefType>(operand->get().getType()).getShape();
  SmallVector<Value> lead = *leadingBatch(c, operand, tileDims(c, isA));
  if (lead.empty())
    return row;
  Value linear = lead[0];
  for (size_t i = 1; i < lead.size(); ++i)
    linear = k.add(k.mul(linear, shape[i]), lead[i]);
  return k.add(k.mul(linear, shape[lead.size()]), row);
}

/// The whole kernel of a contraction.
void emitContraction(ImplicitLocOpBuilder &b, Contraction &c,
                     const HierarchySchedule &s) {
  KernelBuilder k(b, s);
  MLIRContext *ctx = b.getContext();
  auto space = MemAttr::get(ctx, s.levels.scratchpad);
  Type inElem = getElementTypeOrSelf(c.a->get().getType());
  bool matrix = !s.intrinsic.empty();
  // Operands: f32 for multiply-adds, the input type for an intrinsic.
  Type tileElem = matrix ? inElem : b.getF32Type();
  Type f32 = b.getF32Type();
  int64_t lanes = s.lanesPerBlock(), groupLanes = s.levels.lanes;
  int64_t pad = s.padElements;
  int64_t kSteps = llvm::divideCeilSigned(c.extentK, s.blockK * s.buffers);

  // Bulk copies where both operands allow them (rank-2 row-major arrays
  // the tiles divide); the lanes copy otherwise.
  bool bulk = s.bulkCopies && bulkCopyable(c, true, s, tileElem) &&
              bulkCopyable(c, false, s, tileElem);
  Value flatA, flatB;
  if (bulk)
    flatA = flatOperand(b, c.a), flatB = flatOperand(b, c.b);
  // Batched contractions get a third (outermost) grid dim: the batch
  // loops, linearized (C's order, outermost first).
  bool batched = !c.batch.empty();
  SmallVector<int64_t> blockGrid = {s.gridM, s.gridN};
  if (batched)
    blockGrid.insert(blockGrid.begin(), c.extentBatch);
  auto kernel =
      k.forall(s.levels.block, blockGrid, [&](ValueRange batchAndIds) {
        ValueRange ids = batchAndIds.drop_front(batched ? 1 : 0);
        c.batchValues.assign(c.batch.size(), Value());
        if (batched) {
          Value rest = batchAndIds[0];
          for (int64_t d = int64_t(c.batch.size()) - 1; d >= 0; --d) {
            c.batchValues[d] = d == 0 ? rest : k.rem(rest, c.batchExtents[d]);
            if (d > 0)
              rest = k.div(rest, c.batchExtents[d]);
          }
        }
        Value rowBase = k.mul(ids[0], s.blockM),
              colBase = k.mul(ids[1], s.blockN);
        SmallVector<Value> aTiles, bTiles;
        Value staging;
        auto aType = MemRefType::get({s.blockM, s.blockK + pad}, tileElem,
                                     MemRefLayoutAttrInterface(), space);
        auto bType = MemRefType::get({s.blockK, s.blockN + pad}, tileElem,
                                     MemRefLayoutAttrInterface(), space);
        auto stagingType = MemRefType::get({s.blockM, s.blockN}, f32,
                                           MemRefLayoutAttrInterface(), space);
        if (s.asyncCopies) {
          // The pipeline's stages and, after the last k tile, the staging
          // tile share one buffer (HierarchyModel.cpp, step 5).
          auto bytes = [](MemRefType t) {
            return llvm::alignTo(
                t.getNumElements() *
                    llvm::divideCeil(t.getElementTypeBitWidth(), 8),
                16);
          };
          int64_t stride = bytes(aType) + bytes(bType);
          int64_t total =
              std::max<int64_t>(s.buffers * stride, bytes(stagingType));
          Value shared = memref::AllocOp::create(
              b, MemRefType::get({total}, b.getI8Type(),
                                 MemRefLayoutAttrInterface(), space));
          auto view = [&](MemRefType t, int64_t offset) -> Value {
            return memref::ViewOp::create(b, t, shared, k.idx(offset),
                                          ValueRange());
          };
          for (int64_t i = 0; i < s.buffers; ++i) {
            aTiles.push_back(view(aType, i * stride));
            bTiles.push_back(view(bType, i * stride + bytes(aType)));
          }
          staging = view(stagingType, 0);
        } else {
          for (int64_t i = 0; i < s.buffers; ++i) {
            aTiles.push_back(memref::AllocOp::create(b, aType));
            bTiles.push_back(memref::AllocOp::create(b, bType));
          }
          if (matrix)
            staging = memref::AllocOp::create(b, stagingType);
        }

        // Bulk copies of k tile `k0` into buffer `i`, once for the block.
        auto bulkCopies = [&](Value k0, int64_t i) {
          auto one = [&](Value source, ArrayRef<Value> at, Value tile,
                         ArrayRef<int64_t> sizes) {
            auto type = cast<MemRefType>(source.getType());
            auto result = memref::SubViewOp::inferResultType(
                type,
                ArrayRef<int64_t>{ShapedType::kDynamic, ShapedType::kDynamic},
                sizes, ArrayRef<int64_t>{1, 1});
            Value box = memref::SubViewOp::create(
                b, cast<MemRefType>(result), source, ValueRange(at),
                ValueRange(), ValueRange(),
                ArrayRef<int64_t>{ShapedType::kDynamic, ShapedType::kDynamic},
                sizes, ArrayRef<int64_t>{1, 1});
            auto copy = memref::CopyOp::create(b, box, tile);
            copy->setAttr(kBulkCopyStageAttrName, b.getI64IntegerAttr(i));
          };
          one(flatA, {flatRow(k, c, true, rowBase), k0}, aTiles[i],
              {s.blockM, s.blockK});
          one(flatB, {flatRow(k, c, false, k0), colBase}, bTiles[i],
              {s.blockK, s.blockN});
        };
        // Copies of k tile `k0` into buffer `i`, by every lane of the block.
        auto copyAll = [&](Value laneId, Value k0, int64_t i) {
          copyTile(k, c, true, aTiles[i], rowBase, k0, laneId, s.blockM,
                   s.blockK);
          copyTile(k, c, false, bTiles[i], colBase, k0, laneId, s.blockK,
                   s.blockN);
        };

        k.forall(s.levels.group, {s.groupsM * s.groupsN}, [&](ValueRange g) {
          Value group = g[0];
          Value gRow = k.mul(k.div(group, s.groupsN), s.groupM);
          Value gCol = k.mul(k.rem(group, s.groupsN), s.groupN);
          // The group's lanes run `body` with their block-wide lane id; in a
          // pipeline their copies are asynchronous, one group per loop.
          auto laneCopies = [&](function_ref<void(Value)> body) {
            auto copies =
                k.forall(s.levels.lane, {groupLanes}, [&](ValueRange l) {
                  body(k.add(k.mul(group, groupLanes), l[0]));
                });
            if (s.asyncCopies)
              copies->setAttr(kAsyncCopyAttrName, b.getUnitAttr());
          };
          // Pipeline prologue: the first `stages - 1` k tiles in flight.
          if (matrix && s.asyncCopies)
            for (int64_t st = 0; st + 1 < s.buffers; ++st) {
              if (bulk)
                bulkCopies(k.idx(st * s.blockK), st);
              else
                laneCopies(
                    [&](Value id) { copyAll(id, k.idx(st * s.blockK), st); });
            }
          if (matrix) {
            int64_t fm = s.groupM / s.fragM, fn = s.groupN / s.fragN;
            scf::ForOp loop = k.kLoop(VectorType::get({s.fragM, s.fragN}, f32),
                                      fm * fn, kSteps);
            {
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPointToStart(loop.getBody());
              SmallVector<Value> accs(loop.getRegionIterArgs());
              Value kBase = k.mul(loop.getInductionVar(), s.blockK * s.buffers);
              AffineExpr d0, d1, d2;
              bindDims(ctx, d0, d1, d2);
              SmallVector<AffineMap> maps = {
                  AffineMap::get(3, 0, {d0, d2}, ctx),
                  AffineMap::get(3, 0, {d2, d1}, ctx),
                  AffineMap::get(3, 0, {d0, d1}, ctx)};
              auto iters =
                  b.getArrayAttr({vector::IteratorTypeAttr::get(
                                      ctx, vector::IteratorType::parallel),
                                  vector::IteratorTypeAttr::get(
                                      ctx, vector::IteratorType::parallel),
                                  vector::IteratorTypeAttr::get(
                                      ctx, vector::IteratorType::reduction)});
              Value pad0 = arith::ConstantOp::create(b, b.getZeroAttr(inElem));
              for (int64_t i = 0; i < s.buffers; ++i) {
                if (s.asyncCopies) {
                  // k tile t = kBase + i: wait for it (the newest stages - 2
                  // groups may still be in flight), then, once every lane is
                  // past the math of tile t - 1, refill that tile's buffer
                  // with tile t + stages - 1; every lane commits one group
                  // per tile, empty past the end, so the count holds.
                  auto wait = gpu::BarrierOp::create(b);
                  if (bulk)
                    wait->setAttr(kAwaitStageAttrName, b.getI64IntegerAttr(i));
                  else
                    wait->setAttr(kPendingCopyGroupsAttrName,
                                  b.getI64IntegerAttr(s.buffers - 2));
                  int64_t next = i + s.buffers - 1;
                  Value k0 = k.add(kBase, k.idx(next * s.blockK));
                  Value more = k.lt(k.add(loop.getInductionVar(), k.idx(1)),
                                    k.idx(kSteps));
                  if (bulk) {
                    OpBuilder::InsertionGuard guard(b);
                    if (next >= s.buffers) {
                      auto ifOp = scf::IfOp::create(b, more);
                      b.setInsertionPointToStart(ifOp.thenBlock());
                    }
                    bulkCopies(k0, next % s.buffers);
                  } else {
                    laneCopies([&](Value id) {
                      OpBuilder::InsertionGuard guard(b);
                      if (next >= s.buffers) { // past this iteration's tiles
                        auto ifOp = scf::IfOp::create(b, more);
                        b.setInsertionPointToStart(ifOp.thenBlock());
                      }
                      copyAll(id, k0, next % s.buffers);
                    });
                  }
                } else {
                  Value k0 = k.add(kBase, k.idx(i * s.blockK));
                  laneCopies([&](Value id) { copyAll(id, k0, i); });
                  gpu::BarrierOp::create(b);
                }
                for (int64_t kk = 0; kk < s.blockK; kk += s.fragK) {
                  SmallVector<Value> as, bs;
                  for (int64_t x = 0; x < fm; ++x)
                    as.push_back(vector::TransferReadOp::create(
                        b, VectorType::get({s.fragM, s.fragK}, inElem),
                        aTiles[i],
                        ValueRange{k.add(gRow, k.idx(x * s.fragM)), k.idx(kk)},
                        pad0, ArrayRef<bool>{true, true}));
                  for (int64_t y = 0; y < fn; ++y)
                    bs.push_back(vector::TransferReadOp::create(
                        b, VectorType::get({s.fragK, s.fragN}, inElem),
                        bTiles[i],
                        ValueRange{k.idx(kk), k.add(gCol, k.idx(y * s.fragN))},
                        pad0, ArrayRef<bool>{true, true}));
                  for (int64_t x = 0; x < fm; ++x)
                    for (int64_t y = 0; y < fn; ++y) {
                      auto contract = vector::ContractionOp::create(
                          b, as[x], bs[y], accs[x * fn + y],
                          b.getAffineMapArrayAttr(maps), iters);
                      contract->setAttr(kIntrinsicAttrName,
                                        b.getStringAttr(s.intrinsic));
                      accs[x * fn + y] = contract;
                    }
                }
                if (s.buffers == 1)
                  gpu::BarrierOp::create(b);
              }
              scf::YieldOp::create(b, accs);
            }
            // Accumulators to the staging tile, then every lane finishes its
            // share of the block's outputs. A staging tile over the stages
            // waits for every group's last reads of them.
            if (s.asyncCopies)
              gpu::BarrierOp::create(b);
            for (int64_t x = 0; x < fm; ++x)
              for (int64_t y = 0; y < fn; ++y)
                vector::TransferWriteOp::create(
                    b, loop.getResult(x * fn + y), staging,
                    ValueRange{k.add(gRow, k.idx(x * s.fragM)),
                               k.add(gCol, k.idx(y * s.fragN))},
                    ArrayRef<bool>{true, true});
            gpu::BarrierOp::create(b);
            k.forall(s.levels.lane, {groupLanes}, [&](ValueRange l) {
              Value laneId = k.add(k.mul(group, groupLanes), l[0]);
              k.strided(laneId, s.blockM * s.blockN, lanes, [&](Value e) {
                Value r = k.div(e, s.blockN), col = k.rem(e, s.blockN);
                Value gm = k.add(rowBase, r), gn = k.add(colBase, col);
                OpBuilder::InsertionGuard guard(b);
                guardOutput(k, c, gm, gn);
                Value acc =
                    memref::LoadOp::create(b, staging, ValueRange{r, col});
                storeResult(k, c, gm, gn, acc);
              });
            });
            return;
          }
          // Multiply-adds: each lane keeps a fragM x fragN tile (rows of
          // vectors) and walks the scratchpad tiles.
          k.forall(s.levels.lane, {groupLanes}, [&](ValueRange l) {
            Value laneId = k.add(k.mul(group, groupLanes), l[0]);
            int64_t lanesN = s.groupN / s.fragN;
            Value tRow = k.add(gRow, k.mul(k.div(l[0], lanesN), s.fragM));
            Value tCol = k.add(gCol, k.mul(k.rem(l[0], lanesN), s.fragN));
            auto rowType = VectorType::get({s.fragN}, f32);
            scf::ForOp loop = k.kLoop(rowType, s.fragM, kSteps);
            {
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPointToStart(loop.getBody());
              SmallVector<Value> accs(loop.getRegionIterArgs());
              Value kBase = k.mul(loop.getInductionVar(), s.blockK * s.buffers);
              for (int64_t i = 0; i < s.buffers; ++i) {
                copyAll(laneId, k.add(kBase, k.idx(i * s.blockK)), i);
                gpu::BarrierOp::create(b);
                auto inner = scf::ForOp::create(b, k.idx(0), k.idx(s.blockK),
                                                k.idx(1), accs);
                {
                  OpBuilder::InsertionGuard g2(b);
                  b.setInsertionPointToStart(inner.getBody());
                  Value kk = inner.getInductionVar();
                  Value row = vector::LoadOp::create(b, rowType, bTiles[i],
                                                     ValueRange{kk, tCol});
                  SmallVector<Value> next;
                  for (int64_t x = 0; x < s.fragM; ++x) {
                    Value a = memref::LoadOp::create(
                        b, aTiles[i], ValueRange{k.add(tRow, k.idx(x)), kk});
                    Value splat = vector::BroadcastOp::create(b, rowType, a);
                    next.push_back(vector::FMAOp::create(
                        b, splat, row, inner.getRegionIterArgs()[x]));
                  }
                  scf::YieldOp::create(b, next);
                }
                accs.assign(inner.getResults().begin(),
                            inner.getResults().end());
                if (s.buffers == 1)
                  gpu::BarrierOp::create(b);
              }
              scf::YieldOp::create(b, accs);
            }
            for (int64_t x = 0; x < s.fragM; ++x)
              for (int64_t y = 0; y < s.fragN; ++y) {
                Value gm = k.add(rowBase, k.add(tRow, k.idx(x)));
                Value gn = k.add(colBase, k.add(tCol, k.idx(y)));
                OpBuilder::InsertionGuard guard(b);
                guardOutput(k, c, gm, gn);
                Value acc = vector::ExtractOp::create(b, loop.getResult(x),
                                                      ArrayRef<int64_t>{y});
                storeResult(k, c, gm, gn, acc);
              }
          });
        });
      });
  HierarchySchedule used = s;
  used.bulkCopies = bulk;
  setHierarchySchedule(kernel, used.toJson());
}

struct MapHierarchy : strata::impl::StrataMapHierarchyBase<MapHierarchy> {
  using StrataMapHierarchyBase::StrataMapHierarchyBase;
  void runOnOperation() override {
    auto module = getOperation()->getParentOfType<ModuleOp>();
    if (!module)
      return;
    FailureOr<hw::Description> chip = descriptionOf(module);
    if (failed(chip))
      return signalPassFailure();
    std::optional<HierarchyLevels> levels = hierarchyLevels(*chip);
    if (!levels)
      return; // a flat chip: strata-apply-schedule maps it
    // Attention chains first: each becomes one kernel (HierarchyAttention.h)
    // before its contractions and softmax could map as separate ops.
    if (failed(mapAttention(getOperation(), *levels, *chip)))
      return signalPassFailure();
    // Buffer copies (a result that is an argument, say) are elementwise
    // ops like any other.
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), ValueRange{copy.getSource()},
                             ValueRange{copy.getTarget()});
      copy.erase();
    }
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<scf::ForallOp>())
        ops.push_back(op);
    });
    llvm::DenseSet<Operation *> done;
    // Contractions first: they absorb their fills and epilogues.
    SmallVector<linalg::LinalgOp> ordered;
    for (bool contraction : {true, false})
      for (linalg::LinalgOp op : ops)
        if (succeeded(matchContraction(op)) == contraction)
          ordered.push_back(op);
    ops = std::move(ordered);
    // Row-wise chains (softmax, layernorm), none of whose ops a
    // contraction absorbs: one kernel each, emitted at their first op.
    llvm::DenseSet<Operation *> inContractions;
    for (linalg::LinalgOp op : ops)
      if (FailureOr<Contraction> c = matchContraction(op); succeeded(c))
        for (Operation *x : {c->op.getOperation(), c->fill.getOperation(),
                             c->epilogue.getOperation()})
          if (x)
            inContractions.insert(x);
    llvm::DenseMap<Operation *, RowChain> chains; // by first op
    llvm::DenseSet<Operation *> chained;
    for (linalg::LinalgOp op : ops) {
      if (inContractions.contains(op) || chained.contains(op))
        continue;
      std::optional<RowChain> chain = matchRowChain(op, inContractions);
      if (!chain)
        continue;
      for (linalg::LinalgOp x : chain->ops)
        chained.insert(x);
      chains[op] = std::move(*chain);
    }
    // Fills that row reductions start from (kept for them, not mapped).
    llvm::DenseMap<Operation *, linalg::FillOp> reductionFills;
    for (linalg::LinalgOp op : ops)
      if (!chained.contains(op) && op.hasPureBufferSemantics() &&
          isRowReduction(op))
        if (linalg::FillOp fill = foldableFill(op)) {
          reductionFills[op] = fill;
          done.insert(fill);
        }
    for (linalg::LinalgOp op : ops) {
      if (done.contains(op))
        continue;
      if (!op.hasPureBufferSemantics()) {
        op->emitError("strata-map-hierarchy: expected an op on buffers "
                      "(run after bufferization)");
        return signalPassFailure();
      }
      if (auto chain = chains.find(op); chain != chains.end()) {
        ImplicitLocOpBuilder cb(op->getLoc(), chain->second.ops.back());
        if (failed(emitRowChain(cb, chain->second, *levels)))
          return signalPassFailure();
        for (linalg::LinalgOp x : llvm::reverse(chain->second.ops)) {
          done.insert(x);
          x->erase();
        }
        continue;
      }
      ImplicitLocOpBuilder b(op->getLoc(), op);
      FailureOr<Contraction> c = matchContraction(op);
      if (succeeded(c)) {
        if (ShapedType::isDynamic(c->extentM) ||
            ShapedType::isDynamic(c->extentN) ||
            ShapedType::isDynamic(c->extentK) ||
            ShapedType::isDynamic(c->extentBatch)) {
          op->emitError("strata-map-hierarchy: dynamic extents are not "
                        "mapped to compute levels yet");
          return signalPassFailure();
        }
        ContractionShape shape;
        shape.m = c->extentM, shape.n = c->extentN, shape.k = c->extentK;
        shape.batch = c->extentBatch;
        shape.inputType = typeName(getElementTypeOrSelf(c->a->get().getType()));
        shape.accType = typeName(getElementTypeOrSelf(c->c->get().getType()));
        HierarchyOptions options;
        options.allowTf32 = allowTf32;
        HierarchySchedule s =
            chooseHierarchySchedule(shape, *levels, *chip, options);
        if (s.scratchpadBytes > levels->scratchpadBytes) {
          op->emitError("strata-map-hierarchy: the smallest block of this "
                        "contraction needs ")
              << s.scratchpadBytes << " bytes of '" << levels->scratchpad
              << "', which has " << levels->scratchpadBytes;
          return signalPassFailure();
        }
        if (c->epilogue)
          b.setInsertionPoint(c->epilogue);
        emitContraction(b, *c, s);
        for (Operation *dead : {c->fill.getOperation(), c->op.getOperation(),
                                c->epilogue.getOperation()})
          if (dead) {
            done.insert(dead);
            dead->erase();
          }
        continue;
      }
      if (isRowReduction(op)) {
        linalg::FillOp fill = reductionFills.lookup(op);
        if (failed(emitReduction(b, op, fill, *levels)))
          return signalPassFailure();
        done.insert(op);
        op->erase();
        if (fill)
          fill->erase();
        continue;
      }
      if (!allParallel(op)) {
        op->emitError("strata-map-hierarchy: '")
            << op->getName() << "' is not mapped to the levels of '"
            << chip->name
            << "' yet (contractions of one m, n and k loop with batch "
               "loops, row reductions and elementwise ops are)";
        return signalPassFailure();
      }
      if (failed(emitElementwise(b, op, *levels)))
        return signalPassFailure();
      done.insert(op);
      op->erase();
    }
    // Temporaries that only a fused epilogue's operand was.
    SmallVector<memref::AllocOp> allocs;
    getOperation()->walk([&](memref::AllocOp a) { allocs.push_back(a); });
    for (memref::AllocOp a : allocs)
      if (llvm::all_of(a->getUsers(), [](Operation *u) {
            return isa<memref::DeallocOp>(u);
          })) {
        for (Operation *u : llvm::make_early_inc_range(a->getUsers()))
          u->erase();
        a->erase();
      }
  }
};
} // namespace
