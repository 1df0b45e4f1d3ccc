package dev.tclab.scheduling;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.quarkus.scheduler.Scheduled;
import org.junit.jupiter.api.Test;

/** A new {@code @Scheduled} method cannot forget {@link Job}: it would die quietly on an Error, unwatched. */
class EveryScheduledMethodIsAJobTest {

    @Test
    void everyScheduledMethodIsAJob() {
        JavaClasses classes = new ClassFileImporter().importPackages("dev.tclab");
        methods()
                .that()
                .areAnnotatedWith(Scheduled.class)
                .should()
                .beAnnotatedWith(Job.class)
                .because("a job must survive what it throws and show on liveness when it stops (issue 43)")
                .check(classes);
    }
}
