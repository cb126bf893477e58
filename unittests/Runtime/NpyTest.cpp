//===- NpyTest.cpp - .npy files of the runtime ----------------------------===//
#include "strata/rt/Npy.h"
#include "strata/rt/Check.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>

using namespace strata::rt;

namespace {

std::string tempPath(const char *name) {
  return std::string(::testing::TempDir()) + "/" + name;
}

TEST(Npy, RoundTripsEveryType) {
  for (ElementType type :
       {ElementType::F64, ElementType::F32, ElementType::F16, ElementType::BF16,
        ElementType::I64, ElementType::I32, ElementType::I16, ElementType::I8,
        ElementType::I1}) {
    TensorSpec spec{type, {3, 5}};
    std::vector<char> data(spec.bytes());
    fillRandom(data.data(), spec, 7);
    std::string path = tempPath("roundtrip.npy");
    ASSERT_TRUE(writeNpy(path, spec, data.data()).ok());
    auto back = readNpy(path);
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(back->shape, spec.shape);
    EXPECT_EQ(back->descr, npyDescr(type));
    EXPECT_EQ(back->data, data) << elementTypeName(type);
    EXPECT_TRUE(checkNpy(*back, spec, "x").ok());
  }
}

TEST(Npy, ScalarsAndVectors) {
  TensorSpec vector{ElementType::F32, {4}};
  float values[4] = {1, 2, 3, 4};
  std::string path = tempPath("vector.npy");
  ASSERT_TRUE(writeNpy(path, vector, values).ok());
  auto back = readNpy(path);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->shape, std::vector<int64_t>{4});
  TensorSpec scalar{ElementType::F32, {}};
  ASSERT_TRUE(writeNpy(path, scalar, values).ok());
  back = readNpy(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(back->shape.empty());
  EXPECT_EQ(back->data.size(), 4u);
}

TEST(Npy, MismatchesNameTheFileAndTheExpectation) {
  NpyArray array{"<f8", {2, 3}, std::vector<char>(48)};
  Status s = checkNpy(array, {ElementType::F32, {2, 3}}, "input #0 (a.npy)");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("input #0 (a.npy): expected 2x3 f32"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("found 2x3 '<f8'"), std::string::npos);
  array.descr = "<f4";
  s = checkNpy(array, {ElementType::F32, {3, 2}}, "x");
  EXPECT_FALSE(s.ok());
  // bf16 is read from its bit patterns.
  array = {"<u2", {4}, std::vector<char>(8)};
  EXPECT_TRUE(checkNpy(array, {ElementType::BF16, {4}}, "x").ok());
  EXPECT_FALSE(checkNpy(array, {ElementType::F16, {4}}, "x").ok());
}

TEST(Npy, RejectsBrokenFiles) {
  EXPECT_FALSE(parseNpy("", "empty.npy").ok());
  EXPECT_FALSE(parseNpy("PK\x03\x04 not numpy", "zip.npy").ok());
  TensorSpec spec{ElementType::F32, {8}};
  std::vector<float> values(8, 1.0f);
  std::string path = tempPath("whole.npy");
  ASSERT_TRUE(writeNpy(path, spec, values.data()).ok());
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  auto truncated = parseNpy(bytes.substr(0, bytes.size() - 4), "cut.npy");
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.status().message().find("cut.npy"), std::string::npos);
  EXPECT_NE(truncated.status().message().find("expected 32 bytes"),
            std::string::npos)
      << truncated.status().message();
  std::string fortran = bytes;
  size_t at = fortran.find("False");
  fortran.replace(at, 5, "True ");
  EXPECT_FALSE(parseNpy(fortran, "f.npy").ok());
  EXPECT_FALSE(parseNpy(bytes.substr(0, 20), "header.npy").ok());
  EXPECT_FALSE(readNpy(tempPath("does-not-exist.npy")).ok());
}

} // namespace
