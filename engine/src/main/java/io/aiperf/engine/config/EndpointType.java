package io.aiperf.engine.config;

import java.util.Arrays;
import java.util.Locale;

/** The endpoint kinds this engine speaks, with AIPerf's default paths (AIPerf's endpoint and streaming docs). */
public enum EndpointType {
    CHAT("chat", "/v1/chat/completions", true, true),
    COMPLETIONS("completions", "/v1/completions", true, true),
    EMBEDDINGS("embeddings", "/v1/embeddings", false, false);

    private final String wireName;
    private final String defaultPath;
    private final boolean supportsStreaming;
    private final boolean producesTokens;

    EndpointType(final String wireName, final String defaultPath, final boolean supportsStreaming,
                 final boolean producesTokens) {
        this.wireName = wireName;
        this.defaultPath = defaultPath;
        this.supportsStreaming = supportsStreaming;
        this.producesTokens = producesTokens;
    }

    public String wireName() {
        return wireName;
    }

    public String defaultPath() {
        return defaultPath;
    }

    public boolean supportsStreaming() {
        return supportsStreaming;
    }

    public boolean producesTokens() {
        return producesTokens;
    }

    /** Parses case-insensitively with '-' and '_' treated alike, as AIPerf does for enum values. */
    public static EndpointType parse(final String field, final String text) {
        final String norm = text.trim().toLowerCase(Locale.ROOT).replace('-', '_');
        return Arrays.stream(values()).filter(v -> v.wireName.equals(norm)).findFirst()
                .orElseThrow(() -> new ConfigException(field, "unknown endpoint type '" + text
                        + "'; expected one of chat, completions, embeddings"));
    }
}
