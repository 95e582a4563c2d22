package io.aiperf.engine.profile;

import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.dataset.ChatTemplateCounter;
import io.aiperf.engine.dataset.TokenizerResolver;
import io.aiperf.engine.hub.HfHub;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.sweep.CellPlan;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * A profile's config and the cells it runs, with every check that needs the config done before any traffic: the
 * model named, the search's points and convergence possible, the mock able to serve, the tokenizer and its chat
 * template at hand.
 *
 * @param config the run's config
 * @param cells the cells to run (all of them, or those {@code --cell} selects)
 * @param tokenizer the resolved tokenizer, with its warning
 */
record PreparedRun(BenchmarkConfig config, List<CellPlan.Cell> cells, TokenizerResolver.Resolved tokenizer) {

    /** @throws ProfileRefused when the config cannot run */
    static PreparedRun prepare(final ProfileRequest request, final ConfigSource configs, final EmbeddedMock mock,
                               final PrintStream err) {
        try {
            final BenchmarkConfig config = ModelDiscovery.configNamingTheModel(configs, request.logLevel(), err);
            if (request.search() != null) {
                ConfigChecks.searchable(config, request.search(), configs);
            }
            final List<CellPlan.Cell> cells = CellPlan.select(config, request.cells());
            ConfigChecks.convergent(request.convergence(), config, request.search() != null,
                    !request.cells().isEmpty());
            mock.checkServes(config);
            // a tokenizer that cannot be had (not found, not on the hub, refused) stops us here
            final TokenizerResolver.Resolved tokenizer = TokenizerResolver.resolve(config.tokenizer(),
                    config.primaryModel(), System.getenv(), new HfHub(config.endpoint().network()));
            // a chat template that is missing or does not render, too
            ChatTemplateCounter.watched(config.tokenizer(), tokenizer.tokenizer());
            return new PreparedRun(config, cells, tokenizer);
        } catch (ConfigException e) {
            throw ProfileRefused.invalid(e);
        }
    }

    /** Warnings before the first cell, at the console's level. */
    void warn(final RunLog console) {
        config.warnings().forEach(console::warning);
        if (tokenizer.warning() != null) {
            console.warning(tokenizer.warning());
            console.debug(tokenizer.searched());
        }
    }

    /** Where its exports go. */
    Path dir() {
        return ArtifactDirs.of(config);
    }

    /** Whether {@code --cell} leaves some of the config's cells out. */
    boolean partial() {
        return cells.size() < CellPlan.of(config).size();
    }
}
