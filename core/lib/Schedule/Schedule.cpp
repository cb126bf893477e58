//===- Schedule.cpp - Schedules to and from JSON --------------------------===//
#include "strata/Schedule/Schedule.h"

#include "llvm/Support/FormatVariadic.h"

using namespace strata;
using nlohmann::json;

json Schedule::toJson() const {
  json doc = json::object();
  doc["kind"] = kind;
  if (!gridLevel.empty()) {
    doc["grid_level"] = gridLevel;
    doc["grid"] = grid;
  }
  json levels = json::array();
  for (const TileLevel &level : tiles)
    levels.push_back({{"memory", level.memory}, {"sizes", level.sizes}});
  doc["tiles"] = levels;
  doc["tile_order"] = tileOrder;
  doc["promote"] = promote;
  if (!multicast.empty())
    doc["multicast"] = multicast;
  if (!matrixIntrinsic.empty())
    doc["matrix_intrinsic"] = matrixIntrinsic;
  if (stages > 0)
    doc["stages"] = stages;
  doc["register"] = registerTile;
  doc["register_order"] = registerOrder;
  doc["vector_dim"] = vectorDim;
  doc["vector_width"] = vectorWidth;
  doc["partial_reduction"] = partialReduction;
  if (!bound.empty())
    doc["bound"] = bound;
  if (predictedSeconds > 0)
    doc["predicted_s"] = predictedSeconds;
  if (!footprints.empty()) {
    json fp = json::object();
    for (const auto &[level, bytes] : footprints)
      fp[level] = bytes;
    doc["footprint_bytes"] = fp;
  }
  return doc;
}

namespace {
/// Reads the fields of a schedule, recording the first error with its path.
class Reader {
public:
  Reader(const json &doc, size_t loops, const std::string &path)
      : doc(doc), loops(loops), path(path) {}

  std::string error;

  bool fail(const std::string &where, const std::string &what) {
    if (error.empty())
      error = where + ": " + what;
    return false;
  }

  bool string(const json &node, const std::string &where, std::string &out) {
    if (!node.is_string())
      return fail(where, "expected a string");
    out = node.get<std::string>();
    return true;
  }

  bool integer(const json &node, const std::string &where, int64_t &out) {
    if (!node.is_number_integer())
      return fail(where, "expected an integer");
    out = node.get<int64_t>();
    return true;
  }

  /// A list of non-negative integers; `perLoop` requires one per loop.
  bool list(const json &node, const std::string &where,
            std::vector<int64_t> &out, bool perLoop) {
    if (!node.is_array())
      return fail(where, "expected an array of integers");
    if (perLoop && node.size() != loops)
      return fail(where, llvm::formatv("expected {0} entries (one per loop of "
                                       "the op), got {1}",
                                       loops, node.size()));
    out.clear();
    for (size_t i = 0; i < node.size(); ++i) {
      int64_t value = 0;
      if (!integer(node[i], where + "/" + std::to_string(i), value))
        return false;
      if (value < 0)
        return fail(where + "/" + std::to_string(i), "expected >= 0");
      out.push_back(value);
    }
    return true;
  }

  /// A permutation of a subset of the loops.
  bool loopList(const json &node, const std::string &where,
                std::vector<int64_t> &out) {
    if (!list(node, where, out, false))
      return false;
    std::vector<bool> seen(loops, false);
    for (size_t i = 0; i < out.size(); ++i) {
      if (out[i] >= int64_t(loops) || seen[out[i]])
        return fail(
            where + "/" + std::to_string(i),
            llvm::formatv("expected a distinct loop index below {0}", loops));
      seen[out[i]] = true;
    }
    return true;
  }

  bool read(Schedule &s) {
    if (!doc.is_object())
      return fail(path, "expected an object");
    for (const auto &[key, value] : doc.items()) {
      std::string where = path + "/" + key;
      bool ok = true;
      if (key == "kind")
        ok = string(value, where, s.kind);
      else if (key == "grid_level")
        ok = string(value, where, s.gridLevel);
      else if (key == "grid")
        ok = list(value, where, s.grid, true);
      else if (key == "tiles")
        ok = levels(value, where, s.tiles);
      else if (key == "tile_order")
        ok = loopList(value, where, s.tileOrder);
      else if (key == "promote")
        ok = list(value, where, s.promote, false);
      else if (key == "multicast")
        ok = list(value, where, s.multicast, false);
      else if (key == "matrix_intrinsic")
        ok = string(value, where, s.matrixIntrinsic);
      else if (key == "stages")
        ok = integer(value, where, s.stages);
      else if (key == "register")
        ok = list(value, where, s.registerTile, true);
      else if (key == "register_order")
        ok = loopList(value, where, s.registerOrder);
      else if (key == "vector_dim")
        ok = integer(value, where, s.vectorDim);
      else if (key == "vector_width")
        ok = integer(value, where, s.vectorWidth);
      else if (key == "partial_reduction") {
        if (!value.is_boolean())
          ok = fail(where, "expected true or false");
        else
          s.partialReduction = value.get<bool>();
      } else if (key == "bound" || key == "predicted_s" ||
                 key == "footprint_bytes")
        continue; // the model's reasoning; informative only
      else
        ok = fail(where, "unknown field; expected one of kind, grid_level, "
                         "grid, tiles, tile_order, promote, multicast, "
                         "stages, matrix_intrinsic, register, register_order, "
                         "vector_dim, vector_width, partial_reduction");
      if (!ok)
        return false;
    }
    if (s.vectorDim >= int64_t(loops))
      return fail(path + "/vector_dim",
                  llvm::formatv("expected a loop index below {0}", loops));
    if (s.vectorWidth < 1)
      return fail(path + "/vector_width", "expected >= 1");
    if (!s.grid.empty() && s.gridLevel.empty())
      return fail(path + "/grid", "a grid needs a grid_level");
    if (s.registerTile.empty())
      s.registerTile.assign(loops, 1);
    return true;
  }

private:
  bool levels(const json &node, const std::string &where,
              std::vector<TileLevel> &out) {
    if (!node.is_array())
      return fail(where, "expected an array of {memory, sizes} objects");
    out.clear();
    for (size_t i = 0; i < node.size(); ++i) {
      std::string at = where + "/" + std::to_string(i);
      const json &entry = node[i];
      if (!entry.is_object() || !entry.contains("memory") ||
          !entry.contains("sizes"))
        return fail(at, "expected an object with memory and sizes");
      TileLevel level;
      if (!string(entry["memory"], at + "/memory", level.memory) ||
          !list(entry["sizes"], at + "/sizes", level.sizes, true))
        return false;
      out.push_back(std::move(level));
    }
    return true;
  }

  const json &doc;
  size_t loops;
  std::string path;
};
} // namespace

llvm::Expected<Schedule> Schedule::fromJson(const json &doc, size_t loops,
                                            const std::string &path) {
  Schedule s;
  Reader reader(doc, loops, path);
  if (!reader.read(s))
    return llvm::createStringError(reader.error);
  return s;
}
