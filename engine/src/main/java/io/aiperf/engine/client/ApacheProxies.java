package io.aiperf.engine.client;

import io.aiperf.engine.config.ProxyConfig;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.auth.CredentialsProvider;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;
import org.apache.hc.client5.http.impl.auth.BasicCredentialsProvider;
import org.apache.hc.client5.http.impl.routing.DefaultRoutePlanner;
import org.apache.hc.client5.http.routing.HttpRoutePlanner;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * The proxy settings of the engine for Apache HttpClient (HTTP/2 inference, control hooks): which proxy a target's
 * route goes through, and the proxies' credentials. Stateless.
 */
public final class ApacheProxies {
    private ApacheProxies() {
    }

    /** Routes each target through the proxy {@link ProxyConfig#forTarget} names, or directly. */
    public static HttpRoutePlanner routePlanner(final ProxyConfig proxies) {
        return new DefaultRoutePlanner(null) {
            @Override
            protected HttpHost determineProxy(final HttpHost target, final HttpContext context) {
                final ProxyConfig.Proxy p = proxies.forTarget(java.net.URI.create(target.toURI()));
                return p == null ? null : new HttpHost("http", p.host(), p.port());
            }
        };
    }

    /** The user and password of each proxy URL that has them. */
    public static CredentialsProvider credentials(final ProxyConfig proxies) {
        final BasicCredentialsProvider provider = new BasicCredentialsProvider();
        for (final ProxyConfig.Proxy p : new ProxyConfig.Proxy[] {proxies.http(), proxies.https()}) {
            if (p != null && p.user() != null) {
                provider.setCredentials(new AuthScope(p.host(), p.port()), new UsernamePasswordCredentials(p.user(),
                        p.password() == null ? new char[0] : p.password().reveal().toCharArray()));
            }
        }
        return provider;
    }
}
