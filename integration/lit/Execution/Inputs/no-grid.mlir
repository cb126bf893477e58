// No op here gets a schedule (i1 elements stay plain loops), so no loop runs
// on threads.
func.func @and(%a: tensor<64xi1>, %b: tensor<64xi1>) -> tensor<64xi1> {
  %r = arith.andi %a, %b : tensor<64xi1>
  return %r : tensor<64xi1>
}
