package io.aiperf.engine.profile;

import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.redact.Redactor;
import java.io.PrintStream;

/**
 * A run's consoles once its config is known: everything printed passes the run's redactor, since servers may echo
 * secrets. With JSON output, stdout is the summary's alone and the console's text goes to stderr.
 *
 * @param out the console's text
 * @param err errors, warnings and progress
 * @param log the run's log on {@code err}, at the console's level (--log-level, --quiet)
 * @param redactor the run's redactor
 */
record Consoles(PrintStream out, PrintStream err, RunLog log, Redactor redactor) {
    static Consoles of(final BenchmarkConfig config, final boolean json, final RunLog.Level level) {
        final Redactor redactor = Redactor.of(config);
        final PrintStream err = redactor.console(System.err);
        return new Consoles(json ? err : redactor.console(System.out), err, new RunLog(err, level), redactor);
    }

    /** Where the JSON summary goes: stdout, redacted as the files are. */
    PrintStream json() {
        return redactor.console(System.out);
    }
}
