package io.aiperf.engine.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.client.TlsStrategies;
import io.aiperf.engine.config.ProxyConfig;
import io.aiperf.engine.config.TlsConfig;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import io.aiperf.engine.net.TestProxy;
import io.aiperf.engine.time.CancellationToken;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Control POSTs take the run's proxy, with the user's headers as given. */
class HttpControlTransportProxyTest {
    @Test
    void aControlPostGoesThroughTheProxy() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast()); TestProxy proxy = new TestProxy()) {
            final Map<String, String> headers = new LinkedHashMap<>();
            headers.put("X-Tenant", "Team A");
            headers.put("Host", "model-a.example.com");
            final HttpControlTransport transport = new HttpControlTransport(headers, new CancellationToken(),
                    TlsStrategies.of(TlsConfig.defaults()), ProxyConfig.of(proxy.url(), Map.of()));
            final String url = "http://127.0.0.1:" + mock.port() + "/reset_prefix_cache";
            assertThat(transport.post(url, 10)).isEqualTo(200);
            assertThat(proxy.requestLines).containsExactly("POST " + url + " HTTP/1.1");
            assertThat(proxy.heads.get(0)).contains("\r\nX-Tenant: Team A\r\n")
                    .contains("\r\nHost: model-a.example.com\r\n");
            assertThat(mock.controlState().resetCount()).isEqualTo(1);
        }
    }

    @Test
    void aProxyThatAsksForCredentialsGetsThoseOfTheProxyUrl() throws Exception {
        final String basic = "Basic " + java.util.Base64.getEncoder().encodeToString(
                "perf:s3cret".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        try (MockServer mock = MockServer.start(MockServerConfig.fast()); TestProxy proxy = new TestProxy(basic)) {
            final HttpControlTransport transport = new HttpControlTransport(Map.of(), new CancellationToken(),
                    TlsStrategies.of(TlsConfig.defaults()),
                    ProxyConfig.of(proxy.url().replace("://", "://perf:s3cret@"), Map.of()));
            assertThat(transport.post("http://127.0.0.1:" + mock.port() + "/reset_prefix_cache", 10)).isEqualTo(200);
            assertThat(proxy.authorizations).contains("-", basic);
            assertThat(mock.controlState().resetCount()).isEqualTo(1);
        }
    }
}
