package io.aiperf.engine.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/** Pins the dependency directions between the engine's packages (each package-info.java says what it owns). */
class ArchitectureTest {
    private static final JavaClasses ENGINE = EngineClasses.ALL;

    @Test
    void configDependsOnNoOtherEnginePackage() {
        noClasses().that().resideInAPackage("..engine.config..")
                .should().dependOnClassesThat().resideInAnyPackage("..engine.cli..", "..engine.run..",
                        "..engine.client..", "..engine.metrics..", "..engine.export..", "..engine.hooks..",
                        "..engine.mock..", "..engine.gate..", "..engine.dataset..")
                .check(ENGINE);
    }

    @Test
    void metricsKnowNothingOfHttp() {
        noClasses().that().resideInAPackage("..engine.metrics..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.hc..", "..engine.client..",
                        "..engine.mock..", "java.net..")
                .check(ENGINE);
    }

    /** One HTTP client for everything the engine sends besides control hooks (src-docs/proxies-and-tls.md). */
    @Test
    void nothingUsesTheJdksHttpClient() {
        noClasses().should().dependOnClassesThat().resideInAPackage("java.net.http..").check(ENGINE);
    }

    @Test
    void onlyTheCliUsesPicocli() {
        noClasses().that().resideOutsideOfPackage("..engine.cli..")
                .should().dependOnClassesThat().resideInAPackage("picocli..").check(ENGINE);
    }

    @Test
    void noJenkinsTypesInTheEngine() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("hudson..", "jenkins..", "org.jenkinsci..",
                "org.kohsuke..").check(ENGINE);
    }

    /**
     * The Jenkins plugin loads the ci package in the controller and agent JVMs: it must need only Jackson, and the
     * summary package (which needs only Jackson itself) to read the exports the way the engine writes them.
     */
    @Test
    void theCiPackageNeedsOnlyTheJdkJacksonAndTheSummary() {
        classes().that().resideInAPackage("..engine.ci..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "javax..", "com.fasterxml.jackson..",
                        "io.aiperf.engine.ci..", "io.aiperf.engine.summary..")
                .check(ENGINE);
    }

    /** What a cell measured, as a value any package (and the plugin, through ci) can read. */
    @Test
    void theSummaryPackageNeedsOnlyTheJdkAndJackson() {
        classes().that().resideInAPackage("..engine.summary..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "com.fasterxml.jackson..",
                        "io.aiperf.engine.summary..")
                .check(ENGINE);
    }

    @Test
    void hooksKnowNothingOfPhases() {
        noClasses().that().resideInAPackage("..engine.hooks..")
                .should().dependOnClassesThat().resideInAnyPackage("..engine.run..", "..engine.cli..")
                .check(ENGINE);
    }

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.aiperf.engine.(*)..").should().beFreeOfCycles().check(ENGINE);
    }
}
