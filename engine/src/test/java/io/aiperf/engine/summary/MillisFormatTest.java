package io.aiperf.engine.summary;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Whole nanoseconds written as milliseconds: exact, and the shortest decimal of the double ns / 1e6. */
class MillisFormatTest {
    private static String millis(final long ns) {
        final byte[] out = new byte[32];
        return new String(out, 0, AsciiDigits.millis(ns, out, 0), java.nio.charset.StandardCharsets.US_ASCII);
    }

    @Test
    void writesTheExactDecimal() {
        assertThat(millis(0)).isEqualTo("0.0");
        assertThat(millis(20_000_000)).isEqualTo("20.0");
        assertThat(millis(20_034_567)).isEqualTo("20.034567");
        assertThat(millis(20_034_500)).isEqualTo("20.0345");
        assertThat(millis(123)).isEqualTo("0.000123");
        assertThat(millis(1)).isEqualTo("0.000001");
        assertThat(millis(999_999_999_999_999L)).isEqualTo("999999999.999999");
    }

    @Test
    void readsBackAsTheSameDoubleAndIsNoLongerThanTheShortestForm() {
        final SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 100_000; i++) {
            final long ns = i < 50_000 ? random.nextLong(1, 10_000_000_000L) : random.nextLong(0, 1_000_000_000_000_000L);
            final String s = millis(ns);
            final double expected = ns / 1e6;
            assertThat(Double.parseDouble(s)).as(s).isEqualTo(expected);
            // Java's own shortest form (plain notation where it uses plain) has no fewer significant digits.
            final String java = new java.math.BigDecimal(Double.toString(expected)).stripTrailingZeros().toPlainString();
            assertThat(new java.math.BigDecimal(s).stripTrailingZeros().toPlainString()).as(s).isEqualTo(java);
        }
    }
}
