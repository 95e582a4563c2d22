package io.aiperf.engine.redact;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class MaskingOutputStreamTest {
    private static String mask(final List<String> secrets, final String... writes) throws Exception {
        final ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (MaskingOutputStream m = new MaskingOutputStream(sink, secrets)) {
            for (final String w : writes) {
                m.write(w.getBytes(StandardCharsets.UTF_8));
            }
        }
        return sink.toString(StandardCharsets.UTF_8);
    }

    @Test
    void secretsAreMaskedAcrossWritesAndLinesAreKept() throws Exception {
        assertThat(mask(List.of("sk-SECRET"), "401: bad key sk-SE", "CRET here\nnext sk-SECRET\n", "tail sk-SECRET"))
                .isEqualTo("401: bad key **** here\nnext ****\ntail ****");
        assertThat(mask(List.of("", "k1", "key22"), "k1 key22 k\n")).isEqualTo("**** **** k\n");
        assertThat(mask(List.of(), "plain\n")).isEqualTo("plain\n");
    }

    @Test
    void aSecretAcrossTheCutOfAVeryLongLineIsStillMasked() throws Exception {
        final String secret = "sk-0123456789";
        final String filler = "x".repeat((1 << 16) - 5);
        final String out = mask(List.of(secret), filler + secret + filler + "\n");
        assertThat(out).doesNotContain("0123456789").hasSize(filler.length() * 2 + 4 + 1);
    }

    @Test
    void aStreamItDoesNotOwnGetsTheLastLineAndStaysOpen() throws Exception {
        final boolean[] closed = {false};
        final ByteArrayOutputStream sink = new ByteArrayOutputStream() {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        try (MaskingOutputStream m = MaskingOutputStream.leavingOpen(sink, List.of("sk-1"), "<redacted>")) {
            m.write("key sk-1\nno line end sk-1".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(sink.toString(StandardCharsets.UTF_8)).isEqualTo("key <redacted>\nno line end <redacted>");
        assertThat(closed[0]).as("the console or build log outlives the mask").isFalse();
        try (MaskingOutputStream m = MaskingOutputStream.leavingOpen(sink, List.of("sk-1"))) {
            m.write(" sk-1".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(sink.toString(StandardCharsets.UTF_8)).endsWith("<redacted> ****");
    }
}
