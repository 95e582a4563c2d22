package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.cli.Main;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * No usage error echoes a secret argument: every command of the tree (enumerated from the command line, so a new
 * one is covered without editing this test) is given each form of secret with a typo beside it, before and after.
 * It exits 2 with a message that still names the typo, and the secret is in neither stdout, stderr nor any file
 * written under the working directory.
 */
class SecretEchoEndToEndTest {
    private static final String OPTION_TYPO = "--reqeust-count";
    /** The help command takes a command's name, first: its typo is a misspelt name. */
    private static final String COMMAND_TYPO = "profle";

    record SecretForm(String name, String secret, List<String> args) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<SecretForm> forms() {
        return List.of(
                new SecretForm("Bearer header", "sk-bearer-4f9e1c",
                        List.of("-H", "Authorization: Bearer sk-bearer-4f9e1c")),
                new SecretForm("x-api-key header", "xk-header-8d2a7b", List.of("--header=x-api-key: xk-header-8d2a7b")),
                new SecretForm("?api_key= in a URL", "qk-query-3b6c0e",
                        List.of("--url", "http://127.0.0.1:9/v1?api_key=qk-query-3b6c0e")),
                new SecretForm("user:password in a URL", "pw-userinfo-5e1d9a",
                        List.of("--url", "http://bench:pw-userinfo-5e1d9a@127.0.0.1:9/v1")),
                new SecretForm("--api-key=", "ak-option-7c3f2d", List.of("--api-key=ak-option-7c3f2d")),
                new SecretForm("misspelt --api-key", "ak-typo-2a8e6f", List.of("--api-kye", "ak-typo-2a8e6f")),
                new SecretForm("?token= in a metrics URL", "tk-metrics-9b4d1e",
                        List.of("--server-metrics", "http://127.0.0.1:9/metrics?token=tk-metrics-9b4d1e")));
    }

    /** Every command of the tree, the root included, by its words after {@code aiperf}. */
    static Map<List<String>, CommandLine> commands() {
        final Map<List<String>, CommandLine> all = new LinkedHashMap<>();
        collect(List.of(), Main.commandLine(), all);
        return all;
    }

    private static void collect(final List<String> words, final CommandLine cl,
            final Map<List<String>, CommandLine> all) {
        all.put(words, cl);
        cl.getSubcommands().forEach((name, sub) -> {
            if (sub.getCommandName().equals(name)) { // an alias names a command already listed
                final List<String> deeper = new ArrayList<>(words);
                deeper.add(name);
                collect(deeper, sub, all);
            }
        });
    }

    static Stream<Arguments> cases() {
        final List<Arguments> cases = new ArrayList<>();
        commands().forEach((words, cl) -> {
            final boolean help = cl.getCommandSpec().helpCommand();
            for (final SecretForm form : forms()) {
                cases.add(Arguments.of(String.join(" ", words), form, help ? COMMAND_TYPO : OPTION_TYPO, true, true));
                if (!help) {
                    cases.add(Arguments.of(String.join(" ", words), form, OPTION_TYPO, false,
                            !takesAllThatFollows(cl, form)));
                }
            }
        });
        return cases.stream();
    }

    /**
     * Whether the command has the secret's option with a variable number of values ({@code --server-metrics URL...}):
     * picocli then takes a typo after it for one more value, and the error is about that value or another option.
     */
    private static boolean takesAllThatFollows(final CommandLine cl, final SecretForm form) {
        final CommandLine.Model.OptionSpec option = cl.getCommandSpec().findOption(form.args().get(0).split("=")[0]);
        return option != null && option.arity().isVariable();
    }

    @ParameterizedTest(name = "aiperf {0} with {1}, typo {2} first: {3}")
    @MethodSource("cases")
    void theUsageErrorNamesTheTypoAndEchoesNoSecret(final String command, final SecretForm form, final String typo,
            final boolean typoFirst, final boolean typoNamed) throws IOException {
        final List<String> args = new ArrayList<>(command.isEmpty() ? List.of() : List.of(command.split(" ")));
        if (typoFirst) {
            args.add(typo);
        }
        args.addAll(form.args());
        if (!typoFirst) {
            args.add(typo);
        }
        final long started = System.currentTimeMillis() - 1000; // file times may be rounded to the second
        final Runs.Result r = Runs.aiperf(args.toArray(String[]::new));
        assertThat(r.exitCode()).isEqualTo(2);
        if (typoNamed) {
            assertThat(r.err()).contains(typo);
        }
        assertThat(r.out()).doesNotContain(form.secret());
        assertThat(r.err()).doesNotContain(form.secret());
        for (final Path written : writtenSince(started)) {
            assertThat(Files.readString(written)).as(written.toString()).doesNotContain(form.secret());
        }
    }

    /** Bad values rather than unknown options: picocli's conversion errors and the engine's own checks. */
    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of(List.of("mock-server", "--port", "http://u:pw-port-4e2a@h"), "--port", "pw-port-4e2a"),
                Arguments.of(List.of("profile", "-m", "m", "--concurrency", "Bearer sk-conc-8b1f"), "--concurrency",
                        "sk-conc-8b1f"),
                Arguments.of(List.of("profile", "-m", "m", "--url", "ftp://u:pw-url-3c9d@h:1"), "--url",
                        "pw-url-3c9d"),
                Arguments.of(List.of("profile", "-m", "m", "--endpoint-type", "x-api-key: xk-enum-6a0e"),
                        "--endpoint-type", "xk-enum-6a0e"),
                Arguments.of(List.of("gate", "--rules", "rules.yaml?token=tk-rules-5d7b", "--candidate", "run"),
                        "--rules", "tk-rules-5d7b"));
    }

    @ParameterizedTest(name = "aiperf {0}")
    @MethodSource("badValues")
    void aBadValueIsNamedWithoutItsSecret(final List<String> args, final String option, final String secret) {
        final Runs.Result r = Runs.aiperf(args.toArray(String[]::new));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains(option).contains("<redacted>");
        assertThat(r.out() + r.err()).doesNotContain(secret);
    }

    /** The files under the working directory changed since then, Maven's target folder aside. */
    private static List<Path> writtenSince(final long millis) throws IOException {
        final Path here = Path.of("").toAbsolutePath();
        try (Stream<Path> files = Files.walk(here)) {
            return files.filter(p -> !p.startsWith(here.resolve("target")) && Files.isRegularFile(p))
                    .filter(p -> p.toFile().lastModified() >= millis).toList();
        }
    }
}
