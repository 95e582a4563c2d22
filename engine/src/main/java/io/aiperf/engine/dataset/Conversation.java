package io.aiperf.engine.dataset;

import java.util.List;

/**
 * One conversation of the dataset (src-docs/datasets.md): a single prompt, or the user turns of a multi-turn session.
 * Each turn is sent with the whole history before it: the system prompt, every earlier user turn and the server's
 * actual reply to it.
 *
 * @param id joins {@code inputs.json} and the per-request records ({@code conversation_id})
 * @param systemPrompt a system message sent with every turn, or null
 * @param systemTokens tokens of {@code systemPrompt}, by the run's tokenizer
 * @param turns the user turns, at least one
 * @param timestampMs when a trace says to start it (ms), or null
 */
public record Conversation(String id, String systemPrompt, int systemTokens, List<Turn> turns, Long timestampMs) {

    public Conversation {
        turns = List.copyOf(turns);
        if (turns.isEmpty()) {
            throw new IllegalArgumentException("a conversation needs at least one turn");
        }
    }

    /** A conversation of one prompt and no system message. */
    public static Conversation single(final String id, final String prompt, final int inputTokens,
                                      final Integer outputTokens, final Long timestampMs) {
        return new Conversation(id, null, 0, List.of(new Turn(prompt, inputTokens, outputTokens, 0)), timestampMs);
    }

    public Turn first() {
        return turns.get(0);
    }

    /**
     * One user turn.
     *
     * @param prompt the user message
     * @param inputTokens tokens of {@code prompt} alone
     * @param outputTokens the token cap to request, or null
     * @param delayMs think time after the previous turn's reply before this turn is sent (0 for the first)
     * @param passages the passages a rankings endpoint ranks against {@code prompt} (the query); empty otherwise
     * @param media images and audio sent with {@code prompt} (multimodal chat), in order; empty for text only
     * @param payload the complete request body of a {@code raw_payload} row, sent as it is; null otherwise
     *                ({@code prompt} then holds the payload's text, for the token counts)
     * @param extra the row's {@code extra} fields, merged over the generated body (after {@code --extra-inputs}, as
     *              upstream merges them); null for none. Read only.
     */
    public record Turn(String prompt, int inputTokens, Integer outputTokens, long delayMs, List<String> passages,
                       List<Media> media, String payload, com.fasterxml.jackson.databind.node.ObjectNode extra) {
        public Turn {
            passages = List.copyOf(passages);
            media = List.copyOf(media);
        }

        public Turn(final String prompt, final int inputTokens, final Integer outputTokens, final long delayMs,
                    final List<String> passages, final List<Media> media, final String payload) {
            this(prompt, inputTokens, outputTokens, delayMs, passages, media, payload, null);
        }

        public Turn(final String prompt, final int inputTokens, final Integer outputTokens, final long delayMs,
                    final List<String> passages, final List<Media> media) {
            this(prompt, inputTokens, outputTokens, delayMs, passages, media, null);
        }

        public Turn(final String prompt, final int inputTokens, final Integer outputTokens, final long delayMs,
                    final List<String> passages) {
            this(prompt, inputTokens, outputTokens, delayMs, passages, List.of(), null);
        }

        public Turn(final String prompt, final int inputTokens, final Integer outputTokens, final long delayMs) {
            this(prompt, inputTokens, outputTokens, delayMs, List.of(), List.of(), null);
        }

        /** The images sent with this turn. */
        public int imageCount() {
            // Asked once per completed request: a plain loop, not a stream pipeline built each time.
            int n = 0;
            for (int i = 0; i < media.size(); i++) {
                if (media.get(i).kind() == Media.Kind.IMAGE) {
                    n++;
                }
            }
            return n;
        }
    }

    /**
     * An image or a piece of audio sent beside a turn's text (src-docs/datasets.md, multimodal rows).
     *
     * @param value for an image, its URL ({@code http(s)://} or a {@code data:} URL); for audio,
     *              {@code <format>,<base64>} as upstream AIPerf writes it
     */
    public record Media(Kind kind, String value) {
        public enum Kind { IMAGE, AUDIO }

        /** The audio's format ({@code wav}, {@code mp3}). */
        public String audioFormat() {
            return value.substring(0, value.indexOf(','));
        }

        /** The audio's base64 data. */
        public String audioData() {
            return value.substring(value.indexOf(',') + 1);
        }
    }
}
