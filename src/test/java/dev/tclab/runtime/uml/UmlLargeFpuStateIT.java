package dev.tclab.runtime.uml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.runtime.agent.UmlScripts;
import dev.tclab.testing.RunsAlone;
import dev.tclab.testing.UmlKernelRun;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A UML lab's kernel on a host whose floating-point state is larger than Debian's UML 6.1 was built for: an Intel Xeon
 * with AMX, which refuses to restore an XSAVE area of UML's size (PTRACE_SETREGSET of NT_X86_XSTATE answers EFAULT),
 * so that the kernel's first process died and no UML lab started there. Played on any host, on the real Docker engine
 * with the UML lab image and a UML lab's container settings: a seccomp filter, stacked on Docker's, gives that call
 * that answer, and {@code TCLAB_UML_FXSAVE=1} tells the kernel's launcher (kernel.pl) what it reads from an AMX host's
 * /proc/cpuinfo. UML 7.2 in seccomp mode (how labs run where the host allows it) keeps its processes' registers
 * without ptrace and boots there as it is, and sizes its XSAVE area from the host in ptrace mode too (6.13), where
 * the launcher's refusal would stop it ("Failed to initialize default registers"): the launcher leaves a kernel of
 * 6.13 or later alone, and does its work only for the image's fallback kernel, Debian 12's UML 6.1.
 */
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class UmlLargeFpuStateIT {

    private static final String IMAGE = "tclab/lab-uml:2";
    private static final int MEMORY_MIB = 192;
    private static final String UP = "tclab-init-ran";
    /**
     * Runs what a lab's processes run the most (perl, as the agent and lab.pl; iperf3 over loopback, as a measurement,
     * which copies much memory), says so, then reboot(2) with LINUX_REBOOT_CMD_POWER_OFF (the container ends).
     */
    private static final String INIT = "#!/bin/sh\n"
            + "mount -t proc proc /proc; mount -t tmpfs -o size=16m tmpfs /tmp; ip link set lo up\n"
            + "perl -e 'use warnings; use POSIX (); print qq(perl-ok\\n)'\n"
            + "iperf3 -s -1 -D; sleep 0.5; iperf3 -c 127.0.0.1 -t 2 >/tmp/iperf3.out && echo iperf3-ok\n"
            + "echo " + UP + "\n"
            + UmlKernelRun.POWER_OFF;

    private static final String SECCOMP_OK = "Checking that seccomp filters can be installed...OK";
    private static final String PANIC = "Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b";

    @Test
    void shouldBootWhereTheHostRefusesToRestoreAnXsaveAreaOfUmlsSize() throws Exception {
        String kernel = UmlScripts.kernel(MEMORY_MIB, "/tclab/init");
        String bare = kernel.substring(kernel.indexOf("linux.uml "));

        assertThat(console(bare))
                .as("the kernel alone on such a host, in seccomp mode (the fault played as it is)")
                .contains(SECCOMP_OK, "perl-ok\n", "\niperf3-ok\n", UP)
                .doesNotContain(PANIC);
        assertThat(console(kernel))
                .as("the kernel as a lab starts it: the launcher leaves UML 7.2 as it is")
                .contains(SECCOMP_OK, "perl-ok\n", "\niperf3-ok\n", UP)
                .doesNotContain(PANIC, "Failed to initialize default registers", "Backslash found");
    }

    /** The kernel's launcher made to refuse the call an AMX host refuses, with that host's answer (EFAULT). */
    private static String largeFpuHost() {
        String kernel = UmlScripts.kernel(MEMORY_MIB, "/tclab/init");
        String launcher = kernel.substring("perl -e '".length(), kernel.indexOf("' linux.uml "));
        String host = launcher.replace("PTRACE_GETREGSET => 0x4204", "PTRACE_GETREGSET => 0x4205")
                .replace("RET_EIO => 0x00050000 | 5,", "RET_EIO => 0x00050000 | 14,");
        assertThat(host).as("the played host's filter").contains("0x4205").contains("| 14,");
        return host;
    }

    /** What the console printed until the init's line, a panic, or the end; the container is removed. */
    private static String console(String kernel) throws Exception {
        String name = "tclab-test-fpu-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("TCLAB_INIT", INIT);
        env.put("TCLAB_UML_FXSAVE", "1");
        env.put("TCLAB_HOST", largeFpuHost());
        env.put("TCLAB_KERNEL", kernel);
        List<String> command = UmlKernelRun.command(
                name,
                "tclab-test",
                IMAGE,
                MEMORY_MIB,
                env,
                "printf %s \"$TCLAB_INIT\" >/tclab/init && chmod 555 /tclab/init"
                        + " && exec perl -e \"$TCLAB_HOST\" sh -c \"$TCLAB_KERNEL\"");
        // Standard input stays open: the kernel's console hangs up on its end of file.
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        CompletableFuture<String> printed = CompletableFuture.supplyAsync(() -> readUntilDone(process));
        try {
            return printed.get(90, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("the kernel neither ran its init nor panicked within 90 s: " + kernel, e);
        } finally {
            new ProcessBuilder("docker", "rm", "-f", name)
                    .redirectErrorStream(true)
                    .start()
                    .waitFor(30, TimeUnit.SECONDS);
            process.destroyForcibly();
        }
    }

    private static String readUntilDone(Process process) {
        List<String> lines = new ArrayList<>();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.ISO_8859_1))) {
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
                if (line.contains(UP) || line.contains(PANIC)) {
                    break;
                }
            }
        } catch (IOException e) {
            lines.add("(reading the console failed: " + e.getMessage() + ")");
        }
        return String.join("\n", lines);
    }
}
