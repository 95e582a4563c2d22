package io.aiperf.engine.profile;

import io.aiperf.engine.convergence.ConvergenceSpec;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.search.SearchSpec;
import java.nio.file.Path;
import java.util.List;

/**
 * What the command line asked of a profile besides the config itself (that comes from a {@link ConfigSource}).
 *
 * @param mock the embedded mock server to benchmark, or null to benchmark the configured URLs
 * @param gate the regression gate to run after the cells, or null
 * @param label this run's name in trends, or null for the artifact directory's name
 * @param cells the ids of the only cells to run; empty for all
 * @param json whether stdout carries only the summary as JSON
 * @param pidFile where this process's id is written while it runs, or null
 * @param search the capacity search, or null
 * @param convergence when repeated trials stop early, or null
 * @param logLevel the console's level
 * @param args the command line as typed, recorded redacted in the exports
 */
public record ProfileRequest(Mock mock, ProfileGate gate, String label, List<String> cells, boolean json,
                             Path pidFile, SearchSpec search, ConvergenceSpec convergence, RunLog.Level logLevel,
                             List<String> args) {
    public ProfileRequest {
        cells = List.copyOf(cells);
        args = List.copyOf(args);
    }

    /**
     * {@code --mock}: the embedded server's settings.
     *
     * @param apiKey the key the mock requires, or null for none
     * @param maxSlots requests served at once, the rest queued; 0 for unlimited
     */
    public record Mock(String apiKey, int maxSlots) {
    }
}
