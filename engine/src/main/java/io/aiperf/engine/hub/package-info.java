/** Downloads from the Hugging Face hub into its local cache: a model's tokenizer files (src-docs/tokenizers.md). */
package io.aiperf.engine.hub;
