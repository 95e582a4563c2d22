package io.aiperf.engine.client;

import io.aiperf.engine.config.ConnectionReuse;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Whether a connection may carry another request after its answer: the run's reuse strategy, and, under
 * {@code pooled}, the origins seen closing connections right after their answers (and never answering on a kept-alive
 * connection: one that did closes only now and then, and stays pooled). Reusing a connection to such a
 * server races its close: a request written in the instant before the close arrives is lost. Once an origin is
 * seen doing it, every request to it gets a new connection (src-docs/failure-modes.md). Shared by the event
 * loops of a transport; thread-safe.
 */
final class ReuseGuard {
    private final ConnectionReuse strategy;
    private final Set<String> closing = ConcurrentHashMap.newKeySet();
    /**
     * Kept-alive connections of each origin that ended right after an answer. One or two may be requests the server
     * dropped, as a server that closes after every answer looks from the client at first: the third marks it.
     */
    private final java.util.Map<String, java.util.concurrent.atomic.AtomicInteger> endsAfterAnswer =
            new ConcurrentHashMap<>();
    static final int ENDS_BEFORE_MARKING = 3;
    /** Origins that answered on a kept-alive connection: they do not close after every answer. */
    private final Set<String> answeredOnReuse = ConcurrentHashMap.newKeySet();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private volatile Consumer<String> warn = message -> { };

    /** How the guard names an origin: scheme, host and port, the same for both HTTP clients. */
    static String key(final String scheme, final String host, final int port) {
        return scheme.toLowerCase(java.util.Locale.ROOT) + "://" + host.toLowerCase(java.util.Locale.ROOT) + ":" + port;
    }

    static String key(final java.net.URI uri) {
        final boolean tls = "https".equalsIgnoreCase(uri.getScheme());
        return key(uri.getScheme(), uri.getHost(), uri.getPort() >= 0 ? uri.getPort() : tls ? 443 : 80);
    }

    ReuseGuard(final ConnectionReuse strategy) {
        this.strategy = strategy;
    }

    ConnectionReuse strategy() {
        return strategy;
    }

    /** Where the warning goes, once per origin. */
    void onWarning(final Consumer<String> sink) {
        warn = sink;
    }

    /** Says {@code message} on the console, the first time only for {@code topic}. */
    void warnOnce(final String topic, final String message) {
        if (warned.add(topic)) {
            warn.accept(message);
        }
    }

    /** Whether a connection to {@code origin} may be kept for a later request. */
    boolean mayReuse(final String origin) {
        return strategy != ConnectionReuse.NEVER && !closing.contains(origin);
    }

    /** A kept-alive connection to {@code origin} ended right after its answer ({@code how}); see the counts above. */
    void sawEndAfterAnswer(final String origin, final String how) {
        if (endsAfterAnswer.computeIfAbsent(origin, o -> new java.util.concurrent.atomic.AtomicInteger())
                .incrementAndGet() >= ENDS_BEFORE_MARKING) {
            sawCloseAfterResponse(origin, how);
        }
    }

    /** {@code origin} answered a request on a kept-alive connection (cheap when already known: no allocation). */
    void answeredOnReuse(final String origin) {
        if (!answeredOnReuse.contains(origin)) {
            answeredOnReuse.add(origin);
        }
    }

    /** Whether {@code origin} was seen closing connections right after its answers. */
    boolean closesAfterResponse(final String origin) {
        return closing.contains(origin);
    }

    /**
     * {@code origin} closed a connection right after an answer ({@code how}). Under {@code pooled} its
     * connections are no longer reused from now on; the first time, it is said on the console.
     */
    void sawCloseAfterResponse(final String origin, final String how) {
        if (strategy == ConnectionReuse.NEVER) {
            return; // every request asked for its close: nothing to learn, nothing to say
        }
        if (answeredOnReuse.contains(origin)) {
            // It has answered on a kept-alive connection: a close now is one of its own (a dropped request, the
            // 100th answer of nginx's keepalive_requests), not a close after every answer.
            return;
        }
        if (closing.add(origin)) {
            warn.accept(origin + " closes kept-alive connections right after its answers (" + how + "): every "
                    + "request to it now gets a new connection (client_health.transport.server_closes_after_response;"
                    + " see --connection-reuse-strategy)");
        }
    }
}
