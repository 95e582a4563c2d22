package io.aiperf.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProxyConfigTest {
    private static final URI HTTP = URI.create("http://api.example.com:8000/v1");
    private static final URI HTTPS = URI.create("https://api.example.com/v1");

    @Test
    void theVariablesChooseByScheme() {
        final ProxyConfig p = ProxyConfig.of(null, Map.of("HTTP_PROXY", "http://plain:3128",
                "HTTPS_PROXY", "tunnel:8080"));
        assertThat(p.forTarget(HTTP).display()).isEqualTo("http://plain:3128");
        assertThat(p.forTarget(HTTPS).display()).isEqualTo("http://tunnel:8080");
        assertThat(ProxyConfig.of(null, Map.of()).forTarget(HTTP)).isNull();
    }

    @Test
    void lowerCaseFormsCountAndUpperCaseWins() {
        assertThat(ProxyConfig.of(null, Map.of("https_proxy", "http://lower:1")).forTarget(HTTPS).host())
                .isEqualTo("lower");
        assertThat(ProxyConfig.of(null, Map.of("https_proxy", "http://lower:1", "HTTPS_PROXY", "http://upper:2"))
                .forTarget(HTTPS).host()).isEqualTo("upper");
    }

    @Test
    void noProxyNamesHostsDomainsPortsAndEverything() {
        final Map<String, String> env = Map.of("HTTP_PROXY", "http://p:1", "HTTPS_PROXY", "http://p:1",
                "no_proxy", "localhost, .internal,example.com:8000");
        final ProxyConfig p = ProxyConfig.of(null, env);
        assertThat(p.forTarget(URI.create("http://localhost:9/x"))).isNull();
        assertThat(p.forTarget(URI.create("http://gpu.internal/x"))).isNull();
        assertThat(p.forTarget(HTTP)).as("example.com:8000 covers its subdomains on that port").isNull();
        assertThat(p.forTarget(HTTPS)).as("another port").isNotNull();
        assertThat(p.forTarget(URI.create("http://notexample.com/"))).isNotNull();
        assertThat(ProxyConfig.of(null, Map.of("HTTP_PROXY", "http://p:1", "NO_PROXY", "*")).forTarget(HTTP)).isNull();
    }

    @Test
    void theOptionOverridesTheEnvironmentAndNoneSwitchesItOff() {
        final Map<String, String> env = Map.of("HTTPS_PROXY", "http://env:1");
        assertThat(ProxyConfig.of("http://opt:2", env).forTarget(HTTPS).host()).isEqualTo("opt");
        assertThat(ProxyConfig.of("http://opt:2", env).forTarget(HTTP).host()).isEqualTo("opt");
        assertThat(ProxyConfig.of("none", env).forTarget(HTTPS)).isNull();
    }

    @Test
    void credentialsAreKeptOutOfEveryTextForm() {
        final ProxyConfig.Proxy p = ProxyConfig.of("http://bob:p%40ss+word@proxy:3128", Map.of()).forTarget(HTTP);
        assertThat(p.display()).isEqualTo("http://proxy:3128");
        assertThat(p.toString()).doesNotContain("p@ss");
        assertThat(p.password().toString()).doesNotContain("p@ss");
        assertThat(p.authorization()).isEqualTo("Basic " + java.util.Base64.getEncoder()
                .encodeToString("bob:p@ss+word".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Test
    void aBadProxyUrlNamesItsSourceAndNeverItsCredentials() {
        assertThatThrownBy(() -> ProxyConfig.of(null, Map.of("HTTPS_PROXY", "https://u:secret@p:1")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("HTTPS_PROXY: only http:// proxies")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> ProxyConfig.of("socks5://p:1", Map.of()))
                .hasMessageStartingWith("endpoint.proxy: only http:// proxies");
    }
}
