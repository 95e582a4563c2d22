package io.aiperf.engine.ci;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The JVM part of the engine command on a CI agent, as {@code bin/aiperf} builds it (src-docs/cli.md): the
 * class-data archive (warm start) unless {@code AIPERF_CDS=off}; the quick JIT only unless {@code AIPERF_JIT=full}
 * or the user's options name JIT options of their own; a young generation of at least 128 MB unless they name the
 * heap; then the user's {@code AIPERF_JAVA_OPTS} (last, so they win), then {@code -jar}. The archive is named after the engine jar's hash
 * and the JVM (its command and version text), so another jar or JDK builds its own. A {@code profile} or
 * {@code compare} run without an archive lists the classes it loads under a name of its own; after it, the CI builds
 * a static archive from that list ({@link #buildArchive}: a dynamic archive recorded at exit would leave out
 * picocli's classes, compiled for Java 5, and every class linked to them) and keeps it only if {@link #checkArchive}
 * accepts it. A run starts from an archive with {@code -Xshare:auto}, so one the JVM refuses is skipped, never
 * fatal. Stateless: the CI runs these commands.
 */
public final class EngineLaunch {
    public static final String JAVA_OPTS = "AIPERF_JAVA_OPTS";
    public static final String CDS = "AIPERF_CDS";
    public static final String CACHE_DIR = "AIPERF_CACHE_DIR";
    public static final String JIT = "AIPERF_JIT";
    /**
     * C1 only, on one thread: a benchmark run is too short for C2 to pay back the CPU it compiles with
     * (src-docs/performance.md).
     */
    static final List<String> QUICK_JIT = List.of("-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1");
    /**
     * A young generation of at least 128 MB: a short run makes no collection pause while it measures. The JVM's note
     * when a heap is smaller (a collector chosen for a small machine) stays off the console.
     */
    static final List<String> YOUNG_GENERATION = List.of("-XX:NewSize=128m", "-Xlog:gc+ergo=error");
    /** Where the JVM reads options besides the command line: the user's JIT and heap options may be there too. */
    private static final List<String> JVM_OPTION_VARIABLES = List.of(JAVA_OPTS, "_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS",
            "JDK_JAVA_OPTIONS");
    /** In the user's options, these make the JIT theirs: the JVM refuses one C1 thread beside C2. */
    private static final Pattern USERS_JIT = Pattern.compile(
            "TieredStopAtLevel|CICompilerCount|TieredCompilation");
    /** In the user's options, these make the heap theirs. */
    private static final Pattern USERS_HEAP = Pattern.compile(
            "Xmn|Xmx|Xms|NewSize|NewRatio|MaxRAM|HeapSize|UseSerialGC|UseParallelGC");
    private static final String QUIET = "-Xlog:cds=off,cds+dynamic=off";

    private EngineLaunch() {
    }

    /**
     * @param defaultDir where archives go unless {@code AIPERF_CACHE_DIR} says otherwise
     * @return the folder for class-data archives, or null when {@code AIPERF_CDS=off}
     */
    public static String cdsDir(final Map<String, String> env, final String defaultDir) {
        if ("off".equalsIgnoreCase(String.valueOf(env.get(CDS)).trim())) {
            return null;
        }
        final String dir = env.get(CACHE_DIR);
        return ProfileSpec.isBlank(dir) ? defaultDir : dir.trim();
    }

    /** The archive's path for this jar and this JVM. */
    public static String cdsArchive(final String cdsDir, final String jarHash, final String java,
                                    final String javaVersion) {
        return cdsDir.replaceAll("[/\\\\]+$", "") + "/aiperf-" + sha256(jarHash + "\n" + java + "\n" + javaVersion)
                .substring(0, 16) + ".jsa";
    }

    /** Where one run lists the classes it loads: next to the archive, under a name no other run uses. */
    public static String classList(final String archive, final String token) {
        return withoutSuffix(archive) + "." + token + ".classlist";
    }

    /** Where the archive built from one run's class list is written before it is checked and kept. */
    public static String built(final String archive, final String token) {
        return withoutSuffix(archive) + "." + token + ".jsa";
    }

    private static String withoutSuffix(final String archive) {
        return archive.substring(0, archive.length() - ".jsa".length());
    }

    /** Whether an engine subcommand lists its classes when there is no archive (the long-running ones). */
    public static boolean records(final String subcommand) {
        return "profile".equals(subcommand) || "compare".equals(subcommand);
    }

    /**
     * @param useArchive an archive to start from, or null
     * @param classListTo where to list the classes the run loads, or null (ignored when {@code useArchive} is
     *                    given)
     * @return {@code [java, <class-data options>, <JIT options>, <young generation>, <AIPERF_JAVA_OPTS>, -jar, jar]}
     * @throws IllegalArgumentException when {@code AIPERF_JIT} is neither {@code quick} nor {@code full}
     */
    public static List<String> command(final String java, final String jar, final Map<String, String> env,
                                       final String useArchive, final String classListTo) {
        final List<String> argv = new ArrayList<>();
        argv.add(java);
        if (useArchive != null) {
            argv.add("-XX:SharedArchiveFile=" + useArchive);
            argv.add("-Xshare:auto"); // an archive this JVM cannot map (damaged, another build) is skipped
            argv.add(QUIET);
        } else if (classListTo != null) {
            argv.add("-XX:DumpLoadedClassList=" + classListTo);
        }
        final String opts = env.get(JAVA_OPTS);
        final String users = JVM_OPTION_VARIABLES.stream().map(env::get).filter(Objects::nonNull)
                .collect(Collectors.joining(" "));
        if (quickJit(env) && !USERS_JIT.matcher(users).find()) {
            argv.addAll(QUICK_JIT);
        }
        if (!USERS_HEAP.matcher(users).find()) {
            argv.addAll(YOUNG_GENERATION);
        }
        if (!ProfileSpec.isBlank(opts)) {
            argv.addAll(List.of(opts.trim().split("\\s+"))); // split on blanks only, as bin/aiperf's shell does
        }
        argv.add("-jar");
        argv.add(jar);
        return argv;
    }

    private static boolean quickJit(final Map<String, String> env) {
        final String jit = env.get(JIT); // read as bin/aiperf reads it: unset or empty is quick, nothing trimmed
        if (jit == null || jit.isEmpty() || "quick".equals(jit)) {
            return true;
        }
        if ("full".equals(jit)) {
            return false;
        }
        throw new IllegalArgumentException(JIT + " must be quick or full, not '" + jit + "'");
    }

    /** The command that builds a static class-data archive from a run's class list; it exits 0 if it wrote one. */
    public static List<String> buildArchive(final String java, final String jar, final String classList,
                                            final String built) {
        return List.of(java, "-Xshare:dump", "-XX:SharedClassListFile=" + classList, "-XX:SharedArchiveFile=" + built,
                QUIET, "-cp", jar);
    }

    /** The command that exits 0 only if this JVM can map the built archive (then the CI keeps it). */
    public static List<String> checkArchive(final String java, final String jar, final String built) {
        return List.of(java, "-Xshare:on", "-XX:SharedArchiveFile=" + built, QUIET, "-cp", jar, "-version");
    }

    /** Hex SHA-256 of the text. */
    public static String sha256(final String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
