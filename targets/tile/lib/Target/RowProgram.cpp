//===- RowProgram.cpp - Programs over whole rows (softmax) ----------------===//
//
// Each core takes tile-rows round robin and keeps a whole row of tiles in
// L1 while the compute kernel makes its passes over it: a reduction
// (tile.reduce of every tile of the row into column 0 of one Dst tile,
// packed to a vector buffer), or an elementwise pass (each tile through
// the expression, a per-row vector operand broadcast along the columns:
// one the program made, or one read from DRAM a tile per row; a
// per-column vector is a row of tiles read from DRAM for each row). Every
// buffer is filled once per row and freed at its end; the inputs' buffers
// hold two rows so the reader fetches the next row during this one.
//
//===----------------------------------------------------------------------===//
#include "KernelText.h"
#include "Programs.h"

using namespace strata::tile;

namespace {
/// Opens the loop over this core's tile-rows and the guard of the last
/// round; returns the tile-row.
std::string beginRows(KernelText &k, const RowPlan &p) {
  int64_t units = p.rows * p.cols;
  std::string row = k.value("tile.core_row"), col = k.value("tile.core_col");
  std::string core = k.add(k.mul(row, k.c(p.cols)), col);
  std::string round = k.beginFor((p.rowTiles + units - 1) / units);
  std::string r = k.add(k.mul(round, k.c(units)), core);
  k.beginIf(k.cmp("ult", r, k.c(p.rowTiles)));
  return r;
}

const RowPlan::Buffer *find(const RowPlan &p, const std::string &name) {
  for (const RowPlan::Buffer &b : p.buffers)
    if (b.name == name)
      return &b;
  return nullptr;
}

std::string tileType(const RowPlan &p, const std::string &type) {
  return llvm::formatv("!tile.tile<{0}x{1}x{2}>", p.tileRows, p.tileCols, type)
      .str();
}
} // namespace

llvm::Expected<std::string> strata::tile::writeRowProgram(const RowPlan &p) {
  std::string range =
      llvm::formatv("cores [0, 0]-[{0}, {1}]", p.rows - 1, p.cols - 1);
  std::string text = "tile.program @" + p.name + " {\n";
  for (const TensorDecl &t : p.tensors)
    text += declareTensor(t);
  for (const RowPlan::Buffer &b : p.buffers)
    text +=
        llvm::formatv("  tile.circular_buffer @{0} {1} : !tile.cb<{2}x{3}>\n",
                      b.name, range, b.tiles, tileType(p, b.type));

  KernelText reader;
  std::string r = beginRows(reader, p);
  for (const auto &[tensor, buffer] : p.inputs) {
    std::string cb = "@" + buffer;
    if (find(p, buffer)->vector) {
      // A value per row: the row's one tile of the column.
      reader.line("tile.cb_reserve_back " + cb + ", " + reader.c(1));
      std::string ptr = reader.value("tile.cb_write_ptr " + cb);
      reader.line(llvm::formatv("tile.noc_read_tile @{0}[{1}] -> {2}",
                                tensor.name, r, ptr));
      reader.line("tile.noc_read_barrier");
      reader.line("tile.cb_push_back " + cb + ", " + reader.c(1));
      continue;
    }
    reader.line("tile.cb_reserve_back " + cb + ", " + reader.c(p.colTiles));
    std::string ptr = reader.value("tile.cb_write_ptr " + cb);
    std::string first = reader.mul(r, reader.c(p.colTiles));
    std::string t = reader.beginFor(p.colTiles);
    int64_t bytes = p.tileRows * p.tileCols * (tensor.type == "bf16" ? 2 : 4);
    // A per-column vector (every row of its tiles the same) is read again
    // for each row.
    std::string page = tensor.replicateRows ? t : reader.add(first, t);
    reader.line(llvm::formatv("tile.noc_read_tile @{0}[{1}] -> {2}",
                              tensor.name, page,
                              reader.add(ptr, reader.mul(t, reader.c(bytes)))));
    reader.end();
    reader.line("tile.noc_read_barrier");
    reader.line("tile.cb_push_back " + cb + ", " + reader.c(p.colTiles));
  }
  reader.end();
  reader.end();

  KernelText compute;
  beginRows(compute, p);
  for (const auto &[tensor, buffer] : p.inputs)
    compute.line(
        llvm::formatv("tile.cb_wait_front @{0}, {1}", buffer,
                      compute.c(find(p, buffer)->vector ? 1 : p.colTiles)));
  for (const RowPlan::Step &step : p.steps) {
    const RowPlan::Buffer *result = find(p, step.result);
    bool vector = result && result->vector;
    if (!step.reduce.empty()) {
      compute.line("tile.acquire_dst");
      std::string t = compute.beginFor(p.colTiles);
      compute.line(llvm::formatv("tile.reduce {0} row @{1}[{2}] -> dst[{3}]",
                                 step.reduce, step.operands[0], t,
                                 compute.c(0)));
      compute.end();
    } else if (vector) {
      compute.line("tile.acquire_dst");
      std::vector<std::string> tiles(step.operands.size(), compute.c(0));
      if (llvm::Error error = emitExpression(compute, step.expression,
                                             step.operands, tiles, ""))
        return std::move(error);
    } else {
      std::string t = compute.beginFor(p.colTiles);
      compute.line("tile.acquire_dst");
      std::vector<std::string> tiles;
      std::vector<bool> broadcast;
      for (const std::string &operand : step.operands) {
        bool isVector = find(p, operand)->vector;
        tiles.push_back(isVector ? compute.c(0) : t);
        broadcast.push_back(isVector);
      }
      if (llvm::Error error = emitExpression(
              compute, step.expression, step.operands, tiles, "", broadcast))
        return std::move(error);
    }
    compute.line("tile.commit_dst");
    compute.line("tile.wait_dst");
    // The result's tile into its buffer, and a result also sent to DRAM
    // a second time into its output buffer.
    for (const std::string &cb : {step.result, step.copyTo}) {
      if (cb.empty())
        continue;
      compute.line(
          llvm::formatv("tile.cb_reserve_back @{0}, {1}", cb, compute.c(1)));
      compute.line(llvm::formatv(
          "tile.pack_tile dst[{0}] -> @{1}[{2}]",
          compute.c(step.reduce.empty() ? step.expression.result : 0), cb,
          compute.c(0)));
      compute.line(
          llvm::formatv("tile.cb_push_back @{0}, {1}", cb, compute.c(1)));
    }
    compute.line("tile.release_dst");
    if (step.reduce.empty() && !vector)
      compute.end();
    // The row's results are read from the front: wait for all of them.
    if (step.result != "out")
      compute.line(llvm::formatv("tile.cb_wait_front @{0}, {1}", step.result,
                                 compute.c(vector ? 1 : p.colTiles)));
  }
  for (const RowPlan::Buffer &b : p.buffers)
    if (b.name != "out" && !llvm::any_of(p.extraOuts, [&](const auto &o) {
          return o.second == b.name;
        }))
      compute.line(llvm::formatv("tile.cb_pop_front @{0}, {1}", b.name,
                                 compute.c(b.vector ? 1 : p.colTiles)));
  compute.end();
  compute.end();

  KernelText writer;
  r = beginRows(writer, p);
  // Each row's results in the order the steps make them; a vector result:
  // one tile per tile-row.
  std::vector<std::pair<const TensorDecl *, std::string>> outs;
  for (const auto &[tensor, buffer] : p.extraOuts)
    outs.push_back({&tensor, buffer});
  outs.push_back({&p.out, "out"});
  for (const auto &[tensor, buffer] : outs) {
    int64_t outTiles = tensor->column ? 1 : p.colTiles;
    std::string first = writer.mul(r, writer.c(outTiles));
    std::string t = writer.beginFor(outTiles);
    writer.line("tile.cb_wait_front @" + buffer + ", " + writer.c(1));
    std::string ptr = writer.value("tile.cb_read_ptr @" + buffer);
    writer.line(llvm::formatv("tile.noc_write_tile {0} -> @{1}[{2}]", ptr,
                              tensor->name, writer.add(first, t)));
    writer.line("tile.noc_write_barrier");
    writer.line("tile.cb_pop_front @" + buffer + ", " + writer.c(1));
    writer.end();
  }
  writer.end();
  writer.end();

  text += reader.str("tile.kernel reader " + range);
  text += compute.str("tile.kernel compute " + range +
                      " attributes {dst_type = f32}");
  text += writer.str("tile.kernel writer " + range);
  return text + "}\n";
}
