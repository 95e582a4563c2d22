package io.aiperf.engine.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Runs the real CLI in-process, capturing what it prints, and reads what it wrote. */
final class Runs {
    static final ObjectMapper JSON = new ObjectMapper();

    record Result(int exitCode, String out, String err) {
        String all() {
            return out + err;
        }
    }

    private Runs() {
    }

    static synchronized Result aiperf(final String... args) {
        final PrintStream oldOut = System.out;
        final PrintStream oldErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            final int code = Main.run(args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
            // Kept for a failing test's reader: the build sends what a test prints to its own file under
            // target/surefire-reports/, never to the console, so a passing test's expected "error:" lines stay
            // out of sight. Both streams go to stdout, headed by the subcommand (not its arguments, which may
            // hold a test's secret), so that the file reads in order.
            oldOut.println("--- aiperf " + (args.length == 0 ? "" : args[0]));
            oldOut.print(out.toString(StandardCharsets.UTF_8));
            oldOut.print(err.toString(StandardCharsets.UTF_8));
        }
    }

    /** The engine CLI in a child JVM on the test classpath (for signals and environment variables). */
    static ProcessBuilder engineProcess(final List<String> args, final Path log) {
        final List<String> cmd = new ArrayList<>(engineLauncher());
        cmd.addAll(args);
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    }

    /** The command prefix that starts the engine CLI in a child JVM, as a CI integration's launcher. */
    static List<String> engineLauncher() {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), "io.aiperf.engine.cli.Main");
    }

    static JsonNode json(final Path file) throws IOException {
        return JSON.readTree(file.toFile());
    }

    static List<JsonNode> jsonl(final Path file) throws IOException {
        final List<JsonNode> out = new ArrayList<>();
        for (final String line : Files.readAllLines(file)) {
            out.add(JSON.readTree(line));
        }
        return out;
    }

    /**
     * Whether some cell under {@code dir} says, in its own validity checks, that its client was short of CPU (its
     * timer wake-ups were late): a verdict measured so is the machine's, and a test of the verdict must not judge it.
     */
    static boolean clientStarved(final Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (final Path p : files.filter(f -> f.getFileName().toString().equals("profile_export_aiperf.json")).toList()) {
                for (final JsonNode check : json(p).path("validity").path("checks")) {
                    if (check.path("name").asText().equals(io.aiperf.engine.validity.Validity.CLIENT_WAKEUP)
                            && !check.path("result").asText().equals("ok")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Every file under {@code dir} as text, for secret scans. */
    static String allText(final Path dir) throws IOException {
        final StringBuilder sb = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir)) {
            for (final Path p : files.filter(Files::isRegularFile).toList()) {
                sb.append(Files.readString(p));
            }
        }
        return sb.toString();
    }
}
