package io.aiperf.engine.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.profile.ConfigSource;
import io.aiperf.engine.search.SearchSpec;
import java.util.List;

/**
 * A profile's config from its parsed options and their YAML file: each load binds them anew, the file as it was read
 * at the first load (a search's points and the model's discovery do not read it again).
 */
final class OptionsConfigSource implements ConfigSource {
    private final ProfileOptions options;
    private ObjectNode file;

    OptionsConfigSource(final ProfileOptions options) {
        this.options = options;
    }

    @Override
    public BenchmarkConfig load() {
        final CliOverlay overlay = options.overlay(); // a bad flag is said before a bad file, as ConfigLoader.load does
        if (file == null) {
            file = ConfigLoader.read(options.config, System.getenv());
        }
        return ConfigLoader.bind(file, overlay);
    }

    @Override
    public boolean namesModel() {
        return options.model != null;
    }

    @Override
    public void useModel(final String model) {
        options.model = model;
    }

    @Override
    public void useMock(final String url) {
        options.urls = List.of(url);
        if (options.tokenizer == null) {
            options.tokenizer = "builtin"; // the mock's words are counted with o200k_base
        }
        if (options.model == null && options.config == null) {
            options.model = "mock-model";
        }
    }

    @Override
    public boolean givesGoodput() {
        return options.goodput != null;
    }

    @Override
    public BenchmarkConfig at(final SearchSpec search, final int value) {
        final boolean rate = search.knob().equals(SearchSpec.REQUEST_RATE);
        final String given = rate ? options.requestRate : options.concurrency;
        final List<String> givenGoodput = options.goodput;
        if (!search.goodput().isEmpty()) {
            options.goodput = search.goodput(); // the goodput recipe's per-request SLOs, counted in every cell
        }
        if (rate) {
            options.requestRate = Integer.toString(value);
        } else {
            options.concurrency = Integer.toString(value);
        }
        try {
            return load();
        } finally {
            options.goodput = givenGoodput;
            if (rate) {
                options.requestRate = given;
            } else {
                options.concurrency = given;
            }
        }
    }
}
