package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The byte-level {@link ChunkParser} against the Jackson reading it replaced ({@link JacksonChunkParser}): on
 * generated OpenAI-shaped objects and on their truncations and corruptions, both refuse the same inputs and read the
 * same fields from the others. Seeded, so a failure repeats.
 */
class ChunkParserDifferentialTest {
    private static final String MUTATIONS = "{}[]\",:-+.0123456789eEtrufalsn\\ \t\nxu/";

    @Test
    void readsAndRefusesWhatJacksonDoes() {
        final Random random = new Random(20261202L);
        int refused = 0;
        int read = 0;
        for (int i = 0; i < 30_000; i++) {
            final String json = response(random);
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            if (i % 3 != 0) {
                bytes = mutate(bytes, random);
            }
            if (compare(bytes)) {
                read++;
            } else {
                refused++;
            }
        }
        assertThat(read).as("inputs both read").isGreaterThan(10_000);
        assertThat(refused).as("inputs both refused").isGreaterThan(3_000);
    }

    @Test
    void limitsAndEdgesAsJackson() {
        final String[] cases = {
            "{\"a\":" + "[".repeat(998) + "]".repeat(998) + "}",
            "{\"a\":" + "[".repeat(999) + "]".repeat(999) + "}",
            "{\"a\":" + "[".repeat(1000) + "]".repeat(1000) + "}",
            "{\"a\":" + "{\"b\":".repeat(1100) + "1" + "}".repeat(1100) + "}",
            "{\"a\":1" + "0".repeat(1100) + "}",
            "{\"a\":" + "1".repeat(500) + "}",
            "{\"a\":" + "1".repeat(1000) + "}",
            "{\"a\":" + "1".repeat(1001) + "}",
            "{\"a\":-" + "1".repeat(1000) + "}",
            "{\"a\":-" + "1".repeat(1001) + "}",
            "{\"a\":1." + "5".repeat(999) + "}",
            "{\"a\":1." + "5".repeat(1000) + "}",
            "{\"usage\":{\"prompt_tokens\":2147483647,\"completion_tokens\":-2147483648}}",
            "{\"usage\":{\"prompt_tokens\":2147483648}}",
            "{\"usage\":{\"prompt_tokens\":-2147483649}}",
            "{\"usage\":{\"prompt_tokens\":99999999999999999999999}}",
            "{\"usage\":{\"prompt_tokens\":16.0,\"total_tokens\":1e2}}",
            "{\"usage\":{\"prompt_tokens\":-0}}",
            "{\"usage\":{\"prompt_tokens\":9,\"prompt_tokens_details\":{\"cached_tokens\":4,\"cached_tokens\":5}}}",
            "{\"usage\":{\"cache_read_input_tokens\":3,\"input_tokens_details\":{\"cached_tokens\":\"4\"}}}",
            "{\"usage\":{\"cached_tokens\":2,\"prompt_cache_hit_tokens\":7,\"prompt_tokens_details\":null}}",
            "{\"usage\":{\"prompt_tokens\":01}}",
            "\uFEFF{\"choices\":[{\"text\":\"bom\"}]}",
            " \t\r\n{\"choices\":[{\"text\":\"blanks\"}]} \n",
            "{\"choices\":[{\"text\":\"a\\u00e9\\ud83d\\ude00\\n\\\"\\\\\\/\\b\\f\\r\\t\"}]}",
            "{\"choices\":[{\"text\":\"caf\u00e9 \u4e2d \ud83d\ude00\"}]}",
            "{\"cho\\u0069ces\":[{\"d\\u0065lta\":{\"content\":\"escaped names\"}}]}",
            "{\"\\ud83d\\ude00\":1}", "{\"\\ud83d\":1}", "{\"\\ude00\":1}", "{\"\\ud83dx\":1}",
            "{\"\\ud83d\\u0041\":1}", "{\"\\ud83d\\ud83d\\ude00\":1}", "{\"a\\ud83d\\ude00\\ude00\":1}",
            "{\"\\ud83d\\n\":1}", "{\"x\\ud83d\\ude00y\\u0041\":1}",
            "{\"choices\":[null,{\"text\":\"second\"}]}",
            "{\"choices\":[{\"delta\":{\"content\":null}}]}",
            "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"name\":\"f\",\"x\":[\"no\"],"
                + "\"arguments\":[\"a\",{\"k\":\"no\"},\"b\"]}}],\"content\":\"\"}}]}",
            "{\"choices\":[{\"message\":{\"content\":\"m\"},\"delta\":{\"reasoning\":\"r\"}}]}",
            "{\"error\":{\"message\":\"m\",\"type\":\"\"}}",
            "{\"error\":null,\"data\":[]}",
            "{\"data\":[[1,2],{\"x\":true}]}",
            "{\"a\":tru}", "{\"a\":nul}", "{\"a\":true1}", "{\"a\":1x}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":+1}",
            "{\"a\":1e}", "{\"a\":1e+}", "{\"a\":\"\t\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12g4\"}", "{\"a\" 1}",
            "{\"a\":1,}", "{,\"a\":1}", "{\"a\":[1,]}", "{\"a\":[,1]}", "{'a':1}", "{a:1}", "{\"a\":1 \"b\":2}",
            "{} trailing", "{}{}", "[]", "\"s\"", "1", "", "{", "{\"a\"", "{\"a\":", "{\"a\":-", "{\"a\":/*c*/1}",
        };
        for (final String json : cases) {
            compare(json.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Long strings are scanned eight bytes at a time: a special byte at every position of two words is still seen. */
    @Test
    void specialBytesAnywhereInLongStrings() {
        final byte[][] specials = {{'\\', 'n'}, {'\\', '"'}, {'"'}, {'\t'}, {0x1F}, {(byte) 0xC3, (byte) 0xA9},
            {(byte) 0xE4, (byte) 0xB8, (byte) 0xAD}, {(byte) 0x80}, {(byte) 0xC3}, {0x7F}, {'\\', 'u', '0', '0', 'e', '9'}};
        for (final byte[] special : specials) {
            for (int at = 0; at < 20; at++) {
                final java.io.ByteArrayOutputStream json = new java.io.ByteArrayOutputStream();
                json.writeBytes("{\"choices\":[{\"text\":\"".getBytes(StandardCharsets.US_ASCII));
                json.writeBytes("abcdefghijklmnopqrst".substring(0, at).getBytes(StandardCharsets.US_ASCII));
                json.writeBytes(special);
                json.writeBytes("uvwxyz0123456789".getBytes(StandardCharsets.US_ASCII));
                json.writeBytes("\"}]}".getBytes(StandardCharsets.US_ASCII));
                compare(json.toByteArray());
            }
        }
    }

    @Test
    void invalidUtf8IsRefusedAsJacksonRefusesIt() {
        final byte[][] bad = {
            {'{', '"', 'a', '"', ':', '"', (byte) 0x80, '"', '}'},
            {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, '"', '}'},
            {'{', '"', 'a', '"', ':', '"', (byte) 0xE2, (byte) 0x82, 'x', '"', '}'},
            {'{', '"', 'a', '"', ':', '"', (byte) 0xF8, (byte) 0x80, (byte) 0x80, (byte) 0x80, '"', '}'},
            {'{', '"', (byte) 0xFF, '"', ':', '1', '}'},
            {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0xA9, '"', '}'},
            {'{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'},
            {'{', '"', (byte) 0xED, (byte) 0xBF, (byte) 0xBF, '"', ':', '1', '}'},
            {'{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0x9F, (byte) 0xBF, '"', '}'},
        };
        for (final byte[] bytes : bad) {
            compare(bytes);
        }
        // Overlong and out-of-range forms pass both, and read as Jackson decodes them, in values and in names.
        final byte[][] odd = {{(byte) 0xC0, (byte) 0x80}, {(byte) 0xC1, (byte) 0xAF},
            {(byte) 0xE0, (byte) 0x80, (byte) 0x80}, {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0x80},
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80}};
        for (final byte[] form : odd) {
            compare(join("{\"choices\":[{\"text\":\"a", form, "b\"}]}"));
            compare(join("{\"choices\":[{\"delta\":{\"c", form, "ntent\":\"hi\"}}]}"));
        }
        compare(join("{\"choices\":[{\"delta\":{\"c", new byte[] {(byte) 0xC1, (byte) 0xAF}, "ntent\":\"hi\"}}]}"));
    }

    /** Byte order marks, and the lengths of names and strings that Jackson's defaults refuse. */
    @Test
    void byteOrderMarksAndLongNamesAndStrings() {
        final String object = "{\"choices\":[{\"text\":\"t\"}]}";
        final byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        compare(join("", bom, object));
        compare(join(" ", bom, object));
        final byte[] twice = new byte[6 + object.length()];
        System.arraycopy(bom, 0, twice, 0, 3);
        System.arraycopy(bom, 0, twice, 3, 3);
        System.arraycopy(object.getBytes(StandardCharsets.US_ASCII), 0, twice, 6, object.length());
        compare(twice);
        compare(("{\"" + "n".repeat(50_000) + "\":1," + object.substring(1)).getBytes(StandardCharsets.US_ASCII));
        compare(("{\"" + "n".repeat(50_001) + "\":1," + object.substring(1)).getBytes(StandardCharsets.US_ASCII));
        compare(("{\"skipped\":\"" + "s".repeat(20_000_001) + "\"}").getBytes(StandardCharsets.US_ASCII));
        compare(("{\"choices\":[{\"text\":\"" + "s".repeat(20_000_001) + "\"}]}").getBytes(StandardCharsets.US_ASCII));
        compare(("{\"choices\":[{\"text\":\"" + "s".repeat(20_000_000) + "\"}]}").getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] join(final String before, final byte[] middle, final String after) {
        final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(before.getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(middle);
        out.writeBytes(after.getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }

    /** Both parsers on one input; true when both read it (with equal fields), false when both refused it. */
    private static boolean compare(final byte[] bytes) {
        final String shown = new String(bytes, StandardCharsets.UTF_8);
        final ChunkParser.Chunk ours = new ChunkParser.Chunk();
        final ChunkParser.Chunk theirs = new ChunkParser.Chunk();
        final IOException oursFailed = parse(bytes, ours, true);
        final IOException theirsFailed = parse(bytes, theirs, false);
        assertThat(oursFailed == null).as("read (else refused) alike: %s; ours %s, Jackson's %s", shown, oursFailed,
                theirsFailed).isEqualTo(theirsFailed == null);
        if (oursFailed != null) {
            return false;
        }
        assertThat(fields(ours)).as(shown).isEqualTo(fields(theirs));
        return true;
    }

    private static IOException parse(final byte[] bytes, final ChunkParser.Chunk out, final boolean ours) {
        try {
            if (ours) {
                ChunkParser.parse(bytes, 0, bytes.length, out);
            } else {
                JacksonChunkParser.parse(bytes, 0, bytes.length, out);
            }
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    private static String fields(final ChunkParser.Chunk c) {
        return String.join("|", String.valueOf(c.content), String.valueOf(c.reasoning), String.valueOf(c.hasEmbedding),
                String.valueOf(c.promptTokens), String.valueOf(c.completionTokens), String.valueOf(c.totalTokens),
                String.valueOf(c.reasoningTokens), String.valueOf(c.cacheReadTokens), String.valueOf(c.hasUsage), String.valueOf(c.partialUsage),
                String.valueOf(c.errorType), String.valueOf(c.errorMessage));
    }

    private static byte[] mutate(final byte[] in, final Random random) {
        final int at = random.nextInt(in.length + 1);
        final byte other = (byte) MUTATIONS.charAt(random.nextInt(MUTATIONS.length()));
        return switch (random.nextInt(4)) {
            case 0 -> java.util.Arrays.copyOf(in, at); // truncated
            case 1 -> { // one byte replaced
                final byte[] out = in.clone();
                if (at < out.length) {
                    out[at] = other;
                }
                yield out;
            }
            case 2 -> { // one byte inserted
                final byte[] out = new byte[in.length + 1];
                System.arraycopy(in, 0, out, 0, at);
                out[at] = other;
                System.arraycopy(in, at, out, at + 1, in.length - at);
                yield out;
            }
            default -> { // one byte removed
                if (at == in.length) {
                    yield in;
                }
                final byte[] out = new byte[in.length - 1];
                System.arraycopy(in, 0, out, 0, at);
                System.arraycopy(in, at + 1, out, at, in.length - at - 1);
                yield out;
            }
        };
    }

    /** An OpenAI-shaped response object with the fields in random order, some missing, and unknown ones added. */
    private static String response(final Random r) {
        final StringBuilder sb = new StringBuilder("{");
        final java.util.List<String> members = new java.util.ArrayList<>();
        members.add("\"id\":" + string(r));
        if (r.nextInt(4) > 0) {
            members.add("\"choices\":" + choices(r));
        }
        if (r.nextInt(3) == 0) {
            members.add("\"usage\":" + usage(r));
        }
        if (r.nextInt(8) == 0) {
            members.add("\"error\":" + (r.nextBoolean() ? string(r)
                    : "{\"message\":" + string(r) + ",\"type\":" + string(r) + ",\"code\":" + number(r) + "}"));
        }
        if (r.nextInt(8) == 0) {
            members.add("\"data\":" + (r.nextBoolean() ? "[]" : "[{\"embedding\":[" + number(r) + "," + number(r) + "]}]"));
        }
        for (int i = r.nextInt(3); i > 0; i--) {
            members.add(string(r) + ":" + value(r, 3));
        }
        java.util.Collections.shuffle(members, r);
        sb.append(String.join(r.nextBoolean() ? "," : ", ", members));
        return sb.append('}').toString();
    }

    private static String choices(final Random r) {
        final StringBuilder sb = new StringBuilder("[");
        for (int i = r.nextInt(3); i >= 0; i--) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            if (r.nextInt(6) == 0) {
                sb.append(value(r, 2));
                continue;
            }
            final java.util.List<String> members = new java.util.ArrayList<>();
            members.add("\"index\":" + r.nextInt(3));
            switch (r.nextInt(3)) {
                case 0 -> members.add("\"delta\":" + message(r));
                case 1 -> members.add("\"message\":" + message(r));
                default -> members.add("\"text\":" + (r.nextInt(5) == 0 ? "null" : string(r)));
            }
            members.add("\"finish_reason\":" + (r.nextBoolean() ? "null" : "\"stop\""));
            java.util.Collections.shuffle(members, r);
            sb.append('{').append(String.join(",", members)).append('}');
        }
        return sb.append(']').toString();
    }

    private static String message(final Random r) {
        final java.util.List<String> members = new java.util.ArrayList<>();
        if (r.nextInt(4) > 0) {
            members.add("\"content\":" + (r.nextInt(6) == 0 ? "null" : string(r)));
        }
        if (r.nextInt(4) == 0) {
            members.add("\"reasoning_content\":" + string(r));
        }
        if (r.nextInt(4) == 0) {
            members.add("\"reasoning\":" + string(r));
        }
        if (r.nextInt(5) == 0) {
            members.add("\"tool_calls\":[{\"index\":0,\"function\":{\"name\":" + string(r) + ",\"arguments\":"
                    + string(r) + "}}]");
        }
        if (r.nextBoolean()) {
            members.add("\"role\":\"assistant\"");
        }
        java.util.Collections.shuffle(members, r);
        return "{" + String.join(",", members) + "}";
    }

    private static String usage(final Random r) {
        final java.util.List<String> members = new java.util.ArrayList<>();
        for (final String name : new String[] {"prompt_tokens", "completion_tokens", "total_tokens", "input_tokens",
                "output_tokens", "cache_read_input_tokens", "cached_tokens"}) {
            if (r.nextBoolean()) {
                members.add("\"" + name + "\":" + number(r));
            }
        }
        if (r.nextInt(3) == 0) {
            members.add("\"completion_tokens_details\":{\"reasoning_tokens\":" + number(r) + "}");
        }
        if (r.nextInt(3) == 0) {
            members.add("\"prompt_tokens_details\":{\"cached_tokens\":" + number(r) + "}");
        }
        java.util.Collections.shuffle(members, r);
        return "{" + String.join(",", members) + "}";
    }

    private static String value(final Random r, final int depth) {
        final int kind = r.nextInt(depth > 0 ? 7 : 5);
        return switch (kind) {
            case 0 -> string(r);
            case 1 -> number(r);
            case 2 -> "true";
            case 3 -> "false";
            case 4 -> "null";
            case 5 -> {
                final StringBuilder sb = new StringBuilder("[");
                for (int i = r.nextInt(3); i > 0; i--) {
                    sb.append(sb.length() > 1 ? "," : "").append(value(r, depth - 1));
                }
                yield sb.append(']').toString();
            }
            default -> {
                final StringBuilder sb = new StringBuilder("{");
                for (int i = r.nextInt(3); i > 0; i--) {
                    sb.append(sb.length() > 1 ? "," : "").append(string(r)).append(':').append(value(r, depth - 1));
                }
                yield sb.append('}').toString();
            }
        };
    }

    private static String number(final Random r) {
        return switch (r.nextInt(7)) {
            case 0 -> String.valueOf(r.nextInt(100));
            case 1 -> String.valueOf(-r.nextInt(100));
            case 2 -> String.valueOf(r.nextLong());
            case 3 -> String.valueOf(r.nextDouble() * 1000);
            case 4 -> r.nextInt(10) + "e" + (r.nextBoolean() ? "-" : "") + r.nextInt(30);
            case 5 -> String.valueOf(Integer.MAX_VALUE - 1 + r.nextInt(3));
            default -> "0";
        };
    }

    private static String string(final Random r) {
        final String[] pieces = {"a", "tok", " ", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\ud83d\\ude00", "\u00e9",
            "\u4e2d", "\ud83d\ude00", "\\t", "content", "name", "arguments", "text"};
        final StringBuilder sb = new StringBuilder("\"");
        for (int i = r.nextInt(5); i > 0; i--) {
            sb.append(pieces[r.nextInt(pieces.length)]);
        }
        return sb.append('"').toString();
    }
}
