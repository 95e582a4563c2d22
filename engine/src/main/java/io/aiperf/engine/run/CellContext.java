package io.aiperf.engine.run;

import io.aiperf.engine.time.CancellationToken;
import io.aiperf.engine.hooks.ControlTransport;
import io.aiperf.engine.time.Clock;
import io.aiperf.engine.time.Sleeper;
import io.aiperf.engine.redact.Redactor;
import io.aiperf.engine.log.RunLog;
import java.io.PrintStream;

/**
 * What a cell needs from outside: output streams and the log, the clock and sleeper, the control transport, the
 * cancellation token, the redacted command line for the exports, and the redactor every written file passes.
 *
 * @param runId the id every cell of one run shares (upstream's {@code run_info.sweep_id})
 */
public record CellContext(PrintStream out, PrintStream err, boolean liveProgress, Clock clock, Sleeper sleeper,
                          ControlTransport controlTransport, CancellationToken cancellation, String cliCommand,
                          Redactor redactor, RunLog log, String runId) {
    /** A context of a run of its own: a new run id. */
    public CellContext(final PrintStream out, final PrintStream err, final boolean liveProgress, final Clock clock,
                       final Sleeper sleeper, final ControlTransport controlTransport,
                       final CancellationToken cancellation, final String cliCommand, final Redactor redactor,
                       final RunLog log) {
        this(out, err, liveProgress, clock, sleeper, controlTransport, cancellation, cliCommand, redactor, log,
                java.util.UUID.randomUUID().toString());
    }
}
