package io.aiperf.engine.ci;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.summary.ExportFiles;
import java.nio.file.Path;

/**
 * A run's name in trends ({@code profile --label}, e.g. a CI build number), kept in {@code run_label.json} in the
 * run directory, so a trend over run directories is labelled by build, not by folder name. Stateless.
 */
public final class RunLabel {
    public static final String FILE = ExportFiles.RUN_LABEL;
    /** Longest label: a tick under a trend's point has room for about this much. */
    public static final int MAX_LENGTH = 40;

    private RunLabel() {
    }

    /** Why {@code label} cannot be used, or null when it can. */
    public static String invalid(final String label) {
        if (label.isBlank()) {
            return "--label: must not be empty";
        }
        if (label.length() > MAX_LENGTH || label.chars().anyMatch(Character::isISOControl)) {
            return "--label: at most " + MAX_LENGTH + " printable characters, got '" + label.strip() + "'";
        }
        return null;
    }

    /** The label recorded in {@code dir}, or its directory name when it has none. */
    public static String of(final Path dir) {
        final JsonNode root = KeyMetrics.read(dir.resolve(FILE));
        if (root != null && root.path("label").isTextual() && !root.path("label").asText().isBlank()) {
            return root.path("label").asText();
        }
        final Path name = dir.toAbsolutePath().normalize().getFileName();
        return name == null ? dir.toString() : name.toString();
    }
}
