package io.aiperf.engine.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A cell's runner and its stages keep short methods (src-docs/architecture.md): none over {@value #MAX_LINES}
 * lines, from the first line of its signature to its closing brace, so a new step goes into a method of its own.
 */
class MethodLengthTest {
    private static final int MAX_LINES = 80;
    private static final Path RUN = Path.of("src/main/java/io/aiperf/engine/run");
    /** The cell's runner and the classes of its three stages. */
    private static final List<String> CELL = List.of("CellRunner", "CellSetup", "CellExecution", "CellReporting",
            "CellConsole", "CellVerdict");
    private static final Pattern TYPE = Pattern.compile("\\b(class|record|enum|interface)\\b");
    private static final Pattern NAME = Pattern.compile("(\\w+)\\s*\\(");

    @Test
    void noMethodOfTheCellRunnerOrItsStagesIsOver80Lines() throws IOException {
        final Map<String, Integer> tooLong = new LinkedHashMap<>();
        for (final String name : CELL) {
            methodLengths(Files.readString(RUN.resolve(name + ".java"))).forEach((method, lines) -> {
                if (lines > MAX_LINES) {
                    tooLong.put(name + "." + method, lines);
                }
            });
        }
        assertThat(tooLong).as("methods over " + MAX_LINES + " lines").isEmpty();
    }

    /** The count sees the runner's methods, so an empty result cannot pass for short ones. */
    @Test
    void theCountFindsTheRunnersMethods() throws IOException {
        final Map<String, Integer> lengths = methodLengths(Files.readString(RUN.resolve("CellRunner.java")));
        assertThat(lengths).containsKeys("CellRunner", "run");
        assertThat(lengths.get("run")).isBetween(10, MAX_LINES);
    }

    /**
     * {@code aiperf profile} only parses, prints and returns the exit code (issue 44): what a profile does is the
     * engine's {@code profile/ProfilePlan}, whose story stays as short as a cell runner's.
     */
    @Test
    void theProfileCommandOnlyParsesAndItsPlanReadsAsAStory() throws IOException {
        final Map<String, Integer> command = methodLengths(Files.readString(
                Path.of("src/main/java/io/aiperf/engine/cli/ProfileCommand.java")));
        assertThat(command.get("call")).isLessThan(40);
        final Map<String, Integer> plan = methodLengths(Files.readString(
                Path.of("src/main/java/io/aiperf/engine/profile/ProfilePlan.java")));
        assertThat(plan).containsKeys("run", "measure");
        assertThat(plan.values()).allMatch(lines -> lines <= MAX_LINES);
    }

    @Test
    void theCountSpansSignatureToClosingBraceAndSkipsBracesInTextAndNestedBlocks() {
        final String source = String.join("\n",
                "final class A {",
                "    private final int[] f = {1, 2};",
                "    /** a { in a comment */",
                "    int m(final int x,",
                "          final int y) {",
                "        final String s = \"}}\" + '}';",
                "        Runnable r = new Runnable() {",
                "            public void run() {",
                "            }",
                "        };",
                "        return x; // }",
                "    }",
                "    static final class B {",
                "        void n() {",
                "        }",
                "    }",
                "}");
        assertThat(methodLengths(source)).containsExactly(Map.entry("m", 9), Map.entry("n", 2));
    }

    /** Each method's or constructor's length in lines, by name (the last of an overloaded name wins). */
    static Map<String, Integer> methodLengths(final String source) {
        final Map<String, Integer> out = new LinkedHashMap<>();
        final String code = blankCommentsAndText(source);
        final Deque<int[]> blocks = new ArrayDeque<>(); // {kind, first line}; kind 0 type, 1 method, 2 other
        final Deque<String> names = new ArrayDeque<>();
        final StringBuilder header = new StringBuilder();
        int headerLine = -1;
        int line = 1;
        for (int i = 0; i < code.length(); i++) {
            final char c = code.charAt(i);
            if (c == '\n') {
                line++;
            }
            if (c == '{') {
                final boolean inType = blocks.isEmpty() || blocks.peek()[0] == 0;
                final String h = header.toString();
                final int paren = h.indexOf('(');
                final int assign = h.indexOf('=');
                final int kind = !inType ? 2 : TYPE.matcher(h).find() ? 0
                        : paren >= 0 && (assign < 0 || paren < assign) ? 1 : 2;
                blocks.push(new int[] {kind, headerLine < 0 ? line : headerLine});
                if (kind == 1) {
                    final Matcher m = NAME.matcher(h);
                    names.push(m.find() ? m.group(1) : "?");
                }
            } else if (c == '}') {
                final int[] block = blocks.pop();
                if (block[0] == 1) {
                    out.put(names.pop(), line - block[1] + 1);
                }
            }
            if (c == '{' || c == '}' || c == ';') {
                header.setLength(0);
                headerLine = -1;
            } else {
                if (headerLine < 0 && !Character.isWhitespace(c)) {
                    headerLine = line;
                }
                header.append(c);
            }
        }
        return out;
    }

    /** The source with comments, strings and characters blanked, line breaks kept. */
    private static String blankCommentsAndText(final String s) {
        final StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            final char c = s.charAt(i);
            final int end;
            if (s.startsWith("//", i)) {
                end = indexOrEnd(s, "\n", i);
            } else if (s.startsWith("/*", i)) {
                end = indexOrEnd(s, "*/", i + 2) + 2;
            } else if (s.startsWith("\"\"\"", i)) {
                end = indexOrEnd(s, "\"\"\"", i + 3) + 3;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < s.length() && s.charAt(j) != c) {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
                end = j + 1;
            } else {
                out.append(c);
                i++;
                continue;
            }
            for (int j = i; j < Math.min(end, s.length()); j++) {
                out.append(s.charAt(j) == '\n' ? '\n' : ' ');
            }
            i = end;
        }
        return out.toString();
    }

    private static int indexOrEnd(final String s, final String what, final int from) {
        final int at = s.indexOf(what, from);
        return at < 0 ? s.length() : at;
    }
}
