//===- TestSupport.h - Loop nests and chips for the schedule tests -*- C++ -*-//
#ifndef STRATA_UNITTESTS_SCHEDULE_TESTSUPPORT_H
#define STRATA_UNITTESTS_SCHEDULE_TESTSUPPORT_H

#include "strata/HW/Description.h"
#include "strata/Schedule/Model.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace strata::test {

/// A description shipped with Strata, loaded and validated.
inline hw::Description loadShipped(const std::string &name) {
  std::optional<std::string> text = hw::shippedDescriptionText(name);
  EXPECT_TRUE(text.has_value()) << name;
  if (!text)
    return hw::Description();
  hw::LoadResult result = hw::parseDescription(*text, "<" + name + ">");
  EXPECT_TRUE(result) << result.formatErrors();
  return result ? *result.description : hw::Description();
}

/// Shipped description `name` with `edit` applied to its JSON, validated.
inline hw::Description
editedShipped(const std::string &name,
              const std::function<void(nlohmann::json &)> &edit) {
  hw::Description chip = loadShipped(name);
  nlohmann::json doc = chip.document;
  edit(doc);
  hw::LoadResult result = hw::parseDescription(doc.dump(), "<edited>");
  EXPECT_TRUE(result) << result.formatErrors();
  return result ? *result.description : hw::Description();
}

/// A made-up chip with nested compute levels (blocks of groups of lanes)
/// and a scratchpad of `scratchpadBytes` per block: the hierarchy path.
inline nlohmann::json gridChipJson(int64_t scratchpadBytes = 102400) {
  return nlohmann::json::parse(R"({
    "name": "grid-chip", "plugin": "cpu", "arch": "x86-64",
    "summary": "a test chip with nested levels", "clock_hz": 1e9,
    "compute": [{"name": "chip", "count": 1}, {"name": "block", "count": 64},
                {"name": "group", "count": 4}, {"name": "lane", "count": 32}],
    "memory": [
      {"name": "dram", "kind": "dram", "capacity_bytes": 1073741824,
       "owner": "chip", "bandwidth_bytes_per_s": 1e12, "latency_cycles": 400,
       "alignment_bytes": 128},
      {"name": "tiles", "kind": "scratchpad", "capacity_bytes": 102400,
       "owner": "block", "bandwidth_bytes_per_s": 1e11, "latency_cycles": 20,
       "alignment_bytes": 16, "banks": 32}],
    "vector": {"width_bits": 1024, "element_types": ["f32", "f16"],
               "level": "block", "fma_pipes": 1, "fma_latency_cycles": 4,
               "registers": 255},
    "matrix": [{"name": "mm16x8x16", "m": 16, "n": 8, "k": 16, "a": "f16",
                "b": "f16", "acc": "f32", "level": "group",
                "cycles_per_instruction": 8}],
    "peaks_flops": {"f32": 4e12, "f16": 1.3e14}
  })")
      .patch(nlohmann::json::parse(R"([{"op": "replace",
                                "path": "/memory/1/capacity_bytes",
                                "value": )" +
                                   std::to_string(scratchpadBytes) + "}]"));
}

/// gridChipJson() with a group-level tf32 intrinsic (`mm16x8x8_tf32`)
/// besides f16's: f32 operands may use it when tf32 is allowed.
inline nlohmann::json tf32GridChipJson() {
  nlohmann::json doc = gridChipJson();
  doc["matrix"].push_back(nlohmann::json::parse(R"({
    "name": "mm16x8x8_tf32", "m": 16, "n": 8, "k": 8, "a": "tf32",
    "b": "tf32", "acc": "f32", "level": "group", "cycles_per_instruction": 8})"));
  doc["peaks_flops"]["tf32"] = 6.5e13;
  return doc;
}

/// Description `doc`, loaded and validated.
inline hw::Description loadJson(const nlohmann::json &doc) {
  hw::LoadResult result = hw::loadDescriptionJson(doc, "<grid-chip>");
  EXPECT_TRUE(result) << result.formatErrors();
  return result ? *result.description : hw::Description();
}

/// C[m, n] += A[m, k] * B[k, n] over loops (m, n, k), f32.
inline LoopNest matmulNest(int64_t m, int64_t n, int64_t k) {
  LoopNest nest;
  nest.extents = {m, n, k};
  nest.reduction = {false, false, true};
  nest.operands = {{{0, 2}, false}, {{2, 1}, false}, {{0, 1}, true}};
  return nest;
}

/// out[i, j] = f(in_0[i, j], ..., in_{inputs-1}[i, j]), f32, one FLOP per
/// element.
inline LoopNest elementwiseNest(int64_t rows, int64_t cols, int inputs) {
  LoopNest nest;
  nest.extents = {rows, cols};
  nest.reduction = {false, false};
  for (int i = 0; i < inputs; ++i)
    nest.operands.push_back({{0, 1}, false});
  nest.operands.push_back({{0, 1}, true});
  nest.flopsPerIteration = 1;
  return nest;
}

} // namespace strata::test

#endif // STRATA_UNITTESTS_SCHEDULE_TESTSUPPORT_H
