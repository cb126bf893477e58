//===- ScalarOps.cpp - arith ops of kernels -------------------------------===//
//
// Kernels compute loop bounds, indices and addresses with arith. Integers
// are held as int64_t and wrapped to their type's width after every op (i1
// as 0/1); indices are 64-bit; floats are held as double and rounded to f32
// after every op on f32.
//
//===----------------------------------------------------------------------===//
#include "Machine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace strata::tile;

/// The arith ops the interpreter runs.
#define STRATA_TILE_ARITH_OPS                                                  \
  arith::ConstantOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,              \
      arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,          \
      arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp,             \
      arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp,          \
      arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::ShLIOp,               \
      arith::ShRSIOp, arith::ShRUIOp, arith::CmpIOp, arith::SelectOp,          \
      arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,                \
      arith::ExtUIOp, arith::TruncIOp, arith::AddFOp, arith::SubFOp,           \
      arith::MulFOp, arith::DivFOp, arith::NegFOp, arith::MaximumFOp,          \
      arith::MinimumFOp, arith::CmpFOp, arith::SIToFPOp, arith::UIToFPOp,      \
      arith::FPToSIOp, arith::FPToUIOp

bool Machine::isInterpretable(Operation *op) {
  if (isa<scf::ForOp, scf::IfOp, scf::YieldOp>(op))
    return true;
  if (op->getDialect() && op->getDialect()->getNamespace() == "tile")
    return true;
  return isa<STRATA_TILE_ARITH_OPS>(op);
}

static unsigned widthOf(Type type) {
  return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
}

/// `value` wrapped to the width of `type` (sign-extended).
static int64_t wrap(int64_t value, Type type) {
  unsigned width = widthOf(type);
  if (width >= 64)
    return value;
  if (width == 1)
    return value & 1;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t bits = uint64_t(value) & mask;
  uint64_t sign = uint64_t(1) << (width - 1);
  return int64_t((bits ^ sign) - sign);
}

/// `value` as an unsigned number of the width of `type`.
static uint64_t unsignedOf(int64_t value, Type type) {
  unsigned width = widthOf(type);
  if (width >= 64)
    return uint64_t(value);
  return uint64_t(value) & ((uint64_t(1) << width) - 1);
}

/// `value` rounded to the precision of float type `type`.
static double roundFloat(double value, Type type) {
  return type.isF64() ? value : double(float(value));
}

static bool compareInt(arith::CmpIPredicate predicate, int64_t a, int64_t b,
                       Type type) {
  uint64_t ua = unsignedOf(a, type), ub = unsignedOf(b, type);
  switch (predicate) {
  case arith::CmpIPredicate::eq:
    return a == b;
  case arith::CmpIPredicate::ne:
    return a != b;
  case arith::CmpIPredicate::slt:
    return a < b;
  case arith::CmpIPredicate::sle:
    return a <= b;
  case arith::CmpIPredicate::sgt:
    return a > b;
  case arith::CmpIPredicate::sge:
    return a >= b;
  case arith::CmpIPredicate::ult:
    return ua < ub;
  case arith::CmpIPredicate::ule:
    return ua <= ub;
  case arith::CmpIPredicate::ugt:
    return ua > ub;
  case arith::CmpIPredicate::uge:
    return ua >= ub;
  }
  return false;
}

static bool compareFloat(arith::CmpFPredicate predicate, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (predicate) {
  case arith::CmpFPredicate::AlwaysFalse:
    return false;
  case arith::CmpFPredicate::OEQ:
    return !unordered && a == b;
  case arith::CmpFPredicate::OGT:
    return !unordered && a > b;
  case arith::CmpFPredicate::OGE:
    return !unordered && a >= b;
  case arith::CmpFPredicate::OLT:
    return !unordered && a < b;
  case arith::CmpFPredicate::OLE:
    return !unordered && a <= b;
  case arith::CmpFPredicate::ONE:
    return !unordered && a != b;
  case arith::CmpFPredicate::ORD:
    return !unordered;
  case arith::CmpFPredicate::UEQ:
    return unordered || a == b;
  case arith::CmpFPredicate::UGT:
    return unordered || a > b;
  case arith::CmpFPredicate::UGE:
    return unordered || a >= b;
  case arith::CmpFPredicate::ULT:
    return unordered || a < b;
  case arith::CmpFPredicate::ULE:
    return unordered || a <= b;
  case arith::CmpFPredicate::UNE:
    return unordered || a != b;
  case arith::CmpFPredicate::UNO:
    return unordered;
  case arith::CmpFPredicate::AlwaysTrue:
    return true;
  }
  return false;
}

Step Machine::executeScalar(Operation *op, Instance &inst) {
  auto i = [&](Value v) { return inst.values.find(v)->second.i; };
  auto f = [&](Value v) { return inst.values.find(v)->second.f; };
  auto setI = [&](int64_t v) {
    Value result = op->getResult(0);
    inst.values[result].i = wrap(v, result.getType());
    return Step::Next;
  };
  auto setF = [&](double v) {
    Value result = op->getResult(0);
    inst.values[result].f = roundFloat(v, result.getType());
    return Step::Next;
  };
  auto divisionByZero = [&]() {
    error(op, inst) << "division by zero";
    return Step::Failed;
  };
  Type type = op->getNumOperands() ? op->getOperand(0).getType() : Type();
  auto u = [&](Value v) { return unsignedOf(i(v), v.getType()); };

  return llvm::TypeSwitch<Operation *, Step>(op)
      .Case<arith::ConstantOp>([&](arith::ConstantOp c) {
        if (auto integer = dyn_cast<IntegerAttr>(c.getValue()))
          return setI(integer.getValue().getSExtValue());
        if (auto real = dyn_cast<FloatAttr>(c.getValue()))
          return setF(real.getValueAsDouble());
        error(op, inst) << "only integer and float constants can be run";
        return Step::Failed;
      })
      .Case<arith::AddIOp>(
          [&](auto o) { return setI(i(o.getLhs()) + i(o.getRhs())); })
      .Case<arith::SubIOp>(
          [&](auto o) { return setI(i(o.getLhs()) - i(o.getRhs())); })
      .Case<arith::MulIOp>([&](auto o) {
        return setI(int64_t(uint64_t(i(o.getLhs())) * uint64_t(i(o.getRhs()))));
      })
      .Case<arith::DivSIOp>([&](auto o) {
        int64_t b = i(o.getRhs());
        // -1 wraps like the hardware instead of trapping on INT64_MIN.
        return b == 0    ? divisionByZero()
               : b == -1 ? setI(int64_t(0 - uint64_t(i(o.getLhs()))))
                         : setI(i(o.getLhs()) / b);
      })
      .Case<arith::DivUIOp>([&](auto o) {
        uint64_t b = u(o.getRhs());
        return b == 0 ? divisionByZero() : setI(int64_t(u(o.getLhs()) / b));
      })
      .Case<arith::RemSIOp>([&](auto o) {
        int64_t b = i(o.getRhs());
        return b == 0    ? divisionByZero()
               : b == -1 ? setI(0)
                         : setI(i(o.getLhs()) % b);
      })
      .Case<arith::RemUIOp>([&](auto o) {
        uint64_t b = u(o.getRhs());
        return b == 0 ? divisionByZero() : setI(int64_t(u(o.getLhs()) % b));
      })
      .Case<arith::CeilDivSIOp>([&](auto o) {
        int64_t a = i(o.getLhs()), b = i(o.getRhs());
        if (b == 0)
          return divisionByZero();
        if (b == -1)
          return setI(int64_t(0 - uint64_t(a)));
        int64_t q = a / b;
        return setI(q + ((a % b != 0) && ((a < 0) == (b < 0)) ? 1 : 0));
      })
      .Case<arith::CeilDivUIOp>([&](auto o) {
        uint64_t a = u(o.getLhs()), b = u(o.getRhs());
        return b == 0 ? divisionByZero() : setI(int64_t((a + b - 1) / b));
      })
      .Case<arith::FloorDivSIOp>([&](auto o) {
        int64_t a = i(o.getLhs()), b = i(o.getRhs());
        if (b == 0)
          return divisionByZero();
        if (b == -1)
          return setI(int64_t(0 - uint64_t(a)));
        int64_t q = a / b;
        return setI(q - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0));
      })
      .Case<arith::MinSIOp>(
          [&](auto o) { return setI(std::min(i(o.getLhs()), i(o.getRhs()))); })
      .Case<arith::MaxSIOp>(
          [&](auto o) { return setI(std::max(i(o.getLhs()), i(o.getRhs()))); })
      .Case<arith::MinUIOp>([&](auto o) {
        return setI(int64_t(std::min(u(o.getLhs()), u(o.getRhs()))));
      })
      .Case<arith::MaxUIOp>([&](auto o) {
        return setI(int64_t(std::max(u(o.getLhs()), u(o.getRhs()))));
      })
      .Case<arith::AndIOp>(
          [&](auto o) { return setI(i(o.getLhs()) & i(o.getRhs())); })
      .Case<arith::OrIOp>(
          [&](auto o) { return setI(i(o.getLhs()) | i(o.getRhs())); })
      .Case<arith::XOrIOp>(
          [&](auto o) { return setI(i(o.getLhs()) ^ i(o.getRhs())); })
      .Case<arith::ShLIOp>([&](auto o) {
        uint64_t s = u(o.getRhs());
        return setI(s >= widthOf(type) ? 0 : int64_t(u(o.getLhs()) << s));
      })
      .Case<arith::ShRSIOp>([&](auto o) {
        uint64_t s = u(o.getRhs());
        int64_t a = i(o.getLhs());
        return setI(s >= widthOf(type) ? (a < 0 ? -1 : 0) : a >> s);
      })
      .Case<arith::ShRUIOp>([&](auto o) {
        uint64_t s = u(o.getRhs());
        return setI(s >= widthOf(type) ? 0 : int64_t(u(o.getLhs()) >> s));
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp o) {
        return setI(
            compareInt(o.getPredicate(), i(o.getLhs()), i(o.getRhs()), type));
      })
      .Case<arith::SelectOp>([&](arith::SelectOp o) {
        inst.values[o.getResult()] =
            inst.values
                .find(i(o.getCondition()) ? o.getTrueValue()
                                          : o.getFalseValue())
                ->second;
        return Step::Next;
      })
      .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(
          [&](auto o) { return setI(i(o.getIn())); })
      .Case<arith::IndexCastUIOp, arith::ExtUIOp>(
          [&](auto o) { return setI(int64_t(u(o.getIn()))); })
      .Case<arith::AddFOp>(
          [&](auto o) { return setF(f(o.getLhs()) + f(o.getRhs())); })
      .Case<arith::SubFOp>(
          [&](auto o) { return setF(f(o.getLhs()) - f(o.getRhs())); })
      .Case<arith::MulFOp>(
          [&](auto o) { return setF(f(o.getLhs()) * f(o.getRhs())); })
      .Case<arith::DivFOp>(
          [&](auto o) { return setF(f(o.getLhs()) / f(o.getRhs())); })
      .Case<arith::NegFOp>([&](auto o) { return setF(-f(o.getOperand())); })
      .Case<arith::MaximumFOp>([&](auto o) {
        double a = f(o.getLhs()), b = f(o.getRhs());
        return setF(std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b));
      })
      .Case<arith::MinimumFOp>([&](auto o) {
        double a = f(o.getLhs()), b = f(o.getRhs());
        return setF(std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b));
      })
      .Case<arith::CmpFOp>([&](arith::CmpFOp o) {
        return setI(
            compareFloat(o.getPredicate(), f(o.getLhs()), f(o.getRhs())));
      })
      .Case<arith::SIToFPOp>([&](auto o) { return setF(double(i(o.getIn()))); })
      .Case<arith::UIToFPOp>([&](auto o) { return setF(double(u(o.getIn()))); })
      .Case<arith::FPToSIOp, arith::FPToUIOp>([&](auto o) {
        double a = f(o.getIn());
        if (!std::isfinite(a) || std::fabs(a) >= 9.2e18) {
          error(op, inst) << "float " << a << " does not fit the integer";
          return Step::Failed;
        }
        return setI(int64_t(a));
      })
      .Default([&](Operation *) {
        error(op, inst) << "cannot be run by the emulator";
        return Step::Failed;
      });
}
