package io.aiperf.engine.ci;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which Java runs the engine on a CI agent. Not the agent JVM's own: inside a container ({@code container()},
 * {@code docker.image().inside}) that is another machine's. In order: the JDK tool installation the step names
 * (then nothing else), else {@code JAVA_HOME} of the step's environment, else {@code java} on its {@code PATH}:
 * first as found in the step's {@code PATH} directories on the agent (a process's own search uses the launching
 * JVM's {@code PATH}, not the one handed to it), then the plain command, which a container resolves with its own
 * {@code PATH}. The CI tries each candidate where the engine will run and takes the first that answers. Stateless.
 */
public final class JavaLocator {
    /** One Java to try: where it comes from (for messages) and the command that starts it. */
    public record Candidate(String source, String java) {
    }

    private JavaLocator() {
    }

    /**
     * @param jdkName the step's {@code jdk} setting, or null
     * @param jdkHome that tool's home on the agent, or null when no such tool is installed
     * @param env the step's environment
     * @param onPath the first {@link #executablesOnPath} entry that exists on the agent, or null
     */
    public static List<Candidate> candidates(final String jdkName, final String jdkHome, final Map<String, String> env,
                                             final boolean unix, final String onPath) {
        final List<Candidate> out = new ArrayList<>();
        if (!ProfileSpec.isBlank(jdkName)) {
            if (!ProfileSpec.isBlank(jdkHome)) {
                out.add(new Candidate("the JDK tool '" + jdkName + "' (" + jdkHome + ")", bin(jdkHome, unix)));
            }
            return out;
        }
        final String javaHome = env.get("JAVA_HOME");
        if (!ProfileSpec.isBlank(javaHome)) {
            out.add(new Candidate("JAVA_HOME (" + javaHome + ")", bin(javaHome, unix)));
        }
        final String path = env.get("PATH");
        if (onPath != null) {
            out.add(new Candidate("java on the PATH (" + onPath + ")", onPath));
        }
        if (!ProfileSpec.isBlank(path)) {
            out.add(new Candidate("java on the PATH (" + path + ")", "java"));
        }
        return out;
    }

    /** Where {@code java} would be in each directory of the step's {@code PATH}, in order, for the CI to look up. */
    public static List<String> executablesOnPath(final Map<String, String> env, final boolean unix) {
        final List<String> out = new ArrayList<>();
        final String path = env.get("PATH");
        if (ProfileSpec.isBlank(path)) {
            return out;
        }
        for (final String dir : path.split(unix ? ":" : ";")) {
            if (!dir.isBlank()) {
                out.add(dir.replaceAll("[/\\\\]+$", "") + (unix ? "/java" : "\\java.exe"));
            }
        }
        return out;
    }

    /** The oldest Java the engine runs on. */
    public static final int MINIMUM_MAJOR = 17;
    private static final Pattern VERSION = Pattern.compile("version \"(?:1\\.)?(\\d+)");

    /**
     * Why the Java whose {@code java -version} printed this text cannot run the engine, or null when it can (or its
     * version cannot be read: the engine then says what is wrong itself).
     */
    public static String versionProblem(final String versionText) {
        final Matcher m = VERSION.matcher(versionText == null ? "" : versionText);
        if (!m.find()) {
            return null;
        }
        final int major = Integer.parseInt(m.group(1));
        return major >= MINIMUM_MAJOR ? null : "Java " + major + " is too old (the engine needs Java "
                + MINIMUM_MAJOR + " or newer)";
    }

    /**
     * The error when no candidate answered: what was searched and how to fix it.
     *
     * @param failures why each candidate of {@code tried} did not answer, in order
     */
    public static String notFound(final String jdkName, final List<Candidate> tried, final List<String> failures) {
        if (!ProfileSpec.isBlank(jdkName) && tried.isEmpty()) {
            return "no Java to run the engine: no JDK tool installation named '" + jdkName + "' exists for this agent"
                    + " (Manage Jenkins > Tools)";
        }
        final StringBuilder sb = new StringBuilder("no Java to run the engine: searched ");
        if (tried.isEmpty()) {
            sb.append("JAVA_HOME and the PATH of the step's environment, which are both unset");
        }
        for (int i = 0; i < tried.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(tried.get(i).source()).append(": ")
                    .append(i < failures.size() ? failures.get(i) : "not tried");
        }
        return sb.append(". Set JAVA_HOME or put java 17+ on the PATH where the step runs (withEnv, a tools block, the"
                + " container's image), or name a JDK tool installation with jdk").toString();
    }

    private static String bin(final String home, final boolean unix) {
        final String h = home.replaceAll("[/\\\\]+$", "");
        return unix ? h + "/bin/java" : h + "\\bin\\java.exe";
    }
}
