package io.aiperf.engine.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The byte writer against Jackson's generator as the records file used it (compact, shortest doubles, no separator
 * between root values): the same calls give the same bytes, for random trees of every kind of value and for strings
 * of every kind of character, across the buffer's flushes.
 */
class JsonLineWriterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Characters where escaping and encoding change: controls, quotes, DEL, each UTF-8 length, both surrogates. */
    private static final char[] EDGES = {0, 1, '\b', '\t', '\n', 0x0B, '\f', '\r', 0x1F, ' ', '"', '\\', '/', 0x7E,
        0x7F, 0x80, 0xA0, 0xE9, 0xFF, 0x100, 0x7FF, 0x800, 0x2028, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000,
        0xFEFF, 0xFFFD, 0xFFFF};

    @Test
    void writesWhatJacksonWritesForRandomTrees() throws IOException {
        final SplittableRandom random = new SplittableRandom(29);
        final List<JsonNode> lines = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            lines.add(randomValue(random, 0, i % 3 == 0 ? object(random, 0) : null));
        }
        assertSameBytes(lines);
    }

    @Test
    void escapesAndEncodesEveryKindOfCharacterAsJacksonDoes() throws IOException {
        final List<JsonNode> lines = new ArrayList<>();
        for (int c = 0; c <= 0xFFFF; c++) {
            final String one = String.valueOf((char) c);
            final ObjectNode o = NODES.objectNode();
            o.put(one, one);
            o.put("a" + one + "b", one + one + "x");
            lines.add(o);
        }
        lines.add(NODES.textNode("\uD83D\uDE00 paired, \uD83D lone high, \uDE00 lone low, \uDE00\uD83D reversed"));
        assertSameBytes(lines);
    }

    @Test
    void writesNumbersOfEveryKindAsJacksonDoes() throws IOException {
        final SplittableRandom random = new SplittableRandom(31);
        final ArrayNode values = NODES.arrayNode();
        for (final long v : new long[] {0, 1, -1, 9, 10, 99, 100, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1,
            Integer.MAX_VALUE, Integer.MIN_VALUE, 1_000_000_000_000L, -999_999_999_999_999_999L}) {
            values.add(v);
        }
        for (long power = 1; power > 0 && power <= Long.MAX_VALUE / 10 * 10; power *= 10) { // each length's edges
            for (final long v : new long[] {power - 1, power, power + 1, -power, 1 - power}) {
                values.add(v);
            }
            if (power > Long.MAX_VALUE / 10) {
                break;
            }
        }
        for (final long v : new long[] {Integer.MAX_VALUE - 1L, Integer.MAX_VALUE + 1L, Integer.MIN_VALUE - 1L}) {
            values.add(v);
        }
        for (final double v : new double[] {0.0, -0.0, 1.0, 0.1, 1e-7, 1e21, 1e22, 1e23, 2.82879384806159E17,
            Double.MIN_VALUE, Double.MAX_VALUE, Double.MIN_NORMAL, Double.NaN, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, 123.456, 20.034567}) {
            values.add(v);
        }
        for (int i = 0; i < 20_000; i++) {
            values.add(Double.longBitsToDouble(random.nextLong()));
            values.add(random.nextLong());
            values.add(random.nextDouble() * Math.pow(10, random.nextInt(-12, 16)));
        }
        values.add(new BigInteger("123456789012345678901234567890"));
        values.add(new BigDecimal("1.50E+3"));
        values.add(new BigDecimal("0.000000001"));
        values.add(1.5f);
        assertSameBytes(List.of(values));
    }

    @Test
    void linesLongerThanTheBufferAndManyOfThemComeOutWholeAndInOrder() throws IOException {
        final SplittableRandom random = new SplittableRandom(37);
        final List<JsonNode> lines = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            lines.add(NODES.textNode(randomString(random, random.nextInt(1, 3 * JsonLineWriter.FLUSH_AT))));
        }
        assertSameBytes(lines);
    }

    @Test
    void writesToTheStreamOnlyWholeLinesAndAllOfThemOnClose() throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final JsonLineWriter w = new JsonLineWriter(out);
        final String text = "x".repeat(1000);
        int lines = 0;
        while (out.size() == 0) {
            w.startObject();
            w.name(JsonLineWriter.key("t"));
            w.value(text);
            w.endObject();
            w.endLine();
            lines++;
            assertThat(lines).as("lines before the first write").isLessThan(JsonLineWriter.FLUSH_AT / 1000 + 2);
        }
        assertThat(out.toByteArray()[out.size() - 1]).isEqualTo((byte) '\n');
        w.value(1);
        w.endLine();
        w.close();
        assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8).lines()).hasSize(lines + 1)
                .last().isEqualTo("1");
    }

    @Test
    void encodedNamesAndValuesAreTheSameAsWrittenOnes() throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonLineWriter w = new JsonLineWriter(out)) {
            w.startObject();
            w.name(JsonLineWriter.key("unit \"é\""));
            w.rawValue(JsonLineWriter.encoded("ms\n"));
            w.name("unit \"é\"");
            w.value("ms\n");
            w.endObject();
            w.endLine();
        }
        assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("{\"unit \\\"é\\\"\":\"ms\\n\",\"unit \\\"é\\\"\":\"ms\\n\"}\n");
    }

    @Test
    void aLineCutShortIsDroppedAndTheNextStartsClean() throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonLineWriter w = new JsonLineWriter(out)) {
            w.startObject();
            w.name("whole");
            w.value(1);
            w.endObject();
            w.endLine();
            w.startObject();
            w.name("cut");
            w.startArray();
            w.value(2);
            w.discardLine();
            w.startObject();
            w.name("next");
            w.value(3);
            w.endObject();
            w.endLine();
            w.startObject(); // never ended: close does not write it
            w.name("unfinished");
        }
        assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("{\"whole\":1}\n{\"next\":3}\n");
    }

    @Test
    void linesAWriteFailedOnAreNotWrittenAgain() throws IOException {
        final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        final boolean[] failNext = {true};
        final java.io.OutputStream out = new java.io.OutputStream() {
            @Override
            public void write(final int b) {
                kept.write(b);
            }

            @Override
            public void write(final byte[] b, final int off, final int len) throws IOException {
                if (failNext[0]) {
                    failNext[0] = false;
                    throw new IOException("disk full");
                }
                kept.write(b, off, len);
            }
        };
        final JsonLineWriter w = new JsonLineWriter(out);
        final String text = "y".repeat(1000);
        assertThatThrownBy(() -> {
            for (int i = 0; i < JsonLineWriter.FLUSH_AT; i++) {
                w.value(text);
                w.endLine();
            }
        }).isInstanceOf(IOException.class).hasMessage("disk full");
        w.value("last");
        w.endLine();
        w.close();
        assertThat(kept.toString(java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("\"last\"\n");
    }

    @Test
    void aFloatIsWrittenAsTheDoubleItWidensTo() throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonLineWriter w = new JsonLineWriter(out)) {
            w.value((Number) 0.1f); // as the records code wrote a Float through the generator: widened first
            w.endLine();
        }
        assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo(com.fasterxml.jackson.core.io.NumberOutput.toString((double) 0.1f, true) + "\n");
    }

    @Test
    void refusesToNestDeeperThanItsCommaBitsReach() {
        final JsonLineWriter w = new JsonLineWriter(java.io.OutputStream.nullOutputStream());
        assertThatThrownBy(() -> {
            for (int i = 0; i < 100; i++) {
                w.startArray();
            }
        }).isInstanceOf(IllegalStateException.class).hasMessageContaining("deeper than 63");
    }

    /** Each line written both ways: through Jackson's tree writing and through the byte writer's calls. */
    private static void assertSameBytes(final List<JsonNode> lines) throws IOException {
        final ByteArrayOutputStream expected = new ByteArrayOutputStream();
        try (JsonGenerator g = FACTORY.createGenerator(expected)) {
            g.setRootValueSeparator(null);
            for (final JsonNode line : lines) {
                JSON.writeTree(g, line);
                g.writeRaw('\n');
            }
        }
        final ByteArrayOutputStream actual = new ByteArrayOutputStream();
        try (JsonLineWriter w = new JsonLineWriter(actual)) {
            for (final JsonNode line : lines) {
                write(w, line);
                w.endLine();
            }
        }
        final byte[] want = expected.toByteArray();
        final byte[] got = actual.toByteArray();
        if (!java.util.Arrays.equals(want, got)) {
            final int at = java.util.Arrays.mismatch(want, got);
            final int from = Math.max(0, at - 40);
            assertThat(new String(got, from, Math.min(got.length - from, 80), java.nio.charset.StandardCharsets.UTF_8))
                    .as("bytes from %d (first difference at %d)", from, at)
                    .isEqualTo(new String(want, from, Math.min(want.length - from, 80),
                            java.nio.charset.StandardCharsets.UTF_8));
            assertThat(got).as("same text, different bytes at %d", at).isEqualTo(want);
        }
    }

    /** The tree through the byte writer's calls, the way the records code drives it. */
    private static void write(final JsonLineWriter w, final JsonNode n) throws IOException {
        if (n.isObject()) {
            w.startObject();
            for (final Map.Entry<String, JsonNode> e : n.properties()) {
                w.name(e.getKey());
                write(w, e.getValue());
            }
            w.endObject();
        } else if (n.isArray()) {
            w.startArray();
            for (final JsonNode e : n) {
                write(w, e);
            }
            w.endArray();
        } else if (n.isTextual()) {
            w.value(n.textValue());
        } else if (n.isBoolean()) {
            w.value(n.booleanValue());
        } else if (n.isNull()) {
            w.nullValue();
        } else if (n.isLong() || n.isInt()) {
            w.value(n.longValue());
        } else if (n.isDouble()) {
            w.value(n.doubleValue());
        } else {
            w.value(n.numberValue());
        }
    }

    private static JsonNode randomValue(final SplittableRandom r, final int depth, final JsonNode given) {
        if (given != null) {
            return given;
        }
        final int kind = r.nextInt(depth > 4 ? 7 : 9);
        return switch (kind) {
            case 0 -> NODES.textNode(randomString(r, r.nextInt(0, 40)));
            case 1 -> NODES.numberNode(r.nextLong(-1_000_000_000_000L, 1_000_000_000_000L));
            case 2 -> NODES.numberNode(r.nextDouble() * 1000);
            case 3 -> NODES.numberNode(r.nextInt());
            case 4 -> NODES.booleanNode(r.nextBoolean());
            case 5 -> NODES.nullNode();
            case 6 -> NODES.numberNode(new BigDecimal(BigInteger.valueOf(r.nextLong()), r.nextInt(-5, 20)));
            case 7 -> object(r, depth + 1);
            default -> {
                final ArrayNode a = NODES.arrayNode();
                for (int i = r.nextInt(0, 6); i > 0; i--) {
                    a.add(randomValue(r, depth + 1, null));
                }
                yield a;
            }
        };
    }

    private static ObjectNode object(final SplittableRandom r, final int depth) {
        final ObjectNode o = NODES.objectNode();
        for (int i = r.nextInt(0, 6); i > 0; i--) {
            o.set(randomString(r, r.nextInt(0, 12)), randomValue(r, depth + 1, null));
        }
        return o;
    }

    private static String randomString(final SplittableRandom r, final int length) {
        final StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            final int pick = r.nextInt(10);
            if (pick < 6) {
                s.append((char) r.nextInt(0x20, 0x7F));
            } else if (pick < 8) {
                s.append(EDGES[r.nextInt(EDGES.length)]);
            } else if (pick < 9) {
                s.append((char) r.nextInt(0, 0x10000));
            } else {
                s.appendCodePoint(r.nextInt(0x10000, 0x110000));
            }
        }
        return s.toString();
    }
}
