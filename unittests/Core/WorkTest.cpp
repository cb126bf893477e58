//===- WorkTest.cpp - FLOP and byte estimates -----------------------------===//
#include "strata/Analysis/Work.h"
#include "strata/Pipeline/Compiler.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace strata;

namespace {

Work workOf(const char *source) {
  mlir::DialectRegistry registry;
  registerStrataDialects(registry);
  mlir::MLIRContext ctx(registry);
  auto module = mlir::parseSourceString<mlir::ModuleOp>(source, &ctx);
  EXPECT_TRUE(module);
  return estimateWork(*module->getOps<mlir::func::FuncOp>().begin());
}

TEST(Work, MatmulIsTwoMNK) {
  Work w = workOf(R"mlir(
    func.func @mm(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>,
                  %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
      %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>)
                         outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
      return %r : tensor<8x4xf32>
    })mlir");
  EXPECT_EQ(w.flops, 2.0 * 8 * 16 * 4);
  EXPECT_EQ(w.bytes, 4.0 * (8 * 16 + 16 * 4 + 8 * 4 + 8 * 4));
}

TEST(Work, MixedPrecisionMatmulIsTwoMNK) {
  Work w = workOf(R"mlir(
    func.func @mm(%a: tensor<8x16xbf16>, %b: tensor<16x4xbf16>,
                  %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
      %r = linalg.matmul ins(%a, %b : tensor<8x16xbf16>, tensor<16x4xbf16>)
                         outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
      return %r : tensor<8x4xf32>
    })mlir");
  EXPECT_EQ(w.flops, 2.0 * 8 * 16 * 4); // the two extf are not arithmetic
}

TEST(Work, ElementwiseCountsBodyOps) {
  Work w = workOf(R"mlir(
    func.func @ew(%x: tensor<10xf32>) -> tensor<10xf32> {
      %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>,
                                            affine_map<(i) -> (i)>],
                           iterator_types = ["parallel"]}
          ins(%x : tensor<10xf32>) outs(%x : tensor<10xf32>) {
      ^bb0(%a: f32, %o: f32):
        %c = arith.constant 1.0 : f32
        %s = arith.addf %a, %c : f32
        %e = math.exp %s : f32
        linalg.yield %e : f32
      } -> tensor<10xf32>
      return %r : tensor<10xf32>
    })mlir");
  EXPECT_EQ(w.flops, 20.0); // addf + exp, constants are free
}

TEST(Work, RooflineTakesTheSlowerBound) {
  hw::DerivedModel model;
  hw::TypePeak peak;
  peak.elementType = "f32";
  peak.flops = 100;
  model.peaks.push_back(peak);
  hw::MemoryModel dram;
  dram.name = "dram";
  dram.bandwidthTotal = 10;
  model.memory.push_back(dram);
  EXPECT_DOUBLE_EQ(rooflineSeconds(model, {1000, 50}, "f32"), 10.0);
  EXPECT_DOUBLE_EQ(rooflineSeconds(model, {100, 500}, "f32"), 50.0);
  EXPECT_EQ(rooflineSeconds(model, {100, 500}, "bf16"), 0.0);
}

} // namespace
