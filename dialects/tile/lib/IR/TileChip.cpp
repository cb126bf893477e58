//===- TileChip.cpp - What the tile target reads from a description -------===//
#include "strata/Dialect/Tile/IR/TileChip.h"
#include "strata/Dialect/Strata/IR/StrataDialect.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace strata;
using namespace strata::tile;

int64_t TileChip::dstCapacity(bool f32) const {
  int64_t tiles = f32 ? dstTilesF32 : dstTilesBf16;
  return dstDoubleBuffered ? tiles / 2 : tiles;
}

int64_t TileChip::alignL1(int64_t bytes) const {
  return (bytes + l1Alignment - 1) / l1Alignment * l1Alignment;
}

/// A positive integer at `object[key]`.
static llvm::Expected<int64_t> positive(const nlohmann::json &object,
                                        const char *key, llvm::StringRef path) {
  auto it = object.is_object() ? object.find(key) : object.end();
  if (it == object.end() || !it->is_number() || it->get<double>() < 1)
    return llvm::createStringError(llvm::formatv(
        "{0}/{1}: expected a positive integer (the tile plugin's option)", path,
        key));
  return it->get<int64_t>();
}

/// A [rows, cols] pair of positive integers at `object[key]`.
static llvm::Error shape2(const nlohmann::json &object, const char *key,
                          int64_t &rows, int64_t &cols) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_array() || it->size() != 2 ||
      !(*it)[0].is_number_integer() || !(*it)[1].is_number_integer() ||
      (*it)[0].get<int64_t>() < 1 || (*it)[1].get<int64_t>() < 1)
    return llvm::createStringError(llvm::formatv(
        "/target_options/{0}: expected [rows, cols] of positive integers",
        key));
  rows = (*it)[0].get<int64_t>();
  cols = (*it)[1].get<int64_t>();
  return llvm::Error::success();
}

llvm::Expected<TileChip> TileChip::fromDescription(const hw::Description &d) {
  TileChip chip;
  chip.name = d.name;
  const nlohmann::json &options = d.targetOptions;
  if (!options.is_object())
    return llvm::createStringError(
        "/target_options: expected the tile plugin's options");

  auto grid = options.find("grid");
  if (grid == options.end())
    return llvm::createStringError(
        "/target_options/grid: expected {\"rows\": R, \"cols\": C}");
  auto rows = positive(*grid, "rows", "/target_options/grid");
  if (!rows)
    return rows.takeError();
  auto cols = positive(*grid, "cols", "/target_options/grid");
  if (!cols)
    return cols.takeError();
  chip.rows = *rows;
  chip.cols = *cols;

  // L1 is the scratchpad of one core; DRAM the level of kind "dram".
  const hw::MemoryLevel *l1 = nullptr, *dram = nullptr;
  for (const hw::MemoryLevel &level : d.memory) {
    if (level.kind == "scratchpad" && !l1)
      l1 = &level;
    if (level.kind == "dram" && !dram)
      dram = &level;
  }
  if (!l1 || !dram)
    return llvm::createStringError(
        "/memory: expected a \"dram\" level and a \"scratchpad\" level (L1)");
  chip.l1Name = l1->name;
  chip.l1Bytes = l1->capacityBytes;
  chip.l1Alignment = std::max<int64_t>(1, l1->alignmentBytes);
  chip.dramBanks = std::max<int64_t>(1, dram->banks);
  chip.dramBankBytes = dram->capacityBytes / chip.dramBanks;
  chip.dramAlignment = std::max<int64_t>(1, dram->alignmentBytes);

  if (llvm::Error e = shape2(options, "tile", chip.tileRows, chip.tileCols))
    return std::move(e);
  if (llvm::Error e = shape2(options, "face", chip.faceRows, chip.faceCols))
    return std::move(e);

  auto dst = options.find("dst");
  if (dst == options.end())
    return llvm::createStringError(
        "/target_options/dst: expected {\"tiles_bf16\": N, \"tiles_f32\": N, "
        "\"double_buffered\": B}");
  auto f32 = positive(*dst, "tiles_f32", "/target_options/dst");
  if (!f32)
    return f32.takeError();
  auto bf16 = positive(*dst, "tiles_bf16", "/target_options/dst");
  if (!bf16)
    return bf16.takeError();
  chip.dstTilesF32 = *f32;
  chip.dstTilesBf16 = *bf16;
  auto doubled = dst->find("double_buffered");
  chip.dstDoubleBuffered =
      doubled != dst->end() && doubled->is_boolean() && doubled->get<bool>();

  auto cbs = positive(options, "circular_buffers", "/target_options");
  if (!cbs)
    return cbs.takeError();
  chip.maxCircularBuffers = *cbs;

  for (const hw::MatrixIntrinsic &intrinsic : d.matrix) {
    for (const std::string &f : intrinsic.fidelities)
      if (std::find(chip.fidelities.begin(), chip.fidelities.end(), f) ==
          chip.fidelities.end())
        chip.fidelities.push_back(f);
    if (std::find(chip.matrixTypes.begin(), chip.matrixTypes.end(),
                  intrinsic.aType) == chip.matrixTypes.end())
      chip.matrixTypes.push_back(intrinsic.aType);
    if (intrinsic.inputMantissaBits > 0)
      chip.inputMantissaBits[intrinsic.aType] = intrinsic.inputMantissaBits;
    if (!intrinsic.defaultFidelity.empty())
      chip.defaultFidelityByType.emplace(intrinsic.aType,
                                         intrinsic.defaultFidelity);
    std::vector<std::string> &own = chip.fidelitiesByType[intrinsic.aType];
    for (const std::string &f : intrinsic.fidelities)
      if (std::find(own.begin(), own.end(), f) == own.end())
        own.push_back(f);
  }
  return chip;
}

llvm::Expected<std::optional<hw::Description>>
strata::tile::descriptionOf(mlir::Operation *op) {
  HardwareAttr hw = getHardwareAttr(op);
  if (!hw)
    return std::nullopt;
  hw::LoadResult result = hw::loadDescriptionJson(
      attributeToJson(hw.getDescription()), "<strata.hw>");
  if (!result)
    return llvm::createStringError("invalid 'strata.hw' description:\n" +
                                   result.formatErrors());
  return std::optional<hw::Description>(std::move(*result.description));
}
