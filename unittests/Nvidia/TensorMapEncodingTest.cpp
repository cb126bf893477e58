//===- TensorMapEncodingTest.cpp - cuTensorMapEncodeTiled arguments -------===//
#include "TensorMapEncoding.h"

#include <gtest/gtest.h>

using namespace strata::nvidia;

namespace {

/// The A operand of a bf16 4096 x 2048 GEMM in boxes of 256 rows x 128 bytes.
TensorMapInfo operandA() {
  TensorMapInfo m;
  m.elementType = "bf16";
  m.dims = {4096, 2048};
  m.strides = {4096, 2};
  m.box = {256, 64};
  m.swizzleBytes = 128;
  m.l2PromotionBytes = 256;
  return m;
}

TEST(TensorMapEncoding, InnermostFirstWithDriverEnums) {
  auto e = tiledEncoding(operandA());
  ASSERT_TRUE(e.ok()) << e.status().message();
  EXPECT_EQ(e->dataType, 9); // CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
  EXPECT_EQ(e->rank, 2u);
  EXPECT_EQ(e->globalDim, (std::vector<uint64_t>{2048, 4096}));
  EXPECT_EQ(e->globalStride, (std::vector<uint64_t>{4096}));
  EXPECT_EQ(e->boxDim, (std::vector<uint32_t>{64, 256}));
  EXPECT_EQ(e->elementStride, (std::vector<uint32_t>{1, 1}));
  EXPECT_EQ(e->swizzle, 3);     // CU_TENSOR_MAP_SWIZZLE_128B
  EXPECT_EQ(e->l2Promotion, 3); // CU_TENSOR_MAP_L2_PROMOTION_L2_256B
  EXPECT_EQ(e->interleave, 0);
  EXPECT_EQ(e->oobFill, 0);
  TensorMapInfo f16 = operandA();
  f16.elementType = "f16";
  EXPECT_EQ(tiledEncoding(f16)->dataType, 6);
  EXPECT_EQ(sizeof(TensorMapBytes), 128u);
  EXPECT_EQ(alignof(TensorMapBytes), 64u);
}

TEST(TensorMapEncoding, RejectsWhatTheDriverDoesNotTake) {
  auto error = [](TensorMapInfo m) {
    auto e = tiledEncoding(m);
    return e.ok() ? std::string() : e.status().message();
  };
  TensorMapInfo m = operandA();
  m.box = {512, 64};
  EXPECT_NE(error(m).find("not in 1..256"), std::string::npos);
  m = operandA();
  m.strides = {4094, 2};
  EXPECT_NE(error(m).find("multiple of 16 bytes"), std::string::npos);
  m = operandA();
  m.elementType = "fp8e4m3";
  EXPECT_NE(error(m).find("no driver data type"), std::string::npos);
  m = operandA();
  m.swizzleBytes = 96;
  EXPECT_NE(error(m).find("no 96-byte swizzle"), std::string::npos);
  m = operandA();
  m.box = {256};
  EXPECT_NE(error(m).find("one rank"), std::string::npos);
}

} // namespace
