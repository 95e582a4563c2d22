package io.aiperf.engine.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.config.YamlLoader;
import io.aiperf.engine.gate.GateRulesLoader;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every fenced {@code bash} and {@code yaml} example of README.md and src-docs/ works as written: each YAML is a
 * valid benchmark config, rules file or CI step list, and each {@code bin/aiperf} command runs against the mock
 * (its {@code --url} pointed there) in a fresh directory and exits 0. A block preceded by
 * {@code <!-- docs-test: file NAME -->} is also written to NAME for the page's commands; one preceded by
 * {@code <!-- docs-test: skip REASON -->} is not run, and says why.
 */
class DocsExamplesTest {
    private static final Pattern BLOCK = Pattern.compile("(?:<!-- docs-test: (file|skip) ([^>]*?) -->\\n)?```(bash|yaml|jsonl)\\n(.*?)```",
            Pattern.DOTALL);
    private static final Path DOCS = Path.of(System.getProperty("aiperf.docs.dir", "../src-docs"));

    @TempDir
    Path tmp;

    record Block(Path page, String kind, String marker, String argument, String text) {
        String name() {
            return page.getFileName() + " " + kind + " block: " + text.lines().findFirst().orElse("").strip();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyExampleWorks() throws Exception {
        final List<DynamicTest> tests = new ArrayList<>();
        final List<Path> pages = new ArrayList<>(List.of(DOCS.resolveSibling("README.md")));
        try (Stream<Path> files = Files.list(DOCS)) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        for (final Path page : pages) {
            final List<Block> blocks = new ArrayList<>();
            final Matcher m = BLOCK.matcher(Files.readString(page));
            while (m.find()) {
                blocks.add(new Block(page, m.group(3), m.group(1), m.group(2), m.group(4)));
            }
            final Path work = tmp.resolve(page.getFileName().toString());
            for (final Block b : blocks) {
                tests.add(DynamicTest.dynamicTest(b.name(), () -> check(b, blocks, work)));
            }
        }
        assertThat(tests).hasSizeGreaterThanOrEqualTo(15);
        return tests.stream();
    }

    private void check(final Block b, final List<Block> page, final Path work) throws Exception {
        if ("skip".equals(b.marker())) {
            assertThat(b.argument()).as("a skipped example says why").hasSizeGreaterThan(10);
            System.out.println("docs example not run (" + b.argument() + "): " + b.name());
            return;
        }
        if (b.kind().equals("yaml")) {
            validateYaml(b.text());
            return;
        }
        if (b.kind().equals("jsonl")) {
            for (final String line : b.text().split("\n")) {
                if (!line.isBlank()) {
                    new com.fasterxml.jackson.databind.ObjectMapper().readTree(line); // each line one JSON object
                }
            }
            return; // data for the page's commands, written below when marked as a file
        }
        Files.createDirectories(work);
        for (final Block file : page) {
            if ("file".equals(file.marker())) {
                Files.writeString(work.resolve(file.argument()), file.text());
            }
        }
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            for (final String command : commands(b.text())) {
                final List<String> words = words(command);
                if (!words.isEmpty() && words.get(0).equals("mkdir")) {
                    for (final String w : words.subList(1, words.size())) {
                        if (!w.startsWith("-")) {
                            Files.createDirectories(work.resolve(w)); // an empty baseline for a first build
                        }
                    }
                    continue;
                }
                if (words.isEmpty() || !words.get(0).equals("bin/aiperf")) {
                    continue; // the build (mvn) and shell loops are CI's own steps, not examples to run here
                }
                run(words, mock.url(), work);
            }
        }
    }

    private static void validateYaml(final String text) {
        final JsonNode root = YamlLoader.parse(text, "example", Map.of());
        if (root.has("rules")) {
            assertThat(GateRulesLoader.parse(root, "example")).isNotEmpty();
        } else if (root.has("steps")) { // a GitHub Actions job's steps
            assertThat(root.path("steps").isArray()).isTrue();
            for (final JsonNode step : root.path("steps")) {
                assertThat(step.has("run") ^ step.has("uses")).as("a step runs a script or uses an action: " + step).isTrue();
                assertThat(step.has("with") && !step.has("uses")).as("'with' belongs to an action: " + step).isFalse();
                if (step.has("run")) {
                    commands(step.path("run").asText()).stream().map(DocsExamplesTest::words)
                            .filter(w -> !w.isEmpty() && w.get(0).equals("bin/aiperf"))
                            .forEach(w -> assertThat(io.aiperf.engine.cli.Main.commandLine().parseArgs(
                                    w.subList(1, w.size()).toArray(new String[0]))).isNotNull());
                }
            }
        } else {
            ConfigLoader.fromYaml(text, new CliOverlay());
        }
    }

    private void run(final List<String> words, final String mockUrl, final Path work) throws Exception {
        final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.aiperf.engine.cli.Main"));
        for (int i = 1; i < words.size(); i++) {
            final String w = words.get(i);
            cmd.add(w);
            if ((w.equals("-u") || w.equals("--url")) && i + 1 < words.size()) {
                cmd.add(mockUrl);
                i++;
            }
        }
        final Path log = work.resolve("log-" + System.nanoTime() + ".txt");
        final Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished: " + words).isTrue();
        if (p.exitValue() == io.aiperf.engine.ci.ExitCode.GATE_INCONCLUSIVE && clientWasStarved(words, work)) {
            // The gate did its job: on a machine too busy to measure, it refuses a verdict instead of guessing.
            System.out.println("docs example inconclusive on a CPU-starved client, as designed: " + words);
            return;
        }
        assertThat(p.exitValue()).as(String.join(" ", words) + "\n" + Files.readString(log)).isZero();
    }

    /**
     * Whether the run's (or the gated candidate's) own validity checks say its client was short of CPU (its timer
     * wake-ups were late).
     */
    private static boolean clientWasStarved(final List<String> words, final Path work) throws Exception {
        // A profile's own directory, or the candidate a gate judged.
        final int at = words.contains("--artifact-dir") ? words.indexOf("--artifact-dir") : words.indexOf("--candidate");
        final Path summary = at < 0 ? null : work.resolve(words.get(at + 1)).resolve("profile_export_aiperf.json");
        if (summary == null || !Files.exists(summary)) {
            return false;
        }
        for (final JsonNode check : new com.fasterxml.jackson.databind.ObjectMapper().readTree(summary.toFile())
                .path("validity").path("checks")) {
            if (check.path("name").asText().equals(io.aiperf.engine.validity.Validity.CLIENT_WAKEUP)
                    && !check.path("result").asText().equals("ok")) {
                return true;
            }
        }
        return false;
    }

    /** Shell lines joined at trailing backslashes, without comments. */
    static List<String> commands(final String script) {
        final List<String> out = new ArrayList<>();
        final StringBuilder current = new StringBuilder();
        for (final String raw : script.lines().toList()) {
            final String line = raw.replaceAll("\\s+#.*$", "").strip();
            if (line.endsWith("\\")) {
                current.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            current.append(line);
            if (!current.toString().isBlank()) {
                out.add(current.toString().strip());
            }
            current.setLength(0);
        }
        return out;
    }

    private static List<String> words(final String command) {
        final List<String> out = new ArrayList<>();
        final Matcher m = Pattern.compile("'([^']*)'|\"([^\"]*)\"|(\\S+)").matcher(command);
        while (m.find()) {
            out.add(m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3));
        }
        // "mvn ... && bin/aiperf ...": the example is the aiperf part; "... || status=$?": up to the shell operator
        final int start = out.indexOf("bin/aiperf");
        if (start < 0) {
            return out;
        }
        int end = out.size();
        for (int i = start; i < out.size(); i++) {
            if (List.of("&&", "||", "|", ";").contains(out.get(i))) {
                end = i;
                break;
            }
        }
        return out.subList(start, end);
    }
}
