package io.aiperf.engine.profile;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.ConfigException;

/** A profile that stops before any load: its message follows "error: " on the console, with its exit code. */
final class ProfileRefused extends RuntimeException {
    private final int exitCode;

    ProfileRefused(final String message, final int exitCode) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    /** A configuration that cannot run; {@code where} (e.g. "--gate: ") leads the checked thing's own message. */
    static ProfileRefused invalid(final String where, final RuntimeException e) {
        return new ProfileRefused("invalid configuration: " + where + e.getMessage(), ExitCode.USAGE);
    }

    static ProfileRefused invalid(final ConfigException e) {
        return invalid("", e);
    }

    int exitCode() {
        return exitCode;
    }
}
