package io.aiperf.engine.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import java.io.IOException;

/**
 * The Jackson-based reading of OpenAI response objects that {@link ChunkParser} replaced, kept as the oracle its
 * differential test compares it with. Pulls what the metrics need out of one OpenAI response object (a streamed chunk or a whole body)
 * without building a tree: content and reasoning text of the first choice, tool-call arguments, embedding
 * data, and the usage counts.
 * Stateless and thread-safe; the {@link ChunkParser.Chunk} it fills is not.
 */
final class JacksonChunkParser {
    private static final JsonFactory JSON = new JsonFactory();

    private JacksonChunkParser() {
    }

    /**
     * Parses {@code buf[off, off+len)}; throws IOException for malformed or truncated JSON (callers skip the event).
     * One non-blocking parser per thread is fed each object in turn, instead of a parser built per event: Jackson's
     * parser and its context were most of the bytes allocated per SSE event (microbench's ResponsePathBenchmark). A
     * parser that did not end exactly at the end of a whole object is dropped, so no state leaks into the next one.
     */
    public static void parse(final byte[] buf, final int off, final int len, final ChunkParser.Chunk out) throws IOException {
        out.reset();
        final Reusable reusable = PARSERS.get();
        final JsonParser p = reusable.feed(buf, off, len);
        boolean whole = false;
        try {
            if (next(p) != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (next(p) == JsonToken.FIELD_NAME) {
                final String name = p.currentName();
                final JsonToken t = next(p);
                if (name.equals("choices") && t == JsonToken.START_ARRAY) {
                    choices(p, out);
                } else if (name.equals("usage") && t == JsonToken.START_OBJECT) {
                    usage(p, out);
                } else if (name.equals("error") && t == JsonToken.START_OBJECT) {
                    error(p, out);
                } else if (name.equals("error") && t == JsonToken.VALUE_STRING) {
                    out.errorType = "ServerError";
                    out.errorMessage = p.getText();
                } else if (name.equals("data") && t == JsonToken.START_ARRAY) {
                    out.hasEmbedding = next(p) != JsonToken.END_ARRAY;
                    if (out.hasEmbedding) {
                        p.skipChildren();
                        skipRestOfArray(p);
                    }
                } else {
                    p.skipChildren();
                }
            }
            whole = true;
        } finally {
            reusable.settle(whole);
        }
    }

    /** The next token; a truncated object (no more input before its end) is malformed, as at the end of a stream. */
    private static JsonToken next(final JsonParser p) throws IOException {
        final JsonToken t = p.nextToken();
        if (t == null || t == JsonToken.NOT_AVAILABLE) {
            throw new IOException("truncated JSON object");
        }
        return t;
    }

    private static final ThreadLocal<Reusable> PARSERS = ThreadLocal.withInitial(Reusable::new);

    /** A thread's non-blocking parser, fed one whole object at a time. */
    private static final class Reusable {
        private JsonParser parser;

        JsonParser feed(final byte[] buf, final int off, final int len) throws IOException {
            // A fresh parser per object: the oracle reads each object alone, as a blocking parser does (the reused
            // parser it once had kept a trailing token's bytes and read them into the next object).
            parser = JSON.createNonBlockingByteArrayParser();
            ((ByteArrayFeeder) parser.getNonBlockingInputFeeder()).feedInput(buf, off, off + len);
            return parser;
        }

        /** Keeps the parser for the next object only if this one was read whole and nothing but blanks followed. */
        void settle(final boolean whole) {
            try {
                if (whole && parser.getParsingContext().inRoot() && parser.nextToken() == JsonToken.NOT_AVAILABLE) {
                    return;
                }
            } catch (IOException | RuntimeException e) {
                // trailing bytes that are not JSON: drop the parser below
            }
            try {
                parser.close();
            } catch (IOException e) {
                // nothing to release: the input is the caller's array
            }
            parser = null;
        }
    }

    private static void choices(final JsonParser p, final ChunkParser.Chunk out) throws IOException {
        boolean first = true;
        JsonToken t;
        while ((t = next(p)) != JsonToken.END_ARRAY) {
            if (first && t == JsonToken.START_OBJECT) {
                first = false;
                while (next(p) == JsonToken.FIELD_NAME) {
                    final String name = p.currentName();
                    final JsonToken v = next(p);
                    if ((name.equals("delta") || name.equals("message")) && v == JsonToken.START_OBJECT) {
                        message(p, out);
                    } else if (name.equals("text") && v == JsonToken.VALUE_STRING) {
                        out.content = p.getText();
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
    }

    private static void message(final JsonParser p, final ChunkParser.Chunk out) throws IOException {
        String reasoningContent = null;
        String reasoning = null;
        while (next(p) == JsonToken.FIELD_NAME) {
            final String name = p.currentName();
            final JsonToken v = next(p);
            if (v == JsonToken.VALUE_STRING && name.equals("content")) {
                out.content = p.getText();
            } else if (v == JsonToken.VALUE_STRING && name.equals("reasoning_content")) {
                reasoningContent = p.getText();
            } else if (v == JsonToken.VALUE_STRING && name.equals("reasoning")) {
                reasoning = p.getText();
            } else if (name.equals("tool_calls") && v == JsonToken.START_ARRAY) {
                final String args = toolArguments(p);
                if (!args.isEmpty() && (out.content == null || out.content.isEmpty())) {
                    out.content = args;
                }
            } else {
                p.skipChildren();
            }
        }
        out.reasoning = reasoningContent != null && !reasoningContent.isEmpty() ? reasoningContent : reasoning;
    }

    /** Concatenated function names and argument fragments of a tool-call delta. */
    private static String toolArguments(final JsonParser p) throws IOException {
        final StringBuilder sb = new StringBuilder();
        int depth = 1;
        String field = null;
        while (depth > 0) {
            final JsonToken t = next(p);
            switch (t) {
                case START_OBJECT, START_ARRAY -> depth++;
                case END_OBJECT, END_ARRAY -> depth--;
                case FIELD_NAME -> field = p.currentName();
                case VALUE_STRING -> {
                    if ("name".equals(field) || "arguments".equals(field)) {
                        sb.append(p.getText());
                    }
                }
                default -> { }
            }
        }
        return sb.toString();
    }

    private static void usage(final JsonParser p, final ChunkParser.Chunk out) throws IOException {
        out.hasUsage = true;
        Integer nestedCacheRead = null;
        Integer topCacheRead = null;
        while (next(p) == JsonToken.FIELD_NAME) {
            final String name = p.currentName();
            final JsonToken v = next(p);
            if (v == JsonToken.VALUE_NUMBER_INT) {
                switch (name) {
                    case "prompt_tokens", "input_tokens" -> out.promptTokens = p.getIntValue();
                    case "completion_tokens", "output_tokens" -> out.completionTokens = p.getIntValue();
                    case "total_tokens" -> out.totalTokens = p.getIntValue();
                    case "cache_read_input_tokens", "prompt_cache_hit_tokens", "cachedContentTokenCount",
                         "cacheReadInputTokens", "cached_tokens" -> {
                        if (topCacheRead == null) {
                            topCacheRead = p.getIntValue();
                        }
                    }
                    default -> { }
                }
            } else if ((name.equals("prompt_tokens_details") || name.equals("input_tokens_details"))
                    && v == JsonToken.START_OBJECT) {
                while (next(p) == JsonToken.FIELD_NAME) {
                    final String detail = p.currentName();
                    final JsonToken dv = next(p);
                    if (detail.equals("cached_tokens") && dv == JsonToken.VALUE_NUMBER_INT && nestedCacheRead == null) {
                        nestedCacheRead = p.getIntValue();
                    } else {
                        p.skipChildren();
                    }
                }
            } else if (name.equals("completion_tokens_details") && v == JsonToken.START_OBJECT) {
                while (next(p) == JsonToken.FIELD_NAME) {
                    final String detail = p.currentName();
                    final JsonToken dv = next(p);
                    if (detail.equals("reasoning_tokens") && dv == JsonToken.VALUE_NUMBER_INT) {
                        out.reasoningTokens = p.getIntValue();
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
        out.cacheReadTokens = nestedCacheRead != null ? nestedCacheRead : topCacheRead;
    }

    /** OpenAI's error object: {@code {"message", "type", "code"}}; only the message and type are kept. */
    private static void error(final JsonParser p, final ChunkParser.Chunk out) throws IOException {
        out.errorType = "ServerError";
        out.errorMessage = "";
        while (next(p) == JsonToken.FIELD_NAME) {
            final String name = p.currentName();
            final JsonToken v = next(p);
            if (name.equals("message") && v == JsonToken.VALUE_STRING) {
                out.errorMessage = p.getText();
            } else if (name.equals("type") && v == JsonToken.VALUE_STRING && !p.getText().isEmpty()) {
                out.errorType = p.getText();
            } else {
                p.skipChildren();
            }
        }
    }

    private static void skipRestOfArray(final JsonParser p) throws IOException {
        JsonToken t;
        while ((t = next(p)) != JsonToken.END_ARRAY) {
            p.skipChildren();
        }
    }
}
