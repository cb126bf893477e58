// Every print format of the runner utilities: memrefs of each element type
// and rank 0 to 3, scalars, punctuation, NaN and infinities.
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefF64(tensor<*xf64>)
func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefI64(tensor<*xi64>)
func.func private @printF32(f32)
func.func private @printF64(f64)
func.func private @printI64(i64)
func.func private @printU64(i64)
func.func private @printOpen()
func.func private @printClose()
func.func private @printComma()
func.func private @printNewline()

func.func @main() {
  %a = arith.constant dense<[[[1.5, -2.25, 3.0], [4.0, 5.125, -6.0]],
                             [[7.0, 8.0, 9.0], [1.0e10, 1.0e-7, 0.1]]]> : tensor<2x2x3xf32>
  %b = arith.constant dense<2.0> : tensor<2x2x3xf32>
  %e = tensor.empty() : tensor<2x2x3xf32>
  %m = linalg.mul ins(%a, %b : tensor<2x2x3xf32>, tensor<2x2x3xf32>)
                  outs(%e : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>

  %c0 = arith.constant 0.0 : f32
  %z = tensor.empty() : tensor<f32>
  %zf = linalg.fill ins(%c0 : f32) outs(%z : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%m : tensor<2x2x3xf32>) outs(%zf : tensor<f32>) dimensions = [0, 1, 2]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %s_u = tensor.cast %s : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%s_u) : (tensor<*xf32>) -> ()

  %v = arith.constant dense<[1.0, 0.5, 0.25, 3.0e-3, 12345678.0]> : tensor<5xf64>
  %ve = tensor.empty() : tensor<5xf64>
  %v2 = linalg.add ins(%v, %v : tensor<5xf64>, tensor<5xf64>) outs(%ve : tensor<5xf64>) -> tensor<5xf64>
  %v_u = tensor.cast %v2 : tensor<5xf64> to tensor<*xf64>
  call @printMemrefF64(%v_u) : (tensor<*xf64>) -> ()

  %i = arith.constant dense<[[1, -2], [300000, 4]]> : tensor<2x2xi32>
  %ie = tensor.empty() : tensor<2x2xi32>
  %i2 = linalg.add ins(%i, %i : tensor<2x2xi32>, tensor<2x2xi32>) outs(%ie : tensor<2x2xi32>) -> tensor<2x2xi32>
  %i_u = tensor.cast %i2 : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%i_u) : (tensor<*xi32>) -> ()

  %l = arith.constant dense<[[9000000000], [-1]]> : tensor<2x1xi64>
  %l_u = tensor.cast %l : tensor<2x1xi64> to tensor<*xi64>
  call @printMemrefI64(%l_u) : (tensor<*xi64>) -> ()

  %one = arith.constant 1 : index
  %f = tensor.extract %m[%one, %one, %one] : tensor<2x2x3xf32>
  call @printOpen() : () -> ()
  call @printF32(%f) : (f32) -> ()
  call @printComma() : () -> ()
  %nan = arith.constant 0x7FC00000 : f32
  call @printF32(%nan) : (f32) -> ()
  call @printComma() : () -> ()
  %inf = arith.constant 0xFF800000 : f32
  call @printF32(%inf) : (f32) -> ()
  call @printComma() : () -> ()
  %d = arith.constant 2.5e-300 : f64
  call @printF64(%d) : (f64) -> ()
  call @printComma() : () -> ()
  %n = arith.constant -42 : i64
  call @printI64(%n) : (i64) -> ()
  call @printComma() : () -> ()
  call @printU64(%n) : (i64) -> ()
  call @printClose() : () -> ()
  call @printNewline() : () -> ()
  %m_u = tensor.cast %m : tensor<2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%m_u) : (tensor<*xf32>) -> ()
  return
}
