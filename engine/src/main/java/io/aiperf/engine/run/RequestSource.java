package io.aiperf.engine.run;

import io.aiperf.engine.client.PreparedRequest;
import io.aiperf.engine.client.RequestFactory;
import io.aiperf.engine.client.RequestHeaders;
import io.aiperf.engine.client.ResponseParser;
import io.aiperf.engine.client.UrlJoiner;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.dataset.Conversation;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The requests of a run's conversations (src-docs/datasets.md). Session {@code n} keeps one model and one URL (round
 * robin over sessions), so every turn of a conversation reaches the same server. First turns are serialized once up
 * front, so the single-turn send path allocates no JSON; later turns carry the history and are built when due.
 * Immutable; thread-safe.
 */
public final class RequestSource {
    private final List<Conversation> conversations;
    private final List<String> models;
    private final RequestFactory factory;
    private final URI[] uris;
    private final byte[][] firstBodies; // [conversation * models + model]
    private final RequestHeaders headers;
    private final boolean streaming;
    private final String sessionHeader;
    private final boolean rankings;
    private final ResponseParser parser;
    private final boolean randomModels;
    private final long seed;
    private final boolean keepBodies;
    private final double cancelRatePct;
    private final long cancelDelayNanos;
    private final TemplatedInputTokens templated;
    private final Long scheduleOriginMs;

    public RequestSource(final BenchmarkConfig config, final List<Conversation> conversations, final String version) {
        this(config, conversations, version, null, firstTimestampMs(conversations));
    }

    /**
     * @param templated how ISL is counted under {@code --apply-chat-template}, or null for the plain count
     * @param scheduleOriginMs the first trace timestamp of the whole dataset, which a shard's part does not start
     *                         with: an auto-offset fixed schedule counts from it, so every shard keeps the trace's
     *                         own spacing; null without timestamps
     */
    RequestSource(final BenchmarkConfig config, final List<Conversation> conversations, final String version,
                  final TemplatedInputTokens templated, final Long scheduleOriginMs) {
        this.templated = templated;
        this.scheduleOriginMs = scheduleOriginMs;
        this.conversations = List.copyOf(conversations);
        this.models = config.models();
        this.factory = new RequestFactory(config.endpoint(), version);
        this.uris = config.endpoint().urls().stream()
                .map(u -> UrlJoiner.join(u, config.endpoint().path())).toArray(URI[]::new);
        this.rankings = config.endpoint().type().rankings();
        requireMediaSupport(config.endpoint().type(), conversations);
        this.firstBodies = new byte[conversations.size() * models.size()][];
        for (int c = 0; c < conversations.size(); c++) {
            for (int m = 0; m < models.size(); m++) {
                firstBodies[c * models.size() + m] = bodyOf(conversations.get(c), models.get(m), List.of(), 0);
            }
        }
        this.headers = factory.commonHeaders();
        this.streaming = config.endpoint().streaming();
        this.sessionHeader = config.endpoint().sessionHeader();
        this.parser = ResponseParser.of(config.endpoint());
        this.randomModels = config.endpoint().modelSelection().equals("random");
        this.seed = config.randomSeed() == null ? 0 : config.randomSeed();
        this.keepBodies = config.artifacts().exportLevel().equals("raw");
        this.cancelRatePct = config.limits().cancelRatePct();
        this.cancelDelayNanos = (long) (config.limits().cancelDelaySeconds() * 1e9);
    }

    /** {@code --request-cancellation-rate}, in percent (0: none). */
    public double cancelRatePct() {
        return cancelRatePct;
    }

    /**
     * Whether profiling request {@code index} is one to cancel (AIPerf's {@code --request-cancellation-rate}): a
     * seeded draw per request, so the same requests are cancelled for the same seed; the delay in ns, or -1.
     */
    public long cancelAfterSentNanos(final String phase, final int index) {
        return cancelAfterSentNanos(phase, index, cancelRatePct);
    }

    /**
     * The same draw at {@code ratePct} (0: never cancelled): a warmup asks with 0, so the same code runs in both
     * phases and the compiled code of the request path does not change course when the profiling phase begins.
     */
    public long cancelAfterSentNanos(final String phase, final int index, final double ratePct) {
        return cancelAfterSentNanos(phase, index, ratePct, cancelDelayNanos);
    }

    /** The same draw at {@code ratePct}, cancelled {@code delayNanos} after sending (a phase's own cancellation). */
    public long cancelAfterSentNanos(final String phase, final int index, final double ratePct,
                                     final long delayNanos) {
        if (ratePct <= 0) {
            return -1;
        }
        final double u = (mix(seed ^ phase.hashCode(), index) >>> 11) * 0x1.0p-53;
        return u * 100 < ratePct ? delayNanos : -1;
    }

    /** {@code --request-cancellation-delay}, in ns. */
    public long cancelDelayNanos() {
        return cancelDelayNanos;
    }

    /** SplitMix64 of (seed, n): a well-mixed, reproducible draw. */
    private static long mix(final long seed, final long n) {
        long z = seed + n * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Whether records keep the body they sent (the raw export). */
    public boolean keepBodies() {
        return keepBodies;
    }

    public Conversation conversation(final int index) {
        return conversations.get(index);
    }

    public int size() {
        return conversations.size();
    }

    /** The model session {@code sessionNum} talks to: in turn, or drawn (the same draw for the same seed). */
    public String model(final int sessionNum) {
        return models.get(modelIndex(sessionNum));
    }

    private int modelIndex(final int sessionNum) {
        if (!randomModels) {
            return sessionNum % models.size();
        }
        return (int) Math.floorMod(mix(seed, sessionNum), (long) models.size());
    }

    /**
     * Turn {@code turn} of a session's conversation.
     *
     * @param replies the server's replies to the turns before it, in order
     */
    public PreparedRequest request(final int conversation, final int sessionNum, final int turn,
                                   final List<String> replies) {
        final URI uri = uris[sessionNum % uris.length];
        final int m = modelIndex(sessionNum);
        final byte[] body = turn == 0 ? firstBodies[conversation * models.size() + m]
                : bodyOf(conversations.get(conversation), models.get(m), replies, turn);
        return new PreparedRequest(uri, headers, body, streaming, sessionHeader, parser,
                turn == conversations.get(conversation).turns().size() - 1);
    }

    /**
     * The input tokens of a turn's request: rendered through the chat template under {@code --apply-chat-template},
     * else {@code plain} (the system prompt, history and user text counted apart).
     */
    int inputTokens(final int conversation, final int turn, final List<String> replies, final int plain) {
        return templated == null ? plain : templated.count(conversation, turn, replies, plain);
    }

    /** The headers every request carries, for the server probes. */
    public RequestHeaders headers() {
        return headers;
    }

    /** The first request of the first conversation, as a probe's template for headers. */
    public PreparedRequest probe() {
        return request(0, 0, 0, List.of());
    }

    /** The body of each turn of a conversation with the primary model and no history, for {@code inputs.json}. */
    public List<byte[]> bodies(final int conversation) {
        final Conversation c = conversations.get(conversation);
        final List<byte[]> out = new ArrayList<>(c.turns().size());
        out.add(firstBodies[conversation * models.size()]);
        for (int t = 1; t < c.turns().size(); t++) {
            final Conversation.Turn turn = c.turns().get(t);
            out.add(turn.payload() != null ? turn.payload().getBytes(java.nio.charset.StandardCharsets.UTF_8)
                    : RequestFactory.bytes(RequestFactory.withRowExtra(rankings
                    ? factory.rankingBody(models.get(0), turn.prompt(), turn.passages())
                    : factory.body(models.get(0), c.systemPrompt(), List.of(turn.prompt()), List.of(turn.media()),
                    turn.outputTokens()), turn.extra())));
        }
        return out;
    }

    public List<Conversation> conversations() {
        return conversations;
    }

    /** The first trace timestamp of the whole dataset (every shard's alike), or null without timestamps. */
    Long scheduleOriginMs() {
        return scheduleOriginMs;
    }

    /** The earliest timestamp of the conversations, or null when none has one. */
    static Long firstTimestampMs(final List<Conversation> conversations) {
        return conversations.stream().map(Conversation::timestampMs).filter(java.util.Objects::nonNull)
                .min(Long::compare).orElse(null);
    }

    private byte[] bodyOf(final Conversation c, final String model, final List<String> replies, final int turn) {
        if (c.turns().get(turn).payload() != null) {
            return c.turns().get(turn).payload().getBytes(java.nio.charset.StandardCharsets.UTF_8); // as the file has it
        }
        if (rankings) {
            final Conversation.Turn t = c.turns().get(turn);
            return RequestFactory.bytes(RequestFactory.withRowExtra(factory.rankingBody(model, t.prompt(), t.passages()),
                    t.extra()));
        }
        final List<String> exchange = new ArrayList<>(2 * turn + 1);
        final List<List<Conversation.Media>> media = new ArrayList<>(turn + 1);
        for (int t = 0; t < turn; t++) {
            exchange.add(c.turns().get(t).prompt());
            media.add(c.turns().get(t).media());
            exchange.add(replies.get(t) == null ? "" : replies.get(t));
        }
        final Conversation.Turn now = c.turns().get(turn);
        exchange.add(now.prompt());
        media.add(now.media());
        return RequestFactory.bytes(RequestFactory.withRowExtra(factory.body(model, c.systemPrompt(), exchange, media,
                now.outputTokens()), now.extra()));
    }

    /** Images and audio go only where upstream sends them: chat (and chat embeddings), and the Responses API's images. */
    private static void requireMediaSupport(final io.aiperf.engine.config.EndpointType type,
                                            final List<Conversation> conversations) {
        for (final Conversation c : conversations) {
            for (final Conversation.Turn t : c.turns()) {
                for (final Conversation.Media m : t.media()) {
                    final boolean ok = switch (type) {
                        case CHAT, CHAT_EMBEDDINGS -> true;
                        case RESPONSES, MESSAGES, IMAGE_RETRIEVAL -> m.kind() == Conversation.Media.Kind.IMAGE;
                        default -> false;
                    };
                    if (!ok) {
                        throw new io.aiperf.engine.config.ConfigException("--input-file (benchmark.dataset.path)",
                                "the dataset's rows carry " + m.kind().name().toLowerCase(java.util.Locale.ROOT)
                                        + ", which --endpoint-type " + type.wireName() + " cannot send (images: chat, "
                                        + "chat_embeddings, responses, messages, image_retrieval; audio: chat, "
                                        + "chat_embeddings)");
                    }
                }
                if (type == io.aiperf.engine.config.EndpointType.IMAGE_RETRIEVAL && t.imageCount() == 0) {
                    throw new io.aiperf.engine.config.ConfigException("--endpoint-type", "image_retrieval sends the "
                            + "images of each row, and conversation " + c.id() + " has none: give --input-file rows "
                            + "with image or images (synthetic images are not generated)");
                }
            }
        }
    }
}
