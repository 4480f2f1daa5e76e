"""Writes a tiny random-weight llama model as GGUF, for benches/llama_cpp_e2e.sh.

Nothing is downloaded: the vocabulary and merges are those of the byte-level BPE in
fixtures/peers/tokenizer/tokenizer.json (3 741 tokens, <|endoftext|> = 0), the weights are
seeded Gaussian noise. The model is a real llama graph (2 layers, 64-wide, 4 heads, SwiGLU,
RoPE), so llama.cpp does the work of a real forward pass per token, only a small one; its text
is gibberish.

Usage: python llama_cpp_model.py TOKENIZER_JSON OUT.gguf
"""

import json
import sys

import gguf
import numpy as np

N_EMBD, N_HEAD, N_HEAD_KV, N_FF, N_LAYER, N_CTX = 64, 4, 4, 128, 2, 2048


def main(tokenizer_json, out):
    t = json.load(open(tokenizer_json))
    vocab = t["model"]["vocab"]
    tokens = [None] * len(vocab)
    for tok, i in vocab.items():
        tokens[i] = tok
    special = {a["id"] for a in t.get("added_tokens", []) if a.get("special")}
    merges = [m if isinstance(m, str) else " ".join(m) for m in t["model"]["merges"]]
    eos = next(a["id"] for a in t["added_tokens"] if a["content"] == "<|endoftext|>")

    w = gguf.GGUFWriter(out, "llama")
    w.add_name("credence-tiny-random-llama")
    w.add_context_length(N_CTX)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD_KV)
    w.add_rope_dimension_count(N_EMBD // N_HEAD)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_vocab_size(len(tokens))
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_types([gguf.TokenType.CONTROL if i in special else gguf.TokenType.NORMAL for i in range(len(tokens))])
    w.add_token_merges(merges)
    w.add_bos_token_id(eos)
    w.add_eos_token_id(eos)
    w.add_add_bos_token(False)

    rng = np.random.default_rng(1)

    def rand(*shape):
        # numpy (rows, cols) = ggml ne (cols, rows): a weight maps cols -> rows.
        return (rng.standard_normal(shape) * 0.02).astype(np.float32)

    ones = lambda n: np.ones(n, dtype=np.float32)
    n_vocab, head_dim = len(tokens), N_EMBD // N_HEAD
    w.add_tensor("token_embd.weight", rand(n_vocab, N_EMBD))
    for i in range(N_LAYER):
        p = f"blk.{i}."
        w.add_tensor(p + "attn_norm.weight", ones(N_EMBD))
        w.add_tensor(p + "attn_q.weight", rand(N_HEAD * head_dim, N_EMBD))
        w.add_tensor(p + "attn_k.weight", rand(N_HEAD_KV * head_dim, N_EMBD))
        w.add_tensor(p + "attn_v.weight", rand(N_HEAD_KV * head_dim, N_EMBD))
        w.add_tensor(p + "attn_output.weight", rand(N_EMBD, N_HEAD * head_dim))
        w.add_tensor(p + "ffn_norm.weight", ones(N_EMBD))
        w.add_tensor(p + "ffn_gate.weight", rand(N_FF, N_EMBD))
        w.add_tensor(p + "ffn_up.weight", rand(N_FF, N_EMBD))
        w.add_tensor(p + "ffn_down.weight", rand(N_EMBD, N_FF))
    w.add_tensor("output_norm.weight", ones(N_EMBD))
    w.add_tensor("output.weight", rand(n_vocab, N_EMBD))

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main(*sys.argv[1:])
