//===- DescriptionFuzzer.cpp - libFuzzer entry for the loader -------------===//
//
// Feeds arbitrary bytes to the description parser and, when they form a
// valid description, derives and prints its model. Any crash, sanitizer
// report or escaping exception is a bug.
//
//===----------------------------------------------------------------------===//

#include "strata/HW/Model.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const strata::hw::LoadOptions options{{"cpu", "nvidia", "tile"}};
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  strata::hw::LoadResult result =
      strata::hw::parseDescription(text, "<fuzz>", options);
  std::string errors = result.formatErrors();
  if (result) {
    const strata::hw::Description &desc = *result.description;
    strata::hw::DerivedModel model = strata::hw::deriveModel(desc);
    std::string printed =
        strata::hw::formatModel(desc, model) + strata::hw::formatSummary(desc);
    for (const strata::hw::ComputeLevel &level : desc.compute)
      (void)desc.totalUnits(level.name);
  }
  return 0;
}
