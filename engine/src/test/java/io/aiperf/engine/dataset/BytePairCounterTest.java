package io.aiperf.engine.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The builtin counter against JTokkit's o200k_base, the reference it replaces for start-up. */
class BytePairCounterTest {
    private static final Encoding REFERENCE = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

    @Test
    void countsWhatJtokkitCountsOnHandPickedText() {
        final List<String> texts = List.of("", "a", "hello brave new world.", "Hello, World! It's 2026; we'll see.",
                "  leading and trailing spaces   ", "tabs\tand\nnew\r\nlines\n\n\n", "12345678901234567890",
                "naïve café résumé", "日本語のテキストと中文文本", "emoji 👍🏽 and 🧑‍🚀 flags 🇫🇷",
                "combining e\u0301 a\u0308 marks", "lone \uD800 surrogate and \uDC00 other",
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                " ".repeat(1_000) + "x", "!".repeat(3_000), "ab".repeat(2_000), "<|endoftext|> is ordinary here",
                "{\"json\": [1, 2.5e-3, null], \"k\": \"v\"}", "https://example.invalid/path?q=1&r=2#frag",
                "x".repeat(20_000));
        for (final String text : texts) {
            assertThat(counter().count(text)).as(text.length() > 60 ? text.substring(0, 60) + "..." : text)
                    .isEqualTo(REFERENCE.countTokensOrdinary(text));
        }
    }

    @Test
    void countsWhatJtokkitCountsOnRandomText() {
        final Random random = new Random(42);
        final int[][] ranges = {{0x20, 0x7E}, {0xA0, 0x24F}, {0x300, 0x36F}, {0x370, 0x3FF}, {0x400, 0x4FF},
                {0x590, 0x6FF}, {0x900, 0x97F}, {0x3040, 0x30FF}, {0x4E00, 0x4FFF}, {0xAC00, 0xAD00},
                {0x1F300, 0x1F64F}, {0x9, 0xD}};
        for (int t = 0; t < 2_000; t++) {
            final StringBuilder sb = new StringBuilder();
            final int length = random.nextInt(t % 100 == 0 ? 3_000 : 80);
            for (int i = 0; i < length; i++) {
                final int[] range = ranges[random.nextInt(random.nextBoolean() ? 1 : ranges.length)];
                sb.appendCodePoint(range[0] + random.nextInt(range[1] - range[0] + 1));
                if (random.nextInt(6) == 0) {
                    sb.append(' ');
                }
            }
            final String text = sb.toString();
            assertThat(counter().count(text)).as(text).isEqualTo(REFERENCE.countTokensOrdinary(text));
        }
    }

    @Test
    void countsTheSyntheticCorpusAsJtokkitDoes() {
        final StringBuilder sb = new StringBuilder();
        for (final String word : SyntheticDataset.CORPUS_WORDS) {
            sb.append(word).append(' ');
        }
        final String corpus = sb.toString();
        assertThat(counter().count(corpus)).isEqualTo(REFERENCE.countTokensOrdinary(corpus));
    }

    @Test
    void threadsCountIndependently() throws Exception {
        final String text = "The quick brown fox jumps over the lazy dog. ".repeat(50) + "ab".repeat(500);
        final int expected = REFERENCE.countTokensOrdinary(text);
        final ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            final List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                results.add(pool.submit(() -> {
                    for (int k = 0; k < 50; k++) {
                        if (counter().count(text) != expected) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (final Future<Boolean> r : results) {
                assertThat(r.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRankFileThatIsNotOneTokenAndRankPerLineIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> BytePairCounter.load("/nope.tiktoken",
                BuiltinTokenizer.O200K_PATTERN)).hasMessageContaining("not found").hasMessageContaining("/nope.tiktoken");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> BytePairCounter.load(
                "/tiktoken/out-of-order.tiktoken", BuiltinTokenizer.O200K_PATTERN)).hasMessageContaining("line 2")
                .hasMessageContaining("rank order");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> BytePairCounter.load(
                "/tiktoken/no-rank.tiktoken", BuiltinTokenizer.O200K_PATTERN)).hasMessageContaining("line 2");
    }

    private static BytePairCounter counter() {
        return BuiltinTokenizer.INSTANCE.counter();
    }
}
