"""The MLIR that st.export emits for single operators, checked with
FileCheck: named linalg ops where they exist, generics for elementwise and
reductions, reshapes as expand/collapse_shape, parameters as arguments."""

import torch
import torch.nn as nn
import torch.nn.functional as F

import strata.torch as st
from models import Fn


def test_linear_parameters_are_arguments(filecheck):
    """The weight is an argument, passed transposed ([in, out]) by the
    caller; the bias is added by an elementwise epilogue."""
    text = st.export(nn.Linear(8, 4), (torch.randn(2, 8),))
    filecheck(text, """
// CHECK-LABEL: func.func @forward(
// CHECK-SAME: %{{.*}}: tensor<2x8xf32>, %p_weight_t: tensor<8x4xf32>, %p_bias: tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NOT: arith.constant dense
// CHECK-NOT: linalg.transpose
// CHECK: %[[ACC:.*]] = linalg.fill
// CHECK: linalg.matmul ins(%{{.*}}, %p_weight_t : tensor<2x8xf32>, tensor<8x4xf32>) outs(%[[ACC]] : tensor<2x4xf32>)
// CHECK: linalg.generic {{.*}}affine_map<(d0, d1) -> (d1)>
// CHECK: arith.addf
// CHECK: return
""")


def test_transposed_input_is_passed_transposed(filecheck):
    """The caller transposes a parameter the program only reads transposed
    (and keeps the copy: Dynamo passes weights as inputs)."""
    w = nn.Parameter(torch.randn(4, 8))
    text = st.export(Fn(lambda x, w: x @ w.t()), (torch.randn(2, 8), w))
    filecheck(text, """
// CHECK: func.func @forward(%{{.*}}: tensor<2x8xf32>, %{{.*}}_t: tensor<8x4xf32>) -> tensor<2x4xf32>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul
""")


def test_transposed_activation_stays_in_program(filecheck):
    """An input that changes every call is transposed by the program, where
    the transpose fuses, not copied by the caller on every call."""
    text = st.export(Fn(lambda x, w: x @ w.t()), (torch.randn(2, 8), torch.randn(4, 8)))
    filecheck(text, """
// CHECK: func.func @forward(%{{.*}}: tensor<2x8xf32>, %[[W:.*]]: tensor<4x8xf32>) -> tensor<2x4xf32>
// CHECK: linalg.transpose ins(%[[W]] : tensor<4x8xf32>)
// CHECK: linalg.matmul
""")


def test_conv2d_padding_stride(filecheck):
    """Channels-last: the program transposes the input to NHWC (an
    activation: the transpose fuses), the caller passes the filter as HWCF
    (a parameter: permuted once); the program pads, convolves, adds the
    bias in NHWC and returns NHWC, which the caller permutes back."""
    text = st.export(nn.Conv2d(3, 8, 3, stride=2, padding=1), (torch.randn(1, 3, 16, 16),))
    filecheck(text, """
// CHECK: func.func @forward(%[[IN:.*]]: tensor<1x3x16x16xf32>, %p_weight_t: tensor<3x3x3x8xf32>, %p_bias: tensor<8xf32>) -> tensor<1x8x8x8xf32>
// CHECK: %[[X:.*]] = linalg.transpose ins(%[[IN]] : tensor<1x3x16x16xf32>) {{.*}} permutation = [0, 2, 3, 1]
// CHECK-NOT: linalg.transpose
// CHECK: tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 0, 0, 0]
// CHECK: } : tensor<1x16x16x3xf32> to tensor<1x17x17x3xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
// CHECK-SAME: ins(%{{.*}}, %p_weight_t : tensor<1x17x17x3xf32>, tensor<3x3x3x8xf32>)
// CHECK-SAME: -> tensor<1x8x8x8xf32>
// CHECK: linalg.generic
// CHECK-SAME: affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-NOT: linalg.transpose
// CHECK: return
""")


def test_conv_bn_relu_stay_channels_last(filecheck):
    model = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8),
                          nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
                          nn.Flatten()).eval()
    text = st.export(model, (torch.randn(1, 4, 8, 8),))
    filecheck(text, """
// CHECK: func.func @forward(%{{.*}}: tensor<1x4x8x8xf32>,
// CHECK: linalg.transpose {{.*}} permutation = [0, 2, 3, 1]
// CHECK-NOT: linalg.transpose
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nhwc_hwcf
// CHECK: math.rsqrt
// CHECK: linalg.generic {{.*}} ins(%[[CONV]], {{.*}} : tensor<1x8x8x8xf32>, tensor<8xf32>,
// CHECK: arith.maximumf
// CHECK-NOT: linalg.transpose
// CHECK: tensor.pad
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK: arith.maximumf
// CHECK: linalg.transpose {{.*}} permutation = [0, 3, 1, 2]
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x512xf32>
// CHECK: return
""")


def test_max_pool(filecheck):
    text = st.export(Fn(lambda x: F.max_pool2d(x, 3, 2, 1)), (torch.randn(1, 3, 16, 16),))
    filecheck(text, """
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: tensor.pad
// CHECK: tensor.yield %[[NEGINF]] : f32
// CHECK: linalg.fill ins(%[[NEGINF]] : f32)
// CHECK: linalg.pooling_nhwc_max {{.*}}strides = dense<[2, 2]>
// CHECK-SAME: tensor<3x3xf32>
""")


def test_view_transpose_softmax(filecheck):
    text = st.export(Fn(lambda x: x.view(2, 3, 4).transpose(1, 2).softmax(-1)),
                     (torch.randn(6, 4),))
    filecheck(text, """
// CHECK: tensor.expand_shape %{{.*}} {{\\[\\[}}0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
// CHECK: linalg.transpose {{.*}} permutation = [0, 2, 1]
// CHECK: linalg.softmax dimension(2) {{.*}} -> tensor<2x4x3xf32>
""")


def test_flatten_is_collapse(filecheck):
    text = st.export(Fn(lambda x: x.flatten(1) * 2), (torch.randn(2, 3, 4),))
    filecheck(text, """
// CHECK: tensor.collapse_shape %{{.*}} {{\\[\\[}}0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
// CHECK-NOT: tensor.expand_shape
""")


def test_broadcast_collapses_unit_dims(filecheck):
    text = st.export(Fn(lambda x, y: x + y), (torch.randn(4, 1, 6), torch.randn(5, 1)))
    filecheck(text, """
// CHECK-DAG: tensor.collapse_shape %{{.*}} {{\\[\\[}}0], [1, 2]] : tensor<4x1x6xf32> into tensor<4x6xf32>
// CHECK-DAG: tensor.collapse_shape %{{.*}} {{\\[\\[}}0, 1]] : tensor<5x1xf32> into tensor<5xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel"]
// CHECK: arith.addf
""")


def test_layer_norm_reductions(filecheck):
    text = st.export(nn.LayerNorm(8), (torch.randn(4, 8),))
    filecheck(text, """
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: math.rsqrt
// CHECK: return
""")


def test_bmm(filecheck):
    text = st.export(Fn(lambda a, b: a @ b), (torch.randn(2, 3, 4), torch.randn(2, 4, 5)))
    filecheck(text, """
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x3x4xf32>, tensor<2x4x5xf32>)
// CHECK-SAME: -> tensor<2x3x5xf32>
""")


def test_embedding_gather(filecheck):
    text = st.export(nn.Embedding(10, 4), (torch.randint(0, 10, (3,)),))
    filecheck(text, """
// CHECK: func.func @forward(%{{.*}}: tensor<3xi64>, %p_weight: tensor<10x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<3xi64>)
// CHECK: arith.index_cast
// CHECK: linalg.index 1
// CHECK: tensor.extract %p_weight[
""")


def test_gelu_forms(filecheck):
    text = st.export(Fn(lambda x: F.gelu(x) + F.gelu(x, approximate="tanh")), (torch.randn(4),))
    filecheck(text, """
// CHECK: math.erf
// CHECK: math.tanh
""")


def test_causal_mask_where(filecheck):
    text = st.export(Fn(lambda x: x.masked_fill(torch.ones(4, 4, dtype=torch.bool).triu(1),
                                                float("-inf"))), (torch.randn(4, 4),))
    filecheck(text, """
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.generic
// CHECK: arith.select %{{.*}} : f32
""")


def test_buffers_and_batch_norm(filecheck):
    text = st.export(nn.BatchNorm2d(3).eval(), (torch.randn(1, 3, 4, 4),))
    filecheck(text, """
// CHECK: func.func @forward(%{{.*}}: tensor<1x3x4x4xf32>, %p_weight: tensor<3xf32>, %p_bias: tensor<3xf32>, %b_running_mean: tensor<3xf32>, %b_running_var: tensor<3xf32>{{.*}}
// CHECK: math.rsqrt
""")
