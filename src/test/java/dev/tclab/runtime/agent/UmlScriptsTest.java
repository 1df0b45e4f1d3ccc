package dev.tclab.runtime.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.topology.Topology;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UmlScriptsTest {

    private final Topology twoNode = TestTopologies.load("two-node");

    @Test
    void shouldAskLabPlForEveryNodeAndLinkWithTheCapsGiven() {
        assertThat(UmlScripts.wire(twoNode, new NodeDiskCaps(34, 8, 4), 256))
                .containsExactly(
                        "wire", "34", "8", "4", "256", "node=client", "node=server", "link=eth1,client,eth1,server");
    }

    @Test
    void shouldPassEachNodesEnvironmentOnOneLineAndItsSysctls() {
        Topology.Node node = new Topology.Node(
                "gw",
                "tclab/lab-node:1",
                false,
                Map.of("GREETING", "a\nb"),
                Map.of("net.ipv4.ip_forward", "1"),
                List.of(),
                List.of());
        Topology topology = new Topology("one", Map.of("gw", node), List.of());

        assertThat(UmlScripts.wire(topology, new NodeDiskCaps(1, 1, 1), 256))
                .containsExactly(
                        "wire", "1", "1", "1", "256", "node=gw", "env=GREETING=a b", "sysctl=net.ipv4.ip_forward=1");
    }

    @Test
    void shouldRunEachNodesSetupCommandsInOrderStoppingAtTheFirstThatFails() {
        List<String> setup = UmlScripts.setup(twoNode);

        assertThat(setup).hasSize(5).startsWith("setup", "node=client");
        assertThat(setup.get(2))
                .isEqualTo("script=( eval 'ip addr add 10.0.0.1/24 dev eth1' ) || { echo \"setup command failed: \"'ip"
                        + " addr add 10.0.0.1/24 dev eth1' >&2; exit 1; }\n");
        assertThat(setup.get(3)).isEqualTo("node=server");
        assertThat(setup.get(4)).contains("( eval 'iperf3 -s -D' )");
    }

    @Test
    void shouldEnterTheNodeAndBecomeTheCommandWithItsArgumentsAsGiven() {
        assertThat(UmlScripts.enter("client", List.of("bash", "-l", "a b")))
                .containsExactly("enter", "client", "bash", "-l", "a b");
    }

    @Test
    void shouldBootWithLabPlBesideTheInitAndTheAgent() {
        assertThat(UmlScripts.boot(192).get(2)).contains("\"$TCLAB_LAB\" >/tclab/lab.pl");
        assertThat(UmlScripts.labLoader()).isEqualTo("do '/tclab/lab.pl'; die($@ || \"/tclab/lab.pl: $!\\n\");");
    }

    @Test
    void shouldAskForNoSetupWhenNoNodeHasCommands() {
        Topology bare = new Topology("bare", Map.of(), List.of());

        assertThat(UmlScripts.setup(bare)).isEmpty();
    }

    @Test
    void shouldNameTheScriptsVersionByTheirContentSoThatAnyChangeIsAnotherVersion() {
        assertThat(UmlScripts.VERSION)
                .matches("[0-9a-f]{12}")
                .isEqualTo(ScriptDigest.of(UmlScripts.init(), SidecarAgent.script(), UmlScripts.lab()))
                .isNotEqualTo(ScriptDigest.of(UmlScripts.init(), SidecarAgent.script(), UmlScripts.lab() + "\n"))
                .isNotEqualTo(ScriptDigest.of(UmlScripts.init() + UmlScripts.lab(), SidecarAgent.script(), ""));
        assertThat(SidecarAgent.version()).matches("[0-9a-f]{12}").isEqualTo(ScriptDigest.of(SidecarAgent.script()));
        assertThat(UmlScripts.bootedByThisBuild(Map.of("tclab.platform", UmlScripts.VERSION)))
                .isTrue();
        assertThat(UmlScripts.bootedByThisBuild(Map.of("tclab.platform", "0123456789ab")))
                .isFalse();
        assertThat(UmlScripts.bootedByThisBuild(Map.of()))
                .as("made before versions")
                .isFalse();
    }

    @Test
    void shouldStartTheKernelThroughItsLauncherWithoutItsCommentLines() {
        String kernel = UmlScripts.kernel(192, "/tclab/init");

        assertThat(kernel)
                .startsWith("perl -e 'use strict;")
                .contains("PTRACE_GETREGSET => 0x4204")
                .contains("' linux.uml rootfstype=hostfs rootflags=/ ro init=/tclab/init ")
                .doesNotContain("# ");
        assertThat(UmlScripts.boot(192).get(2)).endsWith("&& exec " + kernel);
    }

    @Test
    void shouldRefuseToQuoteAScriptWithASingleQuoteInItsCode() {
        assertThat(UmlScripts.withoutCommentLines("#!/usr/bin/perl\n# the kernel's\n  # note\nexit 0;\n"))
                .isEqualTo("exit 0;");
        assertThatThrownBy(() -> UmlScripts.withoutCommentLines("print 'x';\n"))
                .isInstanceOf(IllegalStateException.class);
    }
}
