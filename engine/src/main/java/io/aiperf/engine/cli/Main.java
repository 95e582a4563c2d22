package io.aiperf.engine.cli;

import io.aiperf.engine.ci.EngineInvocation;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.run.Version;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code aiperf} command: parses, dispatches, exits with the subcommand's code. */
@Command(name = "aiperf", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = "AIPerf-compatible benchmark engine for LLM inference servers (Java).")
public final class Main implements Runnable {
    /** The subcommands, in the order help lists them. */
    private static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands();

    public static void main(final String[] args) {
        StartupPreload.begin(java.util.Arrays.asList(args));
        System.exit(run(args));
    }

    /** Runs the CLI in-process and returns the exit code (tests call this). */
    public static int run(final String... args) {
        return commandLine(args.length == 0 ? null : args[0]).execute(args);
    }

    public static CommandLine commandLine() {
        return commandLine(null);
    }

    /**
     * The command line with every subcommand, or only {@code first} when that names one: picocli reflects over
     * each subcommand's options when it is added, and a run should not pay for the ones it does not use.
     */
    private static CommandLine commandLine(final String first) {
        final CommandLine cl = new CommandLine(new Main());
        final boolean one = first != null && SUBCOMMANDS.containsKey(first);
        SUBCOMMANDS.forEach((name, command) -> {
            if (!one || name.equals(first)) {
                cl.addSubcommand(name, command.get());
            }
        });
        cl.setExitCodeExceptionMapper(t -> t instanceof io.aiperf.engine.config.ConfigException
                || t instanceof CommandLine.ParameterException ? ExitCode.USAGE : ExitCode.FAILED);
        cl.setExecutionExceptionHandler((e, command, parsed) -> {
            if (e instanceof io.aiperf.engine.config.ConfigException) {
                // bad input found while running (a dataset row, a tokenizer): one line, never a stack trace
                System.err.println("error: invalid configuration: " + e.getMessage());
                return ExitCode.USAGE;
            }
            throw e;
        });
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return cl;
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    private static Map<String, Supplier<Object>> subcommands() {
        final Map<String, Supplier<Object>> m = new LinkedHashMap<>();
        m.put("profile", ProfileCommand::new);
        m.put("config", ConfigCommand::new);
        m.put("mock-server", MockServerCommand::new);
        m.put("gate", GateCommand::new);
        m.put("aggregate", AggregateCommand::new);
        m.put("report", ReportCommand::new);
        m.put("compare", CompareCommand::new);
        m.put("help", CommandLine.HelpCommand::new);
        return m;
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"aiperf-java " + Version.VALUE};
        }
    }
}
