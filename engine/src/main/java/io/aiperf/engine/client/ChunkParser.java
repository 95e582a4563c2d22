package io.aiperf.engine.client;

import java.io.IOException;

/**
 * Pulls what the metrics need out of one OpenAI response object (a streamed chunk or a whole body)
 * without building a tree: content and reasoning text of the first choice, tool-call arguments, embedding
 * data, and the usage counts. Reasoning is {@code reasoning_content} or {@code reasoning} (AIPerf's endpoint and
 * streaming docs). Stateless and thread-safe; the {@link Chunk} it fills is not.
 */
public final class ChunkParser {
    /** The fields of one response object; reset before each parse. */
    public static final class Chunk {
        public String content;
        public String reasoning;
        /** An answer without text: an embedding, ranking scores, an image. */
        public boolean hasEmbedding;
        public Integer promptTokens;
        public Integer completionTokens;
        public Integer totalTokens;
        public Integer reasoningTokens;
        /** Prompt tokens read from the server's prompt cache. */
        public Integer cacheReadTokens;
        public boolean hasUsage;
        /**
         * The usage gives only some counts, the others stand as earlier events gave them: Anthropic's stream sends
         * the input tokens in {@code message_start} and the output tokens in {@code message_delta}.
         */
        public boolean partialUsage;
        /** An {@code "error"} the server sent in place of (or after) content, or null. */
        public String errorType;
        public String errorMessage;

        void reset() {
            errorType = null;
            errorMessage = null;
            content = null;
            reasoning = null;
            hasEmbedding = false;
            promptTokens = null;
            completionTokens = null;
            totalTokens = null;
            reasoningTokens = null;
            cacheReadTokens = null;
            hasUsage = false;
            partialUsage = false;
        }

        /** A content response per AIPerf's endpoint and streaming docs: non-empty content, reasoning, tool call or embedding. */
        public boolean isContentResponse() {
            return (content != null && !content.isEmpty()) || (reasoning != null && !reasoning.isEmpty())
                    || hasEmbedding;
        }
    }

    private ChunkParser() {
    }

    /**
     * Parses {@code buf[off, off+len)}; throws IOException for malformed or truncated JSON (callers skip the event).
     * The object is read with a {@link JsonCursor}, which checks all of it but makes Strings only of the fields kept:
     * Jackson's parser (even one reused per thread) was most of the event loop's Java time per answer and per SSE
     * event (microbench's ResponsePathBenchmark). Bytes after the object are not read.
     */
    public static void parse(final byte[] buf, final int off, final int len, final Chunk out) throws IOException {
        out.reset();
        final JsonCursor c = new JsonCursor(buf, off, len);
        c.beginDocument();
        while (c.nextField()) {
            if (c.nameIs("choices") && c.atArray()) {
                c.enter();
                choices(c, out);
            } else if (c.nameIs("usage") && c.atObject()) {
                c.enter();
                usage(c, out);
            } else if (c.nameIs("error") && c.atObject()) {
                c.enter();
                error(c, out);
            } else if (c.nameIs("error") && c.atString()) {
                out.errorType = "ServerError";
                out.errorMessage = c.string();
            } else if (c.nameIs("data") && c.atArray()) {
                c.enter();
                out.hasEmbedding = c.nextElement();
                if (out.hasEmbedding) {
                    c.skipValue();
                    c.skipRest(false);
                }
            } else {
                c.skipValue();
            }
        }
    }

    /** The first object among the choices is the answer's; the others are checked and skipped. */
    private static void choices(final JsonCursor c, final Chunk out) throws IOException {
        boolean first = true;
        while (c.nextElement()) {
            if (first && c.atObject()) {
                first = false;
                c.enter();
                while (c.nextField()) {
                    if ((c.nameIs("delta") || c.nameIs("message")) && c.atObject()) {
                        c.enter();
                        message(c, out);
                    } else if (c.nameIs("text") && c.atString()) {
                        out.content = c.string();
                    } else {
                        c.skipValue();
                    }
                }
            } else {
                c.skipValue();
            }
        }
    }

    private static void message(final JsonCursor c, final Chunk out) throws IOException {
        String reasoningContent = null;
        String reasoning = null;
        while (c.nextField()) {
            if (c.nameIs("content") && c.atString()) {
                out.content = c.string();
            } else if (c.nameIs("reasoning_content") && c.atString()) {
                reasoningContent = c.string();
            } else if (c.nameIs("reasoning") && c.atString()) {
                reasoning = c.string();
            } else if (c.nameIs("tool_calls") && c.atArray()) {
                c.enter();
                final String args = toolArguments(c);
                if (!args.isEmpty() && (out.content == null || out.content.isEmpty())) {
                    out.content = args;
                }
            } else {
                c.skipValue();
            }
        }
        out.reasoning = reasoningContent != null && !reasoningContent.isEmpty() ? reasoningContent : reasoning;
    }

    /**
     * Concatenated function names and argument fragments of a tool-call delta: every string value, at any depth,
     * whose nearest field name above it is {@code name} or {@code arguments}.
     */
    private static String toolArguments(final JsonCursor c) throws IOException {
        final StringBuilder sb = new StringBuilder();
        tools(c, false, false, sb);
        return sb.toString();
    }

    /** The rest of the container just entered; {@code kept} says whether the field that holds it is a kept one. */
    private static boolean tools(final JsonCursor c, final boolean object, final boolean kept, final StringBuilder sb)
            throws IOException {
        boolean field = kept;
        while (object ? c.nextField() : c.nextElement()) {
            if (object) {
                field = c.nameIs("name") || c.nameIs("arguments");
            }
            if (c.atString()) {
                final String s = c.string();
                if (field) {
                    sb.append(s);
                }
            } else if (c.atObject()) {
                c.enter();
                field = tools(c, true, field, sb);
            } else if (c.atArray()) {
                c.enter();
                field = tools(c, false, field, sb);
            } else {
                c.skipValue();
            }
        }
        return field;
    }

    /**
     * The usage counts. Prompt-cache reads come from {@code prompt_tokens_details.cached_tokens} (or the
     * {@code input_tokens_details} spelling), else from a top-level synonym, as upstream reads them.
     */
    private static void usage(final JsonCursor c, final Chunk out) throws IOException {
        out.hasUsage = true;
        Integer nestedCacheRead = null;
        Integer topCacheRead = null;
        while (c.nextField()) {
            if (c.atInteger()) {
                if (c.nameIs("prompt_tokens") || c.nameIs("input_tokens")) {
                    out.promptTokens = c.intValue();
                } else if (c.nameIs("completion_tokens") || c.nameIs("output_tokens")) {
                    out.completionTokens = c.intValue();
                } else if (c.nameIs("total_tokens")) {
                    out.totalTokens = c.intValue();
                } else if (topCacheRead == null && isTopLevelCacheRead(c)) {
                    topCacheRead = c.intValue();
                } else {
                    c.skipValue();
                }
            } else if ((c.nameIs("prompt_tokens_details") || c.nameIs("input_tokens_details")) && c.atObject()) {
                c.enter();
                while (c.nextField()) {
                    if (c.nameIs("cached_tokens") && c.atInteger() && nestedCacheRead == null) {
                        nestedCacheRead = c.intValue();
                    } else {
                        c.skipValue();
                    }
                }
            } else if (c.nameIs("completion_tokens_details") && c.atObject()) {
                c.enter();
                while (c.nextField()) {
                    if (c.nameIs("reasoning_tokens") && c.atInteger()) {
                        out.reasoningTokens = c.intValue();
                    } else {
                        c.skipValue();
                    }
                }
            } else {
                c.skipValue();
            }
        }
        out.cacheReadTokens = nestedCacheRead != null ? nestedCacheRead : topCacheRead;
    }

    /** The vendors' top-level names of the prompt-cache reads (Anthropic, DeepSeek, Gemini, Bedrock, Cohere). */
    private static boolean isTopLevelCacheRead(final JsonCursor c) {
        return c.nameIs("cache_read_input_tokens") || c.nameIs("prompt_cache_hit_tokens")
                || c.nameIs("cachedContentTokenCount") || c.nameIs("cacheReadInputTokens")
                || c.nameIs("cached_tokens");
    }

    /** OpenAI's error object: {@code {"message", "type", "code"}}; only the message and type are kept. */
    private static void error(final JsonCursor c, final Chunk out) throws IOException {
        out.errorType = "ServerError";
        out.errorMessage = "";
        while (c.nextField()) {
            if (c.nameIs("message") && c.atString()) {
                out.errorMessage = c.string();
            } else if (c.nameIs("type") && c.atString()) {
                final String type = c.string();
                if (!type.isEmpty()) {
                    out.errorType = type;
                }
            } else {
                c.skipValue();
            }
        }
    }
}
