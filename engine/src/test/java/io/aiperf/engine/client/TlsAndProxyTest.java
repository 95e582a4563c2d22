package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.config.NetworkConfig;
import io.aiperf.engine.config.ProxyConfig;
import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.config.TlsConfig;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import io.aiperf.engine.net.TestProxy;
import io.aiperf.engine.net.TestTls;
import io.aiperf.engine.net.TlsTestServer;
import io.aiperf.engine.record.Environment;
import io.aiperf.engine.record.ResponseData;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.message.BasicHeader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** https on the lean transport and through Apache (HTTP/2), client certificates, and proxies, all on loopback. */
class TlsAndProxyTest {
    @TempDir
    static Path dir;
    static TestTls tls;

    @BeforeAll
    static void certificates() throws Exception {
        tls = TestTls.create(dir);
    }

    private static NetworkConfig trusting(final ProxyConfig proxy, final boolean http2) {
        return new NetworkConfig(new TlsConfig(true, tls.serverCertPem.toString()), proxy, http2);
    }

    private static PreparedRequest request(final String url) {
        return new PreparedRequest(URI.create(url + "/v1/chat/completions"), new Header[] {
            new BasicHeader("Content-Type", "application/json"), new BasicHeader("X-User", "as-given")},
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}".getBytes(StandardCharsets.UTF_8),
                false);
    }

    private static ResponseData send(final InferenceClient client, final PreparedRequest request, final int i)
            throws Exception {
        final CompletableFuture<ResponseData> done = new CompletableFuture<>();
        client.send(request, "r" + i, "c" + i, new InFlight(), done::complete);
        return done.get(60, TimeUnit.SECONDS);
    }

    private static InferenceClient client(final NetworkConfig network) {
        return new InferenceClient(4, 30, System::nanoTime, RunLimits.defaults(), network);
    }

    @Test
    void httpsAgainstAServerOfferingHttp2IsHttp11OnTheLeanTransport() throws Exception {
        try (TlsTestServer server = new TlsTestServer(tls.serverContext(false), false, 0);
             InferenceClient client = client(trusting(ProxyConfig.NONE, false))) {
            for (int i = 0; i < 3; i++) {
                final ResponseData r = send(client, request(server.url()), i);
                assertThat(r.error()).isNull();
                assertThat(r.content()).isEqualTo("hello there");
            }
            assertThat(server.seen).extracting(TlsTestServer.Seen::protocol).containsOnly("HTTP/1.1");
            assertThat(server.seen.get(0).headers()).containsEntry("x-user", "as-given");
            final Environment.Connection c = client.connection();
            assertThat(c.protocol()).isEqualTo("HTTP/1.1");
            assertThat(c.alpn()).isEqualTo("http/1.1");
            assertThat(c.tlsVersion()).startsWith("TLSv1.");
            assertThat(c.proxy()).isNull();
        }
    }

    @Test
    void theUsersHostReachesAnHttpsServerAsWritten() throws Exception {
        // Clusters route by Host (KServe, Knative, Istio ingress): https carries the user's, not the URL's.
        try (TlsTestServer server = new TlsTestServer(tls.serverContext(false), false, 0);
             InferenceClient client = client(trusting(ProxyConfig.NONE, false))) {
            final PreparedRequest routed = new PreparedRequest(URI.create(server.url() + "/v1/chat/completions"),
                    new Header[] {new BasicHeader("Content-Type", "application/json"),
                        new BasicHeader("Host", "model-a.example.com")},
                    "{\"model\":\"m\",\"messages\":[]}".getBytes(StandardCharsets.UTF_8), false);
            assertThat(send(client, routed, 0).error()).isNull();
            assertThat(server.seen).last().extracting(TlsTestServer.Seen::headers)
                    .satisfies(h -> assertThat(h).containsEntry("host", "model-a.example.com"));
        }
    }

    @Test
    void largeAnswersOverTlsArriveWhole() throws Exception {
        // Many TLS records per answer, more than one read holds: the decrypted rest is read without new readiness.
        try (TlsTestServer server = new TlsTestServer(tls.serverContext(false), false, 600_000);
             InferenceClient client = client(trusting(ProxyConfig.NONE, false))) {
            for (int i = 0; i < 3; i++) {
                final ResponseData r = send(client, request(server.url()), i);
                assertThat(r.error()).isNull();
                assertThat(r.content()).hasSize("hello there".length() + 600_000);
            }
        }
    }

    @Test
    void theHttp2OptionUsesHttp2() throws Exception {
        try (TlsTestServer server = new TlsTestServer(tls.serverContext(false), false, 0);
             InferenceClient client = client(trusting(ProxyConfig.NONE, true))) {
            final ResponseData r = send(client, request(server.url()), 0);
            assertThat(r.error()).isNull();
            assertThat(r.content()).isEqualTo("hello there");
            assertThat(server.seen).extracting(TlsTestServer.Seen::protocol).containsOnly("HTTP/2.0");
            assertThat(client.connection().protocol()).isEqualTo("HTTP/2");
            assertThat(client.connection().alpn()).isEqualTo("h2");
        }
    }

    @Test
    void theApacheClientIsHttp11OverTlsToo() throws Exception {
        // --http-client apache: the same choice (HTTP/1.1 unless --http2), whatever the server prefers.
        try (TlsTestServer server = new TlsTestServer(tls.serverContext(false), false, 0);
             InferenceClient client = new InferenceClient(4, 30, System::nanoTime, RunLimits.defaults(),
                     trusting(ProxyConfig.NONE, false), false)) {
            assertThat(send(client, request(server.url()), 0).error()).isNull();
            assertThat(server.seen).extracting(TlsTestServer.Seen::protocol).containsOnly("HTTP/1.1");
            assertThat(client.connection().protocol()).isEqualTo("HTTP/1.1");
            assertThat(client.connection().tlsVersion()).startsWith("TLSv1.");
        }
    }

    @Test
    void theHttp2OptionOverPlainHttpIsPriorKnowledge() throws Exception {
        try (TlsTestServer server = new TlsTestServer(null, false, 0);
             InferenceClient client = client(new NetworkConfig(TlsConfig.defaults(), ProxyConfig.NONE, true))) {
            final ResponseData r = send(client, request(server.url()), 0);
            assertThat(r.error()).isNull();
            assertThat(server.seen).extracting(TlsTestServer.Seen::protocol).containsOnly("HTTP/2.0");
            assertThat(client.connection().protocol()).isEqualTo("HTTP/2");
            assertThat(client.connection().tlsVersion()).isNull();
        }
    }

    @Test
    void anUntrustedCertificateFailsTheRequestUnlessVerificationIsOff() throws Exception {
        try (TlsTestServer server = new TlsTestServer(tls.serverContext(false), false, 0)) {
            try (InferenceClient client = client(NetworkConfig.defaults())) {
                final ResponseData r = send(client, request(server.url()), 0);
                assertThat(r.error()).isNotNull();
                assertThat(r.error().type()).contains("SSL");
            }
            try (InferenceClient client = client(new NetworkConfig(new TlsConfig(false, null), ProxyConfig.NONE,
                    false))) {
                assertThat(send(client, request(server.url()), 1).error()).isNull();
            }
        }
    }

    @Test
    void aClientCertificateFromPemFilesPassesMutualTls() throws Exception {
        try (TlsTestServer server = new TlsTestServer(tls.serverContext(true), true, 0)) {
            try (InferenceClient client = client(trusting(ProxyConfig.NONE, false))) {
                assertThat(send(client, request(server.url()), 0).error()).isNotNull();
            }
            final TlsConfig withCert = new TlsConfig(true, tls.serverCertPem.toString(), tls.clientCertPem.toString(),
                    tls.clientKeyPem.toString());
            try (InferenceClient client = client(new NetworkConfig(withCert, ProxyConfig.NONE, false))) {
                assertThat(send(client, request(server.url()), 1).error()).isNull();
            }
            final ProbeClient probes = new ProbeClient(new NetworkConfig(withCert, ProxyConfig.NONE, false));
            assertThat(probes.get(URI.create(server.url() + "/v1/models"), Map.of(), 10, 1 << 20).status())
                    .isEqualTo(200);
        }
    }

    @Test
    void plainHttpGoesThroughTheProxyInAbsoluteForm() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast());
             TestProxy proxy = new TestProxy()) {
            final String url = "http://127.0.0.1:" + mock.port();
            final ProxyConfig viaProxy = ProxyConfig.of("http://user:s3cret@127.0.0.1:" + proxyPort(proxy), Map.of());
            try (InferenceClient client = client(new NetworkConfig(TlsConfig.defaults(), viaProxy, false))) {
                final ResponseData r = send(client, request(url), 0);
                assertThat(r.error()).isNull();
                assertThat(client.connection().proxy()).isEqualTo(proxy.url()).doesNotContain("s3cret");
            }
            assertThat(proxy.requestLines).first().asString()
                    .startsWith("POST " + url + "/v1/chat/completions HTTP/1.1");
            assertThat(proxy.authorizations).first().asString().isEqualTo("Basic "
                    + java.util.Base64.getEncoder().encodeToString("user:s3cret".getBytes(StandardCharsets.UTF_8)));
            // The probes and the scraper take the same way.
            final ProbeClient probes = new ProbeClient(new NetworkConfig(TlsConfig.defaults(), viaProxy, false));
            assertThat(probes.get(URI.create(url + "/metrics"), Map.of(), 10, 1 << 24).status()).isEqualTo(200);
            assertThat(proxy.requestLines).last().asString().isEqualTo("GET " + url + "/metrics HTTP/1.1");
        }
    }

    @Test
    void httpsGoesThroughAConnectTunnel() throws Exception {
        try (TlsTestServer server = new TlsTestServer(tls.serverContext(false), false, 0);
             TestProxy proxy = new TestProxy()) {
            final ProxyConfig viaProxy = ProxyConfig.of(null, Map.of("https_proxy", proxy.url()));
            try (InferenceClient client = client(trusting(viaProxy, false))) {
                assertThat(send(client, request(server.url()), 0).error()).isNull();
                assertThat(client.connection().proxy()).isEqualTo(proxy.url());
            }
            assertThat(proxy.requestLines).containsExactly("CONNECT 127.0.0.1:" + server.port() + " HTTP/1.1");
            final ProbeClient probes = new ProbeClient(trusting(viaProxy, false));
            assertThat(probes.get(URI.create(server.url() + "/v1/models"), Map.of("Host", "model-a.example.com"), 10,
                    1 << 20).status()).isEqualTo(200);
            assertThat(proxy.requestLines).hasSize(2).last().asString().startsWith("CONNECT ");
            assertThat(server.seen).last().extracting(TlsTestServer.Seen::headers)
                    .satisfies(h -> assertThat(h).containsEntry("host", "model-a.example.com"));
            // HTTP/2 through the proxy as well (Apache's route, the same settings).
            try (InferenceClient client = client(trusting(viaProxy, true))) {
                assertThat(send(client, request(server.url()), 1).error()).isNull();
                assertThat(client.connection().protocol()).isEqualTo("HTTP/2");
            }
            assertThat(proxy.requestLines).hasSize(3);
        }
    }

    @Test
    void aProxyThatRefusesTheTunnelFailsTheRequestWithItsAnswer() throws Exception {
        try (java.net.ServerSocket refusing = new java.net.ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress())) {
            final Thread t = new Thread(() -> {
                try (java.net.Socket s = refusing.accept()) {
                    s.getInputStream().read(new byte[4096]);
                    s.getOutputStream().write("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    s.getInputStream().read();
                } catch (java.io.IOException e) {
                    // closed
                }
            });
            t.setDaemon(true);
            t.start();
            final ProxyConfig viaProxy = ProxyConfig.of("127.0.0.1:" + refusing.getLocalPort(), Map.of());
            try (InferenceClient client = client(trusting(viaProxy, false))) {
                final ResponseData r = send(client, request("https://127.0.0.1:1"), 0);
                assertThat(r.error()).isNotNull();
                assertThat(r.error().message()).contains("407").contains("refused the tunnel");
            }
        }
    }

    /**
     * The hub's short connect bound covers the proxy's tunnel: a proxy that takes the CONNECT and never answers (it
     * cannot reach the hub) is given up on at the connect bound, not at the download's.
     */
    @Test
    void aProxyThatNeverOpensTheTunnelIsGivenUpOnAtTheConnectBound() throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress())) {
            final java.util.concurrent.CountDownLatch connectRead = new java.util.concurrent.CountDownLatch(1);
            final Thread t = new Thread(() -> {
                try (java.net.Socket s = silent.accept()) {
                    s.getInputStream().read(new byte[4096]);
                    connectRead.countDown();
                    s.getInputStream().read(); // no answer: until the client gives up
                } catch (java.io.IOException e) {
                    // closed
                }
            });
            t.setDaemon(true);
            t.start();
            final ProxyConfig viaProxy = ProxyConfig.of("127.0.0.1:" + silent.getLocalPort(), Map.of());
            final ProbeClient probes = new ProbeClient(trusting(viaProxy, false));
            assertThatThrownBy(() -> probes.get(URI.create("https://hub.example.invalid/x"), Map.of(), 600, 0.5,
                    1024)).isInstanceOf(java.net.SocketTimeoutException.class)
                    .hasMessage("the proxy http://127.0.0.1:" + silent.getLocalPort() + " opened no tunnel to "
                            + "hub.example.invalid:443 within 0.5 s");
            assertThat(connectRead.getCount()).as("the CONNECT was sent").isZero();
        }
    }

    @Test
    void aProbeAnswerOverItsLimitIsRefusedWithoutReadingItAll() throws Exception {
        try (TlsTestServer server = new TlsTestServer(tls.serverContext(false), false, 0)) {
            final ProbeClient probes = new ProbeClient(trusting(ProxyConfig.NONE, false));
            assertThatThrownBy(() -> probes.get(URI.create(server.url() + "/v1/models"), Map.of(), 10, 16))
                    .isInstanceOf(ResponseTooLargeException.class);
        }
    }

    private static int proxyPort(final TestProxy proxy) {
        return URI.create(proxy.url()).getPort();
    }
}
