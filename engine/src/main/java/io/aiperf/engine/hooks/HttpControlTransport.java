package io.aiperf.engine.hooks;

import io.aiperf.engine.time.CancellationToken;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.BasicHttpClientConnectionManager;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.util.Timeout;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.config.RegistryBuilder;

/**
 * Control POSTs on their own classic HTTP client, a fresh connection per attempt, never the inference pool
 * (the control-hooks contract in src-docs/control-hooks.md). Sends the same auth and user headers as inference
 * requests, through the same proxy (src-docs/proxies-and-tls.md). The response body is drained and dropped: it may hold secrets. Each attempt has one
 * hard deadline over connect, headers and body, so a server that trickles bytes cannot hold the run; the user's
 * cancel aborts the attempt at once. Thread-safe.
 */
public final class HttpControlTransport implements ControlTransport {
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(r -> {
        final Thread t = new Thread(r, "aiperf-control-deadline");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, String> headers;
    private final CancellationToken cancellation;
    private final TlsSocketStrategy tls;
    private final io.aiperf.engine.config.ProxyConfig proxies;

    /**
     * @param headers user headers and credentials, in the order they are sent
     * @param tls the same TLS trust as the inference client
     * @param proxies the same proxies as the inference client
     */
    public HttpControlTransport(final Map<String, String> headers, final CancellationToken cancellation,
                                final TlsSocketStrategy tls, final io.aiperf.engine.config.ProxyConfig proxies) {
        this.headers = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(headers)); // in order
        this.cancellation = cancellation;
        this.tls = tls;
        this.proxies = proxies;
    }

    @Override
    public int post(final String url, final double timeoutSeconds) throws IOException {
        if (cancellation.isCancelled()) {
            throw new InterruptedIOException("cancelled by the user");
        }
        final long timeoutMillis = Math.max(1, (long) (timeoutSeconds * 1000));
        final Timeout timeout = Timeout.ofMilliseconds(timeoutMillis);
        final BasicHttpClientConnectionManager cm = BasicHttpClientConnectionManager.create(
                RegistryBuilder.<TlsSocketStrategy>create().register("https", tls).build(),
                org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory.builder()
                        .http1Config(io.aiperf.engine.client.ApacheLimits.http1(
                                io.aiperf.engine.config.RunLimits.DEFAULT_MAX_HEAD_BYTES)).build());
        cm.setConnectionConfig(ConnectionConfig.custom().setConnectTimeout(timeout).setSocketTimeout(timeout).build());
        try (CloseableHttpClient client = HttpClients.custom()
                .setConnectionManager(cm)
                .setRoutePlanner(io.aiperf.engine.client.ApacheProxies.routePlanner(proxies))
                .setDefaultCredentialsProvider(io.aiperf.engine.client.ApacheProxies.credentials(proxies))
                .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(timeout).build())
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .build()) {
            final HttpPost post = new HttpPost(url);
            headers.forEach(post::addHeader);
            post.setEntity(new ByteArrayEntity(new byte[0], null));
            final AtomicBoolean expired = new AtomicBoolean();
            final ScheduledFuture<?> deadline = DEADLINES.schedule(() -> {
                expired.set(true);
                post.cancel();
            }, timeoutMillis, TimeUnit.MILLISECONDS);
            try (CancellationToken.Registration ignored = cancellation.onCancel(post::cancel)) {
                return client.execute(post, response -> {
                    EntityUtils.consume(response.getEntity());
                    return response.getCode();
                });
            } catch (IOException | RuntimeException e) {
                if (expired.get()) {
                    throw new SocketTimeoutException(String.format(Locale.ROOT,
                            "no complete answer within the %.3g s timeout", timeoutSeconds));
                }
                if (cancellation.isCancelled()) {
                    throw new InterruptedIOException("cancelled by the user");
                }
                throw e;
            } finally {
                deadline.cancel(false);
            }
        }
    }
}
