/** Synthetic prompts and the builtin tokenizer. */
package io.aiperf.engine.dataset;
