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
 * run time but no compiler checks: the step and the builder share one settings class with ProfileSpec's fields,
 * every field of every describable has a help page and a view entry, the engine's booleans are tri-state in the
 * forms, views included into the job page read their action as {@code from}, views escape by default, form
 * endpoints answer POST only. It reads the plugin's sources and views through the relative path {@code ../jenkins-plugin}.
 */
class PluginContractTest {
    private static final Path PLUGIN = Path.of(System.getProperty("aiperf.docs.dir", "../src-docs")).resolveSibling("jenkins-plugin");
    private static final Path JAVA = PLUGIN.resolve("src/main/java/io/aiperf/jenkins");
    private static final Path VIEWS = PLUGIN.resolve("src/main/resources/io/aiperf/jenkins");

    private static final Pattern SETTING = Pattern.compile("^    (?!static|private|public|final|return)[\\w<>][\\w<>, ]* (\\w+)(?: = [^;]+)?;",
            Pattern.MULTILINE);
    private static final Pattern SETTER = Pattern.compile("@DataBoundSetter\\s+public void set(\\w+)\\(");
    private static final Pattern CONSTRUCTOR = Pattern.compile("@DataBoundConstructor\\s+public \\w+\\(([^)]*)\\)");
    private static final List<String> TRI_STATE = List.of("streaming", "resetKvCache", "serverProfiler");

    /** Settings of every recording call that only the plugin reads (checks, the job that gives the baselines). */
    private static final List<String> PLUGIN_ONLY = List.of("checksName", "skipPublishingChecks", "referenceJob");

    /** ProfileSpec's components and the plugin's own settings. */
    private static Set<String> specComponents() {
        final Set<String> out = new LinkedHashSet<>();
        Arrays.stream(ProfileSpec.class.getRecordComponents()).forEach(c -> out.add(c.getName()));
        return out;
    }

    private static Set<String> profileSettings() {
        final Set<String> out = specComponents();
        out.addAll(PLUGIN_ONLY);
        return out;
    }

    private static String source(final String className) throws IOException {
        return Files.readString(JAVA.resolve(className + ".java"));
    }

    private static Set<String> all(final Pattern p, final String text) {
        final Matcher m = p.matcher(text);
        final Set<String> out = new LinkedHashSet<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The bound fields of a describable: its @DataBoundConstructor parameters and @DataBoundSetter properties. */
    private static Set<String> boundFields(final String src) {
        final Set<String> out = new LinkedHashSet<>();
        final Matcher c = CONSTRUCTOR.matcher(src);
        if (c.find() && !c.group(1).isBlank()) {
            for (final String param : c.group(1).split(",")) {
                final String[] words = param.trim().split("\\s+");
                out.add(words[words.length - 1]);
            }
        }
        all(SETTER, src).forEach(n -> out.add(Character.toLowerCase(n.charAt(0)) + n.substring(1)));
        return out;
    }

    /** Every plugin class Jenkins binds from a form or a script: those with a @DataBoundConstructor. */
    private static List<String> describables() throws IOException {
        try (Stream<Path> files = Files.list(JAVA)) {
            return files.filter(f -> {
                try {
                    return Files.readString(f).contains("@DataBoundConstructor");
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).map(f -> f.getFileName().toString().replace(".java", "")).sorted().toList();
        }
    }

    @Test
    void theStepAndTheBuilderShareOneSettingsClassWithTheSpecsFields() throws IOException {
        assertThat(all(SETTING, source("ProfileSettings"))).containsExactlyInAnyOrderElementsOf(profileSettings());
        assertThat(boundFields(source("AiperfProfileStep"))).containsExactlyInAnyOrderElementsOf(profileSettings());
        assertThat(boundFields(source("AiperfProfileBuilder"))).containsExactlyInAnyOrderElementsOf(profileSettings());
        assertThat(source("AiperfProfileStep")).contains("private final ProfileSettings settings");
        final Set<String> gate = all(SETTING, source("GateSettings"));
        assertThat(gate).contains("id", "results", "gate", "baseline", "archive", "unstableOnWarnings", "jdk")
                .containsAll(PLUGIN_ONLY);
        assertThat(boundFields(source("AiperfAggregateStep"))).containsAll(PLUGIN_ONLY);
        assertThat(boundFields(source("AiperfGateStep"))).containsExactlyElementsOf(gate);
        assertThat(boundFields(source("AiperfGateRecorder"))).containsExactlyElementsOf(gate);
        assertThat(source("AiperfGateRecorder")).contains("private final GateSettings settings")
                .contains("@Symbol(\"aiperfGate\")");
        assertThat(source("AiperfProfileBuilder")).contains("private final ProfileSettings settings")
                .contains("@Symbol(\"aiperfProfile\")");
    }

    @Test
    void everyFieldOfEveryDescribableHasAHelpPageAndAViewEntry() throws IOException {
        final List<String> describables = describables();
        assertThat(describables).contains("AiperfProfileStep", "AiperfProfileBuilder", "AiperfAggregateStep",
                "AiperfCellsStep", "AiperfGateStep", "AiperfGateRecorder");
        for (final String d : describables) {
            final String src = source(d);
            // a descriptor that delegates its help: Help.shared (the profile builder's) or Help.of(Owner.class, ...)
            final Matcher delegate = Pattern.compile("Help\\.of\\((\\w+)\\.class, fieldName\\)").matcher(src);
            final String owner = src.contains("Help.shared(fieldName)") ? "AiperfProfileBuilder"
                    : delegate.find() ? delegate.group(1) : null;
            assertThat(VIEWS.resolve(d + "/help.html")).as(d + " has a help page").isRegularFile();
            final String form = Files.readString(VIEWS.resolve(d + "/config.jelly"));
            for (final String field : boundFields(src)) {
                final boolean own = Files.isRegularFile(VIEWS.resolve(d + "/help-" + field + ".html"));
                final boolean shared = owner != null && Files.isRegularFile(VIEWS.resolve(owner + "/help-" + field
                        + ".html"));
                assertThat(own || shared).as(d + "." + field + " has a help page").isTrue();
                assertThat(form).as(d + "." + field + " is in its form").contains("field=\"" + field + "\"");
            }
        }
    }

    @Test
    void theEngineBooleansAreTriStateInEveryForm() throws IOException {
        for (final String d : List.of("AiperfProfileStep", "AiperfProfileBuilder")) {
            final String form = Files.readString(VIEWS.resolve(d + "/config.jelly"));
            for (final String field : TRI_STATE) {
                final int at = form.indexOf("field=\"" + field + "\"");
                final String entry = form.substring(at, form.indexOf("</f:entry>", at));
                assertThat(entry).as(d + "." + field).doesNotContain("f:checkbox").contains("name=\"_." + field + "\"")
                        .contains("<f:option value=\"\"").contains("value=\"true\"").contains("value=\"false\"");
            }
        }
        assertThat(source("SettingsForm")).contains("TRI_STATE = List.of(\"streaming\", \"resetKvCache\", \"serverProfiler\")");
    }

    @Test
    void viewsIncludedIntoTheJobPageReadTheActionAsFrom() throws IOException {
        final List<Path> views = new ArrayList<>();
        try (Stream<Path> files = Files.walk(VIEWS)) {
            files.filter(f -> f.getFileName().toString().matches("floatingBox\\.jelly|jobMain\\.jelly"))
                    .forEach(views::add);
        }
        assertThat(views).isNotEmpty();
        for (final Path v : views) {
            // Jenkins includes them with `it` = the job and the action as `from`
            assertThat(Files.readString(v)).as(v.toString()).contains("${from.").doesNotContain("${it.")
                    .doesNotContain("${it}");
        }
    }

    @Test
    void everyStepDeclaresTheContextItReads() throws IOException {
        try (Stream<Path> files = Files.list(JAVA)) {
            for (final Path f : files.filter(p -> p.getFileName().toString().endsWith("Step.java")).toList()) {
                final String src = Files.readString(f);
                final Matcher declared = Pattern.compile("getRequiredContext\\(\\) \\{\\s+return Set\\.of\\(([^)]*)\\)")
                        .matcher(src);
                assertThat(declared.find()).as(f.getFileName() + " declares its context").isTrue();
                for (final String used : all(Pattern.compile("ctx\\.get\\((\\w+)\\.class\\)"), src)) {
                    assertThat(declared.group(1)).as(f.getFileName() + " reads " + used).contains(used + ".class");
                }
            }
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
