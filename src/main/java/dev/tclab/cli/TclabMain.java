package dev.tclab.cli;

import dev.tclab.grading.selftest.LessonSelfTest;
import dev.tclab.grading.selftest.SelfTestReport;
import dev.tclab.host.HostCommand;
import dev.tclab.host.HostSetup;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonCatalog;
import dev.tclab.runtime.EngineUnavailableException;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The app's entry point: without arguments it serves the web app; {@code selftest [--runs N] [slug...]} tests
 * lessons by their own solutions against the Docker engine and exits 0 only when every tested lesson is ok;
 * {@code host add|passwd NAME} manages workshop host accounts ({@link HostCommand});
 * {@code validate [--watch] [DIR...]} checks lesson folders without starting Quarkus (no server, database or
 * Docker), so an author's edit loop takes a JVM start, not an app start.
 */
@QuarkusMain
public class TclabMain implements QuarkusApplication {

    static final String USAGE =
            "usage: tclab [selftest [--runs N] [lesson-slug...] | validate [--watch] [DIR...]] | " + HostCommand.USAGE;

    public static void main(String... args) {
        if (args.length > 0 && args[0].equals("validate")) {
            System.exit(ValidateLessons.run(List.of(args).subList(1, args.length), System.out, System.err));
        }
        Quarkus.run(TclabMain.class, args);
    }

    @Inject
    LessonSelfTest selfTest;

    @Inject
    LessonCatalog catalog;

    @Inject
    HostCommand hostCommand;

    @Inject
    HostSetup hostSetup;

    @Override
    public int run(String... args) throws Exception {
        if (args.length == 0) {
            hostSetup.announce();
            Quarkus.waitForExit();
            return 0;
        }
        if (args[0].equals("host")) {
            return hostCommand.run(List.of(args).subList(1, args.length), System.out, System.err);
        }
        if (!args[0].equals("selftest")) {
            System.err.println(USAGE);
            return 2;
        }
        return selftest(List.of(args).subList(1, args.length));
    }

    private int selftest(List<String> args) throws EngineUnavailableException {
        int runs = 1;
        List<String> slugs = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--runs")
                    && i + 1 < args.size()
                    && args.get(i + 1).matches("[1-9][0-9]*")) {
                runs = Integer.parseInt(args.get(++i));
            } else if (args.get(i).startsWith("-")) {
                System.err.println(USAGE);
                return 2;
            } else {
                slugs.add(args.get(i));
            }
        }
        List<Lesson> lessons = new ArrayList<>();
        for (String slug :
                slugs.isEmpty() ? catalog.lessons().stream().map(Lesson::slug).toList() : slugs) {
            Optional<Lesson> lesson = catalog.lesson(slug);
            if (lesson.isEmpty()) {
                System.err.println("no lesson '" + slug + "'");
                return 2;
            }
            lessons.add(lesson.get());
        }
        boolean allOk = true;
        for (Lesson lesson : lessons) {
            SelfTestReport report = selfTest.run(lesson, runs, System.err::println);
            System.out.print(report.text());
            allOk &= !"broken".equals(report.verdict());
        }
        return allOk ? 0 : 1;
    }
}
