//===- BufferOps.cpp - Circular buffers -----------------------------------===//
//
// A circular buffer on a core is `capacity` slots of one tile from its L1
// base. Its back (write slot) and front (read slot) advance by the tiles
// pushed and popped, wrapping at the end. A region reserved or waited for
// must not wrap (as on the chip, where it is one contiguous L1 range): the
// tiles moved at once must divide the capacity.
//
//===----------------------------------------------------------------------===//
#include "Machine.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace strata::tile;

/// "1 tile", "2 tiles".
static std::string tiles(int64_t n) {
  return std::to_string(n) + (n == 1 ? " tile" : " tiles");
}

Step Machine::executeBuffer(Operation *op, Instance &inst) {
  auto symbol = op->getAttrOfType<FlatSymbolRefAttr>("cb");
  BufferState *cb = buffer(inst, symbol);
  if (!cb) {
    error(op, inst) << "circular buffer " << symbol
                    << " does not exist on this core";
    return Step::Failed;
  }
  auto count = [&](auto o) -> int64_t { return get(inst, o.getCount()); };
  auto badCount = [&](int64_t n) {
    if (n >= 0 && n <= cb->capacity)
      return false;
    error(op, inst) << "tile count " << n << " is outside 0.." << cb->capacity
                    << " (the capacity of @" << cb->name << ")";
    return true;
  };

  return llvm::TypeSwitch<Operation *, Step>(op)
      .Case<CBReserveBackOp>([&](CBReserveBackOp o) {
        int64_t n = count(o);
        if (badCount(n))
          return Step::Failed;
        if (cb->capacity - cb->occupied < n)
          return block(op, inst,
                       "waits in tile.cb_reserve_back for room for " +
                           tiles(n) + " in @" + cb->name + " (" +
                           std::to_string(cb->occupied) + " of its " +
                           std::to_string(cb->capacity) + " slots in use)");
        if (cb->writeSlot + n > cb->capacity) {
          error(op, inst) << "reserves " << n << " tiles at slot "
                          << cb->writeSlot << " of @" << cb->name
                          << ", which holds " << cb->capacity
                          << ": the region would run past the buffer's end "
                             "(reserve a number of tiles that divides the "
                             "capacity)";
          return Step::Failed;
        }
        cb->reserved = n;
        Event event{EventKind::ReserveBack};
        event.count = int32_t(n);
        int64_t needed = cb->pushed + n - cb->capacity - 1;
        if (needed >= 0)
          event.dep = cb->popEvents[needed % cb->capacity];
        record(inst, event);
        return Step::Next;
      })
      .Case<CBPushBackOp>([&](CBPushBackOp o) {
        int64_t n = count(o);
        if (badCount(n))
          return Step::Failed;
        if (n > cb->reserved) {
          error(op, inst) << "pushes " << n << " tiles to @" << cb->name
                          << " but only " << cb->reserved
                          << " are reserved (tile.cb_reserve_back)";
          return Step::Failed;
        }
        if (inst.readsInFlight > 0) {
          error(op, inst) << "pushes tiles to @" << cb->name << " while "
                          << inst.readsInFlight
                          << " NoC reads of this kernel may still be in "
                             "flight: wait for them with tile.noc_read_barrier";
          return Step::Failed;
        }
        Event event{EventKind::PushBack};
        event.count = int32_t(n);
        EventRef ref = record(inst, event);
        for (int64_t k = 0; k < n; ++k)
          cb->pushEvents[(cb->pushed + k) % cb->capacity] = ref;
        cb->pushed += n;
        cb->occupied += n;
        cb->reserved -= n;
        cb->writeSlot = (cb->writeSlot + n) % cb->capacity;
        return Step::Next;
      })
      .Case<CBWaitFrontOp>([&](CBWaitFrontOp o) {
        int64_t n = count(o);
        if (badCount(n))
          return Step::Failed;
        if (cb->occupied < n)
          return block(op, inst,
                       "waits in tile.cb_wait_front for " + tiles(n) + " of @" +
                           cb->name + " (" + std::to_string(cb->occupied) +
                           " available)");
        if (cb->readSlot + n > cb->capacity) {
          error(op, inst) << "waits for " << n << " tiles at slot "
                          << cb->readSlot << " of @" << cb->name
                          << ", which holds " << cb->capacity
                          << ": the region would run past the buffer's end "
                             "(wait for a number of tiles that divides the "
                             "capacity)";
          return Step::Failed;
        }
        cb->waited = std::max(cb->waited, n);
        Event event{EventKind::WaitFront};
        event.count = int32_t(n);
        if (n > 0)
          event.dep = cb->pushEvents[(cb->popped + n - 1) % cb->capacity];
        record(inst, event);
        return Step::Next;
      })
      .Case<CBPopFrontOp>([&](CBPopFrontOp o) {
        // Popped slots may be refilled: no source register reuses them.
        inst.srcA = inst.srcB = -1;
        int64_t n = count(o);
        if (badCount(n))
          return Step::Failed;
        if (n > cb->waited) {
          error(op, inst) << "pops " << n << " tiles of @" << cb->name
                          << " but only " << cb->waited
                          << " were waited for (tile.cb_wait_front)";
          return Step::Failed;
        }
        if (inst.writesInFlight > 0) {
          error(op, inst) << "pops tiles of @" << cb->name << " while "
                          << inst.writesInFlight
                          << " NoC writes of this kernel may still read "
                             "them: wait for them with tile.noc_write_barrier";
          return Step::Failed;
        }
        Event event{EventKind::PopFront};
        event.count = int32_t(n);
        EventRef ref = record(inst, event);
        for (int64_t k = 0; k < n; ++k)
          cb->popEvents[(cb->popped + k) % cb->capacity] = ref;
        cb->popped += n;
        cb->occupied -= n;
        cb->waited -= n;
        cb->readSlot = (cb->readSlot + n) % cb->capacity;
        return Step::Next;
      })
      .Case<CBWritePtrOp>([&](CBWritePtrOp o) {
        inst.values[o.getAddr()].i = cb->base + cb->writeSlot * cb->tileBytes;
        return Step::Next;
      })
      .Case<CBReadPtrOp>([&](CBReadPtrOp o) {
        inst.values[o.getAddr()].i = cb->base + cb->readSlot * cb->tileBytes;
        return Step::Next;
      })
      .Default([&](Operation *) {
        error(op, inst) << "is not a circular-buffer op";
        return Step::Failed;
      });
}
