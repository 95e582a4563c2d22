package io.aiperf.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The binders read the environment and the files a config names only through the {@link ConfigInputs} handed in
 * (issue 44): the environment given to {@link ConfigLoader#load} is the one the proxy comes from, and a file the
 * config names is read from the inputs, not from the disk.
 */
class ConfigInputsTest {
    @Test
    void theProxyComesFromTheEnvironmentHandedToTheLoader() {
        final CliOverlay cli = new CliOverlay().set("models", List.of("m"), "--model");
        final BenchmarkConfig config = ConfigLoader.load(null, cli,
                Map.of("HTTP_PROXY", "http://proxy.test:3128", "NO_PROXY", "localhost"));
        assertThat(config.endpoint().proxy().http().host()).isEqualTo("proxy.test");
        assertThat(config.endpoint().proxy().http().port()).isEqualTo(3128);
        assertThat(ConfigLoader.load(null, cli, Map.of()).endpoint().proxy().any()).isFalse();
    }

    @Test
    void aSystemPromptFileIsReadFromTheInputs() {
        final ConfigInputs inputs = new Inputs(Map.of("/nowhere/prompt.txt", "Answer in one word."));
        final BenchmarkConfig config = ConfigBinder.bind(tree("/nowhere/prompt.txt"), Map.of(), inputs);
        assertThat(config.dataset().systemPrompt()).isEqualTo("Answer in one word.");
        assertThatThrownBy(() -> ConfigBinder.bind(tree("/nowhere/other.txt"), Map.of(), inputs))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("benchmark.dataset.prompts.system_prompt_file")
                .hasMessageContaining("cannot read /nowhere/other.txt as UTF-8 text");
    }

    private static ObjectNode tree(final String systemPromptFile) {
        return ConfigShapes.canonical(YamlLoader.parse("""
                benchmark:
                  models: [m]
                  dataset:
                    prompts: {system_prompt_file: %s}
                """.formatted(systemPromptFile), "<yaml>", Map.of()));
    }

    /** Files held in memory, no directory, an empty environment; what else a binder asks is a test's mistake. */
    private record Inputs(Map<String, String> files) implements ConfigInputs {
        @Override
        public Map<String, String> environment() {
            return Map.of();
        }

        @Override
        public boolean isDirectory(final String path) {
            return false;
        }

        @Override
        public String readString(final String path) throws IOException {
            final String text = files.get(path);
            if (text == null) {
                throw new NoSuchFileException(path);
            }
            return text;
        }

        @Override
        public DatasetConfig.Format detectFormat(final String path, final String field) {
            throw new UnsupportedOperationException(path);
        }

        @Override
        public List<Long> timestamps(final String path, final String field, final DatasetConfig.Format format,
                                     final DatasetConfig.Synthesis synthesis) {
            throw new UnsupportedOperationException(path);
        }

        @Override
        public String publicDataset(final String given, final String field) {
            throw new UnsupportedOperationException(field);
        }

        @Override
        public String payloadTemplate(final String spec, final String field) {
            throw new UnsupportedOperationException(field);
        }

        @Override
        public List<Certificate> certificates(final String file) {
            throw new UnsupportedOperationException(file);
        }

        @Override
        public PrivateKey privateKey(final String file) {
            throw new UnsupportedOperationException(file);
        }
    }
}
