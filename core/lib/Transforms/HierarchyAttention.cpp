//===- HierarchyAttention.cpp - Attention as one kernel -------------------===//
//
// The kernel of one attention chain (HierarchyAttention.h), for a schedule of
// HierarchyAttentionModel.h:
//
//   scf.forall (%bh, %qt) in (batch, query tiles)      block level
//     scratchpad: Q tile, Kᵀ tile, V tile, f32 scores (later f32 P V),
//                 P tile (input type), f32 running output, row state
//     scf.forall (%g) in (groups)                      group level
//       lanes: Q tile (zero past the queries), O = 0, max = -inf, sum = 0
//       scf.for %kt in (key tiles; only those up to the block's last query
//                        plus c where the mask hides keys past query + c)
//         lanes: Kᵀ and V tiles (zero past the keys);            barrier
//         group: its fragM rows of S = Q Kᵀ, vector.contract at the
//                intrinsic's shape (strata.intrinsic), stored f32; barrier
//         lanes, rowLanes per row, each a slice of the keys: the scale
//                ops (masks get the block's query and key indices), the
//                slice's maximum over the keys that exist;         barrier
//                m' = max(m, the slices' maxima), P = exp(S - m') (0 past
//                the keys; 0 for m' while it is -inf), the slice's sum of
//                P, a = e^(m - m');                                barrier
//         group: its rows of P V, vector.contract, stored f32;   barrier
//         lanes: O = O a + P V, l = l a + the slices' sums, m = m'
//       barrier; lanes: out = O / l for the queries that exist (0 where
//                m = -inf when the chain has PyTorch's safe-softmax flag)
//
// Without a matrix intrinsic (f32 inputs) the products too are computed by
// the lanes, with multiply-adds from the scratchpad.
//
// Everything between the group's products runs on the lanes from the
// scratchpad: the products are the upstream form the plugins already lower
// (a k loop of tagged contractions with zero accumulators and stores), and
// the row statistics need no cross-lane operations on matrix fragments.
//
//===----------------------------------------------------------------------===//
#include "HierarchyAttention.h"
#include "HierarchyAttentionChain.h"
#include "HierarchyKernel.h"

#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Schedule/HierarchyAttentionModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <limits>

using namespace mlir;
using namespace strata;
using namespace strata::hierarchy;

namespace {
constexpr llvm::StringLiteral kIntrinsicAttrName = "strata.intrinsic";

/// Builds the kernel of one chain.
class AttentionEmitter {
public:
  AttentionEmitter(ImplicitLocOpBuilder &b, Chain &ch,
                   const HierarchyAttentionSchedule &s,
                   const HierarchySchedule &hs)
      : b(b), k(b, hs), ch(ch), s(s) {}

  void emit();

private:
  /// The value of `op`'s operand at `loops`, or `zero` where `in` is false
  /// (no check when `in` is null).
  Value guardedLoad(Value in, Value zero, function_ref<Value()> load) {
    if (!in)
      return load();
    auto ifOp = scf::IfOp::create(b, TypeRange{zero.getType()}, in, true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, load());
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, zero);
    return ifOp.getResult(0);
  }
  /// Q[bh, query, d].
  Value loadQuery(Value bh, Value query, Value d) {
    SmallVector<Value> loops(ch.qk.op.getNumLoops(), Value());
    loops[ch.qk.batch] = bh, loops[ch.qk.m] = query, loops[ch.qk.k] = d;
    return k.load(ch.qk.op, ch.qk.a, loops);
  }
  /// K[bh, key, d], through the transpose when there is one.
  Value loadKey(Value bh, Value key, Value d) {
    SmallVector<Value> loops(ch.qk.op.getNumLoops(), Value());
    loops[ch.qk.batch] = bh, loops[ch.qk.n] = key, loops[ch.qk.k] = d;
    if (!ch.transpose)
      return k.load(ch.qk.op, ch.qk.b, loops);
    AffineMap map = ch.qk.op.getMatchingIndexingMap(ch.qk.b);
    linalg::LinalgOp t = ch.transpose;
    AffineMap out = t.getMatchingIndexingMap(t.getDpsInitOperand(0));
    SmallVector<Value> tLoops(t.getNumLoops(), Value());
    for (unsigned i = 0; i < map.getNumResults(); ++i)
      tLoops[out.getDimPosition(i)] = loops[map.getDimPosition(i)];
    return k.load(t, t.getDpsInputOperand(0), tLoops);
  }
  /// V[bh, key, c].
  Value loadValue(Value bh, Value key, Value c) {
    SmallVector<Value> loops(ch.pv.op.getNumLoops(), Value());
    loops[ch.pv.batch] = bh, loops[ch.pv.k] = key, loops[ch.pv.n] = c;
    return k.load(ch.pv.op, ch.pv.b, loops);
  }
  /// out[bh, query, c] = v.
  void storeOutput(Value bh, Value query, Value c, Value v) {
    SmallVector<Value> loops(ch.pv.op.getNumLoops(), Value());
    loops[ch.pv.batch] = bh, loops[ch.pv.m] = query, loops[ch.pv.n] = c;
    AffineMap map = ch.pv.op.getMatchingIndexingMap(ch.pv.c);
    SmallVector<Value> indices;
    for (AffineExpr e : map.getResults())
      indices.push_back(loops[cast<AffineDimExpr>(e).getPosition()]);
    memref::StoreOp::create(b, v, ch.pv.c->get(), indices);
  }
  /// A plain array read at (batch, row, column): the buffer and, per
  /// dimension, which of the three it indexes (0, 1, 2).
  struct RowSource {
    Value buffer;
    SmallVector<int64_t> roles;
  };
  /// `operand` of `op` as a RowSource, `roles` giving the role of each of
  /// `op`'s loops (-1: none); nullopt unless it is a static identity-layout
  /// array of rank 3 whose last dimension is the column.
  std::optional<RowSource> rowSource(linalg::LinalgOp op, OpOperand *operand,
                                     ArrayRef<int64_t> roles) {
    auto type = dyn_cast<MemRefType>(operand->get().getType());
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getRank() != 3 || !map.isProjectedPermutation() ||
        map.getNumResults() != 3)
      return std::nullopt;
    RowSource src{operand->get(), {}};
    for (unsigned i = 0; i < 3; ++i)
      src.roles.push_back(roles[map.getDimPosition(i)]);
    SmallVector<int64_t> sorted(src.roles);
    llvm::sort(sorted);
    if (sorted != SmallVector<int64_t>{0, 1, 2} || src.roles[2] != 2)
      return std::nullopt;
    return src;
  }
  /// Q, K (through the transpose) and V as RowSources.
  std::optional<RowSource> querySource() {
    SmallVector<int64_t> roles(ch.qk.op.getNumLoops(), -1);
    roles[ch.qk.batch] = 0, roles[ch.qk.m] = 1, roles[ch.qk.k] = 2;
    return rowSource(ch.qk.op, ch.qk.a, roles);
  }
  std::optional<RowSource> keySource() {
    SmallVector<int64_t> roles(ch.qk.op.getNumLoops(), -1);
    roles[ch.qk.batch] = 0, roles[ch.qk.n] = 1, roles[ch.qk.k] = 2;
    if (!ch.transpose)
      return rowSource(ch.qk.op, ch.qk.b, roles);
    // The transpose's loops take the roles of the qk loops that read the
    // same dimension of Kᵀ.
    AffineMap map = ch.qk.op.getMatchingIndexingMap(ch.qk.b);
    linalg::LinalgOp t = ch.transpose;
    AffineMap out = t.getMatchingIndexingMap(t.getDpsInitOperand(0));
    SmallVector<int64_t> tRoles(t.getNumLoops(), -1);
    for (unsigned i = 0; i < map.getNumResults(); ++i)
      tRoles[out.getDimPosition(i)] = roles[map.getDimPosition(i)];
    return rowSource(t, t.getDpsInputOperand(0), tRoles);
  }
  std::optional<RowSource> valueSource() {
    SmallVector<int64_t> roles(ch.pv.op.getNumLoops(), -1);
    roles[ch.pv.batch] = 0, roles[ch.pv.k] = 1, roles[ch.pv.n] = 2;
    return rowSource(ch.pv.op, ch.pv.b, roles);
  }
  /// Copies rows [row0, row0 + rows) x `cols` of `src` for batch `bh` into
  /// `tile` (transposed: tile[col, row]), zero at rows from `extent` on (no
  /// check when `extent` is 0: the tiles divide the rows), in
  /// vectors of 16 bytes (consecutive lanes, consecutive vectors of a row);
  /// false, emitting nothing, when the rows are not whole vectors.
  bool copyRows(Value laneId, const std::optional<RowSource> &src, Value bh,
                Value row0, int64_t rows, int64_t cols, int64_t extent,
                Value tile, bool transposed) {
    Type elem = ch.inputType;
    int64_t eb = llvm::divideCeil(elem.getIntOrFloatBitWidth(), 8);
    int64_t width = 16 / eb;
    int64_t pitch = cast<MemRefType>(tile.getType()).getShape().back();
    if (!src || 16 % eb != 0 || cols % width != 0 ||
        (!transposed && pitch % width != 0) ||
        getElementTypeOrSelf(src->buffer.getType()) != elem)
      return false;
    auto vectorType = VectorType::get({width}, elem);
    int64_t perRow = cols / width;
    bool partial = extent > 0;
    k.strided(laneId, rows * perRow, s.lanesPerBlock(), [&](Value e) {
      Value r = k.div(e, perRow), c = k.mul(k.rem(e, perRow), width);
      Value g = k.add(row0, r);
      SmallVector<Value> at(3);
      for (unsigned i = 0; i < 3; ++i)
        at[i] = src->roles[i] == 0 ? bh : src->roles[i] == 1 ? g : c;
      auto load = [&]() -> Value {
        return vector::LoadOp::create(b, vectorType, src->buffer, at, false,
                                      llvm::MaybeAlign(16));
      };
      Value v;
      if (partial) {
        Value zero = arith::ConstantOp::create(
            b, DenseElementsAttr::get(vectorType, b.getZeroAttr(elem)));
        v = guardedLoad(k.lt(g, k.idx(extent)), zero, load);
      } else {
        v = load();
      }
      if (!transposed) {
        vector::StoreOp::create(b, v, tile, ValueRange{r, c}, false,
                                llvm::MaybeAlign(16));
        return;
      }
      for (int64_t i = 0; i < width; ++i)
        memref::StoreOp::create(
            b, vector::ExtractOp::create(b, v, ArrayRef<int64_t>{i}), tile,
            ValueRange{k.add(c, k.idx(i)), r});
    });
    return true;
  }
  /// The scale ops on score `x` (f32) of batch `bh`, query and key (global
  /// indices), in the scores' type. The ops' loops are S's dimensions
  /// (batch, query, key): linalg.index reads those.
  Value scaled(Value x, Value bh, Value query, Value key) {
    if (ch.scales.empty())
      return x;
    if (ch.scoreType != x.getType())
      x = arith::TruncFOp::create(b, ch.scoreType, x);
    Value loops[3] = {bh, query, key};
    for (linalg::LinalgOp op : ch.scales) {
      IRMapping map;
      map.map(arg(op, 0), x);
      for (Operation &inner : op.getBlock()->without_terminator()) {
        if (auto index = dyn_cast<linalg::IndexOp>(inner))
          map.map(index.getResult(), loops[index.getDim()]);
        else
          b.clone(inner, map);
      }
      x = map.lookupOrDefault(yielded(op));
    }
    if (x.getType() != b.getF32Type())
      x = arith::ExtFOp::create(b, b.getF32Type(), x);
    return x;
  }
  Value f32(double v) {
    return arith::ConstantOp::create(b, b.getF32FloatAttr(v));
  }
  /// The group's fragM rows of A B into `out` (f32): A rows from `a` at
  /// (gRow, 0..depth), B from `bt` (depth x width), zero accumulators.
  void groupProduct(Value gRow, Value a, Value bt, int64_t depth, int64_t width,
                    Value out);
  /// Without an intrinsic: the block's rows of A B into `out` (f32), one
  /// element per lane at a time, multiply-adds from the scratchpad.
  void lanesProduct(Value laneId, Value a, Value bt, int64_t depth,
                    int64_t width, Value out);
  /// A B into `out` by the group's intrinsic or the lanes.
  void product(Value gRow, function_ref<void(function_ref<void(Value)>)> lanes,
               Value a, Value bt, int64_t depth, int64_t width, Value out) {
    if (s.intrinsic.empty())
      lanes([&](Value id) { lanesProduct(id, a, bt, depth, width, out); });
    else
      groupProduct(gRow, a, bt, depth, width, out);
  }

  ImplicitLocOpBuilder &b;
  KernelBuilder k;
  Chain &ch;
  const HierarchyAttentionSchedule &s;
};

void AttentionEmitter::lanesProduct(Value laneId, Value a, Value bt,
                                    int64_t depth, int64_t width, Value out) {
  Type f32t = b.getF32Type();
  k.strided(laneId, s.blockM * width, s.lanesPerBlock(), [&](Value e) {
    Value r = k.div(e, width), c = k.rem(e, width);
    auto loop = scf::ForOp::create(b, k.idx(0), k.idx(depth), k.idx(1),
                                   ValueRange{f32(0)});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kk = loop.getInductionVar();
      Value x = memref::LoadOp::create(b, a, ValueRange{r, kk});
      Value y = memref::LoadOp::create(b, bt, ValueRange{kk, c});
      if (x.getType() != f32t)
        x = arith::ExtFOp::create(b, f32t, x);
      if (y.getType() != f32t)
        y = arith::ExtFOp::create(b, f32t, y);
      scf::YieldOp::create(b, ValueRange{math::FmaOp::create(
                                  b, x, y, loop.getRegionIterArgs()[0])});
    }
    memref::StoreOp::create(b, loop.getResult(0), out, ValueRange{r, c});
  });
}

void AttentionEmitter::groupProduct(Value gRow, Value a, Value bt,
                                    int64_t depth, int64_t width, Value out) {
  MLIRContext *ctx = b.getContext();
  Type elem = ch.inputType, f32t = b.getF32Type();
  AffineExpr d0, d1, d2;
  bindDims(ctx, d0, d1, d2);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {d0, d2}, ctx),
                                 AffineMap::get(3, 0, {d2, d1}, ctx),
                                 AffineMap::get(3, 0, {d0, d1}, ctx)};
  auto iters = b.getArrayAttr(
      {vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
       vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
       vector::IteratorTypeAttr::get(ctx, vector::IteratorType::reduction)});
  Value pad = arith::ConstantOp::create(b, b.getZeroAttr(elem));
  auto accType = VectorType::get({s.fragM, s.fragN}, f32t);
  int64_t n = width / s.fragN;
  // A k loop carrying the accumulators, as in a contraction's kernel: the
  // plugin lowers the tagged contractions of one such loop together.
  scf::ForOp loop = k.kLoop(accType, n, depth / s.fragK);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> accs(loop.getRegionIterArgs());
    Value kk = k.mul(loop.getInductionVar(), s.fragK);
    Value x = vector::TransferReadOp::create(
        b, VectorType::get({s.fragM, s.fragK}, elem), a, ValueRange{gRow, kk},
        pad, ArrayRef<bool>{true, true});
    SmallVector<Value> ys;
    for (int64_t y = 0; y < n; ++y)
      ys.push_back(vector::TransferReadOp::create(
          b, VectorType::get({s.fragK, s.fragN}, elem), bt,
          ValueRange{kk, k.idx(y * s.fragN)}, pad, ArrayRef<bool>{true, true}));
    for (int64_t y = 0; y < n; ++y) {
      auto contract = vector::ContractionOp::create(
          b, x, ys[y], accs[y], b.getAffineMapArrayAttr(maps), iters);
      contract->setAttr(kIntrinsicAttrName, b.getStringAttr(s.intrinsic));
      accs[y] = contract;
    }
    scf::YieldOp::create(b, accs);
  }
  SmallVector<Value> accs(loop.getResults());
  for (int64_t y = 0; y < n; ++y)
    vector::TransferWriteOp::create(b, accs[y], out,
                                    ValueRange{gRow, k.idx(y * s.fragN)},
                                    ArrayRef<bool>{true, true});
}

void AttentionEmitter::emit() {
  MLIRContext *ctx = b.getContext();
  auto space = MemAttr::get(ctx, s.levels.scratchpad);
  Type elem = ch.inputType, f32t = b.getF32Type();
  const HierarchyAttentionShape &sh = ch.shape;
  int64_t bm = s.blockM, bk = s.blockK, d = sh.headDim, dv = sh.valueDim;
  int64_t pad = s.padElements, fpad = HierarchyAttentionSchedule::kF32Pad;
  int64_t lanes = s.lanesPerBlock(), groupLanes = s.levels.lanes;
  // Guards only where tiles do not divide the extents.
  bool partialQueries = sh.queries % bm != 0, partialKeys = sh.keys % bk != 0;
  float negInf = -std::numeric_limits<float>::infinity();
  // Key-tile skipping. Where the mask makes every scaled score -inf whose
  // key exceeds its query by more than c (Chain::keysMaskedAfter), the
  // block of queries [q0, q0 + bm) needs only the keys [0, q0 + bm + c):
  // the key loop runs to min(key tiles, ceildiv(max(q0 + bm + c, 0), bk)).
  // The skipped keys would give P = 0; the in-kernel mask still applies to
  // the tiles across the diagonal. A block can get no key at all (c < -bm
  // for the first one): its rows keep m = -inf, l = 0, O = 0. Any c below
  // -(queries + bm) gives no key to every block (clamped so that the index
  // arithmetic cannot overflow); none where even the first block needs
  // every tile. Blocks of later queries do more work; the grid keeps its
  // order (query tiles ascending), so the longest blocks start last.
  std::optional<int64_t> skipAfter;
  if (ch.keysMaskedAfter) {
    int64_t c = std::max(*ch.keysMaskedAfter, -(sh.queries + bm));
    if ((std::max<int64_t>(bm + c, 0) + bk - 1) / bk < s.keyTiles)
      skipAfter = c;
  }

  auto kernel = k.forall(
      s.levels.block, {s.gridBatch, s.gridQueries}, [&](ValueRange ids) {
        Value bh = ids[0], q0 = k.mul(ids[1], bm);
        // One scratchpad buffer; the f32 scores and the f32 P V product share
        // their bytes (the scores are dead once P is written).
        Value shared = memref::AllocOp::create(
            b, MemRefType::get({s.tiles.total()}, b.getI8Type(),
                               MemRefLayoutAttrInterface(), space));
        int64_t offset = 0;
        auto view = [&](ArrayRef<int64_t> shape, Type t, int64_t at) -> Value {
          return memref::ViewOp::create(
              b, MemRefType::get(shape, t, MemRefLayoutAttrInterface(), space),
              shared, k.idx(at), ValueRange());
        };
        Value qTile = view({bm, d + pad}, elem, offset);
        offset += s.tiles.query;
        Value kTile = view({d, bk + pad}, elem, offset);
        offset += s.tiles.keysT;
        Value vTile = view({bk, dv + pad}, elem, offset);
        offset += s.tiles.values;
        Value sTile = view({bm, bk + fpad}, f32t, offset);
        Value pvTile = view({bm, dv + fpad}, f32t, offset);
        offset += s.tiles.scores;
        Value pTile = view({bm, bk + pad}, elem, offset);
        offset += s.tiles.probs;
        Value oTile = view({bm, dv + fpad}, f32t, offset);
        offset += s.tiles.output;
        // Rows: maximum, sum, rescale factor, next maximum, then each row
        // lane's partial maximum and partial sum.
        Value rows = view({4 + 2 * s.rowLanes, bm}, f32t, offset);
        Value rMax = k.idx(0), rSum = k.idx(1), rScale = k.idx(2),
              rNext = k.idx(3), rPartMax = k.idx(4),
              rPartSum = k.idx(4 + s.rowLanes);

        k.forall(s.levels.group, {s.groups}, [&](ValueRange g) {
          Value group = g[0];
          Value gRow = k.mul(group, s.fragM);
          auto laneLoop = [&](function_ref<void(Value)> body) {
            k.forall(s.levels.lane, {groupLanes}, [&](ValueRange l) {
              body(k.add(k.mul(group, groupLanes), l[0]));
            });
          };
          Value zeroIn = arith::ConstantOp::create(b, b.getZeroAttr(elem));
          // The Q tile, zero past the queries; O = 0, max = -inf, sum = 0.
          laneLoop([&](Value id) {
            // Rows of 16-byte vectors where Q is a plain array, else one
            // element at a time through its indexing map.
            if (!copyRows(id, querySource(), bh, q0, bm, d,
                          partialQueries ? sh.queries : 0, qTile, false))
              k.strided(id, bm * d, lanes, [&](Value e) {
                Value r = k.div(e, d), c = k.rem(e, d);
                Value query = k.add(q0, r);
                Value in =
                    partialQueries ? k.lt(query, k.idx(sh.queries)) : Value();
                Value v = guardedLoad(in, zeroIn,
                                      [&] { return loadQuery(bh, query, c); });
                memref::StoreOp::create(b, v, qTile, ValueRange{r, c});
              });
            k.strided(id, bm * dv, lanes, [&](Value e) {
              Value r = k.div(e, dv), c = k.rem(e, dv);
              memref::StoreOp::create(b, f32(0), oTile, ValueRange{r, c});
            });
            k.strided(id, bm, lanes, [&](Value r) {
              memref::StoreOp::create(b, f32(negInf), rows,
                                      ValueRange{rMax, r});
              memref::StoreOp::create(b, f32(0), rows, ValueRange{rSum, r});
            });
          });
          gpu::BarrierOp::create(b);

          Value keyTiles = k.idx(s.keyTiles);
          if (skipAfter) {
            Value last = arith::MaxSIOp::create(
                b, k.add(q0, k.idx(bm + *skipAfter)), k.idx(0));
            Value needed = arith::DivUIOp::create(b, k.add(last, k.idx(bk - 1)),
                                                  k.idx(bk));
            keyTiles = arith::MinUIOp::create(b, needed, keyTiles);
          }
          auto loop = scf::ForOp::create(b, k.idx(0), keyTiles, k.idx(1));
          {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(loop.getBody());
            Value key0 = k.mul(loop.getInductionVar(), bk);
            // Kᵀ and V tiles, zero past the keys (so that P V adds nothing
            // there, whatever lies past the end of V). Consecutive lanes read
            // consecutive elements of a key's row.
            // A tile of `width` columns per key: rows where `copyRows` can,
            // else one element per lane (transposed for Kᵀ).
            auto copyKeyTile = [&](Value id, std::optional<RowSource> source,
                                   int64_t width, Value tile, bool transposed,
                                   function_ref<Value(Value, Value)> load) {
              if (copyRows(id, source, bh, key0, bk, width,
                           partialKeys ? sh.keys : 0, tile, transposed))
                return;
              k.strided(id, bk * width, lanes, [&](Value e) {
                Value key = k.div(e, width), c = k.rem(e, width);
                Value gk = k.add(key0, key);
                Value in = partialKeys ? k.lt(gk, k.idx(sh.keys)) : Value();
                Value v = guardedLoad(in, zeroIn, [&] { return load(gk, c); });
                SmallVector<Value> at = {key, c};
                if (transposed)
                  std::swap(at[0], at[1]);
                memref::StoreOp::create(b, v, tile, at);
              });
            };
            laneLoop([&](Value id) {
              copyKeyTile(
                  id, keySource(), d, kTile, true,
                  [&](Value gk, Value c) { return loadKey(bh, gk, c); });
              copyKeyTile(
                  id, valueSource(), dv, vTile, false,
                  [&](Value gk, Value c) { return loadValue(bh, gk, c); });
            });
            gpu::BarrierOp::create(b);
            // S = Q Kᵀ for the group's rows.
            product(gRow, laneLoop, qTile, kTile, d, bk, sTile);
            gpu::BarrierOp::create(b);
            // Online softmax, `rowLanes` lanes per row, each over a slice of
            // the key tile: first the slices' maxima of the scaled scores
            // over the keys that exist, then, after a barrier, the row's new
            // maximum, P = e^(s - m) (0 past the keys) and the slices' sums.
            int64_t rl = s.rowLanes, slice = bk / rl;
            auto valid = [&](Value j) -> Value {
              return partialKeys ? k.lt(k.add(key0, j), k.idx(sh.keys))
                                 : Value();
            };
            auto rowSlices = [&](function_ref<void(Value, Value, Value)> body) {
              laneLoop([&](Value id) {
                k.strided(id, bm * rl, lanes, [&](Value e) {
                  Value h = k.rem(e, rl);
                  body(k.div(e, rl), h, k.mul(h, slice));
                });
              });
            };
            // One loop over the row's keys [j0, j0 + slice) carrying `init`.
            auto overSlice = [&](Value j0, Value init,
                                 function_ref<Value(Value, Value)> step) {
              auto loop = scf::ForOp::create(b, k.idx(0), k.idx(slice),
                                             k.idx(1), ValueRange{init});
              OpBuilder::InsertionGuard g2(b);
              b.setInsertionPointToStart(loop.getBody());
              Value j = k.add(j0, loop.getInductionVar());
              scf::YieldOp::create(
                  b, ValueRange{step(j, loop.getRegionIterArgs()[0])});
              return loop.getResult(0);
            };
            rowSlices([&](Value r, Value h, Value j0) {
              Value m = overSlice(j0, f32(negInf), [&](Value j, Value acc) {
                Value x =
                    scaled(memref::LoadOp::create(b, sTile, ValueRange{r, j}),
                           bh, k.add(q0, r), k.add(key0, j));
                if (Value in = valid(j))
                  x = arith::SelectOp::create(b, in, x, f32(negInf));
                return arith::MaximumFOp::create(b, acc, x).getResult();
              });
              memref::StoreOp::create(b, m, rows,
                                      ValueRange{k.add(rPartMax, h), r});
            });
            gpu::BarrierOp::create(b);
            rowSlices([&](Value r, Value h, Value j0) {
              Value old = memref::LoadOp::create(b, rows, ValueRange{rMax, r});
              Value m = old;
              for (int64_t x = 0; x < rl; ++x)
                m = arith::MaximumFOp::create(
                    b, m,
                    memref::LoadOp::create(
                        b, rows, ValueRange{k.add(rPartMax, k.idx(x)), r}));
              // FlashAttention's convention: while the row's maximum is
              // -inf (every key so far masked), e^(s - 0) = 0 for those
              // keys instead of e^(-inf + inf) = NaN.
              Value shift = arith::SelectOp::create(
                  b,
                  arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, m,
                                        f32(negInf)),
                  f32(0), m);
              Value sum = overSlice(j0, f32(0), [&](Value j, Value acc) {
                Value x =
                    scaled(memref::LoadOp::create(b, sTile, ValueRange{r, j}),
                           bh, k.add(q0, r), k.add(key0, j));
                Value p =
                    math::ExpOp::create(b, arith::SubFOp::create(b, x, shift));
                if (Value in = valid(j))
                  p = arith::SelectOp::create(b, in, p, f32(0));
                Value stored = p.getType() == elem
                                   ? p
                                   : arith::TruncFOp::create(b, elem, p);
                memref::StoreOp::create(b, stored, pTile, ValueRange{r, j});
                return arith::AddFOp::create(b, acc, p).getResult();
              });
              memref::StoreOp::create(b, sum, rows,
                                      ValueRange{k.add(rPartSum, h), r});
              // The first lane of the row: a = e^(old - m) (0 before the
              // first tile, old = -inf) and the new maximum, both read after
              // the next barrier.
              auto ifFirst = scf::IfOp::create(
                  b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, h,
                                           k.idx(0)));
              OpBuilder::InsertionGuard g2(b);
              b.setInsertionPointToStart(ifFirst.thenBlock());
              Value first = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ,
                                                  old, f32(negInf));
              Value alpha = arith::SelectOp::create(
                  b, first, f32(0),
                  math::ExpOp::create(b, arith::SubFOp::create(b, old, m)));
              memref::StoreOp::create(b, alpha, rows, ValueRange{rScale, r});
              memref::StoreOp::create(b, m, rows, ValueRange{rNext, r});
            });
            gpu::BarrierOp::create(b);
            // P V for the group's rows, over the scores' bytes.
            product(gRow, laneLoop, pTile, vTile, bk, dv, pvTile);
            gpu::BarrierOp::create(b);
            // O = O a + P V; l = l a + the slices' sums, m = the new maximum.
            laneLoop([&](Value id) {
              k.strided(id, bm, lanes, [&](Value r) {
                Value a =
                    memref::LoadOp::create(b, rows, ValueRange{rScale, r});
                Value l = arith::MulFOp::create(
                    b, memref::LoadOp::create(b, rows, ValueRange{rSum, r}), a);
                for (int64_t x = 0; x < rl; ++x)
                  l = arith::AddFOp::create(
                      b, l,
                      memref::LoadOp::create(
                          b, rows, ValueRange{k.add(rPartSum, k.idx(x)), r}));
                memref::StoreOp::create(b, l, rows, ValueRange{rSum, r});
                memref::StoreOp::create(
                    b, memref::LoadOp::create(b, rows, ValueRange{rNext, r}),
                    rows, ValueRange{rMax, r});
              });
              k.strided(id, bm * dv, lanes, [&](Value e) {
                Value r = k.div(e, dv), c = k.rem(e, dv);
                Value o = memref::LoadOp::create(b, oTile, ValueRange{r, c});
                Value a =
                    memref::LoadOp::create(b, rows, ValueRange{rScale, r});
                Value pv = memref::LoadOp::create(b, pvTile, ValueRange{r, c});
                Value next = arith::AddFOp::create(
                    b, arith::MulFOp::create(b, o, a), pv);
                memref::StoreOp::create(b, next, oTile, ValueRange{r, c});
              });
            });
            // The next tile's copies and products write only buffers whose last
            // readers the barriers above already waited for.
          }
          gpu::BarrierOp::create(b);
          // out = O / l for the queries that exist.
          Type outElem = getElementTypeOrSelf(ch.pv.c->get().getType());
          laneLoop([&](Value id) {
            k.strided(id, bm * dv, lanes, [&](Value e) {
              Value r = k.div(e, dv), c = k.rem(e, dv);
              Value query = k.add(q0, r);
              OpBuilder::InsertionGuard g2(b);
              if (partialQueries) {
                auto ifOp =
                    scf::IfOp::create(b, k.lt(query, k.idx(sh.queries)));
                b.setInsertionPointToStart(ifOp.thenBlock());
              }
              Value o = memref::LoadOp::create(b, oTile, ValueRange{r, c});
              Value l = memref::LoadOp::create(b, rows, ValueRange{rSum, r});
              Value v = arith::DivFOp::create(b, o, l);
              // PyTorch's safe softmax: 0 on rows with no score but -inf
              // (m stayed -inf). Without the flag a row with no key is
              // 0 / 0, as the separate ops give it.
              if (ch.flag) {
                Value m = memref::LoadOp::create(b, rows, ValueRange{rMax, r});
                Value some = arith::CmpFOp::create(b, arith::CmpFPredicate::UNE,
                                                   m, f32(negInf));
                v = arith::SelectOp::create(b, some, v, f32(0));
              }
              if (outElem != f32t)
                v = arith::TruncFOp::create(b, outElem, v);
              storeOutput(bh, query, c, v);
            });
          });
        });
      });
  setHierarchySchedule(kernel, s.toJson());
}
} // namespace

LogicalResult hierarchy::mapAttention(func::FuncOp func,
                                      const HierarchyLevels &levels,
                                      const hw::Description &chip) {
  SmallVector<linalg::LinalgOp> candidates;
  func.walk([&](linalg::LinalgOp op) {
    if (!op->getParentOfType<scf::ForallOp>() && succeeded(matchBatched(op)))
      candidates.push_back(op);
  });
  llvm::DenseSet<Operation *> erased;
  for (linalg::LinalgOp qk : candidates) {
    if (erased.contains(qk))
      continue;
    FailureOr<Chain> ch = matchChain(qk);
    if (failed(ch))
      continue;
    HierarchyAttentionChoice choice =
        chooseHierarchyAttentionSchedule(ch->shape, levels, chip);
    if (!choice.schedule) {
      ch->pv.op->emitRemark("strata-map-hierarchy: attention is mapped as "
                            "separate ops: ")
          << choice.error;
      continue;
    }
    if (!makeRoomAtSecondProduct(*ch)) {
      ch->pv.op->emitRemark("strata-map-hierarchy: attention is mapped as "
                            "separate ops: its output is one of its inputs, "
                            "or they are used by other ops between its first "
                            "and its second product");
      continue;
    }
    // The kernel builder reads only the levels of a contraction schedule.
    HierarchySchedule hs;
    hs.levels = levels;
    ImplicitLocOpBuilder b(ch->pv.op->getLoc(), ch->pv.op);
    AttentionEmitter(b, *ch, *choice.schedule, hs).emit();
    for (Operation *op : llvm::reverse(ch->ops)) {
      erased.insert(op);
      op->erase();
    }
  }
  return success();
}
