//===- ScheduleJsonTest.cpp - Schedules to and from JSON ------------------===//

#include "TestSupport.h"

#include "strata/Schedule/Schedule.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::test;
using nlohmann::json;

namespace {

/// The decisions of two schedules agree (the model's reasoning, `bound`,
/// `predicted_s` and `footprint_bytes`, is informative and not read back).
void expectSameDecisions(const Schedule &a, const Schedule &b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.gridLevel, b.gridLevel);
  EXPECT_EQ(a.grid, b.grid);
  ASSERT_EQ(a.tiles.size(), b.tiles.size());
  for (size_t i = 0; i < a.tiles.size(); ++i) {
    EXPECT_EQ(a.tiles[i].memory, b.tiles[i].memory) << i;
    EXPECT_EQ(a.tiles[i].sizes, b.tiles[i].sizes) << i;
  }
  EXPECT_EQ(a.tileOrder, b.tileOrder);
  EXPECT_EQ(a.promote, b.promote);
  EXPECT_EQ(a.registerTile, b.registerTile);
  EXPECT_EQ(a.registerOrder, b.registerOrder);
  EXPECT_EQ(a.vectorDim, b.vectorDim);
  EXPECT_EQ(a.vectorWidth, b.vectorWidth);
  EXPECT_EQ(a.partialReduction, b.partialReduction);
}

json withoutReasoning(json doc) {
  doc.erase("bound");
  doc.erase("predicted_s");
  doc.erase("footprint_bytes");
  return doc;
}

/// The error message of reading `doc` for an op with `loops` loops, or
/// "<no error>".
std::string readError(const json &doc, size_t loops = 3) {
  llvm::Expected<Schedule> s = Schedule::fromJson(doc, loops, "schedule");
  if (s)
    return "<no error>";
  return llvm::toString(s.takeError());
}

/// A valid schedule document for a 3-loop op with every field set.
json fullDocument() {
  return json::parse(R"({
    "kind": "contraction",
    "grid_level": "core",
    "grid": [516, 0, 0],
    "tiles": [{"memory": "l2", "sizes": [174, 0, 0]},
              {"memory": "l1", "sizes": [0, 0, 186]}],
    "tile_order": [1, 2, 0],
    "promote": [0, 1],
    "register": [6, 16, 1],
    "register_order": [1, 0, 2],
    "vector_dim": 1,
    "vector_width": 8,
    "partial_reduction": false
  })");
}

} // namespace

TEST(ScheduleJson, RoundTripOfModelSchedules) {
  for (const char *name : {"host-x86-avx512", "host-x86-avx2"}) {
    SCOPED_TRACE(name);
    hw::Description chip = loadShipped(name);
    for (const LoopNest &nest :
         {matmulNest(4096, 4096, 4096), matmulNest(7, 5, 3),
          elementwiseNest(1024, 1024, 2)}) {
      Schedule s = chooseSchedule(nest, chip);
      json doc = s.toJson();
      EXPECT_EQ(doc.at("bound"), s.bound);
      EXPECT_DOUBLE_EQ(doc.at("predicted_s").get<double>(), s.predictedSeconds);
      llvm::Expected<Schedule> back =
          Schedule::fromJson(doc, nest.extents.size(), "schedule");
      ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
      expectSameDecisions(s, *back);
      EXPECT_EQ(back->toJson(), withoutReasoning(doc));
      // Through text, as --schedule=FILE.json reads it.
      llvm::Expected<Schedule> text = Schedule::fromJson(
          json::parse(doc.dump(2)), nest.extents.size(), "schedule");
      ASSERT_TRUE(bool(text)) << llvm::toString(text.takeError());
      expectSameDecisions(s, *text);
    }
  }
}

TEST(ScheduleJson, RoundTripOfAHandWrittenSchedule) {
  Schedule s;
  s.kind = "reduction";
  s.gridLevel = "core";
  s.grid = {8, 0};
  s.tiles = {{"l1", {0, 256}}};
  s.tileOrder = {0, 1};
  s.promote = {};
  s.registerTile = {1, 64};
  s.registerOrder = {0, 1};
  s.vectorDim = 1;
  s.vectorWidth = 16;
  s.partialReduction = true;
  llvm::Expected<Schedule> back = Schedule::fromJson(s.toJson(), 2, "s");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  expectSameDecisions(s, *back);
  EXPECT_EQ(back->toJson(), s.toJson());
  // No grid: no grid fields are written, none are read back.
  s.gridLevel.clear();
  s.grid.clear();
  EXPECT_FALSE(s.toJson().contains("grid"));
  EXPECT_FALSE(s.toJson().contains("grid_level"));
  back = Schedule::fromJson(s.toJson(), 2, "s");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  expectSameDecisions(s, *back);
}

TEST(ScheduleJson, FullDocumentReads) {
  llvm::Expected<Schedule> s = Schedule::fromJson(fullDocument(), 3, "s");
  ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
  EXPECT_EQ(s->kind, "contraction");
  EXPECT_EQ(s->grid, (std::vector<int64_t>{516, 0, 0}));
  ASSERT_EQ(s->tiles.size(), 2u);
  EXPECT_EQ(s->tiles[1].memory, "l1");
  EXPECT_EQ(s->tiles[1].sizes, (std::vector<int64_t>{0, 0, 186}));
  EXPECT_EQ(s->registerTile, (std::vector<int64_t>{6, 16, 1}));
  EXPECT_EQ(s->vectorWidth, 8);
}

TEST(ScheduleJson, DefaultsOfAnEmptyDocument) {
  llvm::Expected<Schedule> s = Schedule::fromJson(json::object(), 3, "s");
  ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
  EXPECT_EQ(s->registerTile, (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(s->vectorDim, -1);
  EXPECT_EQ(s->vectorWidth, 1);
  EXPECT_TRUE(s->gridLevel.empty());
  EXPECT_TRUE(s->tiles.empty());
}

TEST(ScheduleJson, ReasoningIsIgnored) {
  json doc = fullDocument();
  doc["bound"] = "compute";
  doc["predicted_s"] = 0.5;
  doc["footprint_bytes"] = {{"l1", 1024}};
  EXPECT_EQ(readError(doc), "<no error>");
}

TEST(ScheduleJson, ErrorsNameThePath) {
  json doc = fullDocument();
  EXPECT_EQ(readError(doc), "<no error>");

  doc = fullDocument();
  doc["register"] = {6, 16};
  std::string error = readError(doc);
  EXPECT_NE(error.find("schedule/register"), std::string::npos) << error;
  EXPECT_NE(error.find("expected 3 entries"), std::string::npos) << error;
  EXPECT_NE(error.find("got 2"), std::string::npos) << error;

  doc = fullDocument();
  doc["registers"] = {6, 16, 1};
  error = readError(doc);
  EXPECT_NE(error.find("schedule/registers"), std::string::npos) << error;
  EXPECT_NE(error.find("unknown field"), std::string::npos) << error;

  doc = fullDocument();
  doc["register"] = json::parse(R"([6, "16", 1])");
  error = readError(doc);
  EXPECT_NE(error.find("schedule/register/1"), std::string::npos) << error;
  EXPECT_NE(error.find("expected an integer"), std::string::npos) << error;

  doc = fullDocument();
  doc["register"] = json::parse("[6, 16.5, 1]");
  error = readError(doc);
  EXPECT_NE(error.find("schedule/register/1"), std::string::npos) << error;
  EXPECT_NE(error.find("expected an integer"), std::string::npos) << error;

  doc = fullDocument();
  doc["register"] = json::parse("[6, -16, 1]");
  error = readError(doc);
  EXPECT_NE(error.find("schedule/register/1"), std::string::npos) << error;
  EXPECT_NE(error.find(">= 0"), std::string::npos) << error;

  doc = fullDocument();
  doc["register"] = "6x16";
  error = readError(doc);
  EXPECT_NE(error.find("schedule/register:"), std::string::npos) << error;
  EXPECT_NE(error.find("expected an array"), std::string::npos) << error;
}

TEST(ScheduleJson, ErrorsInNestedFields) {
  json doc = fullDocument();
  doc["tiles"][1]["sizes"] = {0, 186};
  std::string error = readError(doc);
  EXPECT_NE(error.find("schedule/tiles/1/sizes"), std::string::npos) << error;
  EXPECT_NE(error.find("expected 3 entries"), std::string::npos) << error;

  doc = fullDocument();
  doc["tiles"][0].erase("memory");
  error = readError(doc);
  EXPECT_NE(error.find("schedule/tiles/0"), std::string::npos) << error;
  EXPECT_NE(error.find("memory and sizes"), std::string::npos) << error;

  doc = fullDocument();
  doc["tiles"][0]["memory"] = 2;
  error = readError(doc);
  EXPECT_NE(error.find("schedule/tiles/0/memory"), std::string::npos) << error;
  EXPECT_NE(error.find("expected a string"), std::string::npos) << error;

  doc = fullDocument();
  doc["grid"] = {516, 0, 0, 0};
  error = readError(doc);
  EXPECT_NE(error.find("schedule/grid"), std::string::npos) << error;
  EXPECT_NE(error.find("expected 3 entries"), std::string::npos) << error;
}

TEST(ScheduleJson, ErrorsInLoopLists) {
  json doc = fullDocument();
  doc["tile_order"] = {1, 1, 0};
  std::string error = readError(doc);
  EXPECT_NE(error.find("schedule/tile_order/1"), std::string::npos) << error;
  EXPECT_NE(error.find("distinct loop index below 3"), std::string::npos)
      << error;

  doc = fullDocument();
  doc["register_order"] = {1, 0, 3};
  error = readError(doc);
  EXPECT_NE(error.find("schedule/register_order/2"), std::string::npos)
      << error;
  EXPECT_NE(error.find("below 3"), std::string::npos) << error;

  // A subset of the loops is a valid order.
  doc = fullDocument();
  doc["tile_order"] = {2};
  EXPECT_EQ(readError(doc), "<no error>");
}

TEST(ScheduleJson, ErrorsInScalarsAndConsistency) {
  json doc = fullDocument();
  doc["vector_dim"] = 3;
  std::string error = readError(doc);
  EXPECT_NE(error.find("schedule/vector_dim"), std::string::npos) << error;
  EXPECT_NE(error.find("below 3"), std::string::npos) << error;

  doc = fullDocument();
  doc["vector_dim"] = "1";
  error = readError(doc);
  EXPECT_NE(error.find("schedule/vector_dim"), std::string::npos) << error;
  EXPECT_NE(error.find("expected an integer"), std::string::npos) << error;

  doc = fullDocument();
  doc["vector_width"] = 0;
  error = readError(doc);
  EXPECT_NE(error.find("schedule/vector_width"), std::string::npos) << error;

  doc = fullDocument();
  doc["partial_reduction"] = 1;
  error = readError(doc);
  EXPECT_NE(error.find("schedule/partial_reduction"), std::string::npos)
      << error;
  EXPECT_NE(error.find("true or false"), std::string::npos) << error;

  doc = fullDocument();
  doc["kind"] = 7;
  error = readError(doc);
  EXPECT_NE(error.find("schedule/kind"), std::string::npos) << error;

  doc = fullDocument();
  doc.erase("grid_level");
  error = readError(doc);
  EXPECT_NE(error.find("schedule/grid"), std::string::npos) << error;
  EXPECT_NE(error.find("grid_level"), std::string::npos) << error;

  error = readError(json::array());
  EXPECT_NE(error.find("schedule: expected an object"), std::string::npos)
      << error;
}
