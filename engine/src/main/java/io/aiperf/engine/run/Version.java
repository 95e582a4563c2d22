package io.aiperf.engine.run;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The engine version, from the build. */
public final class Version {
    private static final Properties BUILD = load();
    public static final String VALUE = BUILD.getProperty("version", "dev");
    /** The commit the engine was built from (with "-dirty" for uncommitted changes), or "unknown". */
    public static final String COMMIT = commit();

    private Version() {
    }

    private static Properties load() {
        final Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("/io/aiperf/engine/version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // "dev" below
        }
        return p;
    }

    private static String commit() {
        final String id = BUILD.getProperty("commit", "");
        if (id.isEmpty() || id.startsWith("${")) {
            return "unknown";
        }
        return "true".equals(BUILD.getProperty("dirty")) ? id + "-dirty" : id;
    }
}
