package dev.tclab.grading.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 43, rows 3 and 4: what proves a node's packets to an address leave by its lab links, on `ip` outputs. */
class RouteProofTest {

    private static final String DEFAULT_RULES =
            "--- rules\n0:\tfrom all lookup local\n32766:\tfrom all lookup main\n32767:\tfrom all lookup default\n";

    @Test
    void shouldAcceptARouteOutOfALabLinkWithTheKernelsOwnRules() {
        assertThat(RouteProof.refusal(
                        "client",
                        "198.51.100.10",
                        List.of("eth1"),
                        "198.51.100.10 via 10.0.0.1 dev eth1 src 10.0.0.2 uid 0 \n    cache \n" + DEFAULT_RULES))
                .isEmpty();
    }

    @Test
    void shouldRefuseALocalRouteAnotherDeviceAndNoRoute() {
        assertThat(RouteProof.refusal(
                        "client",
                        "198.51.100.10",
                        List.of("eth1"),
                        "local 198.51.100.10 dev lo table local src 198.51.100.10 uid 0 \n" + DEFAULT_RULES))
                .hasValueSatisfying(why -> assertThat(why)
                        .startsWith("node client has a local route for 198.51.100.10")
                        .contains("ip route del local 198.51.100.10 table local"));
        assertThat(RouteProof.refusal(
                        "client",
                        "10.0.0.2",
                        List.of("eth1"),
                        "10.0.0.2 dev veth9 src 10.9.0.1 uid 0 \n" + DEFAULT_RULES))
                .hasValueSatisfying(why ->
                        assertThat(why).contains("sends to 10.0.0.2 out of veth9, not out of its lab link eth1"));
        assertThat(RouteProof.refusal(
                        "client",
                        "10.0.0.2",
                        List.of("eth1"),
                        "RTNETLINK answers: Network is unreachable\n" + DEFAULT_RULES))
                .hasValueSatisfying(
                        why -> assertThat(why).contains("has no unicast route to 10.0.0.2", "Network is unreachable"));
        assertThat(RouteProof.refusal("client", "10.0.0.2", List.of("eth1"), ""))
                .hasValueSatisfying(why -> assertThat(why).contains("could not read node client's route"));
    }

    /** Row 4: TCP and UDP sent to main, so only the pings met the local route; ip route get alone sees main. */
    @Test
    void shouldRefuseAPolicyRuleOfTheLearnersOwn() {
        String rules = "--- rules\n0:\tfrom all lookup local\n100:\tfrom all ipproto tcp lookup main\n"
                + "32766:\tfrom all lookup main\n32767:\tfrom all lookup default\n";
        assertThat(RouteProof.refusal(
                        "client", "198.51.100.10", List.of("eth1"), "198.51.100.10 via 10.0.0.1 dev eth1 \n" + rules))
                .hasValueSatisfying(why -> assertThat(why)
                        .contains(
                                "a routing rule of its own (100: from all ipproto tcp lookup main)",
                                "ip rule del pref 100"));
    }
}
