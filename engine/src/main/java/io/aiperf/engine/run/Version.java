package io.aiperf.engine.run;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The engine version, from the build. */
public final class Version {
    public static final String VALUE = load();

    private Version() {
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("/io/aiperf/engine/version.properties")) {
            if (in == null) {
                return "dev";
            }
            final Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "dev");
        } catch (IOException e) {
            return "dev";
        }
    }
}
