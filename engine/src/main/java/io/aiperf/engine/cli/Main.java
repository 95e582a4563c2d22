package io.aiperf.engine.cli;

import io.aiperf.engine.ci.EngineInvocation;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.run.Version;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code aiperf} command: parses, dispatches, exits with the subcommand's code. */
@Command(name = "aiperf", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = "AIPerf-compatible benchmark engine for LLM inference servers (Java).")
public final class Main implements Runnable {
    /** The subcommands, in the order help lists them. */
    private static final Map<String, Subcommand> SUBCOMMANDS = subcommands();

    /** A subcommand: how to make it, and its one line in the command list. */
    private record Subcommand(Supplier<Object> command, String summary) {
    }

    public static void main(final String[] args) {
        StartupPreload.begin(java.util.Arrays.asList(args));
        System.exit(run(args));
    }

    /** Runs the CLI in-process and returns the exit code (tests call this). */
    public static int run(final String... args) {
        try (MaskedConsole masked = MaskedConsole.install(args)) { // no message echoes a secret argument
            final String refused = args.length == 0 ? null : UpstreamCommands.refusal(args[0]);
            if (refused != null) {
                System.err.println(refused);
                return ExitCode.USAGE;
            }
            return commandLine(args.length == 0 ? null : args[0]).execute(args);
        }
    }

    public static CommandLine commandLine() {
        return commandLine(null);
    }

    /**
     * The command line with every subcommand, or only {@code first} when that names one: picocli reflects over
     * each subcommand's options when it is added, and a run should not pay for the ones it does not use. {@code help}
     * lists and describes the others, so it gets them all.
     */
    private static CommandLine commandLine(final String first) {
        final CommandLine cl = new CommandLine(new Main());
        final boolean one = first != null && SUBCOMMANDS.containsKey(first) && !first.equals("help");
        SUBCOMMANDS.forEach((name, sub) -> {
            if (!one || name.equals(first)) {
                cl.addSubcommand(name, sub.command().get());
            }
        });
        cl.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST, Main::commandList);
        for (final String grouped : List.of("profile", "compare")) {
            if (cl.getSubcommands().containsKey(grouped)) {
                ProfileHelp.install(cl.getSubcommands().get(grouped), "");
            }
        }
        if (cl.getSubcommands().containsKey("config")) { // config expand takes profile's options too
            ProfileHelp.install(cl.getSubcommands().get("config").getSubcommands().get("expand"), " [CONFIG]");
        }
        cl.setExitCodeExceptionMapper(t -> t instanceof io.aiperf.engine.config.ConfigException
                || t instanceof CommandLine.ParameterException ? ExitCode.USAGE : ExitCode.FAILED);
        cl.setExecutionExceptionHandler((e, command, parsed) -> {
            if (e instanceof io.aiperf.engine.config.ConfigException) {
                // bad input found while running (a dataset row, a tokenizer): one line, never a stack trace
                System.err.println("error: invalid configuration: " + e.getMessage());
                return ExitCode.USAGE;
            }
            if (e instanceof CommandLine.ParameterException usage) { // found by a command, after parsing
                System.err.println("error: " + usage.getMessage() + "; see 'aiperf " + usage.getCommandLine()
                        .getCommandSpec().qualifiedName(" ").replaceFirst("^\\S+ ", "") + " --help'");
                return ExitCode.USAGE;
            }
            throw e;
        });
        cl.setParameterExceptionHandler(new UsageErrors());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return cl;
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** A bare {@code aiperf}: the usage with its commands, from the command line they were added to. */
    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** One line per command (their own help has the full description), in the order of {@link #SUBCOMMANDS}. */
    private static String commandList(final CommandLine.Help help) {
        final StringBuilder sb = new StringBuilder();
        final int width = SUBCOMMANDS.keySet().stream().mapToInt(String::length).max().orElse(0);
        SUBCOMMANDS.forEach((name, sub) -> {
            if (help.subcommands().containsKey(name)) {
                sb.append(String.format(java.util.Locale.ROOT, "  %-" + width + "s  %s%n", name, sub.summary()));
            }
        });
        return sb.toString();
    }

    private static Map<String, Subcommand> subcommands() {
        final Map<String, Subcommand> m = new LinkedHashMap<>();
        m.put("profile", new Subcommand(ProfileCommand::new, "Benchmark a server and write AIPerf's exports"));
        m.put("config", new Subcommand(ConfigCommand::new, "Write, validate or expand a YAML config"));
        m.put("mock-server", new Subcommand(MockServerCommand::new, "Serve a mock OpenAI-compatible API"));
        m.put("gate", new Subcommand(GateCommand::new, "Judge a candidate run against baselines"));
        m.put("aggregate", new Subcommand(AggregateCommand::new, "Merge cells run apart into one run"));
        m.put("report", new Subcommand(ReportCommand::new, "Write report.html, or a trend chart"));
        m.put("plot", new Subcommand(PlotCommand::new, "Upstream's name for report: write report.html"));
        m.put("analyze-trace", new Subcommand(AnalyzeTraceCommand::new, "Report a mooncake trace's lengths and "
                + "prefix reuse"));
        m.put("compare", new Subcommand(CompareCommand::new, "Benchmark two endpoints in interleaved pairs"));
        m.put("help", new Subcommand(CommandLine.HelpCommand::new, "Show a command's help: aiperf help CMD"));
        return m;
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"aiperf-java " + Version.VALUE};
        }
    }
}
