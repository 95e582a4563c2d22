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
