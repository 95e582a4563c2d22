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
 */
public record CellContext(PrintStream out, PrintStream err, boolean liveProgress, Clock clock, Sleeper sleeper,
                          ControlTransport controlTransport, CancellationToken cancellation, String cliCommand,
                          Redactor redactor, RunLog log) {
}
