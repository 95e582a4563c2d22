package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.beans.Introspector;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.kohsuke.stapler.DataBoundSetter;

/**
 * The Pipeline Steps Reference shows a parameter's help only when {@code help-<param>.html} is a resource beside the
 * step's own class (structs looks nowhere else), although the step shares the page with its freestyle twin.
 */
class StepHelpTest {
    @Test
    void everyParameterOfEveryStepHasItsHelpBesideTheStepsClass() {
        for (final Class<?> step : List.of(AiperfProfileStep.class, AiperfAggregateStep.class, AiperfGateStep.class,
                AiperfCellsStep.class)) {
            final List<String> params = Arrays.stream(step.getMethods())
                    .filter(m -> m.isAnnotationPresent(DataBoundSetter.class)).map(Method::getName)
                    .map(n -> Introspector.decapitalize(n.substring("set".length()))).toList();
            assertTrue(step == AiperfCellsStep.class || !params.isEmpty(), step.getName());
            for (final String param : params) {
                final String path = step.getName().replace('.', '/') + "/help-" + param + ".html";
                assertNotNull(step.getClassLoader().getResource(path), path);
            }
        }
    }
}
