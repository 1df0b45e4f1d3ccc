package dev.tclab.lab;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;
import java.util.Set;

/**
 * {@link FakeLabRuntime} with the limits a client meets: start quotas per address and per learner, and the shipped
 * limits on wrong join codes and passwords (the sign-in lock after 5 failures, so a test need not wait out 63 s of
 * delays). The app trusts 127.0.0.1 as a proxy, so each test plays clients of its own through X-Forwarded-For. One
 * profile for both kinds of limit, so that Quarkus starts once for their classes: they count different things
 * (labs started, wrong guesses), so neither class's requests reach the other's limits.
 */
public class ClientLimitsProfile implements QuarkusTestProfile {

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(FakeLabRuntime.class);
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.ofEntries(
                Map.entry("tclab.lab.max-running", "20"),
                Map.entry("tclab.quota.live-labs-per-address", "4"),
                Map.entry("tclab.quota.live-labs-per-learner", "2"),
                Map.entry("tclab.lab.one-per-learner", "false"),
                Map.entry("tclab.quota.start-burst-per-address", "5"),
                Map.entry("tclab.quota.start-interval-per-address", "1h"),
                Map.entry("tclab.guessing.join-failures-per-address", "10"),
                Map.entry("tclab.guessing.join-failures-total", "200"),
                Map.entry("tclab.guessing.sign-in-free-failures", "3"),
                Map.entry("tclab.guessing.sign-in-lock-after", "5"),
                Map.entry("quarkus.http.proxy.proxy-address-forwarding", "true"),
                Map.entry("quarkus.http.proxy.allow-x-forwarded", "true"),
                Map.entry("quarkus.http.proxy.trusted-proxies", "127.0.0.1"));
    }
}
