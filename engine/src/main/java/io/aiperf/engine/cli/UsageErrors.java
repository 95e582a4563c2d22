package io.aiperf.engine.cli;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.Suggestions;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * A command line that does not parse: one short line and exit 2, never the whole usage (profile's is hundreds of
 * lines). An upstream AIPerf option this engine does not support says so, with the reason from
 * {@link UpstreamOptions}; any other unknown option gets a did-you-mean and a pointer to the command's help.
 */
final class UsageErrors implements CommandLine.IParameterExceptionHandler {
    /** The commands that take upstream's {@code aiperf profile} options. */
    private static final Set<String> PROFILE_COMMANDS = Set.of("profile", "compare");

    @Override
    public int handleParseException(final ParameterException thrown, final String[] args) {
        final ParameterException ex = unknownBeforeMissing(thrown);
        final CommandLine cmd = ex.getCommandLine();
        final PrintWriter err = cmd.getErr();
        if (ex instanceof UnmatchedArgumentException unmatched && PROFILE_COMMANDS.contains(cmd.getCommandName())) {
            for (final String arg : unmatched.getUnmatched()) {
                final String reason = arg.startsWith("-") ? UpstreamOptions.reason(arg) : null;
                if (reason != null) {
                    err.println("error: " + optionName(arg) + " is an upstream AIPerf option that aiperf-java does "
                            + "not support: " + reason);
                    err.flush();
                    return ExitCode.USAGE;
                }
            }
        }
        err.println("error: " + ex.getMessage().strip() + didYouMean(ex) + "; see '"
                + cmd.getCommandSpec().qualifiedName() + " --help'");
        err.flush();
        return ExitCode.USAGE;
    }

    /**
     * A misspelt required option ({@code gate --rule r.yaml}) also leaves that option missing, and picocli reports the
     * missing one; the unknown one says what to fix, with a did-you-mean.
     */
    private static ParameterException unknownBeforeMissing(final ParameterException ex) {
        if (ex instanceof MissingParameterException) {
            final CommandLine.ParseResult parsed = ex.getCommandLine().getParseResult();
            if (parsed != null && !parsed.unmatched().isEmpty()) {
                return new UnmatchedArgumentException(ex.getCommandLine(), parsed.unmatched());
            }
        }
        return ex;
    }

    private static String optionName(final String arg) {
        final int eq = arg.indexOf('=');
        return eq < 0 ? arg : arg.substring(0, eq);
    }

    /** The closest option or subcommand name to the first unknown argument (picocli's list is not by closeness). */
    private static String didYouMean(final ParameterException ex) {
        if (!(ex instanceof UnmatchedArgumentException unmatched) || unmatched.getUnmatched().isEmpty()) {
            return "";
        }
        final CommandLine.Model.CommandSpec spec = ex.getCommandLine().getCommandSpec();
        final List<String> candidates = new ArrayList<>(spec.optionsMap().keySet());
        candidates.addAll(spec.subcommands().keySet());
        return Suggestions.didYouMean(optionName(unmatched.getUnmatched().get(0)), candidates);
    }
}
