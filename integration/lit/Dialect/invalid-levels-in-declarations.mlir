// Memory levels named only by types held in attributes (the signature of a
// declaration, the type of a global) are checked against the description too.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

module attributes {strata.hw = #strata.hw<"toy", {name = "toy", plugin = "cpu",
    compute = [{name = "core", count = 4}], memory = [{name = "dram"}]}>} {
  // expected-error @+1 {{uses memory level 'l1', which chip 'toy' does not describe}}
  func.func private @declaration(memref<4xf32, #strata.mem<"l1">>)
}

// -----

module attributes {strata.hw = #strata.hw<"toy", {name = "toy", plugin = "cpu",
    compute = [{name = "core", count = 4}], memory = [{name = "dram"}]}>} {
  // expected-error @+1 {{uses memory level 'l1', which chip 'toy' does not describe}}
  memref.global "private" @global : memref<4xf32, #strata.mem<"l1">>
}
