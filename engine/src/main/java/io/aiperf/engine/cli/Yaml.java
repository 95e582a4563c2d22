package io.aiperf.engine.cli;

import io.aiperf.engine.config.DeclaredOptions.Kind;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The line that makes a picocli {@code @Option} field a row of the option table ({@link OptionTable}): its YAML
 * key and default, for a flag whose value is the key's value as is. From it the overlay sets the key, the binder
 * accepts it and applies the default, and the help prints "Default: ...". A sweep axis says so
 * ({@link #sweeps}): its flag then takes a comma list and a config file's {@code sweep.parameters} its key alone. A
 * flag with more to it (a negated or combined flag) has no such line: its few lines in the options class set the
 * key. See src-docs/adding-an-option.md.
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

    /**
     * Whether the option is a sweep axis: its flag takes a comma list (one cell per value; {@code --sweep-type}
     * combines several lists) and a config file's {@code sweep.parameters} takes the key alone as the axis. Its field
     * is the flag's text; {@link #kind} says what each value is. Only a {@code benchmark.} key sweeps.
     */
    boolean sweeps() default false;

    /**
     * What each value of a sweeping option is: {@code INTEGER}, {@code LONG}, {@code NUMBER} or {@code SECONDS} (a
     * duration). Any other option's kind is its field's type, and it leaves this as it is.
     */
    Kind kind() default Kind.STRING;
}
