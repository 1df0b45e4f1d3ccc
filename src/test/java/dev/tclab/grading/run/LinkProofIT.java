package dev.tclab.grading.run;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.Labs;
import dev.tclab.learner.LearnerIds;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.testing.RunsAlone;
import dev.tclab.web.TestLabs;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 25, row 1, on the real engine: a measurement must cross the link it grades. A learner who moves the server's
 * address onto the client's lo (shaped there, the real link left unshaped) or onto another node fails the check with a
 * sentence saying so; the honest solution still passes.
 */
@QuarkusTest
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class LinkProofIT {

    @Inject
    LabRuntime runtime;

    private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(90);

    private String cookie;
    private String labId;

    @AfterEach
    void stopLab() {
        if (labId != null) {
            TestLabs.stop(labId, cookie);
        }
    }

    @Test
    void shouldFailTheShapeStepWhenTheServerAddressWasMovedOntoTheClientsLoopback() throws Exception {
        start("tbf-basics");
        // The probe's trick: the server gives 10.0.0.2 away, the client answers it on lo, shaped to 10mbit there,
        // while eth1 gets a tbf whose 200 MB burst never limits anything. This check passed before.
        inNode("server", "ip addr del 10.0.0.2/24 dev eth1 && ip addr add 10.0.0.3/24 dev eth1");
        inNode(
                "client",
                "ip addr add 10.0.0.2/32 dev lo && ip link set lo mtu 1500"
                        + " && tc qdisc replace dev lo root tbf rate 10mbit burst 32kb latency 100ms"
                        + " && tc qdisc replace dev eth1 root tbf rate 10mbit burst 200mb latency 100ms");
        Map<String, Object> run = check("shape");
        assertThat(run.get("state")).as(run.toString()).isEqualTo("failed");
        assertThat(run.toString()).contains("10.0.0.2 belongs to node server (lab.yml), but node client holds it now");

        // Undone, the honest shaper passes: the proof costs a correct lab nothing.
        inNode(
                "client",
                "ip addr del 10.0.0.2/32 dev lo; tc qdisc del dev lo root;"
                        + " tc qdisc replace dev eth1 root tbf rate 10mbit burst 32kb latency 100ms");
        inNode("server", "ip addr del 10.0.0.3/24 dev eth1 && ip addr add 10.0.0.2/24 dev eth1");
        Map<String, Object> honest = check("shape");
        assertThat(honest.get("state")).as(honest.toString()).isEqualTo("passed");
    }

    @Test
    void shouldFailWhenTheServerAddressWasMovedToAThirdNode() throws Exception {
        start("bufferbloat-upload");
        // The gw answers the server's address itself, so the flow never reaches the modem's line nor the server.
        inNode("server", "ip addr del 198.51.100.10/24 dev eth1");
        inNode("gw", "ip addr add 198.51.100.10/32 dev lo");
        Map<String, Object> run = check("feel-the-bloat");
        assertThat(run.get("state")).as(run.toString()).isIn("failed", "error");
        assertThat(run.toString()).contains("198.51.100.10 belongs to node server (lab.yml), but node gw holds it now");
    }

    /**
     * UDP: the client's own tbf drops half of what iperf3 offers, so the link carries less than was sent; the proof
     * counts what arrived, and the honest flow passes. Moved onto the client's lo, it fails as TCP does.
     */
    @Test
    void shouldPassAnHonestUdpFlowThroughATbfAndFailOneMovedOntoLo() throws Exception {
        start("udp-link");
        inNode("client", "tc qdisc replace dev eth1 root tbf rate 10mbit burst 32kb latency 100ms");
        Map<String, Object> honest = check("udp");
        assertThat(honest.get("state")).as(honest.toString()).isEqualTo("passed");

        inNode("server", "ip addr del 10.0.0.2/24 dev eth1 && ip addr add 10.0.0.3/24 dev eth1");
        inNode(
                "client",
                "ip addr add 10.0.0.2/32 dev lo && ip link set lo mtu 1500"
                        + " && tc qdisc replace dev lo root tbf rate 10mbit burst 32kb latency 100ms");
        Map<String, Object> run = check("udp");
        assertThat(run.get("state")).as(run.toString()).isEqualTo("failed");
        assertThat(run.toString()).contains("10.0.0.2 belongs to node server (lab.yml), but node client holds it now");
    }

    /**
     * Issue 43, row 3, on the host's kernel: on the client a {@code local} route for the server's address, the
     * learner's own iperf3 on port 5201 behind a 10mbit tbf on lo, and broadcast UDP padding eth1's tx counter past
     * what iperf3 reports. The flow and the ping never left the client, yet this check passed before: now the client's
     * route is read first, and the platform's server must have counted the flow. The honest shaper still passes.
     */
    @Test
    void shouldFailAFlowAndAPingThatALocalRouteKeptInTheClient() throws Exception {
        start("udp-link");
        inNode(
                "client",
                "ip route add local 10.0.0.2 dev lo table local && ip link set lo mtu 1500"
                        + " && tc qdisc replace dev lo root tbf rate 10mbit burst 32kb latency 100ms"
                        + " && iperf3 -s -D -p 5201"
                        + " && { for i in $(seq 60); do head -c 1000000 /dev/zero | nc -u -b -q 0 10.0.0.255 9;"
                        + " sleep 0.25; done >/dev/null 2>&1 & echo $! >/tmp/padding; }");
        Map<String, Object> run = check("tcp");
        assertThat(run.get("state")).as(run.toString()).isEqualTo("failed");
        assertThat(run.toString()).contains("Node client has a local route for 10.0.0.2");

        inNode(
                "client",
                "kill $(cat /tmp/padding); pkill -x nc; pkill -x iperf3; ip route del local 10.0.0.2 dev lo table local;"
                        + " tc qdisc del dev lo root; tc qdisc replace dev eth1 root tbf rate 10mbit burst 32kb latency 100ms");
        Map<String, Object> honest = check("tcp");
        assertThat(honest.get("state")).as(honest.toString()).isEqualTo("passed");
    }

    /**
     * Issue 43, row 4, in a lab with a kernel of its own: the gw's tbf keeps a 1 s queue (an honest check measures
     * about 400 ms under load), and on the client policy rules send only TCP and UDP to table main while a {@code
     * local} route answers everything else, the pings included: the loaded ping read 0.1 ms and the step passed.
     */
    @Test
    void shouldFailALoadedPingThatPolicyRulesAnsweredInTheClient() throws Exception {
        start("bufferbloat-upload");
        Map<String, Object> bloat = check("feel-the-bloat");
        assertThat(bloat.get("state")).as(bloat.toString()).isEqualTo("passed");
        inNode("gw", "tc qdisc replace dev eth2 root tbf rate 4500kbit burst 8kb latency 1s");
        inNode(
                "client",
                "ip route add local 198.51.100.10 dev lo table local"
                        + " && ip rule add pref 100 to 198.51.100.10 ipproto 6 lookup main"
                        + " && ip rule add pref 101 to 198.51.100.10 ipproto 17 lookup main"
                        + " && ip rule add pref 200 lookup local && ip rule del pref 0");
        Map<String, Object> run = check("shape-the-gw");
        assertThat(run.get("state")).as(run.toString()).isEqualTo("failed");
        assertThat(run.toString()).contains("Node client has a").contains("from the server node");
    }

    /**
     * Two flows to one server in a UML lab, through the app as a learner's Check runs (fair-queueing's first step):
     * the lab's kernel has no IPv6, so each platform server's report began with iperf3's warning, which failed the
     * TCP flow "heard from no client" on every Check in the app. The self-test missed it: its labs are not the app's,
     * so it reads no server report.
     */
    @Test
    void shouldPassAnHonestTwoFlowCheckInAUmlLab() throws Exception {
        start("fair-queueing");
        inNode(
                "router",
                "tc qdisc replace dev eth2 root handle 1: htb default 10"
                        + " && tc class replace dev eth2 parent 1: classid 1:10 htb rate 5mbit ceil 5mbit"
                        + " && tc qdisc replace dev eth2 parent 1:10 handle 10: pfifo limit 100");
        Map<String, Object> honest = check("fifo");
        assertThat(honest.toString()).doesNotContain("heard from no client");
        assertThat(honest.get("state")).as(honest.toString()).isEqualTo("passed");
    }

    private void start(String lesson) throws InterruptedException {
        cookie = Labs.newLearner();
        labId = TestLabs.startAndAwait(lesson, cookie, Duration.ofSeconds(90));
    }

    /**
     * Runs the learner's commands in a node through the app's runtime, as a terminal would: on the host's kernel or in
     * User-Mode Linux, wherever the lesson's lab runs (bufferbloat-upload asks for {@code kernel: auto}).
     */
    private void inNode(String node, String script) throws Exception {
        ExecResult result = runtime.exec(labId, node, List.of("sh", "-c", script), Duration.ofSeconds(30));
        assertThat(result.exitCode())
                .as(node + ": " + script + "\n" + result.stdout() + result.stderr())
                .isZero();
    }

    private Map<String, Object> check(String step) throws InterruptedException {
        String runId = given().cookie(LearnerIds.COOKIE, cookie)
                .contentType(ContentType.JSON)
                .post("/api/labs/" + labId + "/steps/" + step + "/check")
                .then()
                .statusCode(202)
                .extract()
                .path("id");
        long deadline = System.nanoTime() + CHECK_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Object> run = given().cookie(LearnerIds.COOKIE, cookie)
                    .get("/api/labs/" + labId + "/checks/" + runId)
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("$");
            if (Boolean.TRUE.equals(run.get("finished"))) {
                return run;
            }
            Thread.sleep(300);
        }
        throw new AssertionError("check of step " + step + " did not finish within " + CHECK_TIMEOUT);
    }
}
