//===- TensorMapEncoding.cpp - cuTensorMapEncodeTiled arguments -----------===//
//
// Enum values from cuda.h (CUDA 12): CUtensorMapDataType (uint8 0, uint16 1,
// uint32 2, int32 3, uint64 4, int64 5, float16 6, float32 7, float64 8,
// bfloat16 9), CUtensorMapSwizzle (none 0, 32B 1, 64B 2, 128B 3),
// CUtensorMapL2promotion (none 0, 64B 1, 128B 2, 256B 3).
//
//===----------------------------------------------------------------------===//
#include "TensorMapEncoding.h"

#include <string>

using namespace strata;
using namespace strata::nvidia;

rt::Result<TiledEncoding>
strata::nvidia::tiledEncoding(const TensorMapInfo &map) {
  auto fail = [&](const std::string &why) {
    return rt::Status::error("tensor map: " + why);
  };
  using std::to_string;
  TiledEncoding e;
  static const std::pair<const char *, int> types[] = {
      {"i8", 0},  {"i16", 1}, {"i32", 3}, {"i64", 5},
      {"f16", 6}, {"f32", 7}, {"f64", 8}, {"bf16", 9}};
  e.dataType = -1;
  for (auto [name, value] : types)
    if (map.elementType == name)
      e.dataType = value;
  if (e.dataType < 0)
    return fail("no driver data type for '" + map.elementType + "'");
  size_t rank = map.dims.size();
  if (rank == 0 || rank > 5 || map.strides.size() != rank ||
      map.box.size() != rank)
    return fail("dims, strides and box need one rank from 1 to 5");
  e.rank = uint32_t(rank);
  for (size_t i = rank; i-- > 0;) {
    if (map.box[i] < 1 || map.box[i] > 256 || map.dims[i] < 1)
      return fail("box extent " + to_string(map.box[i]) + " of dim " +
                  to_string(i) + " is not in 1..256");
    e.globalDim.push_back(uint64_t(map.dims[i]));
    e.boxDim.push_back(uint32_t(map.box[i]));
    e.elementStride.push_back(1);
    if (i + 1 < rank) { // every dim but the innermost
      if (map.strides[i] % 16)
        return fail("stride " + to_string(map.strides[i]) + " of dim " +
                    to_string(i) + " is not a multiple of 16 bytes");
      e.globalStride.push_back(uint64_t(map.strides[i]));
    }
  }
  switch (map.swizzleBytes) {
  case 0:
    e.swizzle = 0;
    break;
  case 32:
    e.swizzle = 1;
    break;
  case 64:
    e.swizzle = 2;
    break;
  case 128:
    e.swizzle = 3;
    break;
  default:
    return fail("no " + to_string(map.swizzleBytes) + "-byte swizzle");
  }
  switch (map.l2PromotionBytes) {
  case 0:
    e.l2Promotion = 0;
    break;
  case 64:
    e.l2Promotion = 1;
    break;
  case 128:
    e.l2Promotion = 2;
    break;
  case 256:
    e.l2Promotion = 3;
    break;
  default:
    return fail("no " + to_string(map.l2PromotionBytes) + "-byte L2 promotion");
  }
  return e;
}
