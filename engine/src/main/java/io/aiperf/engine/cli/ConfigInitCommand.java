package io.aiperf.engine.cli;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.export.AtomicFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code aiperf config init}: a starter config from the bundled templates, as upstream's command writes one
 * (src-docs/yaml.md): printed, or written to {@code --output} with the model and URL filled in.
 */
@Command(name = "init", mixinStandardHelpOptions = true, description = "Write a starter config from a bundled "
        + "template (minimal without --template), to stdout or --output; --list and --search show the templates.")
final class ConfigInitCommand implements Callable<Integer> {
    @Option(names = {"-t", "--template"}, paramLabel = "NAME", description = "The template: minimal, goodput_slo, "
            + "warmup_profiling or multi_turn_conversation. Default: minimal.")
    String template;

    @Option(names = {"-l", "--list"}, description = "List the templates by category and exit.")
    boolean list;

    @Option(names = {"-s", "--search"}, paramLabel = "KEYWORD", description = "List the templates whose name, title, "
            + "description or tags contain the keyword.")
    String search;

    @Option(names = {"-c", "--category"}, paramLabel = "CATEGORY", description = "With --list: only the categories "
            + "that contain this text.")
    String category;

    @Option(names = {"-v", "--verbose"}, description = "With --list or --search: show each template's tags.")
    boolean verbose;

    @Option(names = {"-m", "--model"}, paramLabel = "MODEL", description = "The model the config names.")
    String model;

    @Option(names = {"-u", "--url"}, paramLabel = "URL", description = "The endpoint URL the config names.")
    String url;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the config here (an existing file "
            + "is kept) instead of printing it.")
    Path output;

    @Override
    public Integer call() {
        try {
            if (search != null || list) {
                final List<ConfigTemplates.Template> shown = ConfigTemplates.all().stream()
                        .filter(t -> search == null || t.matches(search))
                        .filter(t -> category == null || t.category().toLowerCase(Locale.ROOT)
                                .contains(category.toLowerCase(Locale.ROOT)))
                        .toList();
                if (shown.isEmpty()) {
                    System.out.println("No templates match" + (search == null ? "" : " '" + search + "'") + ".");
                } else {
                    System.out.print(ConfigTemplates.listing(shown, verbose));
                    System.out.println("\nWrite one: aiperf config init --template NAME [--model M] [--url U] "
                            + "[-o FILE]");
                }
                return ExitCode.OK;
            }
            final ConfigTemplates.Template t = ConfigTemplates.get(template == null ? "minimal" : template);
            final String text = ConfigTemplates.customized(t, model, url);
            if (output == null) {
                System.out.print(text);
                return ExitCode.OK;
            }
            if (Files.exists(output)) {
                throw new ConfigException("--output", output + " exists and is kept; remove it or name another "
                        + "file");
            }
            AtomicFiles.write(output, text.getBytes(StandardCharsets.UTF_8));
            System.out.println("Created " + output + " from template '" + t.name() + "' (" + t.title() + ")");
            System.out.println("\nNext steps:");
            System.out.println("  1. Edit " + output + ": the endpoint URL and the model name");
            System.out.println("  2. Check: aiperf config validate " + output);
            System.out.println("  3. Run:   aiperf profile --config " + output);
            return ExitCode.OK;
        } catch (ConfigException e) {
            System.err.println("error: config init: " + e.getMessage());
            return ExitCode.USAGE;
        }
    }
}
