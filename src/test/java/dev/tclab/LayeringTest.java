package dev.tclab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The package layering, locked: each rule names what it keeps apart and why. */
class LayeringTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.tclab");
    }

    @Test
    void topLevelPackagesHaveNoCycles() {
        slices().matching("dev.tclab.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void onlyTheWebLayerImportsTheWebLayer() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.tclab.web..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.tclab.web..")
                .because("features own their logic; web only presents it (shared HTTP vocabulary is in dev.tclab.http)")
                .check(classes);
    }

    @Test
    void yamlReadingImportsNothingOfTclab() {
        noClasses()
                .that()
                .resideInAPackage("dev.tclab.yaml..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages(
                        "dev.tclab.yaml..",
                        "java..",
                        "org.yaml.snakeyaml..",
                        "com.fasterxml.jackson..",
                        "com.networknt.schema..")
                .because("reading YAML is a leaf every feature builds on; it knows nothing of them")
                .check(classes);
    }

    @Test
    void httpVocabularyImportsNothingOfTclab() {
        noClasses()
                .that()
                .resideInAPackage("dev.tclab.http..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("dev.tclab.http..", "java..", "jakarta.ws.rs..")
                .check(classes);
    }

    @Test
    void onlyTheHttpEdgeSpeaksJaxRs() {
        noClasses()
                .that()
                .resideOutsideOfPackages("dev.tclab.http..", "dev.tclab.web..")
                .and()
                .haveSimpleNameNotEndingWith("Resource")
                .and()
                .haveSimpleNameNotEndingWith("ErrorMappers")
                .and()
                .haveSimpleNameNotEndingWith("Pages")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("jakarta.ws.rs..")
                .because("services refuse in their own terms (WorkshopRefusal.Kind, say); the resources, pages and"
                        + " error mappers turn that into HTTP")
                .check(classes);
    }

    @Test
    void onlyTheDockerAdaptersImportDockerJava() {
        noClasses()
                .that()
                .resideOutsideOfPackages("dev.tclab.runtime.docker..", "dev.tclab.runtime.uml..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("com.github.dockerjava..")
                .because(
                        "the Docker runtime and the User-Mode Linux runtime (one container per lab) are the engine's only"
                                + " users")
                .check(classes);
    }

    @Test
    void onlyTheKubernetesAdapterImportsFabric8() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.tclab.runtime.kubernetes..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.fabric8..")
                .because("lessons, grading, terminals and statistics reach a cluster only through LabRuntime")
                .check(classes);
    }

    @Test
    void runtimePackagesHaveNoCycles() {
        slices().matching("dev.tclab.runtime.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void runtimesKnowNoFeatureAboveThem() {
        noClasses()
                .that()
                .resideInAPackage("dev.tclab.runtime..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages(
                        "dev.tclab.runtime..",
                        "dev.tclab.common..",
                        "dev.tclab.config..",
                        "dev.tclab.http..",
                        "dev.tclab.yaml..",
                        "java..",
                        "javax..",
                        "jakarta..",
                        "io..",
                        "org..",
                        "com..")
                .because("what runs labs (the port, its adapters, lab.yml's model) is below every feature: the lab"
                        + " service, grading, terminals and statistics use it, it uses none of them")
                .check(classes);
    }

    @Test
    void commonImportsNothingOfTclab() {
        noClasses()
                .that()
                .resideInAPackage("dev.tclab.common..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("dev.tclab.common..", "java..", "jakarta..")
                .because("app-wide utilities are a leaf every package may use")
                .check(classes);
    }

    @Test
    void theTopologyKnowsNoRuntimeAndNoLabService() {
        noClasses()
                .that()
                .resideInAPackage("dev.tclab.runtime.topology..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.tclab.lab..",
                        "dev.tclab.runtime",
                        "dev.tclab.runtime.agent..",
                        "dev.tclab.runtime.docker..",
                        "dev.tclab.runtime.kubernetes..",
                        "dev.tclab.runtime.uml..")
                .because("a lab.yml's model is read by lessons and runtimes alike; it runs nothing")
                .check(classes);
    }

    @Test
    void theRuntimePortKnowsNoAdapterAndNoLabService() {
        noClasses()
                .that()
                .resideInAPackage("dev.tclab.runtime")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.tclab.lab..",
                        "dev.tclab.runtime.agent..",
                        "dev.tclab.runtime.docker..",
                        "dev.tclab.runtime.kubernetes..",
                        "dev.tclab.runtime.uml..")
                .because("dev.tclab.runtime is the port and what every runtime shares; the adapters plug into it")
                .check(classes);
    }

    @Test
    void theAgentKnowsNoRuntimeAdapter() {
        noClasses()
                .that()
                .resideInAPackage("dev.tclab.runtime.agent..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.tclab.lab..",
                        "dev.tclab.runtime.docker..",
                        "dev.tclab.runtime.kubernetes..",
                        "dev.tclab.runtime.uml..",
                        "com.github.dockerjava..",
                        "io.fabric8..")
                .because("the agent and what runs in a UML kernel are the same whichever runtime carries their line"
                        + " (a Docker attach, a pod's attach)")
                .check(classes);
    }

    @Test
    void runtimeAdaptersReachOnlyThePortAndTheTopology() {
        noClasses()
                .that()
                .resideInAnyPackage(
                        "dev.tclab.runtime.agent..",
                        "dev.tclab.runtime.docker..",
                        "dev.tclab.runtime.kubernetes..",
                        "dev.tclab.runtime.uml..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.tclab.lab..")
                .because("a runtime is its adapter and nothing else: the lab service is above the port")
                .check(classes);
        noClasses()
                .that()
                .resideInAnyPackage("dev.tclab.runtime.docker..", "dev.tclab.runtime.uml..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.tclab.runtime.kubernetes..")
                .check(classes);
        noClasses()
                .that()
                .resideInAPackage("dev.tclab.runtime.kubernetes..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.tclab.runtime.docker..", "dev.tclab.runtime.uml..")
                .because("User-Mode Linux runs on the Docker engine and shares its calls; Kubernetes shares none (the"
                        + " agent and the UML kernel's scripts, which both carry, are in runtime.agent)")
                .check(classes);
    }

    @Test
    void gradingPackagesHaveNoCycles() {
        slices().matching("dev.tclab.grading.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void checkSpecsKnowNothingOfEvaluatingOrRunningThem() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.tclab.grading.spec..", "dev.tclab.grading.parse..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.tclab.grading",
                        "dev.tclab.grading.evaluate..",
                        "dev.tclab.grading.run..",
                        "dev.tclab.grading.selftest..")
                .because("a check's spec (its model, parsing and how its output is read) is what everything else in"
                        + " grading builds on")
                .check(classes);
    }

    /**
     * Issue 41, item 4: one clock. A test that moves it (MovableClock) moves every deadline, idle time and lockout
     * together; a class that read the system's clock kept its own time beside it (a check's touch of its lab did).
     * Not yet: the runtime adapters (their labels' expiries) and the check runner (its own split, item 3).
     */
    @Test
    void theTimeComesFromTheInjectedClock() {
        noClasses()
                .that()
                .resideOutsideOfPackages("dev.tclab.runtime..", "dev.tclab.grading.run..")
                .and()
                .doNotHaveFullyQualifiedName("dev.tclab.common.Clocks")
                .should()
                .callMethod(java.time.Instant.class, "now")
                .orShould()
                .callMethod(java.time.Clock.class, "systemUTC")
                .orShould()
                .callMethod(java.time.Clock.class, "systemDefaultZone")
                .orShould()
                .callMethod(java.time.InstantSource.class, "system")
                .orShould()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(java.time.OffsetDateTime.class, "now", java.time.ZoneId.class)
                .because("the app reads the time from the InstantSource that common.Clocks produces")
                .check(classes);
    }

    @Test
    void evaluatingKnowsNothingOfRunningChecks() {
        noClasses()
                .that()
                .resideInAPackage("dev.tclab.grading.evaluate..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.tclab.grading", "dev.tclab.grading.run..", "dev.tclab.grading.selftest..")
                .because("verdicts and their messages come from values alone, however they were measured")
                .check(classes);
    }

    @Test
    void runningChecksKnowsNothingOfStepsOrSelfTests() {
        noClasses()
                .that()
                .resideInAPackage("dev.tclab.grading.run..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.tclab.grading", "dev.tclab.grading.selftest..")
                .because("the runner runs a spec in a lab; lesson steps, stored runs and self-tests are built on it")
                .check(classes);
    }
}
