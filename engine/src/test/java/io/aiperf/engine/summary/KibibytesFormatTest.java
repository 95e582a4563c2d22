package io.aiperf.engine.summary;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Whole bytes written as KB (bytes / 1024, the HTTP trace's data metrics): exact, and the double's shortest form. */
class KibibytesFormatTest {
    private static String kibibytes(final long bytes) {
        final byte[] out = new byte[32];
        return new String(out, 0, AsciiDigits.kibibytes(bytes, out, 0), java.nio.charset.StandardCharsets.US_ASCII);
    }

    @Test
    void writesTheExactDecimalAsUpstreamPrintsIt() {
        assertThat(kibibytes(0)).isEqualTo("0.0");
        assertThat(kibibytes(169)).isEqualTo("0.1650390625"); // a value of upstream 0.13's records
        assertThat(kibibytes(313)).isEqualTo("0.3056640625");
        assertThat(kibibytes(1)).isEqualTo("0.0009765625");
        assertThat(kibibytes(1_024)).isEqualTo("1.0");
        assertThat(kibibytes(1_536)).isEqualTo("1.5");
        assertThat(kibibytes((1 << 26) - 1)).isEqualTo("65535.9990234375");
    }

    @Test
    void readsBackAsTheSameDoubleAndIsNoLongerThanTheShortestForm() {
        final SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 100_000; i++) {
            final long bytes = i < 50_000 ? random.nextLong(0, 100_000) : random.nextLong(0, 1 << 26);
            final String s = kibibytes(bytes);
            final double expected = bytes / 1024.0;
            assertThat(Double.parseDouble(s)).as(s).isEqualTo(expected);
            final String java = new java.math.BigDecimal(Double.toString(expected)).stripTrailingZeros().toPlainString();
            assertThat(new java.math.BigDecimal(s).stripTrailingZeros().toPlainString()).as(s).isEqualTo(java);
        }
    }
}
