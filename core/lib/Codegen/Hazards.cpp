//===- Hazards.cpp - Ordering asynchronous ops on shared buffers ----------===//
#include "strata/Codegen/Hazards.h"

using namespace mlir;
using namespace strata::codegen;

SmallVector<Value> Hazards::after(ArrayRef<Value> reads,
                                  ArrayRef<Value> writes) {
  SmallVector<Value> tokens;
  for (ArrayRef<Value> touched : {reads, writes})
    for (Value v : touched)
      if (Value w = writer.lookup(v))
        tokens.push_back(w);
  for (Value v : writes)
    llvm::append_range(tokens, readers.lookup(v));
  llvm::sort(tokens, [&](Value x, Value y) { return order[x] < order[y]; });
  tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
  return tokens;
}

void Hazards::record(Value token, ArrayRef<Value> reads,
                     ArrayRef<Value> writes) {
  order[token] = int64_t(order.size());
  for (Value v : reads)
    readers[v].push_back(token);
  for (Value v : writes) {
    writer[v] = token;
    readers[v].clear();
  }
}
