//===- SwizzledTiles.cpp - Scratchpad tiles for wgmma ---------------------===//
//
// nvidia-swizzle-tiles, on the mapped IR before nvidia-grid-to-gpu: wgmma
// reads its operands from shared memory through matrix descriptors, in
// rows of 128 bytes whose 16-byte chunks are permuted by the row (the
// 128-byte swizzle, the layout TMA writes): element (r, c) of an R x C tile
// of E elements per 128-byte row and V per 16-byte chunk lives at
//
//   (c / E) * R * E + r * E + (((c mod E) / V) xor (r mod 8)) * V + c mod V
//
// so a tile wider than one row of 128 bytes is a sequence of R x E column
// panels (B, n contiguous: the MN-major layout; A, with C = E: K-major).
// Eight consecutive rows (1024 bytes) are one swizzle atom: tiles must be
// 1024-byte aligned, which the core's tile sizes (multiples of 8 rows of
// 128 bytes) keep. The core's stores into a tile (16-byte vector copies at
// chunk boundaries, or scalars) are rewritten to a flattened view of it;
// the contractions' reads stay on the tile, whose address the descriptors
// take (WarpgroupMma.cpp).
//
//===----------------------------------------------------------------------===//
#include "SwizzledTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace strata::nvidia {

bool isWarpgroupIntrinsic(llvm::StringRef intrinsic) {
  return intrinsic.starts_with("wgmma_");
}

namespace {

/// Rewrites the stores into `tile` (R x C) to stores into its flat view at
/// the swizzled position.
LogicalResult swizzle(Value tile) {
  auto type = cast<MemRefType>(tile.getType());
  int64_t bytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  int64_t perRow = 128 / bytes, perChunk = 16 / bytes;
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  Operation *def = tile.getDefiningOp();
  if (type.getRank() != 2 || !type.hasStaticShape() || cols % perRow ||
      rows % 8)
    return def->emitError("nvidia-swizzle-tiles: a wgmma operand tile needs "
                          "rows of a multiple of 128 bytes and a multiple of "
                          "8 rows, not ")
           << type;
  if (auto view = dyn_cast<memref::ViewOp>(def)) {
    std::optional<int64_t> offset = getConstantIntValue(view.getByteShift());
    if (!offset || *offset % 1024)
      return def->emitError("nvidia-swizzle-tiles: a wgmma operand tile must "
                            "start at a multiple of 1024 bytes");
  }
  ImplicitLocOpBuilder b(def->getLoc(), def);
  b.setInsertionPointAfter(def);
  Value flat = memref::CollapseShapeOp::create(
      b, tile, ArrayRef<ReassociationIndices>{{0, 1}});
  SmallVector<Operation *> stores;
  for (Operation *user : tile.getUsers())
    if (isa<vector::StoreOp, memref::StoreOp>(user))
      stores.push_back(user);
  for (Operation *store : stores) {
    b.setInsertionPoint(store);
    b.setLoc(store->getLoc());
    auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
    auto indices = isa<vector::StoreOp>(store)
                       ? cast<vector::StoreOp>(store).getIndices()
                       : cast<memref::StoreOp>(store).getIndices();
    Value r = indices[0], c = indices[1];
    if (auto vs = dyn_cast<vector::StoreOp>(store))
      if (vs.getVectorType().getNumElements() > perChunk)
        return store->emitError("nvidia-swizzle-tiles: a store into a wgmma "
                                "operand tile moves at most 16 bytes");
    Value panel = arith::MulIOp::create(
        b, arith::DivUIOp::create(b, c, cst(perRow)), cst(rows * perRow));
    Value row = arith::MulIOp::create(b, r, cst(perRow));
    Value within = arith::RemUIOp::create(b, c, cst(perRow));
    Value chunk = arith::XOrIOp::create(
        b, arith::DivUIOp::create(b, within, cst(perChunk)),
        arith::RemUIOp::create(b, r, cst(8)));
    Value index = arith::AddIOp::create(
        b, arith::AddIOp::create(b, panel, row),
        arith::AddIOp::create(b, arith::MulIOp::create(b, chunk, cst(perChunk)),
                              arith::RemUIOp::create(b, c, cst(perChunk))));
    if (auto vs = dyn_cast<vector::StoreOp>(store)) {
      auto flatStore = vector::StoreOp::create(b, vs.getValueToStore(), flat,
                                               ValueRange{index});
      if (std::optional<uint64_t> align = vs.getAlignment())
        flatStore.setAlignment(*align);
    } else {
      memref::StoreOp::create(b, cast<memref::StoreOp>(store).getValue(), flat,
                              ValueRange{index});
    }
    store->erase();
  }
  return success();
}

struct SwizzleTiles
    : public PassWrapper<SwizzleTiles, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SwizzleTiles)
  StringRef getArgument() const override { return "nvidia-swizzle-tiles"; }
  StringRef getDescription() const override {
    return "Lay out the scratchpad tiles read by wgmma contractions as the "
           "128-byte swizzle";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, memref::MemRefDialect,
                    vector::VectorDialect>();
  }
  void runOnOperation() override {
    llvm::SetVector<Value> tiles;
    getOperation().walk([&](vector::ContractionOp contract) {
      auto intrinsic = contract->getAttrOfType<StringAttr>("strata.intrinsic");
      if (!intrinsic || !isWarpgroupIntrinsic(intrinsic.getValue()))
        return;
      for (Value operand : {contract.getLhs(), contract.getRhs()})
        if (auto read = operand.getDefiningOp<vector::TransferReadOp>())
          tiles.insert(read.getBase());
    });
    for (Value tile : tiles)
      if (failed(swizzle(tile)))
        return signalPassFailure();
  }
};
} // namespace

std::unique_ptr<Pass> createSwizzleTilesPass() {
  return std::make_unique<SwizzleTiles>();
}

void registerSwizzleTilesPass() { PassRegistration<SwizzleTiles>(); }

} // namespace strata::nvidia
