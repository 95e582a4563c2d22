package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.ProxyConfig;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Http1OriginTest {
    private static Http1Origin origin(final String url, final ProxyConfig.Proxy proxy) {
        return Http1Origin.resolve(URI.create(url), null, proxy, null);
    }

    @Test
    void originsOfTheSameServerAreOneKeyAndOthersAreNot() {
        final Http1Origin a = origin("http://127.0.0.1:8000/v1/chat/completions", null);
        final Http1Origin b = origin("http://127.0.0.1:8000/v1/completions", null);
        assertThat(b).isEqualTo(a).hasSameHashCodeAs(a);
        assertThat(origin("http://127.0.0.1:8001/v1/chat/completions", null)).isNotEqualTo(a);
        assertThat(origin("http://localhost:8000/v1/chat/completions", null)).isNotEqualTo(a);
        final ProxyConfig.Proxy proxy = new ProxyConfig.Proxy("127.0.0.1", 3128, null, null);
        assertThat(origin("http://127.0.0.1:8000/v1/chat/completions", proxy)).as("through a proxy")
                .isNotEqualTo(a);
        assertThat(a).isNotEqualTo(null).isNotEqualTo("http://127.0.0.1:8000");

        final Map<Http1Origin, String> idle = new HashMap<>();
        idle.put(a, "pool");
        assertThat(idle.get(b)).as("the loop's lookup of idle connections").isEqualTo("pool");
        assertThat(idle.get(origin("http://127.0.0.1:8001/", null))).isNull();
    }
}
