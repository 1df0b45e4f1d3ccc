package dev.tclab.lab;

import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.runtime.topology.Topology;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * A lab as the API shows it. Times are ISO-8601; {@code expiresAt} is when the lab would be stopped if left
 * untouched from now (its idle expiry, or its end of life if sooner); {@code endsAt} is its end of life, however busy
 * (a workshop event's lifetime or closing time, or the server's maximum lifetime); {@code queue} is set while the
 * lab waits in the start queue; {@code ownKernel} is the kernel of a lab that runs in one of its own (User-Mode Linux):
 * its release and how it runs the lab's processes ({@code seccomp} or {@code ptrace}), null on the host's kernel or
 * before that kernel was first probed.
 */
public record LabView(
        String id,
        String lesson,
        String status,
        String stage,
        String reason,
        List<NodeView> nodes,
        Instant createdAt,
        Instant readyAt,
        Instant expiresAt,
        Instant endsAt,
        QueueView queue,
        OwnKernel ownKernel) {

    /** A lab's own kernel: its release, and {@code seccomp} or {@code ptrace}. */
    public record OwnKernel(String release, String mode) {}

    /**
     * Where a queued lab stands: {@code position} 1 starts next, of {@code waiting} in all; {@code estimatedWaitSeconds}
     * is null until the server has seen labs end.
     */
    public record QueueView(int position, int waiting, Long estimatedWaitSeconds) {}

    /**
     * A node, its interfaces, and whether the learner gets a terminal on it. {@code stats} lists the interfaces (or
     * patterns like {@code ifb*}) whose statistics are shown; empty means all of them.
     */
    public record NodeView(String name, List<String> interfaces, boolean terminal, List<String> stats) {}

    public static LabView of(
            Lab lab, java.util.Optional<StartQueue.Spot> spot, java.util.Optional<KernelCapabilities> ownKernel) {
        Topology topology = lab.topology();
        List<NodeView> nodes = topology.nodes().values().stream()
                .map(n -> new NodeView(n.name(), topology.interfacesOf(n.name()), !n.hidden(), n.stats()))
                .toList();
        boolean holdsSlot = lab.phase().holdsSlot();
        Instant expires = holdsSlot ? lab.expiresAt() : null;
        return new LabView(
                lab.id(),
                lab.lesson(),
                lab.phase().name().toLowerCase(Locale.ROOT),
                lab.stage() == null ? null : lab.stage().name().toLowerCase(Locale.ROOT),
                lab.reason(),
                nodes,
                lab.createdAt(),
                lab.readyAt(),
                expires,
                holdsSlot ? lab.terms().endsAt() : null,
                spot.map(s -> new QueueView(
                                s.position(),
                                s.waiting(),
                                s.estimatedWait()
                                        .map(java.time.Duration::toSeconds)
                                        .orElse(null)))
                        .orElse(null),
                ownKernel.map(k -> new OwnKernel(k.kernel(), k.mode())).orElse(null));
    }
}
