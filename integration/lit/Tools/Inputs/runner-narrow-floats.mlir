// f32 to f4E2M1FN and back (the MX formats' element type), rounding as
// MLIR's expansion does (ties away from zero): 0.3 -> 0.5, 2.5 -> 3, 2.6 -> 3,
// 5.0 -> 6, -1.25 -> -1.5.
func.func @entry() {
  %v = arith.constant dense<[0.3, 2.5, 2.6, 5.0, -1.25, 6.0]> : vector<6xf32>
  %t = arith.truncf %v : vector<6xf32> to vector<6xf4E2M1FN>
  %e = arith.extf %t : vector<6xf4E2M1FN> to vector<6xf32>
  vector.print %e : vector<6xf32>
  return
}
