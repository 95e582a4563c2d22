package io.aiperf.engine.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The help topic of a profile option: on its field, or on a mixin class for all the options it declares. An option
 * with none is listed under "Other options" (and {@code ProfileHelpTest} fails). See src-docs/adding-an-option.md.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.TYPE})
@interface Topic {
    HelpTopic value();
}
