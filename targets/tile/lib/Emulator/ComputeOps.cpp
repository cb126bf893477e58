//===- ComputeOps.cpp - The accumulator, matrix and vector engines --------===//
//
// Dst is `dstCapacity` row-major f32 tiles (what one acquire gives the
// kernel). acquire_dst empties them: the first op writing a tile starts from
// zero (a max reduction from -inf). With a bf16 Dst every result is rounded
// to bf16. Ops reading a circular buffer unpack tile `index` counted from
// the front (it must have been waited for); pack_tile writes a slot of the
// reserved back region.
//
//===----------------------------------------------------------------------===//
#include "Machine.h"

#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <limits>
#include <type_traits>

using namespace mlir;
using namespace strata::tile;

static const char *dstStateText(DstState state) {
  switch (state) {
  case DstState::Released:
    return "not acquired (tile.acquire_dst)";
  case DstState::Acquired:
    return "acquired but not committed (tile.commit_dst)";
  case DstState::Committed:
    return "committed but not waited for (tile.wait_dst)";
  case DstState::Waited:
    return "waited for by the pack side until tile.release_dst";
  }
  return "";
}

/// The vector-engine op of a dialect op kind: the dialect's enums (binary,
/// unary, scalar kinds) use the trace's op names.
template <typename Kind> static VectorOp vectorOpOf(Kind kind) {
  llvm::StringRef name = stringifyEnum(kind);
  for (int op = 0; op < kVectorOps; ++op)
    if (name == vectorOpName(VectorOp(op)))
      return VectorOp(op);
  return VectorOp::Add;
}

static BroadcastKind broadcastOf(Broadcast broadcast) {
  switch (broadcast) {
  case Broadcast::none:
    return BroadcastKind::None;
  case Broadcast::col:
    return BroadcastKind::Col;
  case Broadcast::row:
    return BroadcastKind::Row;
  case Broadcast::scalar:
    return BroadcastKind::Scalar;
  }
  return BroadcastKind::None;
}

Step Machine::executeCompute(Operation *op, Instance &inst) {
  int64_t tileElements = chip.tileRows * chip.tileCols;
  if (scratchA.empty()) {
    scratchA.resize(tileElements);
    scratchB.resize(tileElements);
  }
  auto fail = [&]() { return Step::Failed; };

  // The protocol: `want` is the state the op needs.
  auto expect = [&](DstState want, const char *what) {
    if (inst.dst == want)
      return true;
    error(op, inst) << what << " Dst, which is " << dstStateText(inst.dst);
    return false;
  };
  // Dst tile `index`, checked; `fresh` empties it if not written since
  // acquire (to zero, or -inf where a max reduction will look).
  auto dstTile = [&](Value value) -> float * {
    int64_t index = get(inst, value);
    if (index < 0 || index >= inst.dstCapacity) {
      error(op, inst) << "Dst index " << index << " is outside the "
                      << inst.dstCapacity << " tiles of the accumulator";
      return nullptr;
    }
    return inst.dstTiles.data() + index * tileElements;
  };
  auto written = [&](Value value) -> char & {
    return inst.dstWritten[get(inst, value)];
  };
  auto fresh = [&](Value value, float *tile) {
    char &flag = written(value);
    if (!flag)
      std::fill(tile, tile + tileElements, 0.0f);
    flag = 1;
  };
  // Unpacks tile `index` at the front of `symbol` into `out`.
  int64_t address = -1; // of the tile `unpack` read last
  auto unpack = [&](FlatSymbolRefAttr symbol, Value indexValue, float *out,
                    int64_t &bytes) -> bool {
    BufferState *cb = buffer(inst, symbol);
    if (!cb) {
      error(op, inst) << "circular buffer " << symbol
                      << " does not exist on this core";
      return false;
    }
    int64_t index = get(inst, indexValue);
    if (index < 0 || index >= cb->waited) {
      error(op, inst) << "reads tile " << index << " of @" << cb->name
                      << " but only " << cb->waited
                      << " tiles were waited for (tile.cb_wait_front)";
      return false;
    }
    address = cb->base + (cb->readSlot + index) * cb->tileBytes;
    cb->geometry->unpack(l1(inst.row, inst.col) + address, cb->format, out);
    // Block-float exponents reach the unpacker through a port of their own
    // (tt-isa-documentation L1.md): the feed counts the elements' bytes.
    bytes = cb->tileBytes -
            (isBlockFloat(cb->format) ? cb->geometry->exponentBytes() : 0);
    return true;
  };
  auto finish = [&](float *tile) {
    if (!inst.dstF32)
      roundTileToBf16(tile, tileElements);
  };

  return llvm::TypeSwitch<Operation *, Step>(op)
      .Case<AcquireDstOp>([&](AcquireDstOp) {
        if (inst.dst != DstState::Released) {
          error(op, inst) << "acquires Dst, which is " << dstStateText(inst.dst)
                          << "; release it first (tile.release_dst)";
          return fail();
        }
        inst.dst = DstState::Acquired;
        std::fill(inst.dstWritten.begin(), inst.dstWritten.end(), 0);
        record(inst, Event{EventKind::AcquireDst});
        return Step::Next;
      })
      .Case<CommitDstOp>([&](CommitDstOp) {
        if (!expect(DstState::Acquired, "commits"))
          return fail();
        inst.dst = DstState::Committed;
        record(inst, Event{EventKind::CommitDst});
        return Step::Next;
      })
      .Case<WaitDstOp>([&](WaitDstOp) {
        if (!expect(DstState::Committed, "waits for"))
          return fail();
        inst.dst = DstState::Waited;
        record(inst, Event{EventKind::WaitDst});
        return Step::Next;
      })
      .Case<ReleaseDstOp>([&](ReleaseDstOp) {
        if (!expect(DstState::Waited, "releases"))
          return fail();
        inst.dst = DstState::Released;
        record(inst, Event{EventKind::ReleaseDst});
        return Step::Next;
      })
      .Case<MatmulTilesOp>([&](MatmulTilesOp o) {
        float *c;
        int64_t bytesA, bytesB;
        if (!expect(DstState::Acquired, "writes") ||
            !(c = dstTile(o.getDst())) ||
            !unpack(o.getAAttr(), o.getAIndex(), scratchA.data(), bytesA))
          return fail();
        int64_t addressA = address;
        if (!unpack(o.getBAttr(), o.getBIndex(), scratchB.data(), bytesB))
          return fail();
        // An operand tile the previous matmul read stays in its source
        // register: it is not unpacked again (the trace's bytes and count).
        Event event{EventKind::Matmul};
        event.bytes = (addressA == inst.srcA ? 0 : bytesA) +
                      (address == inst.srcB ? 0 : bytesB);
        event.count =
            (addressA == inst.srcA ? 0 : 1) + (address == inst.srcB ? 0 : 1);
        inst.srcA = addressA;
        inst.srcB = address;
        fresh(o.getDst(), c);
        // The source registers hold f32 operands with fewer mantissa bits.
        if (buffer(inst, o.getAAttr())->format == TileFormat::F32) {
          auto bits = chip.inputMantissaBits.find("f32");
          if (bits != chip.inputMantissaBits.end()) {
            truncateMantissa(scratchA.data(), tileElements, bits->second);
            truncateMantissa(scratchB.data(), tileElements, bits->second);
          }
        }
        matmulAccumulate(scratchA.data(), scratchB.data(), c, chip.tileRows,
                         chip.tileCols, chip.tileCols);
        finish(c);
        std::string &type = trace.kernels[inst.traceIndex].matmulType;
        if (type.empty())
          type = buffer(inst, o.getAAttr())->format == TileFormat::F32
                     ? "f32"
                     : "bf16"; // block floats are unpacked to bf16
        record(inst, event);
        return Step::Next;
      })
      .Case<BinaryOp>([&](BinaryOp o) {
        inst.srcA = inst.srcB = -1; // the source registers are reloaded
        float *c;
        int64_t bytesA, bytesB;
        if (!expect(DstState::Acquired, "writes") ||
            !(c = dstTile(o.getDst())) ||
            !unpack(o.getAAttr(), o.getAIndex(), scratchA.data(), bytesA) ||
            !unpack(o.getBAttr(), o.getBIndex(), scratchB.data(), bytesB))
          return fail();
        written(o.getDst()) = 1;
        VectorOp kind = vectorOpOf(o.getKind());
        eltwiseBinary(kind, scratchA.data(), scratchB.data(), c, chip.tileRows,
                      chip.tileCols, broadcastOf(o.getBcast()));
        finish(c);
        Event event{EventKind::Eltwise};
        event.op = uint8_t(kind);
        event.bytes = bytesA + bytesB;
        record(inst, event);
        return Step::Next;
      })
      .Case<UnpackTileOp>([&](UnpackTileOp o) {
        inst.srcA = inst.srcB = -1; // the source registers are reloaded
        float *c;
        int64_t bytes;
        if (!expect(DstState::Acquired, "writes") ||
            !(c = dstTile(o.getDst())) ||
            !unpack(o.getCbAttr(), o.getIndex(), c, bytes))
          return fail();
        broadcastTile(c, chip.tileRows, chip.tileCols,
                      broadcastOf(o.getBcast()));
        // transpose_wh_tile: square tiles (the verifier checks).
        if (o.getTranspose())
          for (int64_t r = 0; r < chip.tileRows; ++r)
            for (int64_t q = r + 1; q < chip.tileCols; ++q)
              std::swap(c[r * chip.tileCols + q], c[q * chip.tileCols + r]);
        written(o.getDst()) = 1;
        finish(c);
        Event event{EventKind::Unpack};
        event.bytes = bytes;
        event.op = o.getTranspose() ? 1 : 0;
        record(inst, event);
        return Step::Next;
      })
      .Case<ReduceOp>([&](ReduceOp o) {
        inst.srcA = inst.srcB = -1; // the source registers are reloaded
        float *c;
        int64_t bytes;
        if (!expect(DstState::Acquired, "writes") ||
            !(c = dstTile(o.getDst())) ||
            !unpack(o.getCbAttr(), o.getIndex(), scratchA.data(), bytes))
          return fail();
        bool max = o.getKind() == ReduceKind::max;
        bool rows = o.getDim() == ReduceDim::row;
        if (!written(o.getDst())) {
          fresh(o.getDst(), c);
          if (max) {
            float lowest = -std::numeric_limits<float>::infinity();
            if (rows)
              for (int64_t r = 0; r < chip.tileRows; ++r)
                c[r * chip.tileCols] = lowest;
            else
              std::fill(c, c + chip.tileCols, lowest);
          }
        }
        reduceAccumulate(max, rows, scratchA.data(), c, chip.tileRows,
                         chip.tileCols);
        finish(c);
        Event event{EventKind::Reduce};
        event.bytes = bytes;
        record(inst, event);
        return Step::Next;
      })
      .Case<UnaryOp, UnaryScalarOp>([&](auto o) {
        // In place on the vector engine, with or without an immediate.
        float *c;
        if (!expect(DstState::Acquired, "writes") || !(c = dstTile(o.getDst())))
          return fail();
        fresh(o.getDst(), c);
        VectorOp kind = vectorOpOf(o.getKind());
        if constexpr (std::is_same_v<decltype(o), UnaryScalarOp>)
          eltwiseScalar(kind, c, tileElements, o.getScalar().convertToFloat());
        else
          eltwiseUnary(kind, c, tileElements);
        finish(c);
        Event event{EventKind::Vector};
        event.op = uint8_t(kind);
        record(inst, event);
        return Step::Next;
      })
      .Case<BinaryDstOp>([&](BinaryDstOp o) {
        float *a, *b, *c;
        if (!expect(DstState::Acquired, "writes") ||
            !(a = dstTile(o.getLhs())) || !(b = dstTile(o.getRhs())) ||
            !(c = dstTile(o.getDst())))
          return fail();
        fresh(o.getLhs(), a);
        fresh(o.getRhs(), b);
        written(o.getDst()) = 1;
        VectorOp kind = vectorOpOf(o.getKind());
        eltwiseBinary(kind, a, b, c, chip.tileRows, chip.tileCols,
                      BroadcastKind::None);
        finish(c);
        Event event{EventKind::Vector};
        event.op = uint8_t(kind);
        record(inst, event);
        return Step::Next;
      })
      .Case<WhereDstOp>([&](WhereDstOp o) {
        float *cond, *t, *f, *c;
        if (!expect(DstState::Acquired, "writes") ||
            !(cond = dstTile(o.getCond())) || !(t = dstTile(o.getOnTrue())) ||
            !(f = dstTile(o.getOnFalse())) || !(c = dstTile(o.getDst())))
          return fail();
        fresh(o.getCond(), cond);
        fresh(o.getOnTrue(), t);
        fresh(o.getOnFalse(), f);
        written(o.getDst()) = 1;
        for (int64_t i = 0; i < tileElements; ++i)
          c[i] = cond[i] != 0.0f ? t[i] : f[i];
        finish(c);
        Event event{EventKind::Vector};
        event.op = uint8_t(VectorOp::Where);
        record(inst, event);
        return Step::Next;
      })
      .Case<PackTileOp>([&](PackTileOp o) {
        float *c;
        if (!expect(DstState::Waited, "packs from") ||
            !(c = dstTile(o.getDst())))
          return fail();
        BufferState *cb = buffer(inst, o.getCbAttr());
        if (!cb) {
          error(op, inst) << "circular buffer " << o.getCbAttr()
                          << " does not exist on this core";
          return fail();
        }
        int64_t slot = get(inst, o.getSlot());
        if (slot < 0 || slot >= cb->reserved) {
          error(op, inst) << "packs into slot " << slot << " of @" << cb->name
                          << " but only " << cb->reserved
                          << " slots are reserved (tile.cb_reserve_back)";
          return fail();
        }
        fresh(o.getDst(), c);
        int64_t address = cb->base + (cb->writeSlot + slot) * cb->tileBytes;
        cb->geometry->pack(c, cb->format, l1(inst.row, inst.col) + address);
        Event event{EventKind::Pack};
        event.bytes = cb->tileBytes;
        record(inst, event);
        return Step::Next;
      })
      .Default([&](Operation *) {
        error(op, inst) << "cannot run in a compute kernel";
        return fail();
      });
}
