package io.aiperf.engine.profile;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.ci.RunLabel;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.export.AtomicFiles;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.export.RunDirectory;
import io.aiperf.engine.run.CellContext;
import io.aiperf.engine.run.RunResult;
import io.aiperf.engine.search.CapacitySearch;
import io.aiperf.engine.search.SearchSpec;
import io.aiperf.engine.sweep.MultiRunner;
import io.aiperf.engine.time.CancellationToken;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * One {@code aiperf profile}, from the parsed request to its exit code: the mock, every check before any traffic,
 * the run directory, readiness, the capacity search or the cells (sweep points times trials), the gate, the
 * report's judgement, the OTel push and the JSON summary. Not thread-safe: one plan runs once.
 */
public final class ProfilePlan {
    private final ProfileRequest request;
    private final ConfigSource configs;
    private final CancellationToken cancellation = new CancellationToken();
    /** What the cells or the search returned: the JSON output and the OTel push take it from here. */
    private RunResult ran = new RunResult(ExitCode.OK, java.util.List.of(), null);

    public ProfilePlan(final ProfileRequest request, final ConfigSource configs) {
        this.request = request;
        this.configs = configs;
    }

    /** Runs the profile; returns its exit code (src-docs/cli.md). */
    public int run() throws Exception {
        try (PidFile pid = PidFile.write(request.pidFile());
             EmbeddedMock mock = EmbeddedMock.start(request.mock(), configs, request.logLevel(), System.err)) {
            final PreparedRun prepared;
            try {
                if (request.gate() != null) {
                    request.gate().check(); // rule and baseline errors stop us before any traffic
                }
                prepared = PreparedRun.prepare(request, configs, mock, System.err);
            } catch (ProfileRefused r) {
                return refuse(System.err, r);
            }
            final Consoles consoles = Consoles.of(prepared.config(), request.json(), request.logLevel());
            prepared.warn(consoles.log());
            try (RunDirectory claimed = ArtifactDirs.claim(prepared)) {
                // every configuration check is done; wait for the server before any load, as upstream does
                final String notReady = ModelReadiness.await(prepared.config(), consoles.log());
                if (notReady != null) {
                    return refuse(consoles.err(), new ProfileRefused(notReady, ExitCode.FAILED));
                }
                mock.loadBegins();
                final int exit = PlotRequired.after(prepared.config(), prepared.dir(), measure(prepared, consoles),
                        consoles.log());
                OtelPush.after(prepared.config(), prepared.dir(), ran, consoles.log());
                mock.warnIfSaturated(consoles.log());
                if (request.json()) {
                    SummaryOutput.print(prepared.cells(), ran, prepared.dir(),
                            ExportNames.of(prepared.config().artifacts().prefix()).summaryJson(), consoles.json(),
                            consoles.err());
                }
                return exit;
            } catch (ProfileRefused r) {
                return refuse(consoles.err(), r);
            }
        }
    }

    /** The load: the capacity search's points or the cells, then the gate on what they returned. */
    private int measure(final PreparedRun prepared, final Consoles consoles) throws Exception {
        final BenchmarkConfig config = prepared.config();
        final Path dir = prepared.dir();
        final CellContext ctx = CellContexts.of(config, consoles.out(), consoles.err(), consoles.redactor(),
                cancellation, request.args(), request.logLevel());
        final Interrupts interrupts = Interrupts.install(cancellation, consoles.err());
        try {
            if (request.label() != null) {
                writeLabel(dir);
            }
            final SearchSpec search = request.search();
            ran = search != null
                    ? CapacitySearch.runCells(search, v -> configs.at(search, v), dir, ctx)
                    : MultiRunner.runCells(config, prepared.cells(), dir, ctx, request.convergence());
            final int exit = ran.exitCode();
            if (ExitCode.stopped(exit)) {
                return ExitCode.stopped(interrupts.terminated()); // SIGTERM, as a CI system stops a job, is 143
            }
            if (request.gate() == null || exit != ExitCode.OK) {
                return exit;
            }
            return request.gate().judge(dir, ran, ExportNames.of(config.artifacts().prefix()));
        } finally {
            interrupts.uninstall();
        }
    }

    /** {@code --label}: this run's name in trends. */
    private void writeLabel(final Path dir) throws IOException {
        AtomicFiles.write(dir.resolve(RunLabel.FILE),
                new ObjectMapper().writeValueAsBytes(Map.of("label", request.label().strip())));
    }

    private static int refuse(final PrintStream err, final ProfileRefused r) {
        err.println("error: " + r.getMessage());
        return r.exitCode();
    }
}
