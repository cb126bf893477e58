//===- EltwiseProgram.cpp - The elementwise program -----------------------===//
//
// Output tile t (row-major over the output's tiles) goes to core
// t mod (rows x cols), numbered row-major. Per tile, the reader reads the
// matching tile of every input (of a row-broadcast input, the tile of its
// column), the compute kernel evaluates the expression in Dst and packs the
// result, the writer writes it. Buffers hold `depth` tiles, so reads run
// ahead of the compute kernel. A transpose reads the input tile at the
// transposed position and transposes it while unpacking (transpose_wh_tile).
//
//===----------------------------------------------------------------------===//
#include "KernelText.h"
#include "Programs.h"

using namespace strata::tile;

namespace {
/// Opens the loop over this core's tiles and the guard of the last round;
/// returns the tile index.
std::string beginTiles(KernelText &k, const EltwisePlan &p) {
  int64_t units = p.rows * p.cols, tiles = p.rowTiles * p.colTiles;
  std::string row = k.value("tile.core_row"), col = k.value("tile.core_col");
  std::string core = k.add(k.mul(row, k.c(p.cols)), col);
  std::string round = k.beginFor((tiles + units - 1) / units);
  std::string t = k.add(k.mul(round, k.c(units)), core);
  k.beginIf(k.cmp("ult", t, k.c(tiles)));
  return t;
}

void endTiles(KernelText &k) {
  k.end();
  k.end();
}

} // namespace

std::string strata::tile::writeEltwiseProgram(const EltwisePlan &p) {
  std::string range =
      llvm::formatv("cores [0, 0]-[{0}, {1}]", p.rows - 1, p.cols - 1);
  std::string text = "tile.program @" + p.name + " {\n";
  for (const TensorDecl &t : p.tensors)
    text += declareTensor(t);
  auto buffer = [&](const std::string &name, const TensorDecl &t) {
    return llvm::formatv("  tile.circular_buffer @{0} {1} : "
                         "!tile.cb<{2}x!tile.tile<{3}x{4}x{5}>>\n",
                         name, range, p.depth, p.tileRows, p.tileCols, t.type)
        .str();
  };
  for (size_t i = 0; i < p.inputs.size(); ++i)
    text += buffer("in" + std::to_string(i), p.inputs[i]);
  text += buffer("out", p.out);

  KernelText reader;
  std::string t = beginTiles(reader, p);
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    std::string cb = "@in" + std::to_string(i);
    reader.line("tile.cb_reserve_back " + cb + ", " + reader.c(1));
    std::string ptr = reader.value("tile.cb_write_ptr " + cb);
    // A tensor replicated along rows is one row of tiles (read at the
    // output tile's column), along columns one column of tiles (at its
    // row), along both one tile (a [1x1] read per row of a one-row op).
    bool rows = p.inputs[i].replicateRows, cols = p.inputs[i].replicateCols;
    std::string page = rows && cols ? reader.c(0)
                       : rows ? reader.arith("remui", t, reader.c(p.colTiles))
                       : cols ? reader.arith("divui", t, reader.c(p.colTiles))
                              : t;
    if (i < p.transposed.size() && p.transposed[i]) {
      // Output tile (b, r, c) reads input tile (b, c, r).
      int64_t matrix = p.batchRowTiles * p.colTiles;
      std::string b = reader.arith("divui", t, reader.c(matrix));
      std::string w = reader.arith("remui", t, reader.c(matrix));
      std::string r = reader.arith("divui", w, reader.c(p.colTiles));
      std::string c = reader.arith("remui", w, reader.c(p.colTiles));
      page = reader.add(reader.add(reader.mul(b, reader.c(matrix)),
                                   reader.mul(c, reader.c(p.batchRowTiles))),
                        r);
    }
    reader.line(llvm::formatv("tile.noc_read_tile @{0}[{1}] -> {2}",
                              p.inputs[i].name, page, ptr));
  }
  reader.line("tile.noc_read_barrier");
  for (size_t i = 0; i < p.inputs.size(); ++i)
    reader.line(llvm::formatv("tile.cb_push_back @in{0}, {1}", i, reader.c(1)));
  endTiles(reader);

  KernelText compute;
  beginTiles(compute, p);
  std::vector<std::string> buffers, tiles;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    buffers.push_back("in" + std::to_string(i));
    tiles.push_back(compute.c(0));
    compute.line(
        llvm::formatv("tile.cb_wait_front @in{0}, {1}", i, compute.c(1)));
  }
  compute.line("tile.acquire_dst");
  llvm::cantFail(emitExpression(compute, p.expression, buffers, tiles, "", {},
                                p.transposed));
  compute.line("tile.commit_dst");
  compute.line("tile.wait_dst");
  compute.line("tile.cb_reserve_back @out, " + compute.c(1));
  compute.line(llvm::formatv("tile.pack_tile dst[{0}] -> @out[{1}]",
                             compute.c(p.expression.result), compute.c(0)));
  compute.line("tile.cb_push_back @out, " + compute.c(1));
  compute.line("tile.release_dst");
  for (size_t i = 0; i < p.inputs.size(); ++i)
    compute.line(
        llvm::formatv("tile.cb_pop_front @in{0}, {1}", i, compute.c(1)));
  endTiles(compute);

  KernelText writer;
  t = beginTiles(writer, p);
  writer.line("tile.cb_wait_front @out, " + writer.c(1));
  std::string ptr = writer.value("tile.cb_read_ptr @out");
  writer.line(llvm::formatv("tile.noc_write_tile {0} -> @{1}[{2}]", ptr,
                            p.out.name, t));
  writer.line("tile.noc_write_barrier");
  writer.line("tile.cb_pop_front @out, " + writer.c(1));
  endTiles(writer);

  text += reader.str("tile.kernel reader " + range);
  text += compute.str("tile.kernel compute " + range +
                      " attributes {dst_type = f32}");
  text += writer.str("tile.kernel writer " + range);
  return text + "}\n";
}
