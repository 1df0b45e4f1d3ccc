package dev.tclab.runtime.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tclab.lab.TestTopologies;
import dev.tclab.yaml.FileProblem;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyParserTest {

    private static List<String> problems(String yaml) {
        return assertThrows(TopologyException.class, () -> TopologyParser.parse("lab.yml", yaml)).problems().stream()
                .map(FileProblem::toString)
                .toList();
    }

    @Test
    void shouldReadNodesLinksHiddenNodesSysctlsAndSetupCommands() throws Exception {
        Topology topology = TestTopologies.load("four-node");
        assertThat(topology.name()).isEqualTo("four-node");
        assertThat(topology.nodes()).containsOnlyKeys("client", "gw", "modem", "server");
        assertThat(topology.interfacesOf("gw")).containsExactly("eth1", "eth2");
        assertThat(topology.interactiveNodes()).containsExactly("client", "gw", "server");
        assertThat(topology.nodes().get("gw").sysctls()).containsEntry("net.ipv4.ip_forward", "1");
        assertThat(topology.nodes().get("server").exec()).contains("iperf3 -s -D");
        assertThat(topology.links()).hasSize(3);
        assertThat(topology.links().get(1).a()).isEqualTo(new Topology.Endpoint("gw", "eth2"));
    }

    @Test
    void shouldReadWhoseKernelTheLabRunsOnHostByDefault() throws Exception {
        String lab = """
                name: x
                %s
                topology:
                  nodes:
                    client: {}
                """;
        assertThat(TopologyParser.parse("lab.yml", lab.formatted("")).kernel()).isEqualTo(Topology.Kernel.HOST);
        assertThat(TopologyParser.parse("lab.yml", lab.formatted("kernel: uml")).kernel())
                .isEqualTo(Topology.Kernel.UML);
        assertThat(TopologyParser.parse("lab.yml", lab.formatted("kernel: auto"))
                        .kernel())
                .isEqualTo(Topology.Kernel.AUTO);
        assertThat(problems(lab.formatted("kernel: kvm")))
                .singleElement()
                .asString()
                .startsWith("lab.yml:2: kernel: ")
                .contains("host")
                .contains("uml")
                .contains("auto");
    }

    @Test
    void shouldNameFileLineAndFieldOfAnUnknownField() {
        assertThat(problems("""
                name: x
                topology:
                  nodes:
                    client:
                      imgae: foo
                """))
                .containsExactly("lab.yml:5: topology.nodes.client.imgae: unknown key 'imgae'; expected one of "
                        + "kind, image, hidden, env, sysctls, exec, stats");
    }

    @Test
    void shouldReportAMissingNameInsteadOfFailing() {
        assertThat(problems("""
                topology:
                  nodes:
                    a: {}
                """))
                .singleElement()
                .asString()
                .startsWith("lab.yml:1: missing required key 'name' (the lab's name: ");
    }

    @Test
    void shouldRejectLinkToMissingNodeAndReuseOfAnInterface() {
        List<String> found = problems("""
                name: x
                topology:
                  nodes:
                    a: {}
                    b: {}
                  links:
                    - endpoints: ["a:eth1", "b:eth1"]
                    - endpoints: ["a:eth1", "b:eth2"]
                    - endpoints: ["a:eth3", "c:eth1"]
                    - endpoints: ["a:eth2"]
                """);
        assertThat(found)
                .containsExactly(
                        "lab.yml:8: topology.links[1].endpoints: interface a:eth1 is already used by another link",
                        "lab.yml:9: topology.links[2].endpoints[1]: no node named 'c' in topology.nodes (have: a, b)",
                        "lab.yml:10: topology.links[3].endpoints: needs at least 2 items, found 1 (the link's two ends, e.g."
                                + " [\"client:eth1\", \"server:eth1\"]; each interface is used by one link only)");
    }

    @Test
    void shouldReportEverythingWrongWithANodeAtOnce() {
        List<String> found = problems("""
                name: Bad_Name
                topology:
                  nodes:
                    Client:
                      kind: ceos
                      hidden: maybe
                      sysctls: { kernel.pid_max: 10 }
                      exec: ip addr add 10.0.0.1/24 dev eth1
                """);
        assertThat(found)
                .hasSize(6)
                .anySatisfy(p -> assertThat(p).startsWith("lab.yml:1: name: 'Bad_Name' is not valid"))
                .anySatisfy(p -> assertThat(p)
                        .startsWith("lab.yml:4: topology.nodes.Client: 'Client' is not a valid name here:"
                                + " the lab's nodes by name: 1-20 lowercase letters"))
                .anySatisfy(p -> assertThat(p)
                        .isEqualTo("lab.yml:5: topology.nodes.Client.kind: expected 'linux', found 'ceos':"
                                + " only 'linux' is supported (the default)"))
                .anySatisfy(p -> assertThat(p)
                        .isEqualTo("lab.yml:6: topology.nodes.Client.hidden: expected one of true, false,"
                                + " yes, no, found 'maybe'"))
                .anySatisfy(p -> assertThat(p).contains("lab.yml:7:").contains("network sysctls (net.* only"))
                .anySatisfy(p -> assertThat(p)
                        .isEqualTo("lab.yml:8: topology.nodes.Client.exec: expected a list, found"
                                + " 'ip addr add 10.0.0.1/24 dev eth1'"));
    }

    @Test
    void shouldLocateYamlSyntaxErrors() {
        assertThat(problems("name: x\ntopology:\n  nodes: [a, b\n"))
                .singleElement()
                .isEqualTo("lab.yml:3: this file is not valid YAML: the list opened here with '[' is not closed "
                        + "(found the end on line 4)");
    }

    @Test
    void shouldRequireNameTopologyAndNodes() {
        assertThat(problems("just text")).containsExactly("lab.yml:1: expected a mapping, found 'just text'");
        assertThat(problems("name: x\ntopology: {}\n"))
                .singleElement()
                .asString()
                .startsWith("lab.yml:2: topology: missing required key 'nodes' (the lab's nodes by name: ");
    }

    @Test
    void shouldRejectInterfaceNamesLinuxCannotUse() {
        assertThat(problems("""
                name: x
                topology:
                  nodes: {a: {}, b: {}}
                  links:
                    - endpoints: ["a:averyveryverylongname", "b:lo"]
                """))
                .containsExactly(
                        "lab.yml:5: topology.links[0].endpoints[0]: 'a:averyveryverylongname' is not valid: node:interface, e.g."
                                + " client:eth1 (interface: 1-15 letters, digits, '_', '.', '-'; not lo)",
                        "lab.yml:5: topology.links[0].endpoints[1]: 'b:lo' is not allowed here: lo cannot be one end of a link");
    }

    @Test
    void shouldReadTheInterfacesWhoseStatisticsAreShown() throws Exception {
        Topology topology = TopologyParser.parse("lab.yml", """
                name: x
                topology:
                  nodes:
                    gw: { stats: [eth2, "ifb*"] }
                    server: {}
                """);
        assertThat(topology.nodes().get("gw").stats()).containsExactly("eth2", "ifb*");
        assertThat(topology.nodes().get("server").stats())
                .as("no list: every interface")
                .isEmpty();
    }

    @Test
    void shouldRejectStatisticsThatCouldNeverBeShown() {
        assertThat(problems("""
                name: x
                topology:
                  nodes:
                    a: { stats: ["eth1; reboot", lo, averyveryverylongname] }
                    b: { stats: [] }
                    modem: { hidden: true, stats: [eth1] }
                """))
                .containsExactly(
                        "lab.yml:4: topology.nodes.a.stats[0]: 'eth1; reboot' is not valid: an interface name, or a pattern in"
                                + " which * stands for any characters, e.g. ifb*",
                        "lab.yml:4: topology.nodes.a.stats[1]: 'lo' is not allowed here: lo is never shown",
                        "lab.yml:4: topology.nodes.a.stats[2]: 'averyveryverylongname' is not valid: an interface name, or a"
                                + " pattern in which * stands for any characters, e.g. ifb*",
                        "lab.yml:5: topology.nodes.b.stats: needs at least 1 item, found 0 (the interfaces whose live tc statistics"
                                + " the page shows for this node; leave out to show every interface but lo. Not allowed on a hidden node)",
                        "lab.yml:6: topology.nodes.modem.stats: a hidden node has no terminal and no statistics on the page;"
                                + " remove 'stats' or 'hidden'");
    }

    private static final String TWO_NODES = """
            name: x
            topology:
              nodes:
                client: {}
                server: {}
            """;

    @Test
    void shouldReadProbesWithTheirIntervalsAndTheDefault() throws Exception {
        Topology topology = TopologyParser.parse("lab.yml", TWO_NODES + """
                probes:
                  - name: client to server        # the plot's label
                    from: client
                    to: 198.51.100.10
                    every: 200ms
                  - { name: "server > client", from: server, to: 10.0.0.1, every: 1.5s }
                  - { name: slow, from: server, to: 10.0.0.1, every: 5s }
                  - { name: default, from: client, to: 10.0.0.2 }
                """);
        assertThat(topology.probes())
                .containsExactly(
                        new Topology.Probe("client to server", "client", "198.51.100.10", Duration.ofMillis(200)),
                        new Topology.Probe("server > client", "server", "10.0.0.1", Duration.ofMillis(1500)),
                        new Topology.Probe("slow", "server", "10.0.0.1", Duration.ofSeconds(5)),
                        new Topology.Probe("default", "client", "10.0.0.2", Duration.ofMillis(200)));
        assertThat(TopologyParser.parse("lab.yml", TWO_NODES).probes())
                .as("no probes: none")
                .isEmpty();
    }

    @Test
    void shouldRejectProbesThatCannotRunWithFileLineAndWhatToWrite() {
        assertThat(problems(TWO_NODES + """
                probes:
                  - { name: a, from: router, to: 10.0.0.2 }
                  - { name: b, from: client, to: server }
                  - { name: c, from: client, to: 10.0.0.256 }
                  - { name: d, from: client, to: 010.0.0.2 }
                """))
                .containsExactly(
                        "lab.yml:7: probes[0].from: no node named 'router' in topology.nodes (have: client, server)",
                        "lab.yml:8: probes[1].to: 'server' is not valid: one unicast IPv4 address inside the lab, e.g."
                                + " 198.51.100.10 (no host name, broadcast or multicast address)",
                        "lab.yml:9: probes[2].to: '10.0.0.256' is not an IPv4 address of a lab node: write one address, e.g."
                                + " 198.51.100.10 (no host name, no broadcast or multicast address)",
                        "lab.yml:10: probes[3].to: '010.0.0.2' is not valid: one unicast IPv4 address inside the lab, e.g."
                                + " 198.51.100.10 (no host name, broadcast or multicast address)");
        assertThat(problems(TWO_NODES + """
                probes:
                  - { name: a, from: client, to: 255.255.255.255 }
                  - { name: a, from: client, to: 224.0.0.1, every: 50ms }
                  - { name: "a;b", to: 10.0.0.2, every: 6s }
                  - { name: e, from: client, to: 10.0.0.2, every: often, count: 3 }
                """))
                .containsExactly(
                        "lab.yml:7: probes[0].to: '255.255.255.255' is not an IPv4 address of a lab node: write one address,"
                                + " e.g. 198.51.100.10 (no host name, no broadcast or multicast address)",
                        "lab.yml:8: probes[1].name: another probe is already named 'a'; give each its own name",
                        "lab.yml:8: probes[1].to: '224.0.0.1' is not an IPv4 address of a lab node: write one address,"
                                + " e.g. 198.51.100.10 (no host name, no broadcast or multicast address)",
                        "lab.yml:8: probes[1].every: '50ms' is not a probe interval: write a time from 100ms to 5s, e.g. 200ms"
                                + " or 1s",
                        "lab.yml:9: probes[2].name: 'a;b' is not valid: the plot's label, unique in the lab: 1-40 letters,"
                                + " digits, spaces and . _ : > -, e.g. 'client to server'",
                        "lab.yml:9: probes[2]: missing required key 'from' (the node the ping runs from (any node of"
                                + " topology.nodes, hidden ones too))",
                        "lab.yml:10: probes[3].every: 'often' is not valid: how often to ping: 100ms to 5s, written like 200ms,"
                                + " 1s or 0.5s",
                        "lab.yml:10: probes[3].count: unknown key 'count'; expected one of name, from, to, every");
        // A probe the schema refuses is not held to the rules until it fits: its 6s interval shows up once it does.
        assertThat(problems(TWO_NODES + """
                probes:
                  - { name: a, from: client, to: 10.0.0.2, every: 6s }
                """))
                .containsExactly("lab.yml:7: probes[0].every: '6s' is not a probe interval: write a time from"
                        + " 100ms to 5s, e.g. 200ms or 1s");
    }

    @Test
    void shouldBoundTheNumberOfProbes() {
        assertThat(problems(TWO_NODES + """
                probes:
                  - { name: a, from: client, to: 10.0.0.2 }
                  - { name: b, from: client, to: 10.0.0.2 }
                  - { name: c, from: client, to: 10.0.0.2 }
                  - { name: d, from: client, to: 10.0.0.2 }
                  - { name: e, from: client, to: 10.0.0.2 }
                """))
                .singleElement()
                .asString()
                .startsWith("lab.yml:7: probes: takes at most 4 items, found 5 (latency"
                        + " probes whose round trips the page plots live (at most 4)");
    }
}
