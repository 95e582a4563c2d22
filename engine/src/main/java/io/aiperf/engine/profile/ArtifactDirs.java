package io.aiperf.engine.profile;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.LoadType;
import io.aiperf.engine.config.PhaseConfig;
import io.aiperf.engine.export.RunDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Where a run's exports go, and whether they can be written there, checked before any traffic. */
public final class ArtifactDirs {
    private ArtifactDirs() {
    }

    /** AIPerf's per-run subdirectory when the user did not name the directory (AIPerf's export docs). */
    public static Path of(final BenchmarkConfig config) {
        final Path base = Path.of(config.artifacts().dir());
        if (config.artifacts().dirExplicit()) {
            return base;
        }
        final String model = config.primaryModel().replace('/', '_') + (config.models().size() > 1 ? "_multi" : "");
        final PhaseConfig p = config.firstProfilingPhase();
        final String stimulus = config.isSweep() ? "sweep"
                : p.type() == LoadType.FIXED_SCHEDULE ? "fixed_schedule"
                : p.type() == LoadType.USER_CENTRIC
                ? "user_centric-users" + p.users() + "-qps" + trim(p.rate()) : p.type().isRate()
                ? "request_rate" + trim(p.rate())
                : "concurrency" + p.concurrency();
        return base.resolve(model + "-openai-" + config.endpoint().type().wireName() + "-" + stimulus);
    }

    /** Why the exports could not be written to the directory, or null. */
    public static String unwritable(final Path dir) {
        try {
            Files.createDirectories(dir);
            Files.delete(Files.createTempFile(dir, ".aiperf-write-check", ".tmp"));
            return null;
        } catch (IOException | SecurityException e) {
            return "cannot write to " + dir.toAbsolutePath() + " (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + ")";
        }
    }

    /**
     * The run's directory, writable and held for this run (a run of some cells replaces only their folders).
     *
     * @throws ProfileRefused when it cannot be written or another run holds it
     */
    static RunDirectory claim(final PreparedRun prepared) {
        final Path dir = prepared.dir();
        final String unwritable = unwritable(dir);
        if (unwritable != null) {
            throw new ProfileRefused("invalid configuration: --artifact-dir (benchmark.artifacts.dir): "
                    + unwritable, ExitCode.USAGE);
        }
        try {
            return RunDirectory.claim(dir, prepared.partial() ? prepared.cells().stream()
                    .map(c -> c.identity().path()).filter(p -> !p.equals(".")).toList() : null);
        } catch (ConfigException e) {
            throw new ProfileRefused(e.getMessage(), ExitCode.USAGE);
        }
    }

    private static String trim(final double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
