package dev.tclab.parts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.testing.RunsAlone;
import dev.tclab.testing.UmlFigures;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.platform.suite.api.Suite;

/**
 * The parts' rules that their selectors cannot say: every test class has a name some part selects by, the two halves
 * that run side by side at the start name shared holders only (an exclusive one there would wait for the other half,
 * or skew it), and a class that holds UML figures holds the measurements lock too.
 */
class PartsTest {

    @Test
    void everyTestClassIsAUnitTestAnIntegrationTestOrABenchmark() throws Exception {
        assertThat(testClasses())
                .filteredOn(PartsTest::hasTests)
                .extracting(Class::getSimpleName)
                .allMatch(name -> name.endsWith("Test") || name.endsWith("IT") || name.endsWith("Benchmark"));
    }

    @Test
    void theHalvesNameSharedHoldersOnlyEachNameFindsAClassAndNoClassIsInBoth() throws Exception {
        List<Class<?>> classes = testClasses();
        List<Class<?>> first = named(classes, Part1SharedHoldersA.CLASSES);
        List<Class<?>> second = named(classes, Part2SharedHoldersB.CLASSES);
        assertThat(first).hasSize(Part1SharedHoldersA.CLASSES.split("\\|").length);
        assertThat(second).hasSize(Part2SharedHoldersB.CLASSES.split("\\|").length);
        assertThat(first).doesNotContainAnyElementsOf(second);
        assertThat(List.of(Part1SharedHoldersA.class, Part2SharedHoldersB.class))
                .allMatch(OneOfTheHalves.class::isAssignableFrom);
        assertThat(Stream.concat(first.stream(), second.stream()))
                .allMatch(c -> c.isAnnotationPresent(RunsAlone.class)
                        && c.getAnnotation(RunsAlone.class).hold() == RunsAlone.Hold.SHARED);
    }

    @Test
    void theSecondUnitTestsPartFindsUnitTests() throws Exception {
        assertThat(named(testClasses(), Part6UnitTestsB.CLASSES))
                .filteredOn(PartsTest::hasTests)
                .isNotEmpty();
    }

    @Test
    void everyPartButTheUmlFiguresSharesTheMachineWhichThatOneHasAlone() throws Exception {
        List<Class<?>> parts = testClasses().stream()
                .filter(c -> c.isAnnotationPresent(Suite.class))
                .toList();
        assertThat(parts).contains(Part1SharedHoldersA.class, Part7UmlFigures.class);
        assertThat(parts)
                .filteredOn(part -> part != Part7UmlFigures.class)
                .allMatch(SharesTheMachine.class::isAssignableFrom);
        assertThat(SharesTheMachine.class.isAssignableFrom(Part7UmlFigures.class))
                .isFalse();
    }

    @Test
    void thePartsOfLockHoldersLeaveOutByNameExactlyTheIntegrationTestsWithoutALockWithAProfileOfTheirOwn()
            throws Exception {
        List<Class<?>> classes = testClasses();
        assertThat(named(classes, Parts.OWN_PROFILE_INTEGRATION_TESTS))
                .as("Parts.OWN_PROFILE_INTEGRATION_TESTS")
                .containsExactlyInAnyOrderElementsOf(classes.stream()
                        .filter(c -> c.getSimpleName().endsWith("IT")
                                && c.isAnnotationPresent(TestProfile.class)
                                && !c.isAnnotationPresent(RunsAlone.class)
                                && !c.isAnnotationPresent(UmlFigures.class))
                        .toList());
    }

    @Test
    void everyClassThatHoldsUmlFiguresHoldsTheLock() throws Exception {
        assertThat(testClasses())
                .filteredOn(c -> c.isAnnotationPresent(UmlFigures.class))
                .isNotEmpty()
                .allMatch(c -> c.isAnnotationPresent(RunsAlone.class));
    }

    private static List<Class<?>> named(List<Class<?>> classes, String pattern) {
        Pattern names = Pattern.compile(pattern);
        return classes.stream()
                .filter(c -> names.matcher(c.getName()).matches())
                .toList();
    }

    private static boolean hasTests(Class<?> type) {
        if (Modifier.isAbstract(type.getModifiers())) {
            return false;
        }
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (var method : c.getDeclaredMethods()) {
                for (var annotation : method.getAnnotations()) {
                    String name = annotation.annotationType().getName();
                    if (name.startsWith("org.junit.jupiter") && name.endsWith("Test")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The top-level classes compiled from src/test/java. */
    private static List<Class<?>> testClasses() throws IOException, URISyntaxException {
        Path root = Path.of(PartsTest.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        try (Stream<Path> files = Files.walk(root)) {
            return files.map(root::relativize)
                    .map(Path::toString)
                    .filter(name -> name.endsWith(".class") && !name.contains("$"))
                    .map(name ->
                            name.substring(0, name.length() - ".class".length()).replace('/', '.'))
                    .map(PartsTest::load)
                    .toList();
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, PartsTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
