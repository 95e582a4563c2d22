package io.aiperf.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every YAML key the loader accepts is documented in src-docs/yaml.md (the loader's key lists and the option table
 * are the source).
 */
class ConfigKeysDocumentedTest {
    @Test
    void everyAcceptedKeyIsInTheYamlReference() throws Exception {
        final String page = Files.readString(Path.of(System.getProperty("aiperf.docs.dir", "../src-docs"), "yaml.md"));
        final List<String> keys = new ArrayList<>();
        for (final Class<?> c : List.of(ConfigBinder.class, ConfigShapes.class, EndpointBinder.class,
                ControlHooksBinder.class, DatasetBinder.class, PhaseBinder.class, ArtifactsBinder.class)) {
            for (final Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getName().endsWith("_KEYS") && List.class.isAssignableFrom(f.getType())) {
                    f.setAccessible(true);
                    for (final Object k : (List<?>) f.get(null)) {
                        keys.add(String.valueOf(k));
                    }
                }
            }
        }
        DeclaredOptions.installed().rows().forEach(r -> keys.add(r.key())); // the option table's keys too
        assertThat(keys).contains("exclude_from_results", "reset_kv_cache", "ssl_ca_file");
        assertThat(keys.stream().filter(k -> !page.matches("(?s).*\\b" + java.util.regex.Pattern.quote(k) + "\\b.*"))
                .distinct().toList()).as("keys missing from src-docs/yaml.md").isEmpty();
    }
}
