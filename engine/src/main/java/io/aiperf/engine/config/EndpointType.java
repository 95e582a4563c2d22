package io.aiperf.engine.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The endpoint kinds this engine speaks, with AIPerf's default paths (AIPerf's endpoint and streaming docs and
 * src-docs/endpoints.md): what the request looks like, where it goes, and what comes back.
 */
public enum EndpointType {
    CHAT("chat", "/v1/chat/completions", null, true, true),
    COMPLETIONS("completions", "/v1/completions", null, true, true),
    EMBEDDINGS("embeddings", "/v1/embeddings", null, false, false),
    CHAT_EMBEDDINGS("chat_embeddings", "/v1/embeddings", null, false, false),
    NIM_EMBEDDINGS("nim_embeddings", "/v1/embeddings", null, false, false),
    RESPONSES("responses", "/v1/responses", null, true, true),
    /** Anthropic's Messages API: the system prompt at the top level, {@code x-api-key} and {@code anthropic-version}. */
    MESSAGES("messages", "/v1/messages", null, true, true),
    HUGGINGFACE_GENERATE("huggingface_generate", "/generate", "/generate_stream", true, true),
    NIM_RANKINGS("nim_rankings", "/v1/ranking", null, false, false),
    HF_TEI_RANKINGS("hf_tei_rankings", "/rerank", null, false, false),
    COHERE_RANKINGS("cohere_rankings", "/v2/rerank", null, false, false),
    TEMPLATE("template", "/v1/chat/completions", null, true, true),
    /** NVIDIA NIM image retrieval: the turn's images in, one embedding per image back. */
    IMAGE_RETRIEVAL("image_retrieval", "/v1/image/infer", null, false, false),
    /** OpenAI's Images API: the turn's text as the prompt, images back (streamed as partial images); no tokens. */
    IMAGE_GENERATION("image_generation", "/v1/images/generations", null, true, false),
    /** Solido's RAG pipeline: the turn's text as a query with Solido's filters, a text answer and its sources. */
    SOLIDO_RAG("solido_rag", "/rag/api/prompt", null, true, true),
    /** Complete request bodies from a {@code raw_payload} file, sent as they are (upstream's verbatim replay). */
    RAW("raw", "/v1/chat/completions", null, true, true);

    private final String wireName;
    private final String defaultPath;
    private final String streamingPath;
    private final boolean supportsStreaming;
    private final boolean producesTokens;

    EndpointType(final String wireName, final String defaultPath, final String streamingPath,
                 final boolean supportsStreaming, final boolean producesTokens) {
        this.wireName = wireName;
        this.defaultPath = defaultPath;
        this.streamingPath = streamingPath;
        this.supportsStreaming = supportsStreaming;
        this.producesTokens = producesTokens;
    }

    public String wireName() {
        return wireName;
    }

    public String defaultPath() {
        return defaultPath;
    }

    /** The path for a streaming or a plain request (Hugging Face's TGI streams on its own route). */
    public String defaultPath(final boolean streaming) {
        return streaming && streamingPath != null ? streamingPath : defaultPath;
    }

    public boolean supportsStreaming() {
        return supportsStreaming;
    }

    public boolean producesTokens() {
        return producesTokens;
    }

    /** An embeddings endpoint: one vector per input, no text back (image retrieval's are of images). */
    public boolean embeddings() {
        return this == EMBEDDINGS || this == CHAT_EMBEDDINGS || this == NIM_EMBEDDINGS || this == IMAGE_RETRIEVAL;
    }

    /** A rankings endpoint: a query and passages in, scores back. */
    public boolean rankings() {
        return this == NIM_RANKINGS || this == HF_TEI_RANKINGS || this == COHERE_RANKINGS;
    }

    /** The console table's title, as upstream names each endpoint's metrics. */
    public String metricsTitle() {
        return switch (this) {
            case EMBEDDINGS, CHAT_EMBEDDINGS -> "Embeddings Metrics";
            case NIM_EMBEDDINGS -> "NIM Embeddings Metrics";
            case NIM_RANKINGS -> "Rankings Metrics";
            case HF_TEI_RANKINGS, COHERE_RANKINGS -> "Ranking Metrics";
            case IMAGE_RETRIEVAL -> "Image Retrieval Metrics";
            case IMAGE_GENERATION -> "Image Generation Metrics";
            case SOLIDO_RAG -> "SOLIDO RAG Metrics";
            default -> "LLM Metrics";
        };
    }

    /** Whether a conversation can be sent: the request carries messages or text a history can join. */
    public boolean conversational() {
        return producesTokens;
    }

    /**
     * Upstream endpoint types this engine does not send, each with the reason (src-docs/endpoints.md): they upload
     * files as multipart forms, and video generation also polls a job until the video is ready.
     */
    private static final java.util.Map<String, String> REFUSED = java.util.Map.of(
            "image_edit", "it uploads the input image as a multipart/form-data file, and this engine sends JSON bodies "
                    + "only",
            "video_generation", "it submits a multipart/form-data job and polls it until the video is ready, and this "
                    + "engine sends JSON bodies and times one exchange per request",
            "audio_transcription", "it uploads the audio as a multipart/form-data file, and this engine sends JSON "
                    + "bodies only");

    /** Parses case-insensitively with '-' and '_' treated alike, as AIPerf does for enum values. */
    public static EndpointType parse(final String field, final String text) {
        final String norm = text.trim().toLowerCase(Locale.ROOT).replace('-', '_');
        if (REFUSED.containsKey(norm)) {
            throw new ConfigException(field, "upstream AIPerf's endpoint type '" + norm + "' is not supported: "
                    + REFUSED.get(norm));
        }
        return Arrays.stream(values()).filter(v -> v.wireName.equals(norm)).findFirst()
                .orElseThrow(() -> new ConfigException(field, "unknown endpoint type '" + text
                        + "'; expected one of " + Arrays.stream(values()).map(EndpointType::wireName)
                        .collect(Collectors.joining(", "))
                        + (norm.equals("image_retrieval") || norm.equals("raw")
                        ? " (see the deliberate differences in cli.md in the docs)" : "")));
    }
}
