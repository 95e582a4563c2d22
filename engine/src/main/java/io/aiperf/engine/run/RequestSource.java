package io.aiperf.engine.run;

import io.aiperf.engine.client.PreparedRequest;
import io.aiperf.engine.client.RequestFactory;
import io.aiperf.engine.client.UrlJoiner;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.dataset.Conversation;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hc.core5.http.Header;

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
    private final Header[] headers;
    private final boolean streaming;

    public RequestSource(final BenchmarkConfig config, final List<Conversation> conversations, final String version) {
        this.conversations = List.copyOf(conversations);
        this.models = config.models();
        this.factory = new RequestFactory(config.endpoint(), version);
        this.uris = config.endpoint().urls().stream()
                .map(u -> UrlJoiner.join(u, config.endpoint().path())).toArray(URI[]::new);
        this.firstBodies = new byte[conversations.size() * models.size()][];
        for (int c = 0; c < conversations.size(); c++) {
            for (int m = 0; m < models.size(); m++) {
                firstBodies[c * models.size() + m] = bodyOf(conversations.get(c), models.get(m), List.of(), 0);
            }
        }
        this.headers = factory.commonHeaders();
        this.streaming = config.endpoint().streaming();
    }

    public Conversation conversation(final int index) {
        return conversations.get(index);
    }

    public int size() {
        return conversations.size();
    }

    /** The model session {@code sessionNum} talks to. */
    public String model(final int sessionNum) {
        return models.get(sessionNum % models.size());
    }

    /**
     * Turn {@code turn} of a session's conversation.
     *
     * @param replies the server's replies to the turns before it, in order
     */
    public PreparedRequest request(final int conversation, final int sessionNum, final int turn,
                                   final List<String> replies) {
        final URI uri = uris[sessionNum % uris.length];
        final int m = sessionNum % models.size();
        final byte[] body = turn == 0 ? firstBodies[conversation * models.size() + m]
                : bodyOf(conversations.get(conversation), models.get(m), replies, turn);
        return new PreparedRequest(uri, headers, body, streaming);
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
            out.add(RequestFactory.bytes(factory.body(models.get(0), c.systemPrompt(), List.of(turn.prompt()),
                    turn.outputTokens())));
        }
        return out;
    }

    public List<Conversation> conversations() {
        return conversations;
    }

    private byte[] bodyOf(final Conversation c, final String model, final List<String> replies, final int turn) {
        final List<String> exchange = new ArrayList<>(2 * turn + 1);
        for (int t = 0; t < turn; t++) {
            exchange.add(c.turns().get(t).prompt());
            exchange.add(replies.get(t) == null ? "" : replies.get(t));
        }
        final Conversation.Turn now = c.turns().get(turn);
        exchange.add(now.prompt());
        return RequestFactory.bytes(factory.body(model, c.systemPrompt(), exchange, now.outputTokens()));
    }
}
