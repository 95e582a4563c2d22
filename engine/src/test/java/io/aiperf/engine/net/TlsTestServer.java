package io.aiperf.engine.net;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.Message;
import org.apache.hc.core5.http.URIScheme;
import org.apache.hc.core5.http.impl.bootstrap.HttpAsyncServer;
import org.apache.hc.core5.http.nio.AsyncRequestConsumer;
import org.apache.hc.core5.http.nio.AsyncServerRequestHandler;
import org.apache.hc.core5.http.nio.entity.StringAsyncEntityConsumer;
import org.apache.hc.core5.http.nio.ssl.BasicServerTlsStrategy;
import org.apache.hc.core5.http.nio.support.AsyncResponseBuilder;
import org.apache.hc.core5.http.nio.support.BasicRequestConsumer;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.http.protocol.HttpCoreContext;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.http2.impl.nio.bootstrap.H2ServerBootstrap;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.reactor.ListenerEndpoint;

/**
 * A loopback https server that offers HTTP/2 and HTTP/1.1 (ALPN), as many inference gateways do, answering every
 * POST with one chat completion (padded to {@code padding} bytes) and every GET with a small model list. It
 * records the protocol and the headers of each request it got.
 */
public final class TlsTestServer implements AutoCloseable {
    /** One request as it arrived. */
    public record Seen(String protocol, String method, String path, Map<String, String> headers) {
    }

    private final HttpAsyncServer server;
    private final int port;
    public final List<Seen> seen = new CopyOnWriteArrayList<>();

    private final boolean tls;

    /**
     * @param context the server's TLS context (h2 and http/1.1 by ALPN), or null for plain HTTP/2 with prior knowledge
     * @param needClientAuth refuse clients without a certificate the context trusts
     */
    public TlsTestServer(final SSLContext context, final boolean needClientAuth, final int padding) throws Exception {
        this.tls = context != null;
        final String pad = "x".repeat(padding);
        final String completion = "{\"id\":\"c\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"hello there" + pad + "\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}";
        final AsyncServerRequestHandler<Message<HttpRequest, String>> handler = new AsyncServerRequestHandler<Message<HttpRequest, String>>() {
                    @Override
                    public AsyncRequestConsumer<Message<HttpRequest, String>> prepare(final HttpRequest request,
                            final EntityDetails details, final HttpContext context) {
                        return new BasicRequestConsumer<>(details == null ? null : new StringAsyncEntityConsumer());
                    }

                    @Override
                    public void handle(final Message<HttpRequest, String> message, final ResponseTrigger trigger,
                                       final HttpContext context) throws org.apache.hc.core5.http.HttpException,
                            java.io.IOException {
                        final HttpRequest r = message.getHead();
                        final Map<String, String> headers = new java.util.LinkedHashMap<>();
                        for (final Header h : r.getHeaders()) {
                            headers.putIfAbsent(h.getName().toLowerCase(java.util.Locale.ROOT), h.getValue());
                        }
                        if (r.getAuthority() != null) {
                            headers.putIfAbsent("host", r.getAuthority().toString()); // HTTP/2's :authority
                        }
                        seen.add(new Seen(HttpCoreContext.cast(context).getProtocolVersion().format(), r.getMethod(),
                                r.getPath(), headers));
                        final String body = r.getMethod().equals("POST") ? completion
                                : "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"owned_by\":\"test\"}]}";
                        trigger.submitResponse(AsyncResponseBuilder.create(200)
                                .setEntity(body, ContentType.APPLICATION_JSON).build(), context);
                    }
                };
        final H2ServerBootstrap bootstrap = H2ServerBootstrap.bootstrap()
                .setIOReactorConfig(IOReactorConfig.custom().setIoThreadCount(1).build())
                .setVersionPolicy(tls ? HttpVersionPolicy.NEGOTIATE : HttpVersionPolicy.FORCE_HTTP_2);
        if (tls) {
            bootstrap.setTlsStrategy(new BasicServerTlsStrategy(context,
                        (endpoint, engine) -> {
                            final javax.net.ssl.SSLParameters p = engine.getSSLParameters();
                            p.setApplicationProtocols(new String[] {"h2", "http/1.1"}); // h2 preferred
                            p.setNeedClientAuth(needClientAuth);
                            engine.setSSLParameters(p);
                        }, null));
        }
        server = bootstrap
                .setCanonicalHostName("127.0.0.1")
                .register("*", handler)
                .register("model-a.example.com", "*", handler)
                .create();
        server.start();
        final ListenerEndpoint endpoint = server.listen(new InetSocketAddress("127.0.0.1", 0),
                        tls ? URIScheme.HTTPS : URIScheme.HTTP)
                .get(30, TimeUnit.SECONDS);
        port = ((InetSocketAddress) endpoint.getAddress()).getPort();
    }

    public int port() {
        return port;
    }

    public String url() {
        return (tls ? "https" : "http") + "://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        server.close(CloseMode.IMMEDIATE);
    }

    static byte[] ascii(final String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
