package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import io.aiperf.engine.summary.ExportFiles;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every exporter promises (src-docs/exports.md), checked on one real run with the raw and timeslice exports on, with
 * and without a prefix: each file is named by {@link ExportNames} or {@link ExportFiles}, listed in the run's
 * manifest (so a re-run removes it), complete (no temporary file left beside it) and readable in its format.
 */
class ExporterContractEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void everyExportIsNamedListedCompleteAndReadable() throws Exception {
        checkRun(null);
    }

    @Test
    void everyPrefixedExportIsNamedListedCompleteAndReadable() throws Exception {
        checkRun("bench");
    }

    private void checkRun(final String prefix) throws Exception {
        final Path dir = tmp.resolve(prefix == null ? "plain" : prefix);
        final List<String> args = new ArrayList<>(List.of("profile", "-m", "m", "--streaming", "--concurrency", "2",
                "--request-count", "12", "--isl", "8", "--osl", "3", "--export-level", "raw", "--slice-duration",
                "0.05", "--artifact-dir", dir.toString()));
        if (prefix != null) {
            args.addAll(List.of("--profile-export-prefix", prefix));
        }
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            args.addAll(List.of("-u", mock.url()));
            final Runs.Result r = Runs.aiperf(args.toArray(new String[0]));
            assertThat(r.exitCode()).as(r.all()).isZero();
        }
        final ExportNames names = ExportNames.of(prefix);
        final Set<String> known = new HashSet<>(List.of(names.summaryJson(), names.summaryCsv(), names.recordsJsonl(),
                names.inputsJson(), names.serverMetricsJson(), names.serverMetricsCsv(), names.rawJsonl(),
                names.gpuTelemetryJsonl(), names.gpuTelemetryJson(), names.timeslicesJson(), names.timeslicesCsv(),
                names.consoleTxt()));
        known.addAll(constants());
        final Set<String> listed = new HashSet<>();
        JSON.readTree(dir.resolve(ExportFiles.MANIFEST).toFile()).path("outputs").forEach(e -> listed.add(e.asText()));
        final List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        final Set<String> seen = new HashSet<>();
        for (final Path f : files) {
            final String rel = dir.relativize(f).toString().replace('\\', '/');
            final String name = f.getFileName().toString();
            if (name.equals(ExportFiles.MANIFEST) || name.equals(".aiperf.lock")) {
                continue;
            }
            if (!name.equals(ExportFiles.READY_MARKER)) { // upstream's dot name
                assertThat(name).as(rel + " is not a temporary file left behind").doesNotStartWith(".");
            }
            assertThat(known).as(rel + " has a name of ExportNames or ExportFiles").contains(name);
            assertThat(listed).as(rel + " is in the manifest").contains(rel);
            readable(f);
            seen.add(name);
        }
        // the run wrote the exports this test switched on
        assertThat(seen).contains(names.summaryJson(), names.summaryCsv(), names.recordsJsonl(), names.inputsJson(),
                names.rawJsonl(), names.timeslicesJson(), names.timeslicesCsv(), ExportFiles.CELL_OUTCOME,
                ExportFiles.LOG_FILE, ExportFiles.READY_MARKER, names.consoleTxt());
    }

    private static void readable(final Path f) throws IOException {
        final String name = f.getFileName().toString();
        final String text = Files.readString(f);
        assertThat(text).as(name + " is not empty").isNotBlank();
        if (name.endsWith(".jsonl")) {
            for (final String line : text.split("\n")) {
                if (!line.isBlank()) {
                    assertThat(JSON.readTree(line).isObject()).as(name + " line " + line).isTrue();
                }
            }
        } else if (name.endsWith(".json")) {
            final JsonNode root = JSON.readTree(text);
            assertThat(root.isObject() || root.isArray()).as(name).isTrue();
        } else if (name.endsWith(".csv")) {
            // upstream's server-metrics CSV opens with "# ..." comment lines; the header is the first line after them
            assertThat(text.lines().filter(l -> !l.startsWith("#")).findFirst().orElse("")).as(name + " has a header")
                    .contains(",");
        }
    }

    private static List<String> constants() throws IllegalAccessException {
        final List<String> out = new ArrayList<>();
        for (final Field f : ExportFiles.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                out.add((String) f.get(null));
            }
        }
        return out;
    }
}
