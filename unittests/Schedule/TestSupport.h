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
