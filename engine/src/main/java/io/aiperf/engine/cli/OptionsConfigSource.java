package io.aiperf.engine.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.profile.ConfigSource;
import io.aiperf.engine.search.SearchSpec;
import java.util.List;

/**
 * A profile's config from its parsed options and their YAML file, each turned into a tree once, at the first load
 * (with the embedded mock and the model named so far as inputs): the model found later and a search's points vary
 * those trees by value, never by writing the options' fields and parsing them again, and each load binds the result.
 */
final class OptionsConfigSource implements ConfigSource {
    private final ProfileOptions options;
    private final SearchSpec search;
    private final ObjectNode loadedFile;
    private ObjectNode file;
    private CliOverlay given;
    private String model;
    private String mockUrl;
    private int parses;

    /**
     * @param search the capacity search that will ask for its points ({@link #at}), or null
     * @param loadedFile the {@code -f} file as the command read it (null without one): it is not read again
     */
    OptionsConfigSource(final ProfileOptions options, final SearchSpec search, final ObjectNode loadedFile) {
        this.options = options;
        this.search = search;
        this.loadedFile = loadedFile;
    }

    /**
     * The config as given. A request-rate search's is its low end: the options give no rate of their own, and a
     * phase without one is no rate phase (a rate ramp, for one, would have no rate to ramp).
     */
    @Override
    public BenchmarkConfig load() {
        if (search != null && search.knob().equals(SearchSpec.REQUEST_RATE)) {
            return at(search, search.min());
        }
        return ConfigLoader.bind(file(), current());
    }

    /** How many times the options were turned into a tree: once per run. */
    int parses() {
        return parses;
    }

    /**
     * The YAML file as read at the first load, and the options turned into a tree then; a bad flag is said before a
     * bad file, as ConfigLoader.load does. The mock and the model named before it are inputs of that one parse.
     */
    private ObjectNode file() {
        if (given == null) {
            if (mockUrl != null) {
                options.urls = List.of(mockUrl);
                if (options.tokenizer == null) {
                    options.tokenizer = "builtin"; // the mock's words are counted with o200k_base
                }
                if (options.model == null && options.config == null) {
                    options.model = "mock-model";
                }
            }
            if (model != null) {
                options.model = model;
            }
            given = options.overlay(search != null);
            parses++;
        }
        if (file == null) {
            file = ConfigLoader.canonical(loadedFile);
        }
        return file;
    }

    /** The options as given, with the model found since the parse (in the place the parse gave the one named). */
    private CliOverlay current() {
        final CliOverlay o = given.copy();
        if (model != null) {
            o.set("models", List.of(model.split("\\s*,\\s*")), "--model");
        }
        return o;
    }

    @Override
    public boolean namesModel() {
        return options.model != null || model != null || mockUrl != null && options.config == null;
    }

    @Override
    public void useModel(final String model) {
        this.model = model;
    }

    @Override
    public void useMock(final String url) {
        if (given != null) {
            throw new IllegalStateException("the mock is started before the config is first loaded");
        }
        this.mockUrl = url;
    }

    @Override
    public boolean givesGoodput() {
        return options.goodput != null;
    }

    @Override
    public BenchmarkConfig at(final SearchSpec search, final int value) {
        final ObjectNode read = file();
        final CliOverlay o = current();
        final boolean rate = search.knob().equals(SearchSpec.REQUEST_RATE);
        options.load(o, rate ? options.concurrency : Integer.toString(value),
                rate ? Integer.toString(value) : options.requestRate, false);
        if (!search.goodput().isEmpty()) {
            // the goodput recipe's per-request SLOs, counted in every cell
            o.set("slos", ProfileOptions.goodput(search.goodput()), "--goodput");
        }
        return ConfigLoader.bind(read, o);
    }
}
