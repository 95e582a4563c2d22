package io.aiperf.engine.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The line that makes a picocli {@code @Option} field a row of the option table ({@link OptionTable}): its YAML
 * key and default. From it the overlay sets the key, the binder accepts it and applies the default, and the help
 * prints "Default: ...". See src-docs/architecture.md, "Adding an option".
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
@interface Yaml {
    /**
     * The canonical key from the envelope's root: {@code benchmark.endpoint.streaming},
     * {@code benchmark.phases.profiling.users}, {@code multi_run.num_runs}.
     */
    String value();

    /** The default as YAML text; shown in the help as "Default: X." unless the description says it. Empty: none. */
    String defaultValue() default "";

    /** The options class's own code sets the key (a sweep list, a negated or combined flag), not the table. */
    boolean custom() default false;
}
