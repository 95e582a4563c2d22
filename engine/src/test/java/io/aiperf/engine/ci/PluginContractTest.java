package io.aiperf.engine.ci;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the Jenkins plugin (which cannot be built here) in step with the engine and with what Jenkins needs at
 * run time but no compiler checks: the step's and the form's fields are ProfileSpec's, every form field has a
 * help page and a view entry, views escape by default, form endpoints answer POST only.
 */
class PluginContractTest {
    private static final Path PLUGIN = Path.of(System.getProperty("aiperf.docs.dir", "../src-docs")).resolveSibling("jenkins-plugin");
    private static final Path JAVA = PLUGIN.resolve("src/main/java/io/aiperf/jenkins");
    private static final Path VIEWS = PLUGIN.resolve("src/main/resources/io/aiperf/jenkins");
    private static final Pattern FIELD = Pattern.compile("^    private (?!static)(?:final )?[\\w<>, ]+ (\\w+)(?: = [^;]+)?;", Pattern.MULTILINE);

    private static Set<String> specComponents() {
        final Set<String> out = new LinkedHashSet<>();
        Arrays.stream(ProfileSpec.class.getRecordComponents()).forEach(c -> out.add(c.getName()));
        return out;
    }

    private static Set<String> fields(final String className) throws IOException {
        final Matcher m = FIELD.matcher(Files.readString(JAVA.resolve(className + ".java")));
        final Set<String> out = new LinkedHashSet<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void theStepAndTheBuilderHaveExactlyTheSpecsFields() throws IOException {
        assertThat(fields("AiperfProfileStep")).containsExactlyElementsOf(specComponents());
        assertThat(fields("AiperfProfileBuilder")).containsExactlyElementsOf(specComponents());
    }

    @Test
    void everyFormFieldHasAHelpPageAndAViewEntry() throws IOException {
        final String form = Files.readString(VIEWS.resolve("AiperfProfileBuilder/config.jelly"));
        for (final String field : specComponents()) {
            assertThat(VIEWS.resolve("AiperfProfileBuilder/help-" + field + ".html")).as(field).isRegularFile();
            assertThat(form).as(field).contains("field=\"" + field + "\"");
        }
        final Matcher m = Pattern.compile("field=\"(\\w+)\"").matcher(Files.readString(VIEWS.resolve("AiperfProfileStep/config.jelly"))
                + Files.readString(VIEWS.resolve("AiperfAggregateStep/config.jelly")));
        while (m.find()) {
            assertThat(VIEWS.resolve("AiperfProfileBuilder/help-" + m.group(1) + ".html")).as(m.group(1)).isRegularFile();
        }
    }

    @Test
    void everyViewEscapesByDefault() throws IOException {
        final List<Path> jelly = new ArrayList<>();
        try (Stream<Path> files = Files.walk(PLUGIN.resolve("src/main/resources"))) {
            files.filter(p -> p.toString().endsWith(".jelly")).forEach(jelly::add);
        }
        assertThat(jelly).hasSizeGreaterThanOrEqualTo(6);
        for (final Path p : jelly) {
            final String text = Files.readString(p);
            assertThat(text).as(p.toString()).startsWith("<?jelly escape-by-default='true'?>")
                    .doesNotContain("<script").doesNotContain("j:out").doesNotContain(" onclick=");
        }
    }

    @Test
    void formEndpointsArePostOnlyAndTheGlueHoldsNoSecretOrParser() throws IOException {
        try (Stream<Path> files = Files.walk(JAVA)) {
            for (final Path p : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                final String src = Files.readString(p);
                final Matcher m = Pattern.compile("(@POST\\s+)?public \\w+ (do(?:Check|Fill)\\w+)\\(").matcher(src);
                while (m.find()) {
                    assertThat(m.group(1)).as(p.getFileName() + "." + m.group(2) + " needs @POST").isNotNull();
                }
                assertThat(src).as(p.toString()).doesNotContain("ObjectMapper").doesNotContain("ProcessBuilder")
                        .doesNotContain("Runtime.getRuntime").doesNotContain("getContextClassLoader")
                        .doesNotContain("System.exit");
            }
        }
        final long plainText = Files.walk(JAVA).filter(f -> f.toString().endsWith(".java"))
                .mapToLong(f -> count(f, "getPlainText()")).sum();
        assertThat(plainText).as("the secret is read in one place").isEqualTo(1);
    }

    private static long count(final Path file, final String needle) {
        try {
            return Files.readString(file).split(Pattern.quote(needle), -1).length - 1;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
