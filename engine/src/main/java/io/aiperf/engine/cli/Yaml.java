package io.aiperf.engine.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The line that makes a picocli {@code @Option} field a row of the option table ({@link OptionTable}): its YAML
 * key and default, for a flag whose value is the key's value as is. From it the overlay sets the key, the binder
 * accepts it and applies the default, and the help prints "Default: ...". A flag with more to it (a comma list that
 * sweeps, a negated or combined flag) has no such line: its few lines in the options class set the key. See
 * src-docs/adding-an-option.md.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
@interface Yaml {
    /**
     * The canonical key from the envelope's root: {@code benchmark.endpoint.streaming},
     * {@code benchmark.phases.profiling.users}, {@code multi_run.num_runs}; or a key of a mapping the options
     * read themselves ({@link OptionTable#fill}): {@code search.space}, {@code multi_run.convergence.metric}.
     */
    String value();

    /** The default as YAML text; shown in the help as "Default: X." unless the description says it. Empty: none. */
    String defaultValue() default "";
}
