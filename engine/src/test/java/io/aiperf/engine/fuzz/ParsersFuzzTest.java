package io.aiperf.engine.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.aiperf.engine.client.ChunkParser;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.config.YamlLoader;
import io.aiperf.engine.gate.GateRulesLoader;
import java.io.IOException;
import java.util.Map;

/**
 * What servers and users send, arbitrary: each parser either accepts it or refuses it with its own documented
 * exception (an IOException for a response chunk, a ConfigException naming the field for a config or rules
 * file), and never anything else.
 */
class ParsersFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void responseChunks(final byte[] json) {
        try {
            ChunkParser.parse(json, 0, json.length, new ChunkParser.Chunk());
        } catch (IOException rejected) {
            // malformed JSON: the caller skips the event
        }
    }

    @FuzzTest(maxDuration = "10s")
    void benchmarkConfigs(final FuzzedDataProvider data) {
        try {
            ConfigLoader.fromYaml(data.consumeRemainingAsString(), new CliOverlay());
        } catch (ConfigException rejected) {
            // exit 2 with the field named
        }
    }

    @FuzzTest(maxDuration = "10s")
    void gateRules(final FuzzedDataProvider data) {
        try {
            GateRulesLoader.parse(YamlLoader.parse(data.consumeRemainingAsString(), "rules.yaml", Map.of()), "rules.yaml");
        } catch (ConfigException rejected) {
            // exit 2 with the rule named
        }
    }
}
