#!/usr/bin/env python3
"""Gives the Python peers the o200k_base tokenizer without a network (bench/peers.sh).

  <upstream aiperf venv>/bin/python peer_tokenizer.py JAR OUT_DIR

o200k_base's rank file ships inside the engine's jar (jtokkit's copy, byte for byte tiktoken's file). From it:
  OUT_DIR/tiktoken-cache/<key>  where tiktoken looks before it downloads (TIKTOKEN_CACHE_DIR; the key is the sha1
                                of the URL tiktoken would fetch, read from the installed tiktoken, never written
                                down here). Upstream AIPerf's `--tokenizer builtin` uses it.
  OUT_DIR/hf-o200k/             a Hugging Face fast tokenizer converted from it (transformers' own converter), for
                                GuideLLM and inference-perf, which load a tokenizer with AutoTokenizer.
So every tool counts tokens with the same vocabulary as the engine's builtin tokenizer. Needs tiktoken and
transformers (both are dependencies of upstream AIPerf). Quick when both are already there.
"""
import hashlib
import inspect
import json
import os
import re
import sys
import zipfile


def main():
    jar, out = sys.argv[1], sys.argv[2]
    cache = os.path.join(out, "tiktoken-cache")
    hf = os.path.join(out, "hf-o200k")
    os.makedirs(cache, exist_ok=True)
    from tiktoken_ext import openai_public
    url = re.search(r'"([^"]+/o200k_base\.tiktoken)"', inspect.getsource(openai_public.o200k_base)).group(1)
    target = os.path.join(cache, hashlib.sha1(url.encode()).hexdigest())
    if not os.path.exists(target):
        with zipfile.ZipFile(jar) as z:
            data = z.read("com/knuddels/jtokkit/o200k_base.tiktoken")
        with open(target + ".tmp", "wb") as f:
            f.write(data)
        os.replace(target + ".tmp", target)
    if not os.path.exists(os.path.join(hf, "tokenizer.json")):
        os.environ["TIKTOKEN_CACHE_DIR"] = cache
        import tiktoken
        from transformers.convert_slow_tokenizer import TikTokenConverter
        enc = tiktoken.get_encoding("o200k_base")
        os.makedirs(hf, exist_ok=True)
        tok = TikTokenConverter(vocab_file=target, pattern=enc._pat_str,
                                extra_special_tokens=enc._special_tokens).converted()
        tok.save(os.path.join(hf, "tokenizer.json"))
        with open(os.path.join(hf, "tokenizer_config.json"), "w") as f:
            json.dump({"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 1000000}, f)
    print(cache)
    print(hf)


if __name__ == "__main__":
    main()
