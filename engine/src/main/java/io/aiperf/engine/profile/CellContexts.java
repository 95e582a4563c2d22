package io.aiperf.engine.profile;

import io.aiperf.engine.client.RequestFactory;
import io.aiperf.engine.client.TlsStrategies;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.hooks.HttpControlTransport;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.redact.Redactor;
import io.aiperf.engine.run.CellContext;
import io.aiperf.engine.time.CancellationToken;
import io.aiperf.engine.time.Clock;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What every cell of a command run shares: consoles, clocks, the control transport, cancellation. */
public final class CellContexts {
    private CellContexts() {
    }

    /** @param args the command line as typed, recorded redacted in the exports */
    public static CellContext of(final BenchmarkConfig config, final PrintStream out, final PrintStream err,
                                 final Redactor redactor, final CancellationToken cancellation,
                                 final List<String> args, final RunLog.Level logLevel) {
        final Map<String, String> controlHeaders = new LinkedHashMap<>(config.endpoint().headers());
        controlHeaders.putAll(RequestFactory.authHeaders(config.endpoint()));
        return new CellContext(out, err, System.console() != null, Clock.SYSTEM, cancellation.sleeper(),
                new HttpControlTransport(controlHeaders, cancellation, TlsStrategies.of(config.endpoint().tls()),
                        config.endpoint().proxy()),
                cancellation, redactor.command(args.toArray(new String[0])), redactor, new RunLog(err, logLevel));
    }
}
