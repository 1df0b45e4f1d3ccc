package dev.tclab.lab;

import dev.tclab.client.Clients;
import dev.tclab.config.TclabConfig;
import dev.tclab.http.RetryAfter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Limits lab starts per client, so that one person cannot take every lab slot of the server by clearing cookies or
 * scripting the API: live labs per learner, live labs per client address, and a start rate per client address
 * (a token bucket). The client address is the connection's peer, or the forwarded one when Quarkus trusts the proxy
 * ({@code quarkus.http.proxy.*}); all IPv6 addresses of one /64 count as one client, as one host or home holds them.
 * Counts cover the live labs this quota admitted and those the server took from the lab registry (adopted after a
 * restart, or started through another replica: see {@link LabAdopted}), each against the client its record names.
 */
@ApplicationScoped
public class StartQuota {

    private final TclabConfig.Quota limits;
    private final InstantSource clock;
    /** Live labs counted, each against its learner and its {@link Lab#client()} (none: the learner only). */
    private final List<Lab> admitted = new ArrayList<>();
    /** Only clients whose bucket is not full: a full bucket is the same as none. */
    private final Map<String, TokenBucket> buckets = new HashMap<>();

    @Inject
    public StartQuota(TclabConfig config, InstantSource clock) {
        this(config.quota(), clock);
    }

    StartQuota(TclabConfig.Quota limits, InstantSource clock) {
        this.limits = limits;
        this.clock = clock;
    }

    /** The admission for a start from {@code clientAddress} (an IP address), for {@link LabService#startOrGet}. */
    public StartAdmission from(String clientAddress) {
        String client = Clients.of(clientAddress);
        return lab -> admit(client, lab);
    }

    /**
     * The admission for a lab that replaces {@code previous} (a host's reset): it counts against the client that
     * started the previous one, under the same rules; "unknown" when no quota counted it.
     */
    public StartAdmission replacing(Lab previous) {
        String client = previous.client() == null ? "unknown" : previous.client();
        return lab -> admit(client, lab);
    }

    /** Counts a live lab the server took from the registry, as if this quota had admitted it. */
    synchronized void onAdopted(@Observes LabAdopted event) {
        Lab lab = event.lab();
        if (lab.phase().live() && admitted.stream().noneMatch(a -> a.id().equals(lab.id()))) {
            admitted.add(lab);
        }
    }

    private synchronized void admit(String client, Lab lab) throws QuotaExceededException {
        Instant now = clock.instant();
        admitted.removeIf(a -> !a.phase().live());
        buckets.values().removeIf(b -> b.full(now));
        List<String> learnersLessons = admitted.stream()
                .filter(a -> a.owner().equals(lab.owner()))
                .map(Lab::lesson)
                .toList();
        if (learnersLessons.size() >= limits.liveLabsPerLearner()) {
            throw new QuotaExceededException(
                    "You already have " + learnersLessons.size() + " labs running ("
                            + String.join(", ", learnersLessons)
                            + "), the most one learner may have. Stop one you no longer "
                            + "need (Stop lab on its lesson page), then start this one again.",
                    null);
        }
        long fromClient =
                admitted.stream().filter(a -> client.equals(a.client())).count();
        if (fromClient >= limits.liveLabsPerAddress()) {
            throw new QuotaExceededException(
                    fromClient + " labs are already running from your network address, the "
                            + "most one address may have. Stop a lab you no longer need, then try again. (A classroom "
                            + "sharing one address: the host raises tclab.quota.live-labs-per-address.)",
                    null);
        }
        TokenBucket bucket = buckets.computeIfAbsent(
                client,
                c -> new TokenBucket(
                        Math.max(1, limits.startBurstPerAddress()), limits.startIntervalPerAddress(), now));
        Duration wait = bucket.take(now);
        if (!wait.isZero()) {
            long seconds = RetryAfter.seconds(wait);
            throw new QuotaExceededException(
                    "Too many labs were started from your network address in a short " + "time. Wait " + seconds
                            + " s, then try again.",
                    Duration.ofSeconds(seconds));
        }
        lab.admittedFrom(client);
        admitted.add(lab);
    }

    /** Starts allowed now and then: {@code capacity} at once, refilled by one every {@code interval}. */
    static final class TokenBucket {
        private final int capacity;
        private final Duration interval;
        private double tokens;
        private Instant last;

        TokenBucket(int capacity, Duration interval, Instant now) {
            this.capacity = capacity;
            this.interval = interval.isZero() || interval.isNegative() ? Duration.ofNanos(1) : interval;
            this.tokens = capacity;
            this.last = now;
        }

        /** Takes a token and returns zero, or returns how long until one is there. */
        Duration take(Instant now) {
            refill(now);
            if (tokens >= 1) {
                tokens -= 1;
                return Duration.ZERO;
            }
            return Duration.ofNanos((long) Math.ceil((1 - tokens) * interval.toNanos()));
        }

        boolean full(Instant now) {
            refill(now);
            return tokens >= capacity;
        }

        private void refill(Instant now) {
            if (now.isAfter(last)) {
                tokens = Math.min(
                        capacity, tokens + (double) Duration.between(last, now).toNanos() / interval.toNanos());
                last = now;
            }
        }
    }
}
