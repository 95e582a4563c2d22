package io.aiperf.engine.hooks;

import java.io.IOException;
import java.util.Map;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.BasicHttpClientConnectionManager;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.util.Timeout;

/**
 * Control POSTs on their own classic HTTP client, a fresh connection per attempt, never the inference pool
 * (reference §1.5). Sends the same auth and user headers as inference requests; proxies from the
 * environment are not used. The response body is drained and dropped: it may hold secrets. Thread-safe.
 */
public final class HttpControlTransport implements ControlTransport {
    private final Map<String, String> headers;

    /** @param headers user headers and credentials, in the order they are sent */
    public HttpControlTransport(final Map<String, String> headers) {
        this.headers = Map.copyOf(headers);
    }

    @Override
    public int post(final String url, final double timeoutSeconds) throws IOException {
        final Timeout timeout = Timeout.ofMilliseconds(Math.max(1, (long) (timeoutSeconds * 1000)));
        final BasicHttpClientConnectionManager cm = new BasicHttpClientConnectionManager();
        cm.setConnectionConfig(ConnectionConfig.custom().setConnectTimeout(timeout).setSocketTimeout(timeout).build());
        try (CloseableHttpClient client = HttpClients.custom()
                .setConnectionManager(cm)
                .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(timeout).build())
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .build()) {
            final HttpPost post = new HttpPost(url);
            headers.forEach(post::addHeader);
            post.setEntity(new ByteArrayEntity(new byte[0], null));
            return client.execute(post, response -> {
                EntityUtils.consume(response.getEntity());
                return response.getCode();
            });
        }
    }
}
