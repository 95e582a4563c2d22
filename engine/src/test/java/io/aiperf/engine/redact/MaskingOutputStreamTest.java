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

    @Test
    void aSecretStraddlingTheCloseIsMaskedWhenTheLateWriterCompletesIt() throws Exception {
        final ByteArrayOutputStream sink = new ByteArrayOutputStream();
        final MaskingOutputStream m = MaskingOutputStream.leavingOpen(sink, List.of("sk-123456"));
        m.write("a line sk-12".getBytes(StandardCharsets.UTF_8));
        m.close(); // a Jenkins abort closes while the agent's output still arrives
        assertThat(sink.toString(StandardCharsets.UTF_8)).isEqualTo("a line ");
        m.write("3456 and after\n".getBytes(StandardCharsets.UTF_8));
        m.close();
        assertThat(sink.toString(StandardCharsets.UTF_8)).isEqualTo("a line **** and after\n");
    }

    @Test
    void writersAndTheCloseDoNotInterleaveInsideALine() throws Exception {
        final ByteArrayOutputStream sink = new ByteArrayOutputStream();
        final MaskingOutputStream m = MaskingOutputStream.leavingOpen(sink, List.of("sk-123456"));
        final byte[] line = "token sk-123456 end\n".getBytes(StandardCharsets.UTF_8);
        final Thread writer = new Thread(() -> {
            try {
                for (int i = 0; i < 2_000; i++) {
                    for (final byte b : line) {
                        m.write(b);
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        writer.start();
        for (int i = 0; i < 200; i++) {
            m.close();
            m.flush();
        }
        writer.join();
        m.close();
        final String out = sink.toString(StandardCharsets.UTF_8);
        assertThat(out).doesNotContain("sk-").doesNotContain("123456");
        assertThat(out.split("\n", -1)).hasSize(2_001).allMatch(l -> l.isEmpty() || l.equals("token **** end"));
    }

    @Test
    void aFileKeepsItsLastBytesEvenWhenTheyStartASecret() throws Exception {
        final ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (MaskingOutputStream m = new MaskingOutputStream(sink, List.of("}abc"))) {
            m.write("{\"a\": 1}".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(sink.toString(StandardCharsets.UTF_8)).isEqualTo("{\"a\": 1}");
    }
}
