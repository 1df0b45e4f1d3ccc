package dev.tclab.testing;

import dev.tclab.runtime.agent.UmlScripts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The docker CLI's {@code docker run} of the UML lab image with a UML lab's container settings (no capability, no
 * network, a read-only root, its memory and tmpfs sizes), attached: what a test or a benchmark floor boots a kernel
 * with, outside the app.
 */
public final class UmlKernelRun {

    /** An init script's last line: reboot(2) with LINUX_REBOOT_CMD_POWER_OFF, so that the container ends. */
    public static final String POWER_OFF = "exec /usr/bin/perl -e 'syscall(169, 0xfee1dead, 672274793, 0x4321fedc)'\n";

    private UmlKernelRun() {}

    /**
     * The command: container {@code name} labelled {@code tclab.app=app}, with {@code env}, running {@code shell} (a
     * shell command) for a kernel of {@code memoryMib}.
     */
    public static List<String> command(
            String name, String app, String image, int memoryMib, Map<String, String> env, String shell) {
        List<String> command = new ArrayList<>(List.of(
                "docker",
                "run",
                "--rm",
                "-i",
                "--name",
                name,
                "--label",
                "tclab.app=" + app,
                "--network",
                "none",
                "--cap-drop",
                "ALL",
                "--security-opt",
                "no-new-privileges",
                "--read-only",
                "--log-driver",
                "none",
                "--memory",
                UmlScripts.containerMemoryMib(memoryMib) + "m",
                "--tmpfs",
                "/dev/shm:rw,nosuid,nodev,exec,size=" + UmlScripts.shmMib(memoryMib) + "m",
                "--tmpfs",
                "/tclab:rw,nosuid,nodev,exec,size=1m",
                "--tmpfs",
                "/tmp:rw,nosuid,nodev,noexec,size=8m"));
        env.forEach((key, value) -> command.addAll(List.of("-e", key + "=" + value)));
        command.addAll(List.of(image, "sh", "-c", shell));
        return command;
    }
}
