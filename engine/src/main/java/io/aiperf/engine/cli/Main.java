package io.aiperf.engine.cli;

import io.aiperf.engine.ci.EngineInvocation;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.run.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code aiperf} command: parses, dispatches, exits with the subcommand's code. */
@Command(name = "aiperf", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = "AIPerf-compatible benchmark engine for LLM inference servers (Java).",
        subcommands = {ProfileCommand.class, ConfigCommand.class, MockServerCommand.class, GateCommand.class,
                AggregateCommand.class, ReportCommand.class, CompareCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    public static void main(final String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI in-process and returns the exit code (tests call this). */
    public static int run(final String... args) {
        return commandLine().execute(args);
    }

    public static CommandLine commandLine() {
        final CommandLine cl = new CommandLine(new Main());
        cl.setExitCodeExceptionMapper(t -> t instanceof io.aiperf.engine.config.ConfigException
                || t instanceof CommandLine.ParameterException ? ExitCode.USAGE : ExitCode.FAILED);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return cl;
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"aiperf-java " + Version.VALUE};
        }
    }
}
