package dev.tclab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.ColorScheme;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The browser tests' Chromium runs at the tests' CPU priority or below, never above. {@code bin/test} runs the suite at
 * nice 19 so that the labs other classes measure keep their CPU; Chromium, when it may (as root), sets its threads back
 * to nice 0, so {@code bin/test} takes CAP_SYS_NICE away from it. At nice 0, busy beside a User-Mode Linux lab, it took
 * a 90 Mbit/s HTB class there down to 66.6 Mbit/s. Outside {@code bin/test} (nice 0) this holds trivially.
 */
class BrowserPriorityTest {

    @Test
    void everyThreadOfTheBrowserRunsNoHigherThanTheTests() throws IOException {
        long self = ProcessHandle.current().pid();
        int ours = nice(Path.of("/proc", Long.toString(self), "stat"));
        try (Chromium chromium = Chromium.launch();
                BrowserContext context =
                        chromium.context(Chromium.Screen.LAPTOP, ColorScheme.LIGHT, Duration.ofSeconds(30));
                Page page = context.newPage()) {
            // A page with a script: the renderer, the GPU and network processes all start their threads.
            page.setContent("<p id=p>priority</p><script>document.getElementById('p').textContent = 'ready'</script>");
            assertThat(page.textContent("#p")).isEqualTo("ready");

            List<String> threads = new ArrayList<>();
            List<String> above = new ArrayList<>();
            for (ProcessHandle process : ProcessHandle.current().descendants().toList()) {
                Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
                String command = process.info().command().orElse("?");
                try (Stream<Path> listed = Files.list(tasks)) {
                    for (Path task : listed.toList()) {
                        int nice = nice(task.resolve("stat"));
                        String thread = command + " pid " + process.pid() + " thread " + task.getFileName()
                                + " at nice " + nice;
                        threads.add(thread);
                        if (nice < ours) {
                            above.add(thread);
                        }
                    }
                } catch (IOException gone) {
                    // A process that ended while listed (a short-lived helper) runs at no priority any more.
                }
            }
            assertThat(threads)
                    .as("the browser's threads, started by this JVM")
                    .anySatisfy(t -> assertThat(t).contains("chromium"));
            assertThat(above)
                    .as("threads this JVM (nice " + ours + ") started that run above its priority; bin/test runs the"
                            + " suite at nice 19 without CAP_SYS_NICE so that nothing it starts can raise itself")
                    .isEmpty();
        }
    }

    /** Field 19 of a /proc stat line; the command in field 2 is in parentheses and may hold spaces. */
    private static int nice(Path stat) throws IOException {
        String line = Files.readString(stat);
        String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[19 - 3]);
    }
}
