package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UrlJoinerTest {
    @ParameterizedTest
    @CsvSource({
        "http://h:8000, /v1/chat/completions, http://h:8000/v1/chat/completions",
        "http://h:8000/v1, /v1/chat/completions, http://h:8000/v1/chat/completions",
        "http://h:8000/v1/chat/completions, /v1/chat/completions, http://h:8000/v1/chat/completions",
        "http://h:8000/proxy, /v1/chat/completions, http://h:8000/proxy/v1/chat/completions",
        "http://h:8000/x?k=v, /v1/embeddings, http://h:8000/x/v1/embeddings?k=v",
    })
    void overlapRule(final String base, final String path, final String expected) {
        assertThat(UrlJoiner.join(base, path).toString()).isEqualTo(expected);
    }
}
