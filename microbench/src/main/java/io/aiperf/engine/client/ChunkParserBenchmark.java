package io.aiperf.engine.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The decision behind {@link ChunkParser}'s reading: its byte-level {@link JsonCursor}, against Jackson's fastest
 * parser (a new blocking parser per object) walking the same tokens. Jackson's reused non-blocking parser, which the
 * cursor replaced, is measured beside them by {@code ResponsePathBenchmark}'s history in
 * bench/history/performance-page-2026-12-06.md.
 * Scored per streamed chat chunk.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ChunkParserBenchmark {
    private static final JsonFactory JSON = new JsonFactory();
    private final byte[] chunk = ("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
            + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\" token\"},\"finish_reason\":null}]}")
            .getBytes(StandardCharsets.UTF_8);
    private final ChunkParser.Chunk out = new ChunkParser.Chunk();

    @Benchmark
    public String cursor() throws IOException {
        ChunkParser.parse(chunk, 0, chunk.length, out);
        return out.content;
    }

    @Benchmark
    public String newBlockingPerObject() throws IOException {
        String content = null;
        try (JsonParser p = JSON.createParser(chunk, 0, chunk.length)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.VALUE_STRING && "content".equals(p.currentName())) {
                    content = p.getText();
                }
            }
        }
        return content;
    }
}
