"""The model zoo of the coverage tests and benchmark: every classification
model torchvision lists (random weights, the weights=None constructors) and
transformer models built from Hugging Face `transformers` configs (random
weights, nothing downloaded), each at a small input size.

torchvision's models are enumerated from torchvision.models.list_models, so
a new release's models are covered without a change here; a model whose
constructor needs arguments to run at a small size gets them from
_TORCHVISION_SIZES (by name prefix), everything else runs at 64x64.

CI_SUBSET names the models the CI test compiles, chosen among those that
compile in seconds: padded 3x3 convolutions with many channels and
concatenations (SqueezeNet), adaptive pooling of non-uniform windows
(AlexNet at 64x64), and the transformers models' attention, cumulative
sums and views of attention results. ConvNeXt (strided views of
channels-last tensors), Swin (rolls, fmod, slice scatters) and the rest run
in integration/bench/torch_models.py --zoo (their operators each have a
test in test_ops.py).
"""

import torch

CI_SUBSET = ("squeezenet1_1", "alexnet", "hf_bert", "hf_gpt2", "hf_llama")


def _inception(kw):
    # The auxiliary classifier only runs in training; scipy's truncated
    # normal init (init_weights) is slow and changes nothing here.
    kw.update(aux_logits=False, init_weights=False)


# name prefix -> (input size, constructor keyword arguments, or a function
# that completes them). Patch models need their image size; MaxViT's
# partitions must divide every stage's grid (2 at 64x64 instead of 7 at
# 224x224, the architecture otherwise unchanged); Inception needs 75x75
# at least.
_TORCHVISION_SIZES = {
    "vit_h_14": (56, {"image_size": 56}),
    "vit_": (64, {"image_size": 64}),
    "inception_v3": (96, _inception),
    "googlenet": (64, _inception),
}


def torchvision_names():
    import torchvision
    return sorted(torchvision.models.list_models(module=torchvision.models))


def _torchvision(name):
    import torchvision
    size, extra = 64, {}
    for prefix, (s, kw) in _TORCHVISION_SIZES.items():
        if name.startswith(prefix):
            size = s
            if callable(kw):
                kw(extra)
            else:
                extra.update(kw)
            break
    if name == "maxvit_t":
        from torchvision.models.maxvit import MaxVit
        model = MaxVit(input_size=(size, size), stem_channels=64, partition_size=2,
                       block_channels=[64, 128, 256, 512], block_layers=[2, 2, 5, 2],
                       head_dim=32, stochastic_depth_prob=0.2)
    else:
        model = torchvision.models.get_model(name, weights=None, **extra)
    return model, (torch.randn(1, 3, size, size),)


class _HFWrapper(torch.nn.Module):
    """A transformers model called on token ids, returning one tensor (the
    logits or the last hidden state), without a key/value cache."""

    def __init__(self, model, causal):
        super().__init__()
        self.model = model
        self.causal = causal

    def forward(self, ids):
        out = self.model(input_ids=ids, use_cache=False) if self.causal else \
            self.model(input_ids=ids)
        return out.logits if hasattr(out, "logits") else out.last_hidden_state


def _hf(name):
    import transformers as tf
    vocab, width, layers, heads = 100, 64, 2, 4
    if name == "hf_bert":
        cfg = tf.BertConfig(vocab_size=vocab, hidden_size=width, num_hidden_layers=layers,
                            num_attention_heads=heads, intermediate_size=4 * width,
                            max_position_embeddings=64)
        model, causal = tf.BertModel(cfg), False
    elif name == "hf_gpt2":
        cfg = tf.GPT2Config(vocab_size=vocab, n_embd=width, n_layer=layers, n_head=heads,
                            n_positions=64, bos_token_id=0, eos_token_id=0)
        model, causal = tf.GPT2LMHeadModel(cfg), True
    elif name == "hf_llama":
        cfg = tf.LlamaConfig(vocab_size=vocab, hidden_size=width, intermediate_size=2 * width,
                             num_hidden_layers=layers, num_attention_heads=heads,
                             num_key_value_heads=heads // 2, max_position_embeddings=64,
                             bos_token_id=0, eos_token_id=0)
        model, causal = tf.LlamaForCausalLM(cfg), True
    elif name == "hf_t5_encoder":
        cfg = tf.T5Config(vocab_size=vocab, d_model=width, d_kv=width // heads, d_ff=2 * width,
                          num_layers=layers, num_heads=heads)
        model, causal = tf.T5EncoderModel(cfg), False
    else:
        raise KeyError(name)
    return _HFWrapper(model, causal), (torch.randint(0, vocab, (2, 16)),)


HF_NAMES = ("hf_bert", "hf_gpt2", "hf_llama", "hf_t5_encoder")


def names():
    """Every model of the zoo: torchvision's, then the transformers ones."""
    return torchvision_names() + list(HF_NAMES)


def _randomize_zero_weights(model):
    """Weight matrices and filters initialized to zero (ViT's classifier
    head) get random values: an all-zero output would make the check
    against eager vacuous."""
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() > 1 and not p.any():
                p.normal_(0.0, 0.02)
    return model


def build(name):
    """(model in eval mode with random weights, none of them all zero, and
    non-trivial batch-norm statistics, example inputs)."""
    from models import randomize_batch_norms
    torch.manual_seed(0)
    model, inputs = _hf(name) if name.startswith("hf_") else _torchvision(name)
    return randomize_batch_norms(_randomize_zero_weights(model.eval())), inputs
