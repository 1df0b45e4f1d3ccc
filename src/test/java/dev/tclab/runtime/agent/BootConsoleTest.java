package dev.tclab.runtime.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BootConsoleTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void shouldSayThePanicRatherThanTheStackPrintedAfterIt() {
        BootConsole console = new BootConsole();

        boolean panicked = console.feed(
                bytes(
                        "Linux version 6.1.176\r\nKernel panic - not syncing: Attempted to kill"
                                + " init! exitcode=0x0000000b\nCPU: 0 PID: 1 Comm: init Not tainted\n [<60051a99>] do_exit+0x22a/0xa47\n"));

        assertThat(panicked).isTrue();
        assertThat(console.lastWords())
                .isEqualTo("Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b");
    }

    @Test
    void shouldSayWhatThePlatformsScriptsPrintedOrElseTheLastLine() {
        BootConsole scripts = new BootConsole();
        scripts.feed(bytes("tclab-init: mount proc on /proc: No such device\nreboot: Power down\n"));
        BootConsole other = new BootConsole();
        other.feed(bytes("VFS: Mounted root (hostfs filesystem) readonly\nRun /tclab/init as init proc"));

        assertThat(scripts.feed(new byte[0])).isFalse();
        assertThat(scripts.lastWords()).isEqualTo("tclab-init: mount proc on /proc: No such device");
        assertThat(other.lastWords()).isEqualTo("Run /tclab/init as init proc");
        assertThat(new BootConsole().lastWords()).isEmpty();
    }

    @Test
    void shouldKeepBoundedPrintableLinesWhateverTheKernelPrints() {
        BootConsole console = new BootConsole();

        for (int i = 0; i < 10_000; i++) {
            console.feed(bytes("x".repeat(1000) + "\u0007\u001b[0m\n"));
        }
        console.feed(bytes("\u001b[1mlast\u0000 line"));

        assertThat(console.lastWords()).isEqualTo("[1mlast line");
        console.feed(bytes("\n" + "y".repeat(5000)));
        assertThat(console.lastWords()).hasSize(BootConsole.MAX_LINE).matches("y+");
    }

    @Test
    void shouldSayTheKernelRunsItsProcessesUnderSeccompOnlyWhenItsCheckPassed() {
        BootConsole seccomp = new BootConsole();
        seccomp.feed(bytes("Checking if /dev/shm is on tmpfs...OK\nChecking PROT_EXEC mmap in /dev/shm...OK\n"
                + "Checking that seccomp filters can be installed...OK\nAdding 471367680 bytes to physical memory"));
        BootConsole failed = new BootConsole();
        failed.feed(bytes("Checking that seccomp filters can be installed...failed\n"
                + "Checking syscall emulation for ptrace...OK\n"));
        BootConsole older = new BootConsole();
        older.feed(bytes("Checking syscall emulation patch for ptrace...OK\nChecking advanced syscall emulation patch"
                + " for ptrace...OK\nChecking environment variables for a tempdir...none found\n"));

        assertThat(seccomp.userspaceMode()).isEqualTo("seccomp");
        assertThat(failed.userspaceMode()).isEqualTo("ptrace");
        assertThat(older.userspaceMode()).isEqualTo("ptrace");
    }
}
