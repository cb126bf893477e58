//===- NocOps.cpp - NoC transfers and semaphores --------------------------===//
//
// A transfer's bytes are copied when it is issued; the kernel counts it as in
// flight until its barrier, and using its data before (pushing what a read
// filled, popping what a write reads) is an error. Semaphore updates of
// other cores take effect when issued too; the cycle model adds the time.
//
//===----------------------------------------------------------------------===//
#include "Machine.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cstring>

using namespace mlir;
using namespace strata::tile;

Step Machine::executeNoc(Operation *op, Instance &inst) {
  auto v = [&](Value value) { return get(inst, value); };
  auto fail = [&]() { return Step::Failed; };

  // A DRAM page and a byte range of it.
  auto page = [&](FlatSymbolRefAttr symbol, int64_t index, int64_t offset,
                  int64_t size) -> std::pair<TensorState *, uint8_t *> {
    TensorState *t = tensor(symbol);
    if (!t) {
      error(op, inst) << symbol << " is not a DRAM tensor";
      return {nullptr, nullptr};
    }
    if (index < 0 || index >= t->pages) {
      error(op, inst) << "page " << index << " of @" << t->info.name
                      << " is outside its " << t->pages << " pages";
      return {nullptr, nullptr};
    }
    if (offset < 0 || size < 0 || offset + size > t->pageBytes) {
      error(op, inst) << "bytes [" << offset << ", " << offset + size
                      << ") are outside a page of @" << t->info.name << " ("
                      << t->pageBytes << " bytes)";
      return {nullptr, nullptr};
    }
    auto [bank, at] = t->placement.locate(index, chip.dramBanks);
    return {t, dram.at(bank, at + offset)};
  };
  auto bankOf = [&](TensorState *t, int64_t index) {
    return int32_t(t->placement.locate(index, chip.dramBanks).first);
  };
  // The rectangle of a multicast, checked.
  auto rectangle = [&](int64_t r0, int64_t c0, int64_t r1,
                       int64_t c1) -> LogicalResult {
    if (failed(checkCore(op, inst, r0, c0)) ||
        failed(checkCore(op, inst, r1, c1)))
      return failure();
    if (r1 < r0 || c1 < c0)
      return error(op, inst) << "core range [" << r0 << ", " << c0 << "]-["
                             << r1 << ", " << c1 << "] is empty";
    return success();
  };

  return llvm::TypeSwitch<Operation *, Step>(op)
      .Case<NocReadTileOp, NocReadBytesOp>([&](auto o) {
        int64_t index = v(o.getPage()), address = v(o.getL1Addr());
        int64_t offset = 0, size = -1;
        if constexpr (std::is_same_v<decltype(o), NocReadBytesOp>) {
          offset = v(o.getOffset());
          size = v(o.getSize());
        }
        TensorState *t = tensor(o.getTensorAttr());
        if (t && size < 0)
          size = t->pageBytes;
        auto [state, src] = page(o.getTensorAttr(), index, offset, size);
        if (!state || failed(checkL1(op, inst, address, size)))
          return fail();
        std::memcpy(l1(inst.row, inst.col) + address, src, size);
        ++inst.readsInFlight;
        Event event{EventKind::ReadDram};
        event.bytes = size;
        event.peer = bankOf(state, index);
        record(inst, event);
        return Step::Next;
      })
      .Case<NocWriteTileOp, NocWriteBytesOp>([&](auto o) {
        int64_t index = v(o.getPage()), address = v(o.getL1Addr());
        int64_t offset = 0, size = -1;
        if constexpr (std::is_same_v<decltype(o), NocWriteBytesOp>) {
          offset = v(o.getOffset());
          size = v(o.getSize());
        }
        TensorState *t = tensor(o.getTensorAttr());
        if (t && size < 0)
          size = t->pageBytes;
        auto [state, dst] = page(o.getTensorAttr(), index, offset, size);
        if (!state || failed(checkL1(op, inst, address, size)))
          return fail();
        std::memcpy(dst, l1(inst.row, inst.col) + address, size);
        ++inst.writesInFlight;
        Event event{EventKind::WriteDram};
        event.bytes = size;
        event.peer = bankOf(state, index);
        record(inst, event);
        return Step::Next;
      })
      .Case<NocReadL1Op>([&](NocReadL1Op o) {
        int64_t row = v(o.getRow()), col = v(o.getCol());
        int64_t src = v(o.getSrcAddr()), dst = v(o.getDstAddr());
        int64_t size = v(o.getSize());
        if (failed(checkCore(op, inst, row, col)) ||
            failed(checkL1(op, inst, src, size)) ||
            failed(checkL1(op, inst, dst, size)))
          return fail();
        std::memmove(l1(inst.row, inst.col) + dst, l1(row, col) + src, size);
        ++inst.readsInFlight;
        Event event{EventKind::ReadL1};
        event.bytes = size;
        event.peer = int32_t(coreIndex(row, col));
        record(inst, event);
        return Step::Next;
      })
      .Case<NocWriteL1Op>([&](NocWriteL1Op o) {
        int64_t row = v(o.getRow()), col = v(o.getCol());
        int64_t src = v(o.getSrcAddr()), dst = v(o.getDstAddr());
        int64_t size = v(o.getSize());
        if (failed(checkCore(op, inst, row, col)) ||
            failed(checkL1(op, inst, src, size)) ||
            failed(checkL1(op, inst, dst, size)))
          return fail();
        std::memmove(l1(row, col) + dst, l1(inst.row, inst.col) + src, size);
        ++inst.writesInFlight;
        Event event{EventKind::WriteL1};
        event.bytes = size;
        event.peer = int32_t(coreIndex(row, col));
        record(inst, event);
        return Step::Next;
      })
      .Case<NocWriteMulticastOp>([&](NocWriteMulticastOp o) {
        int64_t r0 = v(o.getRow0()), c0 = v(o.getCol0());
        int64_t r1 = v(o.getRow1()), c1 = v(o.getCol1());
        int64_t src = v(o.getSrcAddr()), dst = v(o.getDstAddr());
        int64_t size = v(o.getSize());
        if (failed(rectangle(r0, c0, r1, c1)) ||
            failed(checkL1(op, inst, src, size)) ||
            failed(checkL1(op, inst, dst, size)))
          return fail();
        int32_t receivers = 0;
        for (int64_t row = r0; row <= r1; ++row)
          for (int64_t col = c0; col <= c1; ++col) {
            if (row == inst.row && col == inst.col)
              continue;
            std::memmove(l1(row, col) + dst, l1(inst.row, inst.col) + src,
                         size);
            ++receivers;
          }
        ++inst.writesInFlight;
        Event event{EventKind::WriteMulticast};
        event.bytes = size;
        event.count = receivers;
        event.peer = int32_t(coreIndex(r0, c0));
        event.peer2 = int32_t(coreIndex(r1, c1));
        record(inst, event);
        return Step::Next;
      })
      .Case<NocReadBarrierOp>([&](NocReadBarrierOp) {
        inst.readsInFlight = 0;
        record(inst, Event{EventKind::ReadBarrier});
        return Step::Next;
      })
      .Case<NocWriteBarrierOp>([&](NocWriteBarrierOp) {
        inst.writesInFlight = 0;
        record(inst, Event{EventKind::WriteBarrier});
        return Step::Next;
      })
      .Case<SemWaitOp>([&](SemWaitOp o) {
        SemaphoreState *sem = semaphore(inst.row, inst.col, o.getSemAttr());
        if (!sem) {
          error(op, inst) << "semaphore " << o.getSemAttr()
                          << " does not exist on this core";
          return fail();
        }
        int64_t want = v(o.getValue());
        if (sem->value != want)
          return block(op, inst,
                       "waits in tile.sem_wait for @" + sem->name + " to be " +
                           std::to_string(want) + " (it is " +
                           std::to_string(sem->value) + ")");
        Event event{EventKind::SemWait};
        event.dep = sem->lastWrite;
        record(inst, event);
        return Step::Next;
      })
      .Case<SemSetOp>([&](SemSetOp o) {
        SemaphoreState *sem = semaphore(inst.row, inst.col, o.getSemAttr());
        if (!sem) {
          error(op, inst) << "semaphore " << o.getSemAttr()
                          << " does not exist on this core";
          return fail();
        }
        EventRef ref = record(inst, Event{EventKind::SemSet});
        setSemaphore(inst.row, inst.col, o.getSemAttr(), *sem, v(o.getValue()),
                     ref);
        return Step::Next;
      })
      .Case<SemIncOp>([&](SemIncOp o) {
        int64_t row = v(o.getRow()), col = v(o.getCol());
        if (failed(checkCore(op, inst, row, col)))
          return fail();
        SemaphoreState *sem = semaphore(row, col, o.getSemAttr());
        if (!sem) {
          error(op, inst) << "core [" << row << ", " << col
                          << "] has no semaphore " << o.getSemAttr();
          return fail();
        }
        Event event{EventKind::SemInc};
        event.peer = int32_t(coreIndex(row, col));
        EventRef ref = record(inst, event);
        setSemaphore(row, col, o.getSemAttr(), *sem,
                     sem->value + v(o.getValue()), ref);
        return Step::Next;
      })
      .Case<SemSetMulticastOp>([&](SemSetMulticastOp o) {
        int64_t r0 = v(o.getRow0()), c0 = v(o.getCol0());
        int64_t r1 = v(o.getRow1()), c1 = v(o.getCol1());
        SemaphoreState *local = semaphore(inst.row, inst.col, o.getSemAttr());
        if (!local) {
          error(op, inst) << "semaphore " << o.getSemAttr()
                          << " does not exist on this core";
          return fail();
        }
        if (failed(rectangle(r0, c0, r1, c1)))
          return fail();
        Event event{EventKind::SemSetMulticast};
        event.peer = int32_t(coreIndex(r0, c0));
        event.peer2 = int32_t(coreIndex(r1, c1));
        EventRef ref = record(inst, event);
        int64_t value = local->value;
        for (int64_t row = r0; row <= r1; ++row)
          for (int64_t col = c0; col <= c1; ++col) {
            if (row == inst.row && col == inst.col)
              continue;
            SemaphoreState *sem = semaphore(row, col, o.getSemAttr());
            if (!sem) {
              error(op, inst) << "core [" << row << ", " << col
                              << "] has no semaphore " << o.getSemAttr();
              return fail();
            }
            setSemaphore(row, col, o.getSemAttr(), *sem, value, ref);
          }
        return Step::Next;
      })
      .Default([&](Operation *) {
        error(op, inst) << "cannot run in a " << stringifyKernelKind(inst.kind)
                        << " kernel";
        return fail();
      });
}
