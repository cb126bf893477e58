// 2-D convolution (NHWC input, HWCF filter, stride 1, no padding) + bias + ReLU.
// input: tensor<1x56x56x64xf32>, filter: tensor<3x3x64x64xf32>, bias: tensor<64xf32>
//   -> output: tensor<1x54x54x64xf32>.
#map_4d = affine_map<(n, h, w, f) -> (n, h, w, f)>
#map_bias = affine_map<(n, h, w, f) -> (f)>
func.func @conv2d(%input: tensor<1x56x56x64xf32>, %filter: tensor<3x3x64x64xf32>, %bias: tensor<64xf32>) -> tensor<1x54x54x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x54x54x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x54x54x64xf32>) -> tensor<1x54x54x64xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<1x56x56x64xf32>, tensor<3x3x64x64xf32>)
      outs(%init : tensor<1x54x54x64xf32>) -> tensor<1x54x54x64xf32>
  %out = tensor.empty() : tensor<1x54x54x64xf32>
  %y = linalg.generic {indexing_maps = [#map_4d, #map_bias, #map_4d],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bias : tensor<1x54x54x64xf32>, tensor<64xf32>)
      outs(%out : tensor<1x54x54x64xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %s = arith.addf %c, %b : f32
    %r = arith.maximumf %s, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x54x54x64xf32>
  return %y : tensor<1x54x54x64xf32>
}
