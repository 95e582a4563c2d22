package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Delta extraction as AIPerf does it (AIPerf's endpoint and streaming docs). */
class ChunkParserTest {
    private static ChunkParser.Chunk parse(final String json) throws Exception {
        final ChunkParser.Chunk c = new ChunkParser.Chunk();
        final byte[] b = json.getBytes(StandardCharsets.UTF_8);
        ChunkParser.parse(b, 0, b.length, c);
        return c;
    }

    @Test
    void reasoningContentWinsOverReasoningAndKeepsContent() throws Exception {
        final ChunkParser.Chunk c = parse("{\"choices\":[{\"delta\":{\"content\":\"a\",\"reasoning\":\"r1\",\"reasoning_content\":\"r2\"}}]}");
        assertThat(c.reasoning).isEqualTo("r2");
        assertThat(c.content).isEqualTo("a");
        assertThat(parse("{\"choices\":[{\"delta\":{\"reasoning\":\"r1\",\"reasoning_content\":\"\"}}]}").reasoning)
                .isEqualTo("r1");
    }

    @Test
    void roleOnlyAndEmptyDeltasAreNotContentButWhitespaceIs() throws Exception {
        assertThat(parse("{\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}").isContentResponse()).isFalse();
        assertThat(parse("{\"choices\":[{\"delta\":{\"content\":\"\"}}]}").isContentResponse()).isFalse();
        assertThat(parse("{\"choices\":[{\"delta\":{\"content\":\" \"}}]}").isContentResponse()).isTrue();
    }

    @Test
    void usageOnlyChunkCarriesCountsButNoContent() throws Exception {
        final ChunkParser.Chunk c = parse("{\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":7,"
                + "\"total_tokens\":12,\"completion_tokens_details\":{\"reasoning_tokens\":2}}}");
        assertThat(c.isContentResponse()).isFalse();
        assertThat(c.hasUsage).isTrue();
        assertThat(c.promptTokens).isEqualTo(5);
        assertThat(c.completionTokens).isEqualTo(7);
        assertThat(c.reasoningTokens).isEqualTo(2);
    }

    @Test
    void promptCacheReadsComeFromTheDetailsFirstThenATopLevelSynonym() throws Exception {
        assertThat(parse("{\"usage\":{\"prompt_tokens\":9,\"prompt_tokens_details\":{\"cached_tokens\":4}}}")
                .cacheReadTokens).isEqualTo(4);
        assertThat(parse("{\"usage\":{\"input_tokens\":9,\"input_tokens_details\":{\"cached_tokens\":0}}}")
                .cacheReadTokens).isZero();
        // the OpenAI-nested count wins over a top-level one, wherever each stands
        assertThat(parse("{\"usage\":{\"cache_read_input_tokens\":7,\"prompt_tokens_details\":{\"cached_tokens\":3}}}")
                .cacheReadTokens).isEqualTo(3);
        assertThat(parse("{\"usage\":{\"prompt_cache_hit_tokens\":6,\"prompt_tokens_details\":{\"audio_tokens\":1}}}")
                .cacheReadTokens).isEqualTo(6);
        assertThat(parse("{\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":1}}").cacheReadTokens).isNull();
        final ChunkParser.Chunk c = parse("{\"usage\":{\"prompt_tokens_details\":{\"cached_tokens\":5}}}");
        c.reset();
        assertThat(c.cacheReadTokens).isNull();
    }

    @Test
    void completionsTextToolCallsAndEmbeddings() throws Exception {
        assertThat(parse("{\"choices\":[{\"text\":\"hi\"}]}").content).isEqualTo("hi");
        assertThat(parse("{\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}")
                .content).isEqualTo("f{}");
        assertThat(parse("{\"data\":[{\"embedding\":[0.1]}]}").isContentResponse()).isTrue();
    }

    @Test
    void malformedJsonThrowsSoTheEventIsSkipped() {
        assertThatThrownBy(() -> parse("{not json")).isInstanceOf(java.io.IOException.class);
    }

    /** A server's error object inside a 200 answer (a stream event or a whole body) is read, never taken as content. */
    @Test
    void errorObjectsAreRead() throws Exception {
        final ChunkParser.Chunk c = parse("{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\",\"code\":503}}");
        assertThat(c.errorMessage).isEqualTo("overloaded");
        assertThat(c.errorType).isEqualTo("server_error");
        assertThat(c.isContentResponse()).isFalse();
        assertThat(parse("{\"error\":\"boom\"}").errorMessage).isEqualTo("boom");
        assertThat(parse("{\"choices\":[{\"text\":\"hi\"}]}").errorMessage).isNull();
    }

    /** The thread's parser is reused: what one object leaves behind, truncated or followed by junk, never leaks. */
    @Test
    void truncatedOrTrailedObjectsDoNotAffectTheNext() throws Exception {
        final String good = "{\"choices\":[{\"delta\":{\"content\":\"ok\"}}]}";
        for (final String bad : new String[] {"{\"choices\":[{\"delta\":{\"content\":\"x", "{\"choices\":[",
                "{\"a\":1", "", "   ", "[1,2]", "{\"data\":[1,2"}) {
            assertThatThrownBy(() -> parse(bad)).as(bad).isInstanceOf(java.io.IOException.class);
            assertThat(parse(good).content).as("after " + bad).isEqualTo("ok");
        }
        // Junk after a whole object: the object counts, as a blocking parser reads it; the next one is fresh.
        assertThat(parse(good + " garbage").content).isEqualTo("ok");
        assertThat(parse(good + "  ").content).isEqualTo("ok");
        assertThat(parse("{\"choices\":[{\"text\":\"second\"}]}").content).isEqualTo("second");
        // Many in a row on one thread, as an event loop parses them.
        for (int i = 0; i < 1_000; i++) {
            assertThat(parse("{\"choices\":[{\"delta\":{\"content\":\"t" + i + "\"}}]}").content).isEqualTo("t" + i);
        }
    }
}
