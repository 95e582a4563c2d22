package io.aiperf.engine.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Upstream AIPerf's subcommands this engine does not have, each with the one line that says why (src-docs/cli.md):
 * named on the command line, they exit 2 with that line instead of a usage text.
 */
final class UpstreamCommands {
    private static final Map<String, String> REFUSED = refused();

    private UpstreamCommands() {
    }

    /** The line to print for an upstream subcommand this engine refuses, or null for any other word. */
    static String refusal(final String command) {
        final String why = REFUSED.get(command);
        return why == null ? null : "error: '" + command + "' is an upstream AIPerf command this engine does not have: "
                + why;
    }

    static Map<String, String> all() {
        return REFUSED;
    }

    private static Map<String, String> refused() {
        final Map<String, String> m = new LinkedHashMap<>();
        m.put("analyze", "its swim-lane PNG and turn-messages HTML are not drawn here; 'aiperf report' writes "
                + "report.html with the run's timelines");
        m.put("validate", "its one target, mooncake-trace, checks a trace's rows against upstream's mooncake row "
                + "model and is not built here; 'aiperf profile' refuses a bad row in one line before any traffic, "
                + "and 'aiperf analyze-trace' names a line that is not a JSON object");
        m.put("chat", "interactive chat is not part of this CI benchmark engine; 'aiperf profile --request-count 1' "
                + "sends one request");
        m.put("plugins", "this engine has no plugin registry; 'aiperf profile --help' lists the endpoint types");
        m.put("service", "this engine runs in one process, with no services to start");
        m.put("speed-bench-report", "SPEED-Bench datasets are not loaded here");
        m.put("synthesize", "upstream's workload synthesizers are not built here");
        return m;
    }
}
