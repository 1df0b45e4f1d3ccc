package dev.tclab.runtime.kubernetes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SELinuxOptions;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The Pod Security Standards' {@code baseline} level (Kubernetes 1.30 wording), each control checked on a pod spec as
 * the admission controller would: what a namespace labelled {@code pod-security.kubernetes.io/enforce: baseline}
 * refuses. Windows host processes are not checked (tclab makes Linux pods only).
 */
final class PodSecurityBaseline {

    /** The capabilities baseline lets a container add; anything else is refused. */
    static final Set<String> ALLOWED_CAPABILITIES = Set.of(
            "AUDIT_WRITE",
            "CHOWN",
            "DAC_OVERRIDE",
            "FOWNER",
            "FSETID",
            "KILL",
            "MKNOD",
            "NET_BIND_SERVICE",
            "SETFCAP",
            "SETGID",
            "SETPCAP",
            "SETUID",
            "SYS_CHROOT");

    static final Set<String> SAFE_SYSCTLS = Set.of(
            "kernel.shm_rmid_forced",
            "net.ipv4.ip_local_port_range",
            "net.ipv4.ip_unprivileged_port_start",
            "net.ipv4.tcp_syncookies",
            "net.ipv4.ping_group_range",
            "net.ipv4.ip_local_reserved_ports",
            "net.ipv4.tcp_keepalive_time",
            "net.ipv4.tcp_fin_timeout",
            "net.ipv4.tcp_keepalive_intvl",
            "net.ipv4.tcp_keepalive_probes");

    private static final Set<String> SELINUX_TYPES =
            Set.of("container_t", "container_init_t", "container_kvm_t", "container_engine_t");

    private PodSecurityBaseline() {}

    /** What baseline refuses in the pod, one line each; empty when it admits it. */
    static List<String> violations(Pod pod) {
        List<String> found = new ArrayList<>();
        PodSpec spec = pod.getSpec();
        if (Boolean.TRUE.equals(spec.getHostNetwork())) {
            found.add("hostNetwork");
        }
        if (Boolean.TRUE.equals(spec.getHostPID())) {
            found.add("hostPID");
        }
        if (Boolean.TRUE.equals(spec.getHostIPC())) {
            found.add("hostIPC");
        }
        for (Volume volume : spec.getVolumes() == null ? List.<Volume>of() : spec.getVolumes()) {
            if (volume.getHostPath() != null) {
                found.add("hostPath volume " + volume.getName());
            }
        }
        PodSecurityContext podContext = spec.getSecurityContext();
        if (podContext != null) {
            seLinux(podContext.getSeLinuxOptions(), "pod", found);
            if (podContext.getSeccompProfile() != null
                    && "Unconfined".equals(podContext.getSeccompProfile().getType())) {
                found.add("pod seccomp Unconfined");
            }
            if (podContext.getAppArmorProfile() != null
                    && "Unconfined".equals(podContext.getAppArmorProfile().getType())) {
                found.add("pod AppArmor Unconfined");
            }
            for (Sysctl sysctl : podContext.getSysctls() == null ? List.<Sysctl>of() : podContext.getSysctls()) {
                if (!SAFE_SYSCTLS.contains(sysctl.getName())) {
                    found.add("sysctl " + sysctl.getName());
                }
            }
        }
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null
                ? Map.of()
                : pod.getMetadata().getAnnotations();
        annotations.forEach((key, value) -> {
            if (key.startsWith("container.apparmor.security.beta.kubernetes.io/") && value.equals("unconfined")) {
                found.add("AppArmor annotation " + key);
            }
        });
        Stream.of(spec.getInitContainers(), spec.getContainers())
                .filter(list -> list != null)
                .flatMap(List::stream)
                .forEach(container -> container(container, found));
        if (spec.getEphemeralContainers() != null
                && !spec.getEphemeralContainers().isEmpty()) {
            found.add("ephemeral containers (not checked here)");
        }
        return found;
    }

    private static void container(Container container, List<String> found) {
        String name = container.getName();
        for (ContainerPort port : container.getPorts() == null ? List.<ContainerPort>of() : container.getPorts()) {
            if (port.getHostPort() != null && port.getHostPort() != 0) {
                found.add(name + ": hostPort " + port.getHostPort());
            }
        }
        SecurityContext context = container.getSecurityContext();
        if (context == null) {
            return;
        }
        if (Boolean.TRUE.equals(context.getPrivileged())) {
            found.add(name + ": privileged");
        }
        if (context.getCapabilities() != null && context.getCapabilities().getAdd() != null) {
            for (String capability : context.getCapabilities().getAdd()) {
                if (!ALLOWED_CAPABILITIES.contains(capability)) {
                    found.add(name + ": adds capability " + capability);
                }
            }
        }
        if (context.getProcMount() != null && !"Default".equals(context.getProcMount())) {
            found.add(name + ": procMount " + context.getProcMount());
        }
        if (context.getSeccompProfile() != null
                && "Unconfined".equals(context.getSeccompProfile().getType())) {
            found.add(name + ": seccomp Unconfined");
        }
        if (context.getAppArmorProfile() != null
                && "Unconfined".equals(context.getAppArmorProfile().getType())) {
            found.add(name + ": AppArmor Unconfined");
        }
        seLinux(context.getSeLinuxOptions(), name, found);
    }

    private static void seLinux(SELinuxOptions options, String where, List<String> found) {
        if (options == null) {
            return;
        }
        if (options.getType() != null && !options.getType().isEmpty() && !SELINUX_TYPES.contains(options.getType())) {
            found.add(where + ": SELinux type " + options.getType());
        }
        if (options.getUser() != null && !options.getUser().isEmpty()) {
            found.add(where + ": SELinux user");
        }
        if (options.getRole() != null && !options.getRole().isEmpty()) {
            found.add(where + ": SELinux role");
        }
    }
}
