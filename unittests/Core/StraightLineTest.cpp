//===- StraightLineTest.cpp - Helpers for straight-line scratchpad code ---===//
#include "strata/Codegen/BlockGrid.h"
#include "strata/Codegen/BodyValues.h"
#include "strata/Codegen/Hazards.h"
#include "strata/Pipeline/Compiler.h"
#include "strata/Schedule/Attributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::codegen;

namespace {

struct Program {
  Program(const char *source) : ctx(registry()) {
    ctx.loadAllAvailableDialects();
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &ctx);
    EXPECT_TRUE(module);
    module->walk([&](mlir::linalg::LinalgOp op) { ops.push_back(op); });
  }
  static mlir::DialectRegistry registry() {
    mlir::DialectRegistry r;
    registerStrataDialects(r);
    return r;
  }
  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::vector<mlir::linalg::LinalgOp> ops;
};

const char *kMatmul = R"mlir(
  func.func @mm(%a: memref<100x64xbf16>, %b: memref<64x48xbf16>,
                %c: memref<100x48xf32>) {
    %z = arith.constant 0.0 : f32
    linalg.fill ins(%z : f32) outs(%c : memref<100x48xf32>)
    linalg.matmul ins(%a, %b : memref<100x64xbf16>, memref<64x48xbf16>)
                  outs(%c : memref<100x48xf32>)
    return
  })mlir";

TEST(BlockGrid, BlocksStepsAndBoxesFollowTheSchedule) {
  Program p(kMatmul);
  mlir::linalg::LinalgOp mm = p.ops[1];
  Schedule s;
  s.kind = "contraction";
  s.tiles = {{"spad", {32, 0, 16}}}; // m 32, n whole, k 16
  s.registerTile = {1, 1, 1};
  setSchedule(mm, s);
  auto grid = BlockGrid::of(mm);
  ASSERT_TRUE(succeeded(grid));
  EXPECT_EQ(grid->block, (Ints{32, 48, 16}));
  EXPECT_EQ(grid->numBlocks(), 4); // ceil(100 / 32) x 1
  EXPECT_EQ(grid->numSteps(), 4);  // 64 / 16
  Ints at = grid->start(3, 2);     // the ragged last block, third step
  EXPECT_EQ(at, (Ints{96, 0, 32}));
  EXPECT_EQ(grid->sizesAt(at), (Ints{4, 48, 16}));
  Box a = grid->box(mm.getDpsInputOperand(0), at);
  EXPECT_EQ(a.start, (Ints{96, 32}));
  EXPECT_EQ(a.size, (Ints{4, 16}));
  EXPECT_EQ(boxView({100, 64}, a), (Ints{96 * 64 + 32, 64, 1}));
  // B (k x n) walked by the loops (m, n, k): m does not index it.
  EXPECT_EQ(grid->loopStrides(mm.getDpsInputOperand(1), {16, 48}),
            (Ints{0, 1, 48}));
  EXPECT_EQ(grid->boxElements(mm.getDpsInputOperand(0)), 32 * 16);
  EXPECT_TRUE(grid->shrinkUntil(
      [](const BlockGrid &g) { return g.points() <= 32 * 12 * 16; }));
  EXPECT_EQ(grid->block, (Ints{16, 24, 16})); // n halved, then m
}

TEST(BlockGrid, ProductRolesOfAMatmulAndNotOfAFill) {
  Program p(kMatmul);
  auto roles = productRoles(p.ops[1]);
  ASSERT_TRUE(succeeded(roles));
  EXPECT_EQ(roles->m, 0);
  EXPECT_EQ(roles->n, 1);
  EXPECT_EQ(roles->k, 2);
  EXPECT_EQ(roles->a, p.ops[1].getDpsInputOperand(0));
  EXPECT_EQ(roles->b, p.ops[1].getDpsInputOperand(1));
  EXPECT_TRUE(failed(productRoles(p.ops[0])));
}

TEST(BlockGrid, UnscheduledOpIsOneBlock) {
  Program p(kMatmul);
  auto grid = BlockGrid::of(p.ops[0]);
  ASSERT_TRUE(succeeded(grid));
  EXPECT_EQ(grid->numBlocks(), 1);
  EXPECT_EQ(grid->numSteps(), 1);
  EXPECT_EQ(rowMajorStrides({3, 4, 5}), (Ints{20, 5, 1}));
}

TEST(BodyValues, ZeroFillConstantsAndDirectWriter) {
  Program p(kMatmul);
  EXPECT_EQ(zeroFillBefore(p.ops[1]).getOperation(), p.ops[0].getOperation());
  EXPECT_FALSE(zeroFillBefore(p.ops[0]));
  EXPECT_EQ(constantValue(p.ops[0].getDpsInputOperand(0)->get()), 0.0);
  // The matmul's body yields its add, and nothing reads the output later.
  mlir::Operation *direct = directWriter(p.ops[1]);
  ASSERT_TRUE(direct);
  EXPECT_EQ(direct->getName().getStringRef(), "arith.addf");
}

TEST(BodyValues, SlotsAreReusedOnceDead) {
  Program p(R"mlir(
    func.func @f(%x: memref<8xf32>, %y: memref<8xf32>) {
      linalg.generic {indexing_maps = [affine_map<(i) -> (i)>,
                                       affine_map<(i) -> (i)>],
                      iterator_types = ["parallel"]}
          ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) {
      ^bb0(%a: f32, %o: f32):
        %0 = math.exp %a : f32
        %1 = arith.mulf %0, %0 : f32
        %2 = math.tanh %1 : f32
        %3 = arith.addf %2, %a : f32
        linalg.yield %3 : f32
      }
      return
    })mlir");
  mlir::Operation *direct = directWriter(p.ops[0]);
  BodySlots slots = assignBodySlots(p.ops[0], direct);
  EXPECT_EQ(slots.types.size(), 1u); // %0, %1, %2 share one slot
  EXPECT_EQ(slots.slotOf.size(), 3u);
  EXPECT_EQ(slots.slotOf.count(direct->getResult(0)), 0u);
}

TEST(Hazards, WaitsForWritersAndReadersInProgramOrder) {
  Program p(kMatmul);
  // Any values serve as buffers and tokens.
  auto args = p.module->lookupSymbol<mlir::func::FuncOp>("mm").getArguments();
  mlir::Value bufA = args[0], bufB = args[1];
  mlir::Value t1 = p.ops[0]->getOperand(0), t2 = args[2], t3 = args[1];
  Hazards h;
  EXPECT_TRUE(h.after({bufA}, {bufB}).empty());
  h.record(t1, {}, {bufA});     // t1 writes A
  h.record(t2, {bufA}, {bufB}); // t2 reads A, writes B
  EXPECT_EQ(h.after({bufB}, {}), (llvm::SmallVector<mlir::Value>{t2}));
  // Writing A waits for its writer and its reader, in program order.
  EXPECT_EQ(h.after({}, {bufA}), (llvm::SmallVector<mlir::Value>{t1, t2}));
  h.record(t3, {}, {bufA});
  EXPECT_EQ(h.after({}, {bufA}), (llvm::SmallVector<mlir::Value>{t3}));
}

} // namespace
