package dev.tclab.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class H2RefusalTest {

    private static final Path DIR = Path.of("/srv/tclab/data");

    @Test
    void shouldGiveH2sReasonFirstAndNotBlameAnotherTclabForAnythingElse() {
        SQLException relative = new SQLException(
                "A file path that is implicitly relative to the current working"
                        + " directory is not allowed in the database URL \"jdbc:h2:file:data/tclab\". [90011-240]",
                "90011",
                90011);

        String message = Database.h2Refusal(DIR, relative);

        assertThat(message)
                .startsWith("tclab cannot open its H2 database in /srv/tclab/data: A file path that is"
                        + " implicitly relative")
                .contains("Nothing was reset; restore a backup or move the directory aside")
                .doesNotContain("another", "Another");
    }

    @Test
    void shouldSayAnotherProcessHasItOpenOnlyWhenH2FoundTheFileLocked() {
        SQLException locked = new SQLException(
                "Database may be already in use: \"/srv/tclab/data/tclab.mv.db\"."
                        + " Possible solutions: close all other connection(s); use the server mode [90020-240]",
                "90020",
                90020);

        String message = Database.h2Refusal(DIR, locked);

        assertThat(message)
                .startsWith("tclab cannot open its H2 database in /srv/tclab/data: Database may be already in use")
                .contains("Another process (a tclab serving from this directory")
                .contains("stop that one first, or set tclab.data-dir to another folder");
    }
}
